"""The test PostgreSQL hands every test a database nothing of an earlier test is in, even
when it is one an earlier test gave back (tests/pg.py)."""

from __future__ import annotations

import asyncpg

from bot.storage import MIGRATIONS, Storage


async def test_a_database_given_back_comes_back_empty_with_its_counters_and_connections_reset(
    pg_server,
):
    url = await pg_server.fresh_database()
    store = await Storage.open(url)
    await store.players.set_chat_language("console", "c", "es")
    leftover = await asyncpg.connect(url)  # a connection an earlier test forgot to close
    first_id = await leftover.fetchval(
        "INSERT INTO results (session_id, platform, chat_id, game_id, player_id, player_name, "
        "deal, options, score, tiebreak_move, move_count, moves, outcome, won, ranked, day, "
        "finished_at) VALUES ('s', 'p', 'c', 'g', 'a', 'a', 1, '{}', 0, 0, 0, '[]', 'won', "
        "1, 0, 'd', 'f') RETURNING id"
    )
    await store.close()
    pg_server.give_back(url)

    again = await pg_server.fresh_database()
    assert again == url  # the same database, emptied
    assert leftover.is_closed() or await _is_terminated(leftover)
    store = await Storage.open(again)
    try:
        assert await store.players.chat_language("console", "c") is None
        versions = await store.fetch("SELECT version FROM schema_version ORDER BY version")
        assert [v for (v,) in versions] == [v for v, _ in MIGRATIONS]
        second = await store.fetch(
            "INSERT INTO results (session_id, platform, chat_id, game_id, player_id, "
            "player_name, deal, options, score, tiebreak_move, move_count, moves, outcome, won, "
            "ranked, day, finished_at) VALUES ('s', 'p', 'c', 'g', 'a', 'a', 1, '{}', 0, 0, 0, "
            "'[]', 'won', 1, 0, 'd', 'f') RETURNING id"
        )
        assert second[0][0] == first_id  # the identity counter started over
    finally:
        await store.close()
        pg_server.give_back(again)


async def _is_terminated(conn: asyncpg.Connection) -> bool:
    try:
        await conn.fetchval("SELECT 1")
    except (asyncpg.PostgresError, asyncpg.InterfaceError, ConnectionError, OSError):
        return True
    return False
