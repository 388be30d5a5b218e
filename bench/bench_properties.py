"""The property tests whose every example is a whole game, at the size ``make test`` cannot
afford: each game's random playouts (every rule, every view, undo and refusals checked at every
move) and the core's fuzz, with ten times the examples ``make test`` gives them.

``make test`` runs these tests with the ``tavolo`` Hypothesis profile (tests/conftest.py: 40
examples; the playouts take half of that, the fuzz one and a half); here pytest runs them with
the ``tavolo-thorough`` profile (400). Hypothesis is derandomized, so these are the same
examples on every run; a test that fails here is a bug whose smallest example Hypothesis
prints (on stderr), and which belongs in the test as an ``@example``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: the tests whose example count follows the profile (``settings.default.max_examples``)
TESTS = (
    "tests/engine/test_maestras.py::test_random_playouts_keep_the_rules",
    "tests/engine/test_el_solitario.py::test_random_playouts_keep_the_rules",
    "tests/engine/test_solitario.py::test_random_playout_keeps_every_invariant",
    "tests/engine/test_canfield.py::test_random_playout_keeps_every_invariant",
    "tests/bot/test_fuzz.py::test_no_input_breaks_the_bot_and_refusals_change_nothing",
)
PROFILE = "tavolo-thorough"


def run() -> dict[str, Any]:
    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            f"--hypothesis-profile={PROFILE}",
            *TESTS,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    # pytest's report on stderr: make bench's stdout stays one JSON document
    sys.stderr.write(done.stdout[-5000:])
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|errors?)", done.stdout)}
    return {
        "profile": PROFILE,
        "tests": len(TESTS),
        "passed": counts.get("passed", 0),
        "failed": counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0),
        "pytest_exit_code": done.returncode,
        "seconds": round(time.perf_counter() - started, 1),
    }
