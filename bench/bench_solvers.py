"""Solver strength and speed: the first ``SAMPLE`` deals of each game, each with a budget of
``SECONDS`` CPU seconds (``time.process_time``), as issue 18's targets are stated.

Per game: the sample size, the shares won, lost (proven: the search was exhausted) and
unknown (budget spent), the decided share (won + lost), and the mean and p95 CPU seconds
per deal (search and the engine's check of a winning line). ``python -m engine.solve`` runs
the same measure on any range of deals. El Solitario (squadratik) keeps its fixed cases with
a node budget: its search is an optimisation, not a yes/no.

>>> result = run(sample=2)  # doctest: +SKIP
>>> sorted(result)  # doctest: +SKIP
['canfield', 'imaginary13', 'sample', 'seconds_budget', 'solitario', 'solitario52', 'squadratik']
"""

from __future__ import annotations

from typing import Any

from engine.solve import summarise
from engine.solvers import Budget, solve

#: (label, game id, options)
GAMES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("solitario", "solitario", {}),
    ("solitario52", "solitario", {"cards": 52}),
    ("canfield", "canfield", {}),
    ("imaginary13", "imaginary13", {}),
)
SAMPLE = 30
SECONDS = 2.0
#: El Solitario's fixed deals and node budget
SQUADRATIK_DEALS = (1, 5, 9)
SQUADRATIK_NODES = 3000


def run(sample: int = SAMPLE, seconds: float = SECONDS) -> dict[str, Any]:
    """Solve deals 1..``sample`` of every game; see the module docstring."""
    report: dict[str, Any] = {"sample": sample, "seconds_budget": seconds}
    for label, game_id, options in GAMES:
        results = [solve(game_id, deal, options, Budget(seconds=seconds)) for deal in range(1, sample + 1)]
        summary = summarise(results)
        report[label] = {
            "deals": summary["deals"],
            "shares": summary["shares"],
            "decided": summary["decided"],
            "mean_seconds": summary["seconds"]["mean"],
            "p95_seconds": summary["seconds"]["p95"],
        }
    rows = [solve("squadratik", deal, None, Budget(nodes=SQUADRATIK_NODES, seconds=None)) for deal in SQUADRATIK_DEALS]
    searched = sum(r.seconds for r in rows)
    report["squadratik"] = {
        "nodes_per_deal": SQUADRATIK_NODES,
        "deals": {str(r.deal): {"status": r.status, "best": r.best, "nodes": r.nodes, "seconds": r.seconds} for r in rows},
        "nodes_per_second": round(sum(r.nodes for r in rows) / searched) if searched else None,
    }
    return report
