"""``python -m engine.solve GAME --deals A-B [--budget S] [--nodes N] [--option key=value ...]``

Solves every deal from A to B (inclusive) of GAME with the solvers of ``engine.solvers`` and
prints one JSON object: the counts and shares of deals won, lost ("no win": the search was
exhausted) and unknown (the budget ran out), the decided share (won + lost), and the solve
time per deal (mean, p50, p95, max: CPU seconds, ``time.process_time``, search and the check
of a winning line). For ``squadratik`` it also counts the best result per deal (completo, played_out,
lost, unknown). ``--budget`` is CPU seconds per deal, ``--nodes`` positions per deal.

>>> summarise([]) ["deals"]
0
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import engine
from engine.solvers import LOST, SOLVABLE, UNKNOWN, WON, Budget, SolveResult, solve

STATUSES = (WON, LOST, UNKNOWN)


def parse_deals(text: str) -> range:
    """``"1-1000"`` or ``"7"`` as a range of deal numbers.

    >>> parse_deals("3-5"), parse_deals("9")
    (range(3, 6), range(9, 10))
    """
    first, _, last = text.partition("-")
    start = int(first)
    stop = int(last) if last else start
    if stop < start or start < 0:
        raise argparse.ArgumentTypeError(f"bad deal range: {text}")
    return range(start, stop + 1)


def parse_option(text: str) -> tuple[str, str]:
    """``key=value`` (values stay text: ``engine.new_game`` matches them on their text form)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text}")
    return key, value


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (0 for no values).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.95)
    (2.0, 4.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))  # ceil without float surprises at .0
    return ordered[int(rank) - 1]


def summarise(results: Sequence[SolveResult]) -> dict[str, Any]:
    """Counts, shares and solve-time percentiles of ``results``."""
    counts = Counter(result.status for result in results)
    total = len(results)
    times = [result.seconds for result in results]
    summary: dict[str, Any] = {
        "deals": total,
        **{status: counts[status] for status in STATUSES},
        "shares": {
            status: round(counts[status] / total, 4) if total else 0.0 for status in STATUSES
        },
        "decided": round((counts[WON] + counts[LOST]) / total, 4) if total else 0.0,
        "seconds": {
            "mean": round(sum(times) / total, 4) if total else 0.0,
            "p50": round(percentile(times, 0.5), 4),
            "p95": round(percentile(times, 0.95), 4),
            "max": round(max(times, default=0.0), 4),
            "total": round(sum(times), 2),
        },
        "nodes_total": sum(result.nodes for result in results),
    }
    # a game whose win is not "won" (El Solitario's completo) has more endings worth counting
    if any(WON not in engine.game_info(result.game_id).wins for result in results):
        best = Counter(result.best for result in results)
        summary["best"] = {
            name: best[name] for name in ("completo", "played_out", "lost", "unknown")
        }
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.solve", description=__doc__.split("\n\n")[1]
    )
    parser.add_argument("game", choices=SOLVABLE)
    parser.add_argument("--deals", type=parse_deals, required=True, help="A-B, inclusive")
    parser.add_argument("--budget", type=float, default=None, help="CPU seconds per deal")
    parser.add_argument("--nodes", type=int, default=None, help="positions per deal")
    parser.add_argument("--option", type=parse_option, action="append", default=[])
    args = parser.parse_args(argv)
    seconds = args.budget if args.budget is not None or args.nodes is not None else 10.0
    budget = Budget(nodes=args.nodes, seconds=seconds)
    options = dict(args.option)
    started = time.perf_counter()
    results = [solve(args.game, deal, options, budget) for deal in args.deals]
    report = {
        "game": args.game,
        "options": options,
        "deals": f"{args.deals.start}-{args.deals.stop - 1}",
        "budget": {"seconds": budget.seconds, "nodes": budget.nodes},
        **{k: v for k, v in summarise(results).items() if k != "deals"},
        "count": len(results),
        "wall_seconds": round(time.perf_counter() - started, 2),
    }
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
