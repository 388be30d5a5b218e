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


#: ``PoolSettings.pooler`` for a pooler that hands a server connection to a client for one
#: transaction at a time (PgBouncer's ``pool_mode = transaction``)
TRANSACTION_POOLER = "transaction"


@dataclass(frozen=True, slots=True)
class PoolSettings:
    """The PostgreSQL pool of one process: at most ``size`` connections, and a request waits
    at most ``timeout`` seconds for one (then it is answered "busy", nothing changed).
    ``pooler``: ``TRANSACTION_POOLER`` when the server is reached through a pooler in
    transaction mode (``DATABASE_POOLER``), else None."""

    size: int = 10
    timeout: float = 5.0
    pooler: str | None = None


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
        #: behind a transaction pooler: what opens a transaction, its timeouts set in the same
        #: round trip (None: asyncpg's BEGIN, the timeouts being the session's)
        self._begin: str | None = None

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
        timeouts = {
            "lock_timeout": str(int(busy_timeout * 1000)),
            "statement_timeout": str(int(busy_timeout * 4000)),
        }
        # asyncpg's own bound on every statement (it cancels the query then): the client's side
        # of every wait, with or without a pooler
        options: dict[str, Any] = {"command_timeout": busy_timeout * 5}
        if pool_settings.pooler == TRANSACTION_POOLER:
            # Nothing may outlive a transaction: the server connection is another client's
            # after it. No named prepared statements (asyncpg's cache keeps them on the
            # connection): each statement is parsed unnamed, then run, on one server (asyncpg
            # follows Parse/Describe with Flush, not Sync, so the pooler keeps the server
            # until the Bind/Execute's Sync; two exchanges a statement). The timeouts are not startup parameters (PgBouncer
            # refuses those) but SET LOCAL in each transaction's BEGIN (``_begin``).
            options["statement_cache_size"] = 0
        else:
            options["server_settings"] = timeouts
        try:
            connections = await asyncpg.create_pool(
                dsn,
                min_size=1,
                max_size=pool_settings.size,
                timeout=10,
                reset=_keep_session,
                **options,
            )
        except Exception as exc:  # bad host, refused, bad password, unknown database ...
            # redacted: a driver may quote the DSN it was given, password and all
            raise StorageError(
                redact(f"cannot connect to PostgreSQL: {type(exc).__name__}: {exc}")
            ) from None
        backend = cls(connections, pool_settings)
        if pool_settings.pooler == TRANSACTION_POOLER:
            backend._begin = "BEGIN; " + "; ".join(
                f"SET LOCAL {name} = {value}" for name, value in timeouts.items()
            )
            await backend._check_server_timeouts(busy_timeout)
        return backend

    async def _check_server_timeouts(self, busy_timeout: float) -> None:
        """Behind a transaction pooler a statement run alone (a move, a request's rate-limit
        tokens, a read) has the server connection's own timeouts, which Tavolo cannot set:
        say so at start when the server's are off (asyncpg's ``command_timeout`` still
        bounds each statement, but a lock is then waited for that long)."""
        try:
            rows = await self.fetch(
                "SELECT current_setting('lock_timeout'), current_setting('statement_timeout')"
            )
        except StorageError:
            return  # the server's problem is told by the first request (and /readyz)
        if "0" in rows[0]:
            log.warning(
                "DATABASE_POOLER=transaction: the server connections have no lock_timeout or "
                "statement_timeout (lock_timeout=%s, statement_timeout=%s): set them on the "
                "role (ALTER ROLE ... SET lock_timeout = '%ds') or in the pooler's "
                'connect_query (README, "Running behind PgBouncer")',
                *rows[0],
                int(busy_timeout),
            )

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
            async with self._connection() as conn, self._transaction_on(conn):
                self._waited(since)
                tx = _PostgresTx(conn)
                yield tx
                await tx.flush()
        except Exception as exc:
            self._raise_as_storage(exc, postgres_error(exc))

    def _transaction_on(self, conn: Any) -> contextlib.AbstractAsyncContextManager[Any]:
        if self._begin is None:
            return conn.transaction()  # type: ignore[no-any-return]
        return self._begun(conn, self._begin)

    @staticmethod
    @contextlib.asynccontextmanager
    async def _begun(conn: Any, begin: str) -> AsyncIterator[None]:
        """A transaction opened by ``begin`` (its SET LOCALs with it, one round trip),
        committed at the end, rolled back on an error."""
        await conn.execute(begin)
        try:
            yield
        except BaseException:
            if not conn.is_closed():
                # a lost connection is closed by the pool: the error that lost it is the news
                with contextlib.suppress(Exception):
                    await conn.execute("ROLLBACK")
            raise
        await conn.execute("COMMIT")

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
