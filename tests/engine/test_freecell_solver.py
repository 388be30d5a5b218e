"""The FreeCell solver: won lines replay to a win in the engine, 'lost' only when proven
(Microsoft's deal 11982, within the usual 2 s), hints are moves of a winning line, and the
search in C answers exactly as the Python one.

``make test`` installs the project with a C compiler at hand, so the compiled module must be
there; the Python path is checked by switching the C one off (``TAVOLO_PURE_PYTHON=1``).
"""

from __future__ import annotations

import pytest
from pile_helpers import choose_path

import engine
from engine.freecell import FreeCell
from engine.solvers import Budget, Position, decide, freecell, solve, solve_game
from engine.solvers.freecell import hint

#: the budget of a daily's check and of "could it have been won?"
USUAL = Budget(seconds=2)

SMALL = Budget(nodes=20_000, seconds=None)


def test_easy_deals_are_won_with_a_line_the_engine_replays_to_a_win():
    for deal in (1, 2, 3):
        result = solve("freecell", deal, budget=SMALL)
        assert result.status == "won" and result.outcome == "won", deal
        game = engine.replay("freecell", deal, None, None, result.moves)
        assert game.outcome == "won" and game.score == 52
        # depth first wanders; the line is shortened before it is shown
        assert len(result.moves) < 200


def test_deal_11982_cannot_be_won_and_the_solver_proves_it_within_the_usual_2_seconds():
    # every position reachable from the deal is visited: 61,643 (0.15-0.2 CPU s in C)
    result = solve("freecell", 11982, budget=USUAL)
    assert result.status == "lost" and result.moves == []
    assert result.nodes == 61_643 and result.seconds < 2
    for deal in (617, 31465):  # ordinary deals, among the hardest of the first 32,000 to win
        won = solve("freecell", deal, budget=USUAL)
        assert won.status == "won", deal
        assert engine.replay("freecell", deal, None, None, won.moves).outcome == "won"


def test_the_compiled_search_was_built_and_is_used(monkeypatch):
    assert freecell._freecell is not None, "engine/solvers/_freecell.c did not build"
    choose_path(monkeypatch, True)
    assert freecell.compiled()
    choose_path(monkeypatch, False)
    assert not freecell.compiled()


@pytest.mark.parametrize("deal", [1, 5, 20000])
def test_the_search_in_c_finds_the_same_line_in_the_same_nodes_as_in_python(monkeypatch, deal):
    found = {}
    for in_c in (True, False):
        choose_path(monkeypatch, in_c)
        result = solve("freecell", deal, budget=Budget(nodes=20_000, seconds=None))
        found[in_c] = (result.status, result.moves, result.nodes)
    assert found[True] == found[False]
    assert found[True][0] == "won"


def test_a_long_search_holds_under_half_its_former_memory_and_gives_it_all_back(monkeypatch):
    # deal 588 is won within "could it have been won?"'s 150,000 nodes, after storing 732,000
    # positions: with its seen set keeping whole 64-byte keys its tables reached 276 MB (246 MB
    # resident; up to 313 MB of RSS in a flood of games); now 108 MB, 84 of them the nodes'
    choose_path(monkeypatch, True)
    assert freecell.table_bytes(reset=True)[0] == 0  # no search running
    found = solve("freecell", 588, budget=Budget(nodes=150_000, seconds=None))
    assert found.status == "won"
    held, most = freecell.table_bytes(reset=True)
    assert held == 0  # given back before the answer returned
    assert 32 * 2**20 < most <= 128 * 2**20


def test_both_searches_stop_at_the_same_node_budget_and_agree_on_small_positions(monkeypatch):
    stuck = ["Kd Qd", "Kh Qh", "Kc Qc", "Ks Qs", "Jd Td", "Jh Th", "Jc Tc", "Js Ts"]
    for in_c in (True, False):
        choose_path(monkeypatch, in_c)
        cut = solve("freecell", 11982, budget=Budget(nodes=3_000, seconds=None))
        assert (cut.status, cut.nodes) == ("unknown", 3_000), in_c
        lost = solve_game(FreeCell.from_layout(stuck, cells="5d 5h 5c 5s"), SMALL)
        assert lost.status == "lost", in_c
        almost = FreeCell.from_layout(["Qd Kc", "Ks"], cells="Kd", homes=[11, 13, 12, 12])
        assert solve_game(almost, SMALL).moves == ["1h"], in_c


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
    assert (
        hint(
            FreeCell.from_layout(
                ["Kd Qd", "Kh Qh", "Kc Qc", "Ks Qs", "Jd Td", "Jh Th", "Jc Tc", "Js Ts"],
                cells="5d 5h 5c 5s",
            )
        )
        is None
    )
