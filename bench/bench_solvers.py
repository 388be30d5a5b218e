"""Solver speed: a handful of fixed deals per game, each with a fixed node budget.

Reports, per game, the status of each deal, nodes searched, search seconds and nodes per
second. The seconds are the search only; ``bench_seconds`` (added by ``python -m bench``)
also holds the replay verification of each winning line, mostly the engine's stall checks.

>>> result = run(nodes=200)  # doctest: +SKIP
>>> sorted(result)  # doctest: +SKIP
['canfield', 'imaginary13', 'solitario', 'solitario52', 'squadratik']
"""

from __future__ import annotations

from typing import Any

from engine.solvers import Budget, solve

#: (label, game id, options, deals): deals known to be quick wins, losses and hard cases
CASES: tuple[tuple[str, str, dict[str, Any], tuple[int, ...]], ...] = (
    ("solitario", "solitario", {}, (1, 2, 3, 29)),
    ("solitario52", "solitario", {"cards": 52}, (1, 5)),
    ("canfield", "canfield", {}, (1, 13, 29, 30)),
    ("imaginary13", "imaginary13", {}, (1, 2, 25, 37)),
    ("squadratik", "squadratik", {}, (1, 5, 9)),
)
NODES = 3000


def run(nodes: int = NODES) -> dict[str, Any]:
    """Solve every case with ``nodes`` positions per deal (no time limit)."""
    report: dict[str, Any] = {"nodes_per_deal": nodes}
    for label, game_id, options, deals in CASES:
        rows = [solve(game_id, deal, options, Budget(nodes=nodes, seconds=None)) for deal in deals]
        seconds = sum(r.seconds for r in rows)
        searched = sum(r.nodes for r in rows)
        report[label] = {
            "deals": {str(r.deal): {"status": r.status, "best": r.best, "nodes": r.nodes, "seconds": r.seconds} for r in rows},
            "seconds": round(seconds, 3),
            "nodes_per_second": round(searched / seconds) if seconds else None,
        }
    return report
