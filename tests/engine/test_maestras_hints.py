"""Cartas Maestras hints in the main phase (issue 26): the computer players' strategy on the
player's own view, not simply the first legal move, and blind to everyone else's hand."""

from __future__ import annotations

import random

import engine
from engine.players.squadratik import GreedyPlayer, judge
from engine.solvers.hints import advice
from engine.squadratik.maestras import CartasMaestras


def _positions(seats: int, deals: range):
    """Main-phase positions with a choice, from random games."""
    for deal in deals:
        players = [f"p{k}" for k in range(seats)]
        game = engine.new_game("maestras", deal, players)
        rng = random.Random(deal)
        while not game.is_over and game.view(None)["phase"] == "main":
            legal = game.legal_moves(game.current_player)
            if len(legal) > 1:
                yield game
            game.play(rng.choice(legal), game.current_player)


def test_the_main_phase_hint_is_the_computer_players_choice_not_the_first_move():
    differs = positions = 0
    for game in _positions(4, range(6)):
        player = game.current_player
        legal = game.legal_moves(player)
        move = advice(game, player).move
        assert move in legal
        assert str(move) == str(GreedyPlayer().choose(game, player))
        differs += str(move) != str(legal[0])
        positions += 1
    # on main the hint was legal[0] in every position
    assert positions > 50 and differs / positions > 0.3


def test_a_move_that_completes_a_path_is_hinted_and_explained():
    found = 0
    for game in _positions(2, range(10)):
        player = game.current_player
        view = game.view(player)
        completing = [m for m in game.legal_moves(player) if judge(view, m).completes]
        if not completing:
            continue
        move = advice(game, player).move
        said = judge(view, move)
        assert said.completes and said.masters >= 1 and said.cards >= 4
        found += 1
    assert found >= 3


def _swap_hidden(game: CartasMaestras, player: str, seed: int) -> CartasMaestras:
    """The same position as ``player`` sees it: the other hands and the stock dealt anew from
    the same cards (each hand keeps its size)."""
    seat = game.players.index(player)
    others = [k for k in range(len(game.players)) if k != seat]
    hidden = [c for k in others for c in game.hands[k]] + list(game.stock)
    random.Random(seed).shuffle(hidden)
    hands = []
    for k in range(len(game.players)):
        if k == seat:
            hands.append(list(game.hands[k]))
        else:
            hands.append([hidden.pop() for _ in game.hands[k]])
    twin = CartasMaestras.from_position(
        game.players,
        game.board.copy(),
        hands,
        hidden[::-1],
        turn=seat,
        first_master_placed=game.first_master_placed,
        masters_won=list(game.masters_won),
        won=[list(w) for w in game.won],
    )
    return twin


def test_the_hint_never_looks_at_other_players_cards():
    checked = 0
    for game in _positions(4, range(3)):
        player = game.current_player
        for seed in range(2):
            twin = _swap_hidden(game, player, seed)
            # a built position has no history and no deal number
            history = ("move_number", "last_move", "last_move_cells", "deal")
            seen = {k: v for k, v in game.view(player).items() if k not in history}
            assert {k: v for k, v in twin.view(player).items() if k not in history} == seen
            if twin.hands == game.hands:  # late: too few hidden cards to deal differently
                continue
            assert str(advice(twin, player).move) == str(advice(game, player).move)
            checked += 1
    assert checked > 20
