"""The web page under many readers: latency of the home page and a daily page.

A temporary SQLite database gets ``PLAYERS`` players who each finished today's Solitario and
Imaginary Thirteen daily through the core (``/daily``, a few moves, ``/resign``), so the pages
rank real rows. The pages are served by a real aiohttp server on 127.0.0.1 (``setup_web`` on
its own application, as the bot's HTTP server adds it); ``READERS`` readers at once each fetch
a page ``REQUESTS`` times in a row, and every request is timed from sending to the last byte.

Reported per page: p50, p95 and the slowest request in ms, the requests served per second and
the server's CPU time per request (wall times on a busy shared machine include other programs'
work; the CPU time does not: 50 readers at once wait about 50 times that on an idle core),
twice: as served (``cached``: a built page is kept ``bot.web.PAGE_SECONDS``) and with pages
built anew for every request (``uncached``: the database work each time; readers asking for
the same page at the same moment still share one build). The readers run in a process of their
own (``bench/web_readers.py``), as browsers would. The goal is p95 at most 50 ms with 50
readers.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import web

import bot.web
from bot.app import open_core
from bot.core import Core
from bot.features.daily import DAILY_GAMES
from bot.replies import Request

PLAYERS = 60
READERS = 50
REQUESTS = 10
GAMES = DAILY_GAMES[:2]  # two games whose daily pages the readers load


def _ms(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


async def _fill(core: Core) -> None:
    for index in range(PLAYERS):
        request = Request("telegram", f"group-{index % 10}", f"{1000 + index}", f"Player {index}")
        for game_id in GAMES:
            started = await core.handle_text(request, f"/daily {game_id}")
            session = await core.sessions.get(started[-1].board.session_id)
            for move in session.game.legal_moves()[: index % 3]:
                await core.handle_text(request, f"/move {move}")
                break
            await core.handle_text(request, "/resign")


async def _readers(base: str, path: str) -> dict[str, Any]:
    """``READERS`` readers at once, ``REQUESTS`` requests each, from their own process."""
    cpu = time.process_time()
    reading = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.web_readers",
        base,
        path,
        str(READERS),
        str(REQUESTS),
        stdout=asyncio.subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[1],
    )
    output, _ = await reading.communicate()
    cpu = time.process_time() - cpu
    found = json.loads(output)
    times: list[float] = found["times"]
    return {
        # the server's own CPU per request (this process does nothing else meanwhile): on a
        # shared machine the wall times include other programs' work, this does not
        "server_cpu_ms_per_request": round(1000 * cpu / (len(times) + 1), 2),
        "p50_ms": _ms(times, 0.50),
        "p95_ms": _ms(times, 0.95),
        "max_ms": round(1000 * max(times), 1),
        "mean_ms": round(1000 * statistics.fmean(times), 1),
        "requests_per_second": round(len(times) / found["wall"]),
        "failures": found["failures"],
    }


async def measure() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        core = await open_core(f"sqlite:///{Path(folder) / 'web.db'}", sweep_interval=None)
        try:
            filled = time.perf_counter()
            await _fill(core)
            filled = time.perf_counter() - filled
            today = core.clock().date().isoformat()
            pages = {"home": "/", "daily": f"/daily/imaginary13/{today}"}
            report: dict[str, Any] = {
                "players": PLAYERS,
                "readers": READERS,
                "requests_per_reader": REQUESTS,
                "fill_seconds": round(filled, 1),
            }
            kept = bot.web.PAGE_SECONDS
            for mode, seconds in (("cached", kept), ("uncached", 0)):
                bot.web.PAGE_SECONDS = seconds
                app = web.Application()
                bot.web.setup_web(app, core)
                runner = web.AppRunner(app, access_log=None)
                await runner.setup()
                site = web.TCPSite(runner, "127.0.0.1", 0)
                await site.start()
                base = f"http://127.0.0.1:{runner.addresses[0][1]}"
                try:
                    for name, path in pages.items():
                        report[f"{name}_{mode}"] = await _readers(base, path)
                finally:
                    await runner.cleanup()
            bot.web.PAGE_SECONDS = kept
            report["goal_p95_ms"] = 50
            return report
        finally:
            await core.close()


def run() -> dict[str, Any]:
    return asyncio.run(measure())


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
