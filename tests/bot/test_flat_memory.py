"""Flat memory (issue 27): whatever a finished game held leaves the process, so a bot that runs
for weeks does not grow with the games it has seen."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest
from core_fakes import FakeClock, fake_render

from bot.app import open_core
from bot.core import Core
from bot.replies import Request
from bot.storage import SEEN_PRECISION


async def finish_games(core: Core, clock: FakeClock, first: int, count: int) -> None:
    for n in range(first, first + count):
        clock.advance(seconds=5)
        req = Request("fake", f"chat{n % 7}", f"user{n}", f"Player {n}")
        await core.handle_text(req, f"/play squadratik {n + 1}")
        await core.handle_text(req, "/resign squadratik")


async def test_finished_games_leave_no_lock_cache_entry_or_sighting_behind(tmp_path: Path):
    clock = FakeClock()
    core = await open_core(
        f"sqlite:///{tmp_path / 't.db'}", "en", clock, renderer=fake_render, sweep_interval=None
    )
    try:
        await finish_games(core, clock, 0, 60)
        gc.collect()
        assert core.sessions.live_count() == 0
        assert len(core.sessions._locks) == 0
        assert len(core.features["races"]._entry_cache) == 0
        # sightings older than the write throttle save nothing: only the last minute's stay
        assert len(core.store.players._seen) <= SEEN_PRECISION.total_seconds() / 5 + 1
    finally:
        await core.close()


async def test_a_live_game_keeps_its_lock_while_a_command_waits_for_it(tmp_path: Path):
    clock = FakeClock()
    core = await open_core(
        f"sqlite:///{tmp_path / 't.db'}", "en", clock, renderer=fake_render, sweep_interval=None
    )
    try:
        lock = core.sessions.lock("abc")
        async with lock:
            assert core.sessions.lock("abc") is lock  # one lock per session while in use
    finally:
        await core.close()


#: finished games counted (about 50 bytes each are kept today; make bench's ops.memory plays
#: 10,000 games through the core)
GAMES = 200


@pytest.mark.slow
async def test_memory_per_finished_game_stays_under_200_bytes(tmp_path: Path):
    clock = FakeClock()
    core = await open_core(
        f"sqlite:///{tmp_path / 't.db'}", "en", clock, renderer=fake_render, sweep_interval=None
    )
    try:
        await finish_games(core, clock, 0, 150)  # warm: bounded caches fill
        gc.collect()
        tracemalloc.start()
        try:
            # a few games traced before the count starts: what the first traced games
            # allocate once (about 45 KB, whatever the number of games after them) is not
            # kept per game, and would otherwise need hundreds more games to average out
            await finish_games(core, clock, 150, 30)
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            await finish_games(core, clock, 180, GAMES)
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert grown / GAMES < 200, f"{grown / GAMES:.0f} bytes kept per finished game"
    finally:
        await core.close()
