"""SQLite moves stored per second through ``bot.storage.SessionsStore.record_move``.

Each stored move is what the bot commits before it answers: the move row and the session's
new state (revision, last activity), one committed transaction, on a database file in WAL
mode (``synchronous=NORMAL``, as the bot opens it). Measured two ways:

* ``sequential``: one coroutine, one move after another (the latency of a commit);
* ``concurrent``: 100 sessions storing at the same time (what a busy bot sees: writes are
  serialised by the storage's write lock, on aiosqlite's one connection thread).

Wall time and process CPU time are both reported (the machine is usually shared).

On PostgreSQL (``postgres_moves``, an embedded server with its durable defaults): 100 sessions storing
at once from 1 process, and from 3 processes at once (each its own 100 sessions, its own pool),
moves per second across all of them; ``sqlite_processes`` measures the same on one SQLite file.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.storage import ACTIVE, SOLO, SessionRecord, Storage

SESSIONS = 100
MOVES_PER_SESSION = 30


def _record(index: int) -> SessionRecord:
    return SessionRecord(
        id=f"b{index:07d}",
        platform="bench",
        chat_id=f"chat-{index // 10}",
        kind=SOLO,
        game_id="imaginary13",
        options={},
        deal=index,
        players=[f"p{index}"],
        names={f"p{index}": f"P{index}"},
        creator=f"p{index}",
        status=ACTIVE,
        faces="francesi",
        created_at="2025-01-01T00:00:00",
        last_active_at="2025-01-01T00:00:00",
    )


async def _store_moves(store: Storage, record: SessionRecord, moves: int) -> None:
    for n in range(1, moves + 1):
        record.revision = n
        record.last_active_at = f"2025-01-01T00:{n // 60:02d}:{n % 60:02d}"
        await store.sessions.record_move(
            record, n, record.players[0], f"t{n % 10}", record.last_active_at
        )


async def _measure(concurrent: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = await Storage.open(f"sqlite:///{folder}/bench.db")
        try:
            records = [_record(i) for i in range(SESSIONS)]
            for record in records:
                await store.sessions.insert(record)
            wall0, cpu0 = time.perf_counter(), time.process_time()
            if concurrent:
                await asyncio.gather(*(_store_moves(store, r, MOVES_PER_SESSION) for r in records))
            else:
                for record in records:
                    await _store_moves(store, record, MOVES_PER_SESSION)
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
            stored = sum([len(await store.sessions.moves(r.id)) for r in records])
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


#: moves each PostgreSQL session stores (100 sessions per process)
PG_MOVES_PER_SESSION = 40


async def _pg_store(url: str, first: int, start_at: float) -> dict[str, Any]:
    """One process's share: its own sessions, every one storing moves at the same time."""
    store = await Storage.open(url)
    try:
        records = [_record(first + i) for i in range(SESSIONS)]
        for record in records:
            await store.sessions.insert(record)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        began, cpu0 = time.time(), time.process_time()
        await asyncio.gather(*(_store_moves(store, r, PG_MOVES_PER_SESSION) for r in records))
        ended, cpu = time.time(), time.process_time() - cpu0
    finally:
        await store.close()
    return {"moves": SESSIONS * PG_MOVES_PER_SESSION, "began": began, "ended": ended, "cpu_s": cpu}


def _pg_processes(url: str, processes: int) -> dict[str, Any]:
    start_at = time.time() + 3.0 + processes  # after every process has opened its pool
    root = str(Path(__file__).resolve().parents[1])
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.bench_storage",
                "--pg-worker",
                url,
                str(k * 10_000),
                str(start_at),
            ],
            cwd=root,
            stdout=subprocess.PIPE,
            text=True,
        )
        for k in range(processes)
    ]
    parts = []
    for worker in workers:
        out, _ = worker.communicate(timeout=600)
        parts.append(json.loads(out.strip().splitlines()[-1]))
    moves = sum(p["moves"] for p in parts)
    wall = max(p["ended"] for p in parts) - min(p["began"] for p in parts)
    cpu = sum(p["cpu_s"] for p in parts)
    return {
        "processes": processes,
        "moves": moves,
        "moves_per_s_wall": round(moves / wall, 1),
        "client_cpu_ms_per_move": round(cpu / moves * 1000, 3),
        "wall_s": round(wall, 2),
    }


def run_sqlite_processes() -> dict[str, Any]:
    """The same 1 and 3 processes on one SQLite file (WAL, ``BEGIN IMMEDIATE``)."""
    with tempfile.TemporaryDirectory() as folder:
        return {str(n): _pg_processes(f"sqlite:///{folder}/bench{n}.db", n) for n in (1, 3)}


def run_postgres() -> dict[str, Any]:
    from bench.pg_server import PgBench

    with PgBench() as pg:
        return {str(n): _pg_processes(pg.fresh_database(), n) for n in (1, 3)}


def run() -> dict[str, Any]:
    return {
        "sequential": asyncio.run(_measure(concurrent=False)),
        "concurrent": asyncio.run(_measure(concurrent=True)),
        "sqlite_processes": run_sqlite_processes(),
        "postgres_moves": run_postgres(),
    }


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pg-worker"]:
        url, first, start_at = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
        print(json.dumps(asyncio.run(_pg_store(url, first, start_at))))
    else:
        print(json.dumps(run(), indent=2))
