"""The Canfield search in C against the one in Python, over more deals and at the full budget.

``make test`` (tests/engine/test_canfield_c.py) compares the two searches on nine pinned deals,
one of each kind of answer, and searches its two out-of-budget deals to 10,000 nodes; here every
deal of ``DEALS`` is searched by both to ``NODES`` nodes: the count of each answer, and every
deal where the two differ in answer, line or node count (a deal listed there is a bug, and
belongs in the test's pinned deals).
"""

from __future__ import annotations

import os
from collections import Counter as Tally
from typing import Any

import engine
from engine.solvers import Budget, Counter, canfield
from engine.solvers.canfield import CanfieldSearch

DEALS = range(1, 41)
NODES = 40_000


def _search(deal: int, compiled: bool) -> tuple[str, list[str], int]:
    """(status, line, nodes) of the search of ``deal``, in C or in Python."""
    if compiled:
        os.environ.pop("TAVOLO_PURE_PYTHON", None)
    else:
        os.environ["TAVOLO_PURE_PYTHON"] = "1"
    assert canfield.compiled() == compiled
    counter = Counter(Budget(nodes=NODES, seconds=None))
    outcome = CanfieldSearch(engine.new_game("canfield", deal), counter).run()
    return outcome.status, list(outcome.moves), counter.nodes


def run() -> dict[str, Any]:
    saved = os.environ.get("TAVOLO_PURE_PYTHON")
    answers: Tally[str] = Tally()
    disagreeing: list[int] = []
    try:
        for deal in DEALS:
            in_c = _search(deal, compiled=True)
            in_python = _search(deal, compiled=False)
            answers[in_c[0]] += 1
            if in_c != in_python:
                disagreeing.append(deal)
    finally:
        if saved is None:
            os.environ.pop("TAVOLO_PURE_PYTHON", None)
        else:
            os.environ["TAVOLO_PURE_PYTHON"] = saved
    return {
        "deals": f"{DEALS.start}-{DEALS.stop - 1}",
        "nodes": NODES,
        "answers": dict(answers),
        "disagreeing_deals": disagreeing,
    }
