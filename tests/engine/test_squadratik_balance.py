"""What ``engine.stats`` measures the Squadratik balance with: every deal's ending counted
once, the shares consistent with each other, on a few fixed deals.

The balance itself (hundreds of deals against the rules issue's targets) is a measurement of
the deck's design, not of the code's correctness: ``make bench`` reports it
(``bench/bench_balance.py``, with each target met or not).
"""

import pytest

from engine.squadratik.deck import MASTER_IDS
from engine.stats import el_solitario_stats, maestras_stats, solver_stats


@pytest.mark.slow
def test_every_el_solitario_ending_is_counted_once_and_careful_play_beats_random_play():
    careful = el_solitario_stats(12, "careful")
    random = el_solitario_stats(12, "random")
    for figures in (careful, random):
        assert figures["deals"] == 12
        assert figures["completo"] + figures["played_out"] + figures["lost"] == pytest.approx(1)
        assert figures["hand_emptied"] == pytest.approx(figures["completo"] + figures["played_out"])
        assert 0 <= figures["stuck_with_stock"] <= figures["lost"]
        assert figures["mean_moves"] > 0
    # on deals 0-11 the careful player empties its hand every time; random play mostly loses
    assert careful["hand_emptied"] == 1.0 and careful["stuck_with_stock"] == 0.0
    assert random["lost"] > 0.5 and random["hand_emptied"] < careful["hand_emptied"]


def test_the_solver_figures_share_out_every_deal():
    figures = solver_stats(3, 2_000)
    assert (figures["deals"], figures["nodes_per_deal"]) == (3, 2_000)
    shares = figures["completo"] + figures["best_played_out"] + figures["best_lost_or_none"]
    assert shares == pytest.approx(1)
    assert figures["completo"] > 0  # deals 0-2: the solver finds a completo in two of them


@pytest.mark.parametrize("seats", [2, 8])
def test_cartas_maestras_figures_count_every_master_and_stall(seats):
    figures = maestras_stats(6, "greedy", seats)
    won = sum(figures["masters_won_per_seat"])  # masters won per deal, all seats together
    assert len(figures["masters_won_per_seat"]) == seats
    assert 0 <= figures["stall_share"] <= 1
    # a deal that did not stall gave out every master; one that stalled fewer
    assert len(MASTER_IDS) * (1 - figures["stall_share"]) - 0.01 <= won <= len(MASTER_IDS) + 0.01
    assert 0 < figures["mean_main_phase_moves"] <= figures["mean_moves"]
