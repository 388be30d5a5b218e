"""The FreeCell solver: won lines replay to a win in the engine, 'lost' only when proven
(Microsoft's deal 11982), hints are moves of a winning line."""

from __future__ import annotations

import pytest

import engine
from engine.freecell import FreeCell
from engine.solvers import Budget, Position, decide, solve, solve_game
from engine.solvers.freecell import hint

SMALL = Budget(nodes=20_000, seconds=None)


def test_easy_deals_are_won_with_a_line_the_engine_replays_to_a_win():
    for deal in (1, 2, 3):
        result = solve("freecell", deal, budget=SMALL)
        assert result.status == "won" and result.outcome == "won", deal
        game = engine.replay("freecell", deal, None, None, result.moves)
        assert game.outcome == "won" and game.score == 52
        # depth first wanders; the line is shortened before it is shown
        assert len(result.moves) < 200


@pytest.mark.slow
def test_deal_11982_cannot_be_won_and_the_solver_proves_it():
    # every position reachable from the deal is visited: about 62,000 (3-4 s here)
    result = solve("freecell", 11982, budget=Budget(nodes=150_000, seconds=None))
    assert result.status == "lost" and result.moves == []


def test_a_position_with_no_way_out_is_lost_and_one_card_from_home_is_won():
    stuck = FreeCell.from_layout(
        ["Kd Qd", "Kh Qh", "Kc Qc", "Ks Qs", "Jd Td", "Jh Th", "Jc Tc", "Js Ts"],
        cells="5d 5h 5c 5s",
    )
    assert solve_game(stuck, SMALL).status == "lost"
    # a black king covers the red queen: it goes home by hand, the rest goes by itself
    almost = FreeCell.from_layout(["Qd Kc", "Ks"], cells="Kd", homes=[11, 13, 12, 12])
    result = solve_game(almost, SMALL)
    assert result.status == "won" and len(result.moves) == 1


def test_too_small_a_budget_says_unknown_never_lost():
    assert solve("freecell", 11982, budget=Budget(nodes=500, seconds=None)).status == "unknown"


def test_could_it_have_been_won_from_where_the_player_stopped():
    game = engine.new_game("freecell", 2)
    for text in ("1a", "2b"):
        game.play(text)
    verdict = decide(Position("freecell", 2, None, game.moves), SMALL)
    assert verdict.result == "won"
    finished = engine.replay("freecell", 2, None, None, [*game.moves, *verdict.line])
    assert finished.outcome == "won"


def test_a_hint_is_the_first_move_of_a_winning_line():
    game = engine.new_game("freecell", 3)
    move = hint(game, nodes=20_000)
    assert move is not None and move in game.legal_moves()
    game.play(move)
    assert solve_game(game, SMALL).status == "won"
    assert hint(FreeCell.from_layout(["Kd Qd", "Kh Qh", "Kc Qc", "Ks Qs", "Jd Td", "Jh Th",
                                       "Jc Tc", "Js Ts"], cells="5d 5h 5c 5s")) is None  # fmt: skip
