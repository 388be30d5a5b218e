"""One bot process of the multi-process tests: ``open_core`` on a shared database, then one
scenario through ``handle_text`` together with the other workers; prints what it was answered
as JSON. It prints ``ready`` once its core is open and starts when a line comes on stdin (the
test sends it when every worker is ready: together, however long each took to start).

    python tests/bot/mp_worker.py URL SCENARIO INDEX
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parent)]

from core_fakes import fake_render  # noqa: E402

from bot.app import open_core  # noqa: E402
from bot.replies import Request  # noqa: E402

#: the flood: each worker plays MOVES moves in each of SESSIONS shared games (3 workers: 300 moves
#: racing for the same rows; 20 each took twice the CPU and raced no differently)
SESSIONS, MOVES = 10, 10


def _req(user: str) -> Request:
    return Request("fake", "chat-1", user, user.capitalize(), True, False)


async def main(url: str, scenario: str, index: int) -> None:
    core = await open_core(url, "en", renderer=fake_render, sweep_interval=None)
    try:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)  # go
        if scenario == "play":
            replies = await core.handle_text(_req("ana"), "/play canfield 7")
            print(json.dumps({"keys": [r.key for r in replies]}))
        elif scenario == "challenge":
            replies = await core.handle_text(_req(f"user{index}"), "/challenge")
            print(json.dumps({"keys": [r.key for r in replies]}))
        elif scenario == "tick":
            # every process sees the same passed turn deadline at once
            pushed: list[str] = []

            async def push(platform: str, chat_id: str, reply) -> None:
                pushed.append(reply.key)

            core.set_push(push)
            handled = await core.tick()
            print(json.dumps({"handled": handled, "pushed": pushed}))
        elif scenario == "flood":
            acks = {f"p{s}": 0 for s in range(SESSIONS)}
            other: list[str] = []
            for _ in range(MOVES):
                for player in acks:
                    replies = await core.handle_text(_req(player), "/move d")
                    if any(r.board is not None for r in replies):
                        acks[player] += 1
                    else:
                        other.extend(r.key for r in replies)
            print(json.dumps({"acks": acks, "other": other}))
    finally:
        await core.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
