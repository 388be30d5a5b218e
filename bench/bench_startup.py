"""Start-up time of ``python -m bot --console`` with empty input: from launch to exit (start,
open and migrate a new database, read end of input, close), wall and CPU time of the child.

Also ``python -c pass`` (the interpreter alone) and the same start on an existing database,
so the bot's own share is visible.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5


def _timed(command: list[str], cwd: str, env: dict[str, str]) -> tuple[float, float]:
    """(wall s, CPU s) of one run of ``command`` with empty standard input."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=60
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{command} failed: {done.stderr.decode()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _series(make_command: Any, fresh_database: bool) -> dict[str, float]:
    walls, cpus = [], []
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    with tempfile.TemporaryDirectory() as folder:
        for run in range(RUNS):
            name = f"run{run}.db" if fresh_database else "same.db"
            env["DATABASE_URL"] = f"sqlite:///{folder}/{name}"
            wall, cpu = _timed(make_command(), folder, env)
            walls.append(wall)
            cpus.append(cpu)
    return {
        "wall_ms_median": round(statistics.median(walls) * 1000, 1),
        "wall_ms_min": round(min(walls) * 1000, 1),
        "cpu_ms_median": round(statistics.median(cpus) * 1000, 1),
    }


def run() -> dict[str, Any]:
    bot = [sys.executable, "-m", "bot", "--console"]
    return {
        "runs": RUNS,
        "console_new_database": _series(lambda: bot, fresh_database=True),
        "console_existing_database": _series(lambda: bot, fresh_database=False),
        "python_alone": _series(lambda: [sys.executable, "-c", "pass"], fresh_database=True),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
