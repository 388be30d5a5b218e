"""Solvers: winning lines replay to wins, known positions get known answers, budgets hold.

Deals pinned here were picked by running the solvers once (see ``python -m engine.solve``);
budgets are small so the file stays fast.
"""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.canfield import Canfield
from engine.imaginary13 import MARKERS, Imaginary13, build_sequence
from engine.solitario import Solitario
from engine.solve import main as solve_main
from engine.solve import parse_deals, percentile
from engine.solvers import LOST, SOLVABLE, UNKNOWN, WON, Budget, solve, solve_game
from engine.squadratik.board import Board
from engine.squadratik.el_solitario import ElSolitario

SMALL = Budget(nodes=20_000, seconds=20)


def assert_line_wins(game_id, deal, options, result, outcome=WON):
    assert result.status == WON and result.moves
    replayed = engine.replay(game_id, deal, None, options, result.moves)
    assert replayed.outcome == outcome
    assert replayed.moves == result.moves


@pytest.mark.parametrize(
    ("game_id", "deal", "options"),
    [
        ("solitario", 1, None),
        ("solitario", 29, None),
        ("canfield", 29, None),
        ("canfield", 30, None),
        ("imaginary13", 37, None),
        ("imaginary13", 25, None),
        ("imaginary13", 31, None),
        ("imaginary13", 13, {"free": True}),
    ],
)
def test_winning_lines_replay_to_a_win(game_id, deal, options):
    result = solve(game_id, deal, options, SMALL)
    assert_line_wins(game_id, deal, options, result)
    assert result.outcome == "won" and result.nodes > 0


def test_classic_klondike_deal_is_won_and_verified_by_replay():
    # One 52-card deal only: solve() itself rebuilds the deal with engine.replay and raises
    # on a false win, and replaying a long 52-card line costs seconds of stall checks.
    result = solve("solitario", 2, {"cards": 52}, SMALL)
    assert result.status == WON and result.outcome == "won" and len(result.moves) > 52


@pytest.mark.parametrize("deal", [2, 9])
def test_el_solitario_completo_lines_replay_to_completo(deal):
    result = solve("squadratik", deal, None, SMALL)
    assert_line_wins("squadratik", deal, None, result, outcome="completo")
    assert result.best == "completo"


def test_stock_turns_are_written_as_real_moves():
    # The search turns the stock in macro steps; the line must still be the engine's moves.
    result = solve("solitario", 1, None, SMALL)
    assert "d" in result.moves
    game = engine.new_game("solitario", 1)
    for text in result.moves:
        assert text in [str(m) for m in game.legal_moves()]
        game.play(text)


# ----- hand-built positions with known answers ----------------------------------------------
def test_nearly_finished_solitario_is_won_in_a_few_moves():
    full = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
    foundations = [" ".join(rank + suit for rank in full) for suit in "dhcs"]
    foundations[0] = " ".join(rank + "d" for rank in full[:-1])  # the Re of denari is out
    game = Solitario.from_layout(["Kd"], foundations=foundations)
    result = solve_game(game, Budget(nodes=100))
    assert result.status == WON and result.moves == ["1f1"]
    assert game.moves == [] and game.outcome is None  # the position is left as it was


def test_nearly_finished_canfield_needs_the_stock_turned():
    rest = {s: [c for c in "A23456789TJQK"] for s in "dhcs"}
    foundations = [" ".join(f"{r}{s}" for r in rest[s]) for s in "dhcs"]
    foundations[0] = " ".join(f"{r}d" for r in "A23456789TJQ")  # Kd still out
    game = Canfield.from_layout([], base_rank=1, stock="Kd", foundations=foundations)
    result = solve_game(game, Budget(nodes=100))
    assert result.status == WON and result.moves == ["d", "wf1"]


@pytest.mark.parametrize(
    ("game_id", "deal"), [("solitario", 3), ("solitario", 25), ("canfield", 9)]
)
def test_deals_with_a_buried_key_card_are_lost(game_id, deal):
    # Found by the solver; e.g. Solitario 3: after Ad goes home only the waste cycles, and
    # the 5s the tableau needs stays under 2h 2c, which can never move.
    result = solve(game_id, deal, None, Budget(nodes=200_000, seconds=60))
    assert result.status == LOST and result.moves == [] and result.outcome is None


def test_a_solitario_position_with_nothing_to_do_is_lost():
    game = Solitario.from_layout(["Qs | 2d", "Kh"], stock="3c")
    assert solve_game(game, Budget(nodes=1000)).status == LOST


def test_el_solitario_without_a_completo_reports_its_best_line():
    # Cards that never link: a completo is impossible, the best line keeps cards on the table.
    # 20: R1 0 R1 R3, 25: B1 B3 R1 B4, 18: 0 R3 B1 B1, 37: R3 R3 0 B3
    game = ElSolitario.from_position(Board(), hand=[20, 25], stock=[])
    result = solve_game(game, Budget(nodes=10_000))
    assert result.status == LOST
    assert result.best == "played_out" and len(result.moves) == 2


def end_foundations() -> list[str]:
    """Foundation 1 ten cards high up to a J (needs Q, K), foundation 2 eleven high up to a J
    (needs K), the other six finished (12 cards up to a K). Suits do not matter: all clubs."""
    heights = [10, 11, 12, 12, 12, 12, 12, 12]
    return [
        " ".join("A23456789TJQK"[value - 1] + "c" for value in build_sequence(marker)[:height])
        for marker, height in zip(MARKERS, heights, strict=True)
    ]


def test_imaginary13_with_a_card_buried_under_its_successor_is_lost():
    # Hand-made end position: foundation 1 needs Q then K, foundation 2 needs K, the other six
    # are finished, the stock is spent and waste a holds Q under K under K. One K can go to
    # foundation 2; the other then covers the Q for ever. Real deals are too big to exhaust.
    game = Imaginary13.from_layout(end_foundations(), wastes=["Qd Kd Kc"])
    assert game.outcome is None and [str(m) for m in game.legal_moves()] == ["a2"]
    result = solve_game(game, Budget(nodes=1000))
    assert result.status == LOST


def test_imaginary13_rescue_by_a_waste_move_while_a_card_is_turned():
    # Same kind of end, but the turned K may wait while waste a's K goes home, freeing the Q.
    game = Imaginary13.from_layout(end_foundations(), wastes=["Qd Kd"], stock="Kc")
    result = solve_game(game, Budget(nodes=1000))
    assert result.status == WON and result.moves[0] == "a2"


# ----- budgets ------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", SOLVABLE)  # every game with a solver
def test_a_tiny_node_budget_ends_unknown(game_id):
    result = solve(game_id, 2, None, Budget(nodes=5, seconds=None))
    assert result.status == UNKNOWN and result.nodes <= 5
    assert result.outcome in (None, "lost", "played_out")


def test_a_time_budget_stops_the_search():
    result = solve("solitario", 50, {"cards": 52}, Budget(nodes=None, seconds=0.2))  # a hard deal
    assert result.status == UNKNOWN
    assert 0.2 <= result.seconds < 1.0


@given(st.integers(min_value=1, max_value=10_000))
def test_any_claimed_win_is_verified(deal):
    # solve() replays every line itself and fails loudly on a false win; here we replay again.
    result = solve("imaginary13", deal, None, Budget(nodes=3000, seconds=None))
    if result.status == WON:
        assert_line_wins("imaginary13", deal, None, result)
    else:
        assert result.moves == []


# ----- the command --------------------------------------------------------------------------
def test_command_prints_counts_shares_and_times(capsys):
    solve_main(["solitario", "--deals", "1-3", "--nodes", "3000", "--budget", "20"])
    report = json.loads(capsys.readouterr().out)
    assert report["won"] + report["lost"] + report["unknown"] == 3
    assert report["lost"] >= 1  # deal 3
    assert report["shares"]["won"] == pytest.approx(report["won"] / 3, abs=1e-3)
    assert 0 <= report["seconds"]["p50"] <= report["seconds"]["p95"] <= report["seconds"]["max"]
    assert report["decided"] == pytest.approx((report["won"] + report["lost"]) / 3, abs=1e-3)
    assert 0 <= report["seconds"]["mean"] <= report["seconds"]["max"]


def test_command_passes_options_and_counts_squadratik_results(capsys):
    solve_main(["squadratik", "--deals", "0-0", "--nodes", "5000"])
    report = json.loads(capsys.readouterr().out)
    assert report["best"]["completo"] == 1 and report["won"] == 1
    solve_main(["imaginary13", "--deals", "13-13", "--nodes", "20000", "--option", "free=true"])
    report = json.loads(capsys.readouterr().out)
    assert report["options"] == {"free": "true"} and report["won"] == 1


def test_deal_ranges_and_percentiles():
    assert list(parse_deals("4-6")) == [4, 5, 6]
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile([], 0.95) == 0.0
