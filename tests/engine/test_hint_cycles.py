"""Hints never go round in circles, in any game (issue 35, finding 6): in FreeCell deal 11982
the hints were ``54``, ``61``, ``78``, ``1a``, ``a1``, ``1a``, ``a1``... for ever, and never said
the deal cannot be won.

Following the hints, a position the game has been in never comes back, and the game ends or
the hint says that no move helps."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pile_helpers import choose_path

import engine
from engine.solvers import Budget, Counter
from engine.solvers import freecell as freecell_solver
from engine.solvers.hints import advice

#: every game with hints
HINTED = sorted(g for g, cls in engine.GAMES.items() if cls.info.hints)
#: view fields that tell how the game got here, not where it is
NOT_POSITION = {
    "last_move",
    "last_move_piles",
    "last_move_cells",
    "move_number",
    "score_move",
    "auto_home",
    "max_run",
    "stalled",
    "viewer",
}
#: hints followed before a game must have ended or said that no move helps
MOST_HINTS = 600


def _position(game: engine.Game) -> str:
    """Everything the view shows of where the game is (nothing hidden is compared)."""
    view = game.view(None)
    return json.dumps({k: v for k, v in view.items() if k not in NOT_POSITION}, sort_keys=True)


def _follow(game: engine.Game) -> tuple[str, list[str]]:
    """Play the hints until the game ends or one says that no move helps; asserts on the way
    that no position comes back. Returns how it ended and the moves."""
    seen = {_position(game)}
    for _ in range(MOST_HINTS):
        if game.is_over:
            return "over", game.moves
        said = advice(game, game.current_player)
        if said.stuck:
            assert said.move is None
            return "stuck", game.moves
        assert said.move in game.legal_moves(game.current_player), game.moves
        game.play(said.move, game.current_player)
        position = _position(game)
        assert position not in seen, f"back to an earlier position after {game.moves[-6:]}"
        seen.add(position)
    raise AssertionError(f"still hinting after {MOST_HINTS} moves: {game.moves[-12:]}")


def _new(game_id: str, deal: int, option: int) -> engine.Game:
    cls = engine.GAMES[game_id]
    options = {name: values[option % len(values)] for name, values in cls.option_choices.items()}
    players = [f"p{n}" for n in range(cls.min_players + option % 2)][: cls.max_players]
    return engine.new_game(game_id, deal, players=players, options=options)


@pytest.mark.parametrize("game_id", HINTED)
@settings(max_examples=6)  # whole games (FreeCell's hints are searches): seconds in all
@given(
    deal=st.integers(min_value=1, max_value=32_000),
    option=st.integers(0, 3),
    own=st.lists(st.integers(0, 50), max_size=4),
)
def test_following_the_hints_never_returns_to_a_position_and_ends(
    game_id: str, deal: int, option: int, own: list[int]
) -> None:
    game = _new(game_id, deal, option)
    for pick in own:  # a few moves of the player's own first: the hints never undo them
        moves = game.legal_moves(game.current_player)
        if game.is_over or not moves:
            break
        game.play(moves[pick % len(moves)], game.current_player)
    _follow(game)


@settings(max_examples=4)
@given(deal=st.integers(min_value=1, max_value=32_000))
def test_freecell_hints_out_of_search_budget_never_go_back_either(deal: int) -> None:
    # a tiny budget: the solver rarely finds a line, the one-move scorer decides
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(freecell_solver, "HINT_NODES", 200)
        how, moves = _follow(engine.new_game("freecell", deal))
    assert how in ("over", "stuck"), moves


@pytest.fixture
def monkeypatch_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freecell_solver, "HINT_NODES", 200)


def test_freecell_deal_11982_says_it_cannot_be_won_instead_of_going_round():
    game = engine.new_game("freecell", 11982)
    for move in ("54", "61", "78", "1a"):  # the hints main gave, then "a1", "1a", "a1"...
        game.play(move)
    said = advice(game)
    assert said.move is None and said.stuck and said.lost
    # from the deal's start too: the solver proves it within the hint's budget
    assert advice(engine.new_game("freecell", 11982)).lost


def test_freecell_11982_out_of_budget_ends_by_saying_no_move_helps(monkeypatch_budget: None):
    game = engine.new_game("freecell", 11982)
    how, moves = _follow(game)
    assert how == "stuck", moves  # _follow saw no position twice on the way


@pytest.mark.parametrize("deal", [3, 5])
def test_the_search_in_c_avoids_the_same_positions_as_in_python(
    monkeypatch: pytest.MonkeyPatch, deal: int
):
    game = engine.new_game("freecell", deal)
    budget = Budget(nodes=20_000, seconds=None)
    alone = freecell_solver.search(game, Counter(budget))
    # avoid where the line found alone goes first: another line is found, the same in both
    game.play(alone.moves[0])
    avoid = [freecell_solver.encode(game)]
    game.undo()
    found = {}
    for in_c in (True, False):
        choose_path(monkeypatch, in_c)
        counter = Counter(budget)
        outcome = freecell_solver.search(game, counter, avoid)
        found[in_c] = (outcome.status, outcome.moves, counter.nodes)
    assert found[True] == found[False]
    status, line, _ = found[True]
    assert status == "won" and line[0] != alone.moves[0]
    for text in line:  # it never passes through the position avoided
        game.play(text)
        assert freecell_solver.encode(game) != avoid[0]
    assert game.outcome == "won"
