"""What an operator of a busy bot meets (issue 27): memory per finished game, a live session's
size, CPU per command with and without its board image, and a flood.

* ``memory``: games are started and finished (resigned after a few moves) through the core,
  one player after another in many chats, the way a long-running process sees them. After a
  warm-up (caches filled to their bounds), the Python heap (tracemalloc) is compared before and
  after ``games`` more finished games: the growth divided by the games is what a process keeps
  for each game that ended (goal: under 0.2 KB). ``live_session_bytes`` is what one game in
  progress holds (goal: under 64 KB). To play its 11,000 games in a minute or two rather than
  eight, the bench keeps everything on the event loop's thread (``one_thread``): the in-memory
  database's calls and the (stand-in) drawing run in place instead of being handed to a worker
  thread and back, some fifty hand-offs a game that cost far more than the game itself on a busy
  machine. That changes where work runs, not what the core keeps: the same core, features and
  storage code play every game, and a hand-off leaves nothing behind once it is done.
* ``cpu_per_command``: process CPU time per ``/move`` through the core, with the real renderer
  and with a stand-in that draws nothing.
* ``flood``: one user sends ``/help`` 300 times: how many answers they get, and how long a
  ``/help`` in another chat takes meanwhile; 999 replies queued for one chat in each platform's
  outbox: how many it keeps, how soon a quiet chat's message goes out.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import aiosqlite.core

from bot.app import open_core
from bot.core import Core
from bot.core.limits import Limits
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
#: /move commands timed for the CPU figures
CPU_COMMANDS = 150
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


class _InPlace(concurrent.futures.ThreadPoolExecutor):
    """An executor that runs each call at once, on the caller's thread."""

    def submit(  # type: ignore[override]
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to the awaiting caller, as a pool would
            future.set_exception(error)
        return future


@contextlib.contextmanager
def one_thread(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """SQLite calls and ``run_in_executor`` work run on the loop's thread while inside (see
    the module docstring); everything is put back on leaving."""
    connect, execute = aiosqlite.connect, aiosqlite.core.Connection._execute

    def connect_anywhere(*args: Any, **kwargs: Any) -> aiosqlite.Connection:
        # the connection is opened on aiosqlite's thread and then used on the loop's
        kwargs.setdefault("check_same_thread", False)
        return connect(*args, **kwargs)

    async def execute_in_place(self: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        return fn(*args, **kwargs)

    aiosqlite.connect = connect_anywhere  # type: ignore[assignment]
    aiosqlite.core.Connection._execute = execute_in_place  # type: ignore[method-assign]
    in_place = _InPlace(max_workers=1)
    loop.set_default_executor(in_place)
    try:
        yield
    finally:
        aiosqlite.connect = connect  # type: ignore[assignment]
        aiosqlite.core.Connection._execute = execute  # type: ignore[method-assign]
        loop.set_default_executor(concurrent.futures.ThreadPoolExecutor())


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


async def memory(
    games: int = GAMES, warm: int = WARM_GAMES, in_place: bool = True
) -> dict[str, Any]:
    """The memory figures; ``in_place=False`` plays with the worker threads, as the bot does
    (the same figures, several times slower)."""
    with contextlib.ExitStack() as stack:
        if in_place:
            stack.enter_context(one_thread(asyncio.get_running_loop()))
        return await _memory(games, warm)


async def _memory(games: int, warm: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        core = await open_core(
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


async def cpu_per_command(commands: int = CPU_COMMANDS) -> dict[str, Any]:
    """Process CPU (every thread: loop, database, render pool) per ``/move`` through the core,
    with the real board image and with a stand-in that draws nothing."""
    found: dict[str, Any] = {}
    for label, render in (("with_image", None), ("without_image", cheap_render)):
        with tempfile.TemporaryDirectory() as folder:
            core = await open_core(f"sqlite:///{Path(folder) / 'cpu.db'}", renderer=render,
                                     sweep_interval=None)  # fmt: skip
            try:
                req = Request("bench", "cpu", "cpu-user", "Cpu")
                await core.handle_text(req, "/play solitario 11")
                await core.handle_text(req, "/move d")  # warm: fonts, caches
                started = time.process_time()
                for _ in range(commands):
                    await core.handle_text(req, "/move d")
                found[f"{label}_ms"] = round((time.process_time() - started) / commands * 1000, 2)
            finally:
                await core.close()
    return found


async def flood(requests: int = 300) -> dict[str, Any]:
    """One user sends ``/help`` ``requests`` times as fast as the core answers, with the
    default limits and with none (the behaviour before issue 27); meanwhile another chat's
    ``/help`` is timed. Then the Telegram and Discord outboxes: 999 replies queued for one
    chat, how many each keeps and how soon another chat's one message goes out."""
    found: dict[str, Any] = {}
    for label, limits in (("limited", Limits()), ("unlimited", None)):
        with tempfile.TemporaryDirectory() as folder:
            core = await open_core(f"sqlite:///{Path(folder) / 'flood.db'}",
                                     renderer=cheap_render, sweep_interval=None,
                                     limits=limits)  # fmt: skip
            try:
                flooder = Request("bench", "flooded", "flooder", "Flooder")
                other = Request("bench", "quiet", "neighbour", "Neighbour")
                answers = notices = 0
                waits = []
                for n in range(requests):
                    replies = await core.handle_text(flooder, "/help")
                    answers += bool(replies and replies[0].key == "help.text")
                    notices += bool(replies and replies[0].key == "error.slow_down")
                    if n % 30 == 0:
                        started = time.perf_counter()
                        await core.handle_text(other, "/help")
                        waits.append(time.perf_counter() - started)
                found[label] = {
                    "flooder_requests": requests,
                    "flooder_answers": answers,
                    "slow_down_notices": notices,
                    "other_chat_help_ms_max": round(max(waits) * 1000, 2),
                }
            finally:
                await core.close()
    found["telegram_outbox"] = await _outbox_flood("telegram")
    found["discord_outbox"] = await _outbox_flood("discord")
    return found


async def _outbox_flood(platform: str) -> dict[str, Any]:
    """999 replies queued for one chat of ``platform``'s outbox (with its own limits): how many
    it keeps, how soon a quiet chat's one message goes out; on Telegram, how long the flooded
    chat takes to drain at 20 messages a minute in a group (Discord paces a channel by its
    per-route buckets, which discord.py keeps, so no such figure is given for it)."""
    from bot.platforms.discord_outbox import discord_outbox
    from bot.platforms.telegram_outbox import flood_limits, telegram_outbox

    outbox_of = telegram_outbox if platform == "telegram" else discord_outbox
    loop = asyncio.get_running_loop()
    sent: list[tuple[float, int]] = []
    started = loop.time()

    async def deliver(chat_id: int, item: Any) -> None:
        await asyncio.sleep(0)
        sent.append((loop.time() - started, chat_id))

    outbox = outbox_of(deliver)
    for n in range(999):
        outbox.put(-100, f"reply {n}")
    kept = outbox.pending(-100)
    outbox.put(-200, "a quiet chat's reply")
    while not any(chat == -200 for _, chat in sent):
        await asyncio.sleep(0.01)
    other_after = next(t for t, chat in sent if chat == -200)
    await outbox.close(timeout=0)
    found = {
        "queued_for_one_chat": 999,
        "kept": kept,
        "other_chat_first_send_ms": round(other_after * 1000, 1),
    }
    if platform == "telegram":
        group_per_minute = flood_limits().per_minute
        found["drain_minutes_for_the_flooded_chat"] = round(kept / group_per_minute, 1)
        found["drain_minutes_before_the_bound"] = round(999 / group_per_minute, 1)
    return found


def run() -> dict[str, Any]:
    return {
        "memory": asyncio.run(memory()),
        "cpu_per_command": asyncio.run(cpu_per_command()),
        "flood": asyncio.run(flood()),
    }


if __name__ == "__main__":
    import json
    import sys

    what = sys.argv[1] if len(sys.argv) > 1 else "memory"
    if what == "memory":
        numbers = [word for word in sys.argv[2:] if word.isdigit()]
        count = int(numbers[0]) if numbers else GAMES
        threads = "--threads" in sys.argv  # as the bot runs: the same figures, slower
        result = asyncio.run(memory(count, min(WARM_GAMES, count // 4), in_place=not threads))
    elif what == "cpu":
        result = asyncio.run(cpu_per_command())
    else:
        result = asyncio.run(flood())
    print(json.dumps(result, indent=2))
