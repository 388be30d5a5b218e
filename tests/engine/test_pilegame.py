"""The pile-game base (``engine.pilegame.PileGame``, issue 38): every game laid out in piles is
built on it, so each writes only its rules, and what the base does for them holds for each:
a move taken back leaves the board as it was, a copy plays on its own, the legal moves listed
are always the position's own (never an earlier position's), and a game replayed from its
stored moves is the game that was played."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.game import Game
from engine.pilegame import PileGame

#: every game, with the options that change its piles (each pile game's choices, one by one)
SETUPS = [
    (game_id, {name: value})
    for game_id, cls in engine.GAMES.items()
    for name, values in (cls.option_choices or {"": ("",)}).items()
    for value in values
]


def a_game(game_id: str, options: dict, deal: int = 1) -> Game:
    cls = engine.GAMES[game_id]
    players = [f"p{i}" for i in range(cls.min_players)]
    return engine.new_game(game_id, deal, players, {k: v for k, v in options.items() if k})


def board(game: Game) -> tuple:
    """What a player sees of ``game``: its view, its legal moves and its text board."""
    return game.view(None), [str(move) for move in game.legal_moves()], str(game)


@pytest.mark.parametrize("game_id", list(engine.GAMES))
def test_every_game_laid_out_in_piles_is_a_pile_game(game_id: str) -> None:
    game = a_game(game_id, {})
    assert ("piles" in game.view(None)) == isinstance(game, PileGame)


PILE_SETUPS = [(g, o) for g, o in SETUPS if isinstance(a_game(g, o), PileGame)]


def test_the_four_pile_games_are_the_ones_checked() -> None:
    assert {g for g, _ in PILE_SETUPS} == {"solitario", "canfield", "freecell", "imaginary13"}


@pytest.mark.parametrize(("game_id", "options"), PILE_SETUPS)
@settings(max_examples=15, deadline=None)
@given(deal=st.integers(1, 5000), picks=st.lists(st.integers(0, 1000), max_size=30))
def test_undo_copies_listing_and_replay_agree(
    game_id: str, options: dict, deal: int, picks: list[int]
) -> None:
    game = a_game(game_id, options, deal)
    assert isinstance(game, PileGame)
    for pick in picks:
        legal = game.legal_moves()
        if not legal:
            break
        before = board(game)
        twin = copy.deepcopy(game)
        move = legal[pick % len(legal)]
        game.play(move)
        if not game.is_over:  # listed for this position, not kept from the one before
            assert [str(m) for m in game.legal_moves()] == [str(m) for m in game._generate()]
        assert board(twin) == before  # the copy did not move with the game
        twin.play(str(move))  # ... and plays the same move, from its notation, the same way
        assert board(twin) == board(game)
        assert game.undo() == str(move)
        assert board(game) == before
        game.play(move)
    stored = engine.replay(game_id, deal, game.players, game.options, game.moves)
    assert board(stored) == board(game)
