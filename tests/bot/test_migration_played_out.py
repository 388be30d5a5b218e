"""Migration 12: a database written before El Solitario's "Solitario" ending was renamed
(stored ``solitario``, the id of another game) reads ``played_out`` afterwards, and the
Squadratik games' faces ``squadratik_cards``, on SQLite and PostgreSQL; nothing else changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import Storage

SESSION = (
    "INSERT INTO sessions (id, platform, chat_id, kind, game_id, options, deal, players, names, "
    "creator, status, outcome, faces, created_at, last_active_at) "
    "VALUES (?, 'fake', 'c', ?, ?, '{}', 1, '[\"ana\"]', '{}', 'ana', 'over', ?, ?, "
    "'2026-01-01T00:00:00', '2026-01-01T00:00:00')"
)
RESULT = (
    "INSERT INTO results (session_id, platform, chat_id, game_id, player_id, player_name, deal, "
    "options, score, tiebreak_move, move_count, moves, outcome, won, ranked, day, finished_at) "
    "VALUES (?, 'fake', 'c', ?, 'ana', 'Ana', 1, '{}', 40, 0, 46, '[]', ?, 0, 1, '2026-01-01', "
    "'2026-01-01T00:00:00')"
)
DAILY = (
    "INSERT INTO daily (game_id, day, deal, candidate, best, line, nodes, seconds, chosen_at) "
    "VALUES (?, '2026-01-01', 7, 0, ?, '[]', 10, 0.1, '2026-01-01T00:00:00')"
)


@pytest.fixture(params=["sqlite", "postgres"])
async def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    return await request.getfixturevalue("pg_server").fresh_database(migrated=False)


async def test_an_old_el_solitario_ending_reads_played_out_and_other_games_keep_theirs(url: str):
    store = await Storage.open(url)
    try:
        # the database as migration 11 left it: the ending stored under the other game's id
        async with store.backend.transaction() as tx:
            await tx.execute("DELETE FROM schema_version WHERE version >= 12")
            rows = [
                ("s1", "squadratik", "solitario"),
                ("s2", "squadratik", "completo"),
                ("s3", "solitario", "stalled"),
            ]
            for sid, game, outcome in rows:
                await tx.execute(SESSION, (sid, "solo", game, outcome, "francesi"))
                await tx.execute(RESULT, (sid, game, outcome))
            await tx.execute(SESSION, ("t1", "table", "maestras", "finished", "squadratik"))
            await tx.execute(DAILY, ("squadratik", "solitario"))
            await tx.execute(DAILY, ("canfield", "won"))
    finally:
        await store.close()

    store = await Storage.open(url)  # migrates again: 12 only
    try:
        assert await store.schema_version() >= 12
        sessions = await store.fetch("SELECT id, outcome, faces FROM sessions ORDER BY id")
        results = await store.fetch("SELECT session_id, outcome FROM results ORDER BY session_id")
        daily = await store.fetch("SELECT game_id, best FROM daily ORDER BY game_id")
    finally:
        await store.close()
    expected = [("s1", "played_out"), ("s2", "completo"), ("s3", "stalled")]
    assert [tuple(row[:2]) for row in sessions] == [*expected, ("t1", "finished")]
    # the Squadratik games' faces are the Squadratik cards; Solitario keeps its French faces
    faces = [row[2] for row in sessions]
    assert faces == ["squadratik_cards", "squadratik_cards", "francesi", "squadratik_cards"]
    assert [tuple(row) for row in results] == expected
    assert [tuple(row) for row in daily] == [("canfield", "won"), ("squadratik", "played_out")]
