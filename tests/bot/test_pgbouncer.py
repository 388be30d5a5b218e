"""Tavolo behind PgBouncer in transaction mode (issue 39): a server connection is a client's
for one transaction only, and two server connections are shared by every client here, so a
statement that relied on its session (a named prepared statement, a startup parameter, an
unnamed statement parsed in one exchange and bound in another) would fail or run another
client's statement. A real PgBouncer (Debian's package) in front of the suite's PostgreSQL;
``DATABASE_POOLER=transaction`` is what makes the backend fit it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render

from bot import admin
from bot.__main__ import check_schema
from bot.app import open_core
from bot.core import Core
from bot.core.limits import Limits
from bot.settings import Settings
from bot.storage import PoolSettings, Storage, StorageError
from bot.storage.backend import BUSY_TIMEOUT_SECONDS
from bot.storage.migrations import LATEST
from bot.storage.postgres import TRANSACTION_POOLER
from tests.pg import PgBouncer

#: through the pooler: a process's own pool of 4 connections, served by PgBouncer's 2
POOLED = PoolSettings(size=4, timeout=30.0, pooler=TRANSACTION_POOLER)
#: the timeouts every transaction has: a lock waited for, a statement
LOCK_TIMEOUT, STATEMENT_TIMEOUT = f"{BUSY_TIMEOUT_SECONDS:g}s", f"{4 * BUSY_TIMEOUT_SECONDS:g}s"
#: the rate limits on, and high enough that the players below stay within them
LIMITS = Limits(user_burst=200, user_per_minute=60, chat_burst=400, chat_per_minute=120)


@pytest.fixture
def bouncer(pg_server: object, tmp_path: Path) -> Iterator[PgBouncer]:
    started = PgBouncer(pg_server.url(), tmp_path / "pgbouncer")  # type: ignore[attr-defined]
    yield started
    started.stop()


@pytest.fixture
async def database(pg_server: object) -> AsyncIterator[str]:
    """A fresh migrated database's name (reached through the bouncer or directly)."""
    url = await pg_server.fresh_database()  # type: ignore[attr-defined]
    yield url.partition("?")[0].rsplit("/", 1)[1]
    pg_server.give_back(url)  # type: ignore[attr-defined]


async def _bounced_core(bouncer: PgBouncer, database: str) -> Core:
    return await open_core(
        bouncer.url(database),
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
        limits=LIMITS,
        pool=POOLED,
    )


def _no_failure(replies: list[object]) -> None:
    keys = [reply.key for reply in replies]  # type: ignore[attr-defined]
    assert not any(key.startswith("error.") for key in keys), keys


async def _solo_player(core: Core, user: str, deal: int, moves: int) -> None:
    chat = FakePlatform(core, chat_id=f"chat-{user}")
    _no_failure(await chat.say(user, f"/play canfield {deal}"))
    for _ in range(moves):
        _no_failure(await chat.say(user, "/move d"))
    session = await core.sessions.solo_of("fake", chat.chat_id, user)
    assert session is not None and session.game is not None
    assert len(session.game.moves) == moves
    # every move the player made is stored, in order
    assert await core.store.sessions.moves(session.id) == [str(m) for m in session.game.moves]


async def _table_player(core: Core, user: str, moves: int) -> None:
    group = FakePlatform(core, chat_id=f"table-{user}")
    for text in ("/challenge", "/addbot", "/start"):
        _no_failure(await group.say(user, text))
    table = await core.sessions.table_of("fake", group.chat_id)
    assert table is not None and table.game is not None
    for _ in range(moves):
        if table.game.outcome is not None:
            break
        move = str(table.game.legal_moves(user)[0])
        replies = await group.say(user, f"/move {move}")
        _no_failure(replies)
        assert "tables.plays" in [reply.key for reply in replies]
    # the player's moves and the computer's answers, all stored
    assert await core.store.sessions.moves(table.id) == list(table.game.moves)


async def _daily_player(core: Core, user: str) -> None:
    chat = FakePlatform(core, chat_id=f"daily-{user}")
    replies = await chat.say(user, "/daily freecell")
    _no_failure(replies)
    session = await core.sessions.solo_of("fake", chat.chat_id, user)
    assert session is not None and session.record.game_id == "freecell"
    attempts = await core.store.fetch(
        "SELECT session_id FROM daily_attempts WHERE player_id = ?", (user,)
    )
    assert attempts == [(session.id,)]


async def _forgotten_player(core: Core, user: str) -> None:
    chat = FakePlatform(core, chat_id=f"forget-{user}")
    _no_failure(await chat.say(user, "/play canfield 9"))
    _no_failure(await chat.say(user, "/move d"))
    _no_failure(await chat.say(user, "/forgetme confirm"))
    rows = await core.store.fetch("SELECT user_id FROM chat_players WHERE user_id = ?", (user,))
    assert rows == []


async def test_two_processes_play_through_pgbouncer_and_keep_every_move(
    bouncer: PgBouncer, database: str
) -> None:
    first, second = await _bounced_core(bouncer, database), await _bounced_core(bouncer, database)
    try:
        work = [
            *(
                _solo_player(core, f"p{n}-{i}", 3 + n, 12)
                for n, core in enumerate((first, second))
                for i in range(4)
            ),
            _table_player(first, "tina", 6),
            _table_player(second, "tom", 6),
            _daily_player(first, "dora"),
            _daily_player(second, "dave"),
            _forgotten_player(first, "gil"),
            _forgotten_player(second, "gus"),
        ]
        await asyncio.wait_for(asyncio.gather(*work), 300)
        # one process sees what the other stored
        on_second = await second.store.fetch(
            "SELECT COUNT(*) FROM sessions WHERE chat_id LIKE ?", ("chat-p0-%",)
        )
        assert on_second == [(4,)]
    finally:
        await first.close()
        await second.close()


async def test_the_schema_is_migrated_through_pgbouncer_and_checked_at_start(
    pg_server: object, bouncer: PgBouncer
) -> None:
    url = await pg_server.fresh_database(migrated=False)  # type: ignore[attr-defined]
    name = url.partition("?")[0].rsplit("/", 1)[1]
    settings = Settings.from_mapping(
        {"DATABASE_URL": bouncer.url(name), "DATABASE_POOLER": "transaction"}
    )
    assert await asyncio.to_thread(admin.migrate, settings) == 0
    # a bot that does not migrate itself checks the schema through the pooler too
    await check_schema(settings, console=False)
    store = await Storage.open(pg_server.url(name), migrate=False)  # type: ignore[attr-defined]
    try:
        assert await store.fetch("SELECT MAX(version) FROM schema_version") == [(LATEST,)]
    finally:
        await store.close()


async def test_rate_limits_count_through_pgbouncer(bouncer: PgBouncer, database: str) -> None:
    core = await open_core(
        bouncer.url(database),
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
        limits=Limits(user_burst=3, user_per_minute=1, chat_burst=0),
        pool=POOLED,
    )
    try:
        chat = FakePlatform(core)
        keys = [[r.key for r in await chat.say("ana", "/help")] for _ in range(5)]
        # the fourth /help in a burst of 3 is refused (said once, then silence), whichever
        # server connection counted the tokens
        assert keys == [["help.text"]] * 3 + [["error.slow_down"], []], keys
    finally:
        await core.close()


async def test_many_clients_sharing_two_servers_get_their_own_statements_answers(
    bouncer: PgBouncer, database: str
) -> None:
    """Statements of different shapes (parameter counts and types) from many clients at once,
    through 2 server connections: an unnamed statement bound on another client's server, or a
    named one looked for there, would fail or answer another statement's result."""
    stores = [await Storage.open(bouncer.url(database), pool=POOLED) for _ in range(3)]

    async def client(store: Storage, n: int) -> None:
        for i in range(40):
            if i % 3 == 0:
                assert await store.fetch("SELECT ?::int + ?::int", (n, i)) == [(n + i,)]
            elif i % 3 == 1:
                assert await store.fetch("SELECT ?::text || '-' || ?::text", (f"c{n}", str(i))) == [
                    (f"c{n}-{i}",)
                ]
            else:
                async with store.backend.transaction() as tx:
                    rows = await tx.fetch(
                        "SELECT ?::int * 2, current_setting('lock_timeout')", (n,)
                    )
                    assert rows == [(2 * n, LOCK_TIMEOUT)]

    try:
        await asyncio.wait_for(asyncio.gather(*(client(stores[n % 3], n) for n in range(24))), 300)
    finally:
        for store in stores:
            await store.close()


async def test_without_the_pooler_setting_pgbouncer_refuses_the_connection(
    bouncer: PgBouncer, database: str
) -> None:
    """What the setting is for: the plain configuration's timeouts are startup parameters,
    which PgBouncer does not accept."""
    with pytest.raises(StorageError, match="cannot connect"):
        await Storage.open(bouncer.url(database), pool=PoolSettings(size=2, timeout=5.0))


async def test_the_plain_configuration_keeps_its_timeouts_on_the_session(
    pg_server: object, database: str
) -> None:
    store = await Storage.open(pg_server.url(database))  # type: ignore[attr-defined]
    try:
        # outside any transaction too: the session's own settings
        assert await store.fetch(
            "SELECT current_setting('lock_timeout'), current_setting('statement_timeout')"
        ) == [(LOCK_TIMEOUT, STATEMENT_TIMEOUT)]
        async with store.backend.transaction() as tx:
            assert await tx.fetch("SELECT current_setting('lock_timeout')") == [(LOCK_TIMEOUT,)]
    finally:
        await store.close()


async def test_behind_the_pooler_a_transaction_sets_its_timeouts_and_leaves_none_behind(
    bouncer: PgBouncer, database: str
) -> None:
    store = await Storage.open(bouncer.url(database), pool=POOLED)
    try:
        async with store.backend.transaction() as tx:
            assert await tx.fetch(
                "SELECT current_setting('lock_timeout'), current_setting('statement_timeout')"
            ) == [(LOCK_TIMEOUT, STATEMENT_TIMEOUT)]
        # SET LOCAL: the server connection, another client's next, keeps the server's defaults
        assert await store.fetch("SELECT current_setting('lock_timeout')") == [("0",)]
    finally:
        await store.close()


async def test_behind_the_pooler_without_server_timeouts_the_start_says_what_to_set(
    bouncer: PgBouncer, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Storage.open(bouncer.url(database), pool=POOLED)
    await store.close()
    warned = [r.getMessage() for r in caplog.records if "DATABASE_POOLER" in r.getMessage()]
    assert len(warned) == 1 and "ALTER ROLE ... SET lock_timeout" in warned[0], warned


async def test_with_the_documented_connect_query_a_statement_alone_has_the_timeouts_too(
    pg_server: object, database: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """deploy/pgbouncer/pgbouncer.ini's connect_query: a move stored by one statement, outside
    any transaction, waits for a lock at most lock_timeout there too."""
    ini = (Path(__file__).parents[2] / "deploy" / "pgbouncer" / "pgbouncer.ini").read_text()
    query = ini.split("connect_query='", 1)[1].split("'", 1)[0]
    with_timeouts = PgBouncer(
        pg_server.url(),  # type: ignore[attr-defined]
        tmp_path / "pgbouncer",
        connect_query=query,
    )
    try:
        store = await Storage.open(with_timeouts.url(database), pool=POOLED)
        try:
            assert await store.fetch(
                "SELECT current_setting('lock_timeout'), current_setting('statement_timeout')"
            ) == [(LOCK_TIMEOUT, STATEMENT_TIMEOUT)]
        finally:
            await store.close()
    finally:
        with_timeouts.stop()
    assert not [r for r in caplog.records if "DATABASE_POOLER" in r.getMessage()]


async def test_a_failed_transaction_behind_the_pooler_is_rolled_back(
    bouncer: PgBouncer, database: str
) -> None:
    store = await Storage.open(bouncer.url(database), pool=POOLED)
    try:
        with pytest.raises(StorageError):
            async with store.backend.transaction() as tx:
                await tx.execute("UPDATE schema_version SET version = version + 1000")
                await tx.fetch("SELECT 1 / 0")
        assert max(row[0] for row in await store.fetch("SELECT version FROM schema_version")) < 1000
    finally:
        await store.close()


def test_the_pooler_setting_reaches_the_pool_and_a_wrong_one_is_refused() -> None:
    assert Settings.from_mapping({"DATABASE_POOLER": "Transaction"}).pool.pooler == "transaction"
    assert Settings.from_mapping({}).pool.pooler is None
    with pytest.raises(ValueError, match="DATABASE_POOLER must be transaction"):
        Settings.from_mapping({"DATABASE_POOLER": "session"})
