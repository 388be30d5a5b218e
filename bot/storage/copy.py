"""Copying a whole database into another (SQLite to PostgreSQL when a bot outgrows one file).

The tables are read from the source's own schema, never from a list kept by hand: a table a
later migration adds is copied without anyone remembering to name it here (a hand list once
left seven tables behind, ``/web hide`` among them)."""

from __future__ import annotations

from bot.storage.base import StorageBase
from bot.storage.errors import StorageError
from bot.storage.migrations.dialect import POSTGRES, SQLITE

#: the migrations' own record: each database has it from its own migrations, never copied
SCHEMA_TABLE = "schema_version"


async def table_names(store: StorageBase) -> list[str]:
    """Every table of the bot's schema in ``store`` (``schema_version`` aside), parents before
    the tables whose rows refer to them, else by name."""
    if store.dialect == SQLITE:
        rows = await store.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        names = sorted(row[0] for row in rows if row[0] != SCHEMA_TABLE)
        parents = {
            name: {row[2] for row in await store.fetch(f"PRAGMA foreign_key_list({name})")}
            for name in names
        }
    else:
        rows = await store.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
        names = sorted(row[0] for row in rows if row[0] != SCHEMA_TABLE)
        links = await store.fetch(
            "SELECT child.relname, parent.relname FROM pg_constraint c "
            "JOIN pg_class child ON child.oid = c.conrelid "
            "JOIN pg_class parent ON parent.oid = c.confrelid "
            "JOIN pg_namespace n ON n.oid = child.relnamespace "
            "WHERE c.contype = 'f' AND n.nspname = current_schema()"
        )
        parents = {name: set() for name in names}
        for child, parent in links:
            parents.setdefault(child, set()).add(parent)
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] - {n} <= set(ordered)]
        if not ready:  # a cycle of foreign keys: none of the bot's tables has one
            ready = [n for n in names if n not in ordered]
        ordered.append(ready[0])
    return ordered


async def _columns(store: StorageBase, table: str) -> list[str]:
    if store.dialect == SQLITE:
        return [row[1] for row in await store.fetch(f"PRAGMA table_info({table})")]
    rows = await store.fetch(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
        (table,),
    )
    return [row[0] for row in rows]


async def copy_database(source: StorageBase, target: StorageBase) -> dict[str, int]:
    """Copy every row of every table of ``source`` into the empty ``target`` (both open
    ``Storage`` objects at the same schema version) in one transaction; returns the rows
    copied per table. Nothing is copied when the two schemas differ or ``target`` has rows."""
    if await source.schema_version() != await target.schema_version():
        raise StorageError("the two databases are at different schema versions")
    tables = await table_names(source)
    missing = set(tables) - set(await table_names(target))
    if missing:
        raise StorageError(f"the target database has no table {', '.join(sorted(missing))}")
    for table in tables:
        if (await target.fetch(f"SELECT COUNT(*) FROM {table}"))[0][0]:
            raise StorageError(f"the target database is not empty (it has {table})")
    copied: dict[str, int] = {}
    async with target._transaction() as tx:
        for table in tables:
            columns = await _columns(source, table)
            if set(columns) - set(await _columns(target, table)):
                raise StorageError(f"the target's table {table} has other columns")
            rows = await source.fetch(f"SELECT {', '.join(columns)} FROM {table}")
            marks = ", ".join("?" for _ in columns)
            for row in rows:
                await tx.execute(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", row
                )
            copied[table] = len(rows)
        if target.dialect == POSTGRES:
            # every counted id (results.id ...) goes on counting after the copied ids
            for table, column in await tx.fetch(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND is_identity = 'YES'"
            ):
                await tx.fetch(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                    f"COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
                )
    return copied
