"""The solvers' "lost is a proof" sweeps, at the size ``make test`` cannot afford.

``make test`` checks each sweep of ``tests/engine/sweeps.py`` (the solver against a search
of every legal move with no pruning, on random positions) on a few pinned seeds; here every
check runs over ``SEEDS`` seeds: how many positions of each kind agreed, how many the
unpruned search could not decide within its limit, and every seed that disagreed (a seed
listed there is a bug, and belongs in the pinned seeds of its test).

``stall_past_the_cap``: Solitario 52 deal 377 played at random (seed 28507) stalls after 106
moves in a position whose non-progress moves reach over 10,000 positions, past the game's
capped stall search (``engine.stall.MAX_POSITIONS``): the game must say "not stalled" (late,
never false) and the uncapped search must agree with the plain one. ``make test`` checks the
same rule with the cap lowered (tests/engine/test_solitario.py).
"""

from __future__ import annotations

import random
import time
from typing import Any

from engine.solitario import Solitario
from engine.stall import is_stalled
from tests.engine.pile_helpers import reference_stalled
from tests.engine.sweeps import CHECKS, sweep

#: seeds per sweep (make test pins a few of each sweep's first 150)
SEEDS = 300


def stall_past_the_cap() -> dict[str, Any]:
    game = Solitario(377, options={"cards": 52})
    chooser = random.Random(28507)
    for _ in range(106):
        game._apply_unchecked(chooser.choice(game._generate()))
    plain = reference_stalled(game)
    said = game.stalled
    uncapped = is_stalled(game, max_positions=10**6)
    return {
        "plain_search_stalled": plain,
        "game_said_stalled": said,
        "uncapped_search_stalled": uncapped,
        "agree": plain and not said and uncapped,
    }


def run(seeds: int = SEEDS) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for name, check in CHECKS.items():
        started = time.process_time()
        report[name] = sweep(check, range(seeds))
        report[name]["cpu_seconds"] = round(time.process_time() - started, 1)
    started = time.process_time()
    report["stall_past_the_cap"] = stall_past_the_cap()
    report["stall_past_the_cap"]["cpu_seconds"] = round(time.process_time() - started, 1)
    return report
