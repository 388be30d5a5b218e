"""Solver strength and speed: the first ``SAMPLE`` deals of each game, each with a budget of
``SECONDS`` CPU seconds (``time.process_time``), as issue 18's targets are stated.

Per game: the sample size, the shares won, lost (proven: the search was exhausted) and
unknown (budget spent), the decided share (won + lost), and the mean and p95 CPU seconds
per deal (search and the engine's check of a winning line). ``python -m engine.solve`` runs
the same measure on any range of deals. FreeCell also times the proof that deal 11982 cannot
be won. El Solitario (squadratik) keeps its fixed cases with
a node budget: its search is an optimisation, not a yes/no.

``daily``: the daily deal choice of the four games (``bot.features.daily.choose`` with the
shipped node budgets) on ``DAILY_DAYS`` consecutive days: CPU seconds per day in total (mean
and max; issue 18 wants at most 5 s) and the slowest game.

>>> result = run(sample=2)  # doctest: +SKIP
>>> "freecell_11982" in result, "sample" in result  # doctest: +SKIP
(True, True)

(one entry per game its solver searches, by game id, and one per extra run)
"""

from __future__ import annotations

import time
from datetime import date, timedelta
from typing import Any

import engine
from engine.solve import summarise
from engine.solvers import Budget, solve
from engine.squadratik.el_solitario import ElSolitario

#: (label, game id, options): every game whose solver answers won or lost (the ones asked
#: "could it have been won?"), from the games' facts, and Solitario's 52-card variant
GAMES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    *((game_id, game_id, {}) for game_id, cls in engine.GAMES.items() if cls.info.could_have_won),
    ("solitario52", "solitario", {"cards": 52}),
)
#: Microsoft FreeCell's one deal of 1-32000 that cannot be won: the time to prove it
FREECELL_LOST_DEAL = 11982
SAMPLE = 30
SECONDS = 2.0
#: El Solitario's fixed deals and node budget
SQUADRATIK_DEALS = (1, 5, 9)
SQUADRATIK_NODES = 3000
#: the daily choice is timed on this many days from DAILY_FIRST
DAILY_DAYS = 7
DAILY_FIRST = date(2026, 11, 1)


def run(sample: int = SAMPLE, seconds: float = SECONDS) -> dict[str, Any]:
    """Solve deals 1..``sample`` of every game; see the module docstring."""
    report: dict[str, Any] = {"sample": sample, "seconds_budget": seconds}
    for label, game_id, options in GAMES:
        results = [
            solve(game_id, deal, options, Budget(seconds=seconds)) for deal in range(1, sample + 1)
        ]
        summary = summarise(results)
        report[label] = {
            "deals": summary["deals"],
            "shares": summary["shares"],
            "decided": summary["decided"],
            "mean_seconds": summary["seconds"]["mean"],
            "p95_seconds": summary["seconds"]["p95"],
        }
    rows = [
        solve(ElSolitario.game_id, deal, None, Budget(nodes=SQUADRATIK_NODES, seconds=None))
        for deal in SQUADRATIK_DEALS
    ]
    searched = sum(r.seconds for r in rows)
    report[ElSolitario.game_id] = {
        "nodes_per_deal": SQUADRATIK_NODES,
        "deals": {
            str(r.deal): {
                "status": r.status,
                "best": r.best,
                "nodes": r.nodes,
                "seconds": r.seconds,
            }
            for r in rows
        },
        "nodes_per_second": round(sum(r.nodes for r in rows) / searched) if searched else None,
    }
    proof = solve("freecell", FREECELL_LOST_DEAL, None, Budget(seconds=60.0))
    report["freecell_11982"] = {
        "status": proof.status,
        "nodes": proof.nodes,
        "seconds": proof.seconds,
    }
    report["daily"] = daily_choice_seconds()
    return report


def daily_choice_seconds(days: int = DAILY_DAYS, first: date = DAILY_FIRST) -> dict[str, Any]:
    """CPU seconds of the daily deal choice, per day (all four games) and per game."""
    # the bench may read bot code: it measures the whole product, the engine never does
    from bot.features.daily import DAILY_GAMES, choose

    per_day: list[float] = []
    per_game: dict[str, float] = dict.fromkeys(DAILY_GAMES, 0.0)
    for offset in range(days):
        day = first + timedelta(days=offset)
        total = 0.0
        for game_id in DAILY_GAMES:
            started = time.process_time()
            choose(game_id, day)
            spent = time.process_time() - started
            per_game[game_id] = max(per_game[game_id], spent)
            total += spent
        per_day.append(total)
    return {
        "days": days,
        "mean_seconds_per_day": round(sum(per_day) / days, 3),
        "max_seconds_per_day": round(max(per_day), 3),
        "max_seconds_per_game": {game: round(spent, 3) for game, spent in per_game.items()},
    }
