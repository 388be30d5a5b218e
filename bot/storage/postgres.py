"""The PostgreSQL backend (asyncpg, the ``tavolo[postgres]`` extra): a pool of connections,
each request in as few round trips as it can (``docs/storage.md``, "What a request costs the
database").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.redact import redact
from bot.storage.backend import BUSY_TIMEOUT_SECONDS, PROBE_READ, Observed, Params, QueuedTx, Tx
from bot.storage.errors import AlreadyExists, StorageBusy, StorageError
from bot.storage.migrations.dialect import POSTGRES

log = logging.getLogger("tavolo.storage")

_PLACEHOLDER = re.compile(r"\?")


def numbered(sql: str) -> str:
    """``?`` placeholders numbered for PostgreSQL (our SQL has no ``?`` inside literals).

    >>> numbered("SELECT a FROM t WHERE b = ? AND c IN (?, ?)")
    'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)'
    """
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)


def postgres_error(exc: BaseException) -> BaseException:
    """The storage error for an asyncpg error (the original when it is not a database error)."""
    import asyncpg  # the optional extra: only imported once PostgreSQL is in use

    if isinstance(exc, asyncpg.UniqueViolationError):
        return AlreadyExists(str(exc))
    busy = (
        asyncpg.LockNotAvailableError,
        asyncpg.QueryCanceledError,  # statement or lock timeout
        asyncpg.DeadlockDetectedError,
        asyncpg.SerializationError,
        asyncpg.ReadOnlySQLTransactionError,
        asyncpg.DiskFullError,
        asyncpg.InsufficientResourcesError,
        asyncpg.TooManyConnectionsError,
        asyncpg.CannotConnectNowError,
        asyncpg.PostgresConnectionError,
        asyncpg.AdminShutdownError,
        asyncpg.InterfaceError,  # connection closed under us, pool closing
        ConnectionError,
        OSError,
        asyncio.TimeoutError,
    )
    if isinstance(exc, busy):
        return StorageBusy(f"{type(exc).__name__}: {exc}")
    if isinstance(exc, asyncpg.PostgresError):
        return StorageError(f"{type(exc).__name__}: {exc}")
    return exc


class _PostgresTx(QueuedTx):
    def __init__(self, conn: Any) -> None:
        super().__init__()
        self._conn = conn

    async def flush(self) -> None:
        """Run the queued statements, in order (each a round trip to the server)."""
        queued, self._queued = self._queued, []
        for statement in queued:
            if statement.skipped:
                continue
            if statement.returning:
                rows = await self._conn.fetch(numbered(statement.sql), *statement.params)
                statement.rows = [tuple(row) for row in rows]
            else:
                statement.checked(await self._execute(statement.sql, statement.params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        await self.flush()
        return await self._execute(sql, params)

    async def _execute(self, sql: str, params: Params) -> int:
        status = await self._conn.execute(numbered(sql), *params)
        # "UPDATE 3", "INSERT 0 1", "DELETE 0": the last word is the row count
        tail = status.rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def fetch(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        await self.flush()
        return [tuple(row) for row in await self._conn.fetch(numbered(sql), *params)]


@dataclass(frozen=True, slots=True)
class PoolSettings:
    """The PostgreSQL pool of one process: at most ``size`` connections, and a request waits
    at most ``timeout`` seconds for one (then it is answered "busy", nothing changed)."""

    size: int = 10
    timeout: float = 5.0


async def _keep_session(connection: Any) -> None:
    """The pool's reset between two uses of a connection: nothing more than asyncpg's own
    (an open transaction rolled back). Tavolo keeps no state in a database session (no
    LISTEN, cursor, session advisory lock or SET), so the default reset (unlocking advisory
    locks, closing cursors, RESET ALL) would cost a round trip after every request for
    nothing."""


def _union_of_reads(queries: Sequence[tuple[str, Params]]) -> tuple[str, tuple[Any, ...]]:
    """Several reads as one statement (one round trip): each query's rows as JSON arrays,
    tagged with the query's place and the row's, in order. The reads' columns are text and
    numbers, which JSON carries unchanged; their names must differ within a read.

    >>> sql, params = _union_of_reads([("SELECT a FROM t WHERE b = ?", (1,)), ("SELECT c FROM u", ())])
    >>> for part in sql.split(" UNION ALL "):
    ...     print(part)
    SELECT 0 AS place, row_number() OVER () AS n, row_to_json(q)::text AS r FROM (SELECT a FROM t WHERE b = ?) q
    SELECT 1 AS place, row_number() OVER () AS n, row_to_json(q)::text AS r FROM (SELECT c FROM u) q ORDER BY place, n
    >>> params
    (1,)
    """
    parts = [
        f"SELECT {place} AS place, row_number() OVER () AS n, row_to_json(q)::text AS r "
        f"FROM ({sql}) q"
        for place, (sql, _params) in enumerate(queries)
    ]
    params = tuple(value for _sql, query_params in queries for value in query_params)
    return " UNION ALL ".join(parts) + " ORDER BY place, n", params


class PostgresBackend(Observed):
    """A pool of asyncpg connections. Locks are waited for at most ``BUSY_TIMEOUT_SECONDS``
    (``lock_timeout``), a free connection at most ``PoolSettings.timeout``; a lost connection
    is replaced by the pool on the next request."""

    dialect = POSTGRES

    def __init__(self, pool: Any, settings: PoolSettings | None = None) -> None:
        self.pool = pool
        self.settings = settings or PoolSettings()
        #: requests waiting for a free connection now (the metrics' gauge)
        self.waiting = 0

    @classmethod
    async def connect(
        cls, dsn: str, busy_timeout: float = BUSY_TIMEOUT_SECONDS, pool: PoolSettings | None = None
    ) -> PostgresBackend:
        pool_settings = pool or PoolSettings()
        try:
            import asyncpg
        except ImportError as missing:
            raise StorageError(
                "DATABASE_URL names PostgreSQL: install the extra (pip install 'tavolo[postgres]')"
            ) from missing
        settings = {
            "lock_timeout": str(int(busy_timeout * 1000)),
            "statement_timeout": str(int(busy_timeout * 4000)),
        }
        try:
            connections = await asyncpg.create_pool(
                dsn,
                min_size=1,
                max_size=pool_settings.size,
                server_settings=settings,
                timeout=10,
                command_timeout=busy_timeout * 5,
                reset=_keep_session,
            )
        except Exception as exc:  # bad host, refused, bad password, unknown database ...
            # redacted: a driver may quote the DSN it was given, password and all
            raise StorageError(
                redact(f"cannot connect to PostgreSQL: {type(exc).__name__}: {exc}")
            ) from None
        return cls(connections, pool_settings)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """A connection of the pool, waited for at most ``settings.timeout`` seconds (then
        ``TimeoutError``: "busy")."""
        self.waiting += 1
        since = time.perf_counter()
        try:
            conn = await self.pool.acquire(timeout=self.settings.timeout)
        finally:
            self.waiting -= 1
            if self.on_pool_wait is not None:
                self.on_pool_wait(time.perf_counter() - since)
        try:
            yield conn
        finally:
            await self.pool.release(conn)

    async def fetch(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        try:
            async with self._connection() as conn:
                return [tuple(row) for row in await conn.fetch(numbered(sql), *params)]
        except Exception as exc:
            self._raise_as_storage(exc, postgres_error(exc))

    async def fetch_many(
        self, queries: Sequence[tuple[str, Params]]
    ) -> list[list[tuple[Any, ...]]]:
        """The rows of several reads in one round trip (one statement: ``_union_of_reads``)."""
        sql, params = _union_of_reads(queries)
        try:
            async with self._connection() as conn:
                rows = await conn.fetch(numbered(sql), *params)
        except Exception as exc:
            self._raise_as_storage(exc, postgres_error(exc))
        answers: list[list[tuple[Any, ...]]] = [[] for _ in queries]
        for place, _n, row in rows:
            answers[place].append(tuple(json.loads(row).values()))
        return answers

    @contextlib.asynccontextmanager
    async def transaction(self, wait: bool = True) -> AsyncIterator[Tx]:
        """One transaction (``wait`` is SQLite's: here every lock is waited for at most
        ``lock_timeout``, and rows, not the whole database, are locked)."""
        since = time.perf_counter()
        try:
            async with self._connection() as conn, conn.transaction():
                self._waited(since)
                tx = _PostgresTx(conn)
                yield tx
                await tx.flush()
        except Exception as exc:
            self._raise_as_storage(exc, postgres_error(exc))

    async def run_script(self, script: str) -> None:
        async with self._connection() as conn:
            await conn.execute(script)

    async def problem(self) -> str | None:
        """A real table is read (the pool opens a new connection when one was lost)."""
        try:
            await self.fetch(PROBE_READ)
        except StorageError as exc:
            # the driver's class only: its text may name the server
            return f"cannot read ({type(exc.__cause__ or exc).__name__})"
        return None

    async def close(self) -> None:
        await self.pool.close()
