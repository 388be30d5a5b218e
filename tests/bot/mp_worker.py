"""One bot process of the multi-process tests: ``open_core`` on a shared database, then one
scenario through ``handle_text`` together with the other workers; answers what it was told as
a dict. It says ``ready`` once its core is open and starts when told ``go`` (the test says it
when every worker is ready: together, however long each took to start).

The tests fork these processes from a multiprocessing forkserver that imported this module
(and with it the whole bot) once: separate processes with their own connections, as bot
processes are, without each paying the 0.5 s of CPU a Python start and the bot's imports take
(``run_in_child``). By hand, as a program of its own (its answer printed as JSON):

    python tests/bot/mp_worker.py URL SCENARIO INDEX
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
import traceback
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parent)]

from core_fakes import fake_render  # noqa: E402

from bot.app import open_core  # noqa: E402
from bot.replies import Request  # noqa: E402

#: the flood: each worker plays MOVES moves in each of SESSIONS shared games (3 workers: 300 moves
#: racing for the same rows; 20 each took twice the CPU and raced no differently)
SESSIONS, MOVES = 10, 10


def _req(user: str) -> Request:
    return Request("fake", "chat-1", user, user.capitalize(), True, False)


async def main(
    url: str, scenario: str, index: int, ready: Callable[[], Awaitable[None]]
) -> dict[str, Any]:
    """The scenario's answers; ``ready()`` returns when the worker is to start."""
    core = await open_core(url, "en", renderer=fake_render, sweep_interval=None)
    try:
        await ready()
        if scenario == "play":
            replies = await core.handle_text(_req("ana"), "/play canfield 7")
            return {"keys": [r.key for r in replies]}
        if scenario == "challenge":
            replies = await core.handle_text(_req(f"user{index}"), "/challenge")
            return {"keys": [r.key for r in replies]}
        if scenario == "tick":
            # every process sees the same passed turn deadline at once
            pushed: list[str] = []

            async def push(platform: str, chat_id: str, reply) -> None:
                pushed.append(reply.key)

            core.set_push(push)
            handled = await core.tick()
            return {"handled": handled, "pushed": pushed}
        if scenario == "flood":
            acks = {f"p{s}": 0 for s in range(SESSIONS)}
            other: list[str] = []
            for _ in range(MOVES):
                for player in acks:
                    replies = await core.handle_text(_req(player), "/move d")
                    if any(r.board is not None for r in replies):
                        acks[player] += 1
                    else:
                        other.extend(r.key for r in replies)
            return {"acks": acks, "other": other}
        raise ValueError(f"no scenario {scenario!r}")
    finally:
        await core.close()


def run_in_child(url: str, scenario: str, index: int, line: Connection) -> None:
    """A forked worker: says ``("ready",)`` on ``line``, waits for ``go``, then sends
    ``("done", answers, stderr)`` or ``("failed", traceback, stderr)``; what it wrote on stderr
    (the bot's log, any traceback) goes with it, for the test to look at."""
    written = io.StringIO()
    sys.stderr = written

    async def ready() -> None:
        line.send(("ready",))
        await asyncio.to_thread(line.recv)  # go

    try:
        answers = asyncio.run(main(url, scenario, index, ready))
    except BaseException:  # noqa: BLE001 - reported to the test, which fails on it
        line.send(("failed", traceback.format_exc(), written.getvalue()))
    else:
        line.send(("done", answers, written.getvalue()))
    finally:
        line.close()


async def _by_hand() -> None:
    async def ready() -> None:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)  # go

    print(json.dumps(await main(sys.argv[1], sys.argv[2], int(sys.argv[3]), ready)))


if __name__ == "__main__":
    asyncio.run(_by_hand())
