"""SQLite moves stored per second through ``bot.storage.Storage.record_move``.

Each stored move is what the bot commits before it answers: the move row and the session's
new state (revision, last activity), one committed transaction, on a database file in WAL
mode (``synchronous=NORMAL``, as the bot opens it). Measured two ways:

* ``sequential``: one coroutine, one move after another (the latency of a commit);
* ``concurrent``: 100 sessions storing at the same time (what a busy bot sees: writes are
  serialised by the storage's write lock, on aiosqlite's one connection thread).

Wall time and process CPU time are both reported (the machine is usually shared).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from typing import Any

from bot.storage import ACTIVE, SOLO, SessionRecord, Storage

SESSIONS = 100
MOVES_PER_SESSION = 30


def _record(index: int) -> SessionRecord:
    return SessionRecord(
        id=f"b{index:07d}", platform="bench", chat_id=f"chat-{index // 10}", kind=SOLO,
        game_id="imaginary13", options={}, deal=index, players=[f"p{index}"],
        names={f"p{index}": f"P{index}"}, creator=f"p{index}", status=ACTIVE, faces="francesi",
        created_at="2025-01-01T00:00:00", last_active_at="2025-01-01T00:00:00",
    )  # fmt: skip


async def _store_moves(store: Storage, record: SessionRecord, moves: int) -> None:
    for n in range(1, moves + 1):
        record.revision = n
        record.last_active_at = f"2025-01-01T00:{n // 60:02d}:{n % 60:02d}"
        await store.record_move(record, n, record.players[0], f"t{n % 10}", record.last_active_at)


async def _measure(concurrent: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = await Storage.open(f"sqlite:///{folder}/bench.db")
        try:
            records = [_record(i) for i in range(SESSIONS)]
            for record in records:
                await store.insert_session(record)
            wall0, cpu0 = time.perf_counter(), time.process_time()
            if concurrent:
                await asyncio.gather(*(_store_moves(store, r, MOVES_PER_SESSION) for r in records))
            else:
                for record in records:
                    await _store_moves(store, record, MOVES_PER_SESSION)
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
            stored = sum([len(await store.load_moves(r.id)) for r in records])
        finally:
            await store.close()
    return {
        "moves": stored,
        "moves_per_s_wall": round(stored / wall, 1),
        "moves_per_s_cpu": round(stored / cpu, 1),
        "ms_per_move_wall": round(wall / stored * 1000, 3),
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
    }


def run() -> dict[str, Any]:
    return {
        "sequential": asyncio.run(_measure(concurrent=False)),
        "concurrent": asyncio.run(_measure(concurrent=True)),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
