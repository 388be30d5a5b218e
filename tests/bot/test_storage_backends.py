"""Storage on both backends: migrating once when processes start together, and a lost
PostgreSQL connection answered "busy" and then replaced."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.storage import MIGRATIONS, AlreadyExists, SessionRecord, Storage, StorageBusy
from bot.storage.records import ACTIVE, SOLO, TABLE

ROOT = Path(__file__).resolve().parents[2]
OPEN = (
    "import asyncio, sys; from bot.storage import Storage\n"
    "async def m():\n    s = await Storage.open(sys.argv[1]); await s.close()\nasyncio.run(m())"
)


@pytest.fixture(params=["sqlite", "postgres"])
async def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database nobody has opened yet."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'new.db'}"
    return await request.getfixturevalue("pg_server").fresh_database(migrated=False)


async def test_three_processes_starting_together_migrate_once(empty_url: str):
    starters = [
        subprocess.Popen(
            [sys.executable, "-c", OPEN, empty_url],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for starter in starters:
        _, err = await asyncio.to_thread(starter.communicate, timeout=60)
        assert starter.returncode == 0, err
    store = await Storage.open(empty_url)
    try:
        versions = await store.fetch("SELECT version FROM schema_version ORDER BY version")
        assert [v for (v,) in versions] == [v for v, _ in MIGRATIONS]
    finally:
        await store.close()


def _record(
    sid: str, kind: str = SOLO, player: str = "ana", game: str = "canfield"
) -> SessionRecord:
    return SessionRecord(
        id=sid,
        platform="fake",
        chat_id="c",
        kind=kind,
        game_id=game,
        options={},
        deal=1,
        players=[player],
        names={player: player},
        creator=player,
        status=ACTIVE if kind == SOLO else "lobby",
        faces="francesi",
        created_at="2026-01-01T00:00:00",
        last_active_at="2026-01-01T00:00:00",
    )


async def test_the_database_refuses_a_second_active_game_or_table(empty_url: str):
    store = await Storage.open(empty_url)
    try:
        await store.sessions.insert(_record("a1"))
        with pytest.raises(AlreadyExists):
            await store.sessions.insert(_record("a2"))
        await store.sessions.insert(_record("a3", game="imaginary13"))  # another game: allowed
        await store.sessions.insert(_record("t1", kind=TABLE, player="bob"))
        with pytest.raises(AlreadyExists):
            await store.sessions.insert(_record("t2", kind=TABLE, player="carl"))
        assert not await store.sessions.exists("a2") and not await store.sessions.exists("t2")
    finally:
        await store.close()


async def test_a_lost_postgresql_connection_is_busy_then_the_next_request_works(pg_server) -> None:
    url = await pg_server.fresh_database()
    store = await Storage.open(url)
    try:
        await store.players.set_chat_language("fake", "c", "es")
        database = url.split("?")[0].rsplit("/", 1)[-1]
        # a request in flight when the server drops its connection: the server is seen running
        # it before the drop (polled, not guessed by a sleep), and it runs far longer than any
        # busy machine takes to drop it
        in_flight = asyncio.create_task(store.fetch("SELECT pg_sleep(120)"))
        admin = await asyncpg.connect(pg_server.url(), timeout=60)
        try:
            for _ in range(1200):
                running = await admin.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = $1"
                    " AND state = 'active' AND query LIKE 'SELECT pg_sleep%'",
                    database,
                )
                if running:
                    break
                await asyncio.sleep(0.05)
            assert running, "the request never reached the server"
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                database,
            )
        finally:
            await admin.close()
        with pytest.raises(StorageBusy):
            await asyncio.wait_for(in_flight, 60)
        assert await store.players.chat_language("fake", "c") == "es"  # nothing half-written
        await store.players.set_chat_language("fake", "c", "it")  # a new connection from the pool
        assert await store.players.chat_language("fake", "c") == "it"
    finally:
        await store.close()
