"""Copying a whole database into another (SQLite to PostgreSQL when a bot outgrows one file)."""

from __future__ import annotations

from bot.storage.base import StorageBase
from bot.storage.errors import StorageError
from bot.storage.migrations.dialect import POSTGRES

#: every table, parents before the rows that refer to them
TABLES = (
    "sessions", "moves", "results", "settings", "players", "table_play", "ratings", "races",
    "race_entries", "daily", "daily_attempts", "player_settings", "focus", "chat_players",
)  # fmt: skip


async def copy_database(source: StorageBase, target: StorageBase) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target`` (both open ``Storage`` objects
    at the same schema version) in one transaction; returns the rows copied per table."""
    if await source.schema_version() != await target.schema_version():
        raise StorageError("the two databases are at different schema versions")
    if (await target.fetch("SELECT COUNT(*) FROM sessions"))[0][0]:
        raise StorageError("the target database is not empty (it has sessions)")
    copied: dict[str, int] = {}
    async with target._transaction() as tx:
        for table in TABLES:
            columns = [row[1] for row in await source.fetch(f"PRAGMA table_info({table})")]
            rows = await source.fetch(f"SELECT {', '.join(columns)} FROM {table}")
            marks = ", ".join("?" for _ in columns)
            for row in rows:
                await tx.execute(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", row
                )
            copied[table] = len(rows)
        if target.dialect == POSTGRES:
            # results.id keeps counting after the copied ids
            await tx.fetch(
                "SELECT setval(pg_get_serial_sequence('results', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM results"
            )
    return copied
