"""``python -m bench``: run every ``bench/bench_*.py`` module's ``run()`` and print one JSON.

Each module returns a dict of its measurements; the output maps module name to that dict.
``python -m bench engine render`` runs only the named modules.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import platform
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    names = sorted(
        info.name.removeprefix("bench_")
        for info in pkgutil.iter_modules([str(Path(__file__).parent)])
        if info.name.startswith("bench_")
    )
    chosen = argv or names
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        print(
            f"unknown benchmark(s): {', '.join(unknown)}; have: {', '.join(names)}", file=sys.stderr
        )
        return 2
    report: dict[str, object] = {
        "machine": {"python": platform.python_version(), "cpu": platform.machine()},
    }
    for name in chosen:
        started = time.perf_counter()
        module = importlib.import_module(f"bench.bench_{name}")
        result = module.run()
        result["bench_seconds"] = round(time.perf_counter() - started, 2)
        report[name] = result
        print(f"bench {name}: done in {result['bench_seconds']} s", file=sys.stderr)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
