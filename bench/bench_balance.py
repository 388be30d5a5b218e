"""The Squadratik deck's balance and the El Solitario solver's reach, measured on the fixed
deal ranges that the rules issue states its targets on (``docs/squadratik-deck.md``).

These are measurements of the deck's design (minutes of play), so they live here, not in the
test suite; the tests keep the correctness of ``engine.stats`` itself. ``targets`` says, per
target, whether the measured figure meets it, and ``all_targets_met`` whether all do
(measured when the targets were set: careful stuck 0.3 %, hand emptied 99 %, completo 4.7 %;
random lost 75 %; Cartas Maestras stalls 6 / 8.5 / 4 % at 2 / 4 / 8 seats).
"""

from __future__ import annotations

from typing import Any

from engine.stats import el_solitario_stats, maestras_stats, solver_stats

#: El Solitario deals (0..N-1) per strategy, and Cartas Maestras deals per seat count
SOLITARIO_DEALS = 300
MAESTRAS_DEALS = 200
MAESTRAS_SEATS = (2, 4, 8)
#: the solver's deals and node budget per deal
SOLVER_DEALS = 20
SOLVER_NODES = 5_000


def run() -> dict[str, Any]:
    careful = el_solitario_stats(SOLITARIO_DEALS, "careful")
    random = el_solitario_stats(SOLITARIO_DEALS, "random")
    solver = solver_stats(SOLVER_DEALS, SOLVER_NODES)
    maestras = {seats: maestras_stats(MAESTRAS_DEALS, "greedy", seats) for seats in MAESTRAS_SEATS}
    targets = {
        "careful: stuck with cards in the stock in at most 10 % of deals": careful[
            "stuck_with_stock"
        ]
        <= 0.10,
        "careful: hand emptied in at least 60 % of deals": careful["hand_emptied"] >= 0.60,
        "careful: a completo in 2-10 % of deals": 0.02 <= careful["completo"] <= 0.10,
        "random play: lost in at least 60 % of deals, never a completo": random["lost"] >= 0.6
        and random["completo"] == 0.0,
        "solver: a completo in at least 20 % of deals on 5,000 nodes": solver["completo"] >= 0.2,
    }
    for seats, figures in maestras.items():
        targets[f"Cartas Maestras, {seats} seats: stalls in under 10 % of deals"] = (
            figures["stall_share"] < 0.10
        )
        targets[f"Cartas Maestras, {seats} seats: 25-60 main-phase moves on average"] = (
            25 <= figures["mean_main_phase_moves"] <= 60
        )
    return {
        "el_solitario": {"careful": careful, "random": random},
        "solver": solver,
        "cartas_maestras": {str(seats): figures for seats, figures in maestras.items()},
        "targets": targets,
        "all_targets_met": all(targets.values()),
    }
