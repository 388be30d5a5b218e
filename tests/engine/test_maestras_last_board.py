"""Once Cartas Maestras is over its view keeps the table's last board: the board as the main
phase left it, the path whose winning ended it still on it (on main the view held the central
card alone, so the last picture of a game showed nothing of how it ended)."""

from __future__ import annotations

import random

import engine
from engine.squadratik.deck import DECK, Kind


def _played_out(deal: int, players: list[str]):
    game = engine.new_game("maestras", deal, players)
    rng = random.Random(deal)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_the_last_board_shows_the_path_that_won_the_last_master():
    found = 0
    for deal in range(12):
        game = _played_out(deal, ["ana", "bob", "cy"])
        view = game.view(None)
        last = view["last_board"]
        assert last is not None and view["board"] == [c for c in view["board"] if not c["path"]]
        if not last["won_cells"]:
            assert last["won_by"] is None  # the stock ran out and everyone passed
            continue
        found += 1
        cards = {(c["x"], c["y"]): c["card"] for c in last["board"]}
        won = [cards[tuple(cell)] for cell in last["won_cells"]]
        assert any(DECK[card["id"]].kind is Kind.MASTER for card in won)
        assert last["won_by"] in game.players
        # the public view, every seat's view: the same board, nobody's hand on it
        assert game.view("ana")["last_board"] == last
    assert found


def test_undoing_the_last_move_takes_the_last_board_away_and_replaying_restores_it():
    game = _played_out(3, ["ana", "bob"])
    ended = game.view(None)["last_board"]
    last_move = game.view(None)["last_move"]
    game.undo()
    assert game.view(None)["last_board"] is None
    game.play(last_move)
    assert game.view(None)["last_board"] == ended


def test_a_game_under_way_has_no_last_board():
    game = engine.new_game("maestras", 1, ["ana", "bob"])
    assert game.view(None)["last_board"] is None
