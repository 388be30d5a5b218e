"""A move on PostgreSQL in few round trips (issue 39): a solo ``/move`` with the rate limits on
is at most 4 (was 14: three transactions, reads one by one, and the pool's reset after each
use), a table move with the computer's answer at most 6 (was 19-22); a request waits for a free
connection at most the pool's bound. Counted by a proxy between the bot and the server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from core_fakes import FakeClock, fake_render

from bench.tcp_proxy import DelayProxy, proxied_postgres
from bot.app import open_core
from bot.core.limits import Limits
from bot.replies import Request
from bot.storage import PoolSettings, Storage, StorageBusy


@pytest.fixture
async def pg_url(pg_server: object) -> AsyncIterator[str]:
    url = await pg_server.fresh_database()  # type: ignore[attr-defined]
    yield url
    pg_server.give_back(url)  # type: ignore[attr-defined]


@pytest.fixture
async def proxy(pg_url: str) -> AsyncIterator[tuple[DelayProxy, str]]:
    _, socket_path = proxied_postgres(pg_url, 0)
    async with DelayProxy("", 0, unix_path=socket_path) as counting:
        yield counting, proxied_postgres(pg_url, counting.port)[0]


async def test_a_solo_move_and_a_table_move_are_a_few_round_trips(
    proxy: tuple[DelayProxy, str],
) -> None:
    counting, url = proxy
    core = await open_core(
        url,
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
        limits=Limits(100, 30, 400, 120),
    )
    try:
        ana = Request("fake", "c", "ana", "Ana")
        await core.handle_text(ana, "/play canfield 3")
        trips = []
        for _ in range(3):
            counting.reset()
            replies = await core.handle_text(ana, "/move d")
            assert replies[0].key == "board.caption"
            trips.append(counting.reset())
        # the rate limits' tokens, the chat's reads, the move: one round trip each (the first
        # move prepares its statements on this connection once)
        assert max(trips[1:]) <= 4, trips
        session = await core.sessions.solo_of("fake", "c", "ana")
        assert session is not None and session.game is not None
        assert await core.store.sessions.moves(session.id) == [str(m) for m in session.game.moves]

        group = Request("fake", "g", "ana", "Ana")
        for text in ("/challenge", "/addbot", "/start"):
            await core.handle_text(group, text)
        table = await core.sessions.table_of("fake", "g")
        assert table is not None and table.game is not None
        table_trips = []
        for _ in range(3):
            move = str(table.game.legal_moves("ana")[0])
            counting.reset()
            replies = await core.handle_text(group, f"/move {move}")
            assert "tables.plays" in [r.key for r in replies]
            table_trips.append(counting.reset())
            # the move and the computer's answer, stored together, the turn clock with them
            assert await core.store.sessions.moves(table.id) == list(table.game.moves)
            play = await core.store.play.table(table.id)
            assert play is not None and play.deadline is not None
        assert max(table_trips[1:]) <= 6, table_trips
    finally:
        await core.close()


async def test_several_reads_in_one_trip_answer_as_each_read_alone(
    proxy: tuple[DelayProxy, str],
) -> None:
    counting, url = proxy
    store = await Storage.open(url)
    try:
        queries = [
            (
                "SELECT version, 'x' AS word, NULL AS nothing FROM schema_version ORDER BY version DESC",
                (),
            ),
            ("SELECT version FROM schema_version WHERE version > ? ORDER BY version", (3,)),
            ("SELECT version FROM schema_version WHERE version < 0", ()),
        ]
        alone = [await store.backend.fetch(sql, params) for sql, params in queries]
        await store.backend.fetch_many(queries)  # prepared on this connection
        counting.reset()
        together = await store.backend.fetch_many(queries)
        assert counting.reset() == 1
        assert together == alone and alone[0][0][1:] == ("x", None) and alone[2] == []
    finally:
        await store.close()


async def test_a_request_waits_for_a_connection_only_as_long_as_the_pool_allows(
    pg_url: str,
) -> None:
    store = await Storage.open(pg_url, pool=PoolSettings(size=1, timeout=0.5))
    try:
        async with store.backend.transaction() as tx:  # the pool's only connection, held
            await tx.fetch("SELECT 1")
            started = time.monotonic()
            with pytest.raises(StorageBusy):
                await asyncio.wait_for(store.backend.fetch("SELECT 1"), 10)
            assert time.monotonic() - started < 5
        assert await store.backend.fetch("SELECT 1") == [(1,)]  # free again
    finally:
        await store.close()


async def test_the_pools_connections_waiters_and_waits_are_metrics(pg_url: str) -> None:
    core = await open_core(
        pg_url,
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
        pool=PoolSettings(size=3, timeout=1.0),
    )
    try:
        await core.handle_text(Request("fake", "c", "ana", "Ana"), "/help")
        text = core.metrics.exposition().decode()
    finally:
        await core.close()
    assert 'tavolo_database_pool_connections{state="max"} 3.0' in text
    assert 'tavolo_database_pool_connections{state="open"} 1.0' in text
    assert "tavolo_database_pool_waiters 0.0" in text
    count = next(
        line
        for line in text.splitlines()
        if line.startswith("tavolo_database_pool_wait_seconds_count")
    )
    assert float(count.split()[-1]) >= 1  # the request's reads waited (for no time) for one
