"""Opening a database (SQLite file or PostgreSQL server), migrating it once, and ``Store``,
the base of each small named store of ``Storage`` (its transaction and query helpers)."""

from __future__ import annotations

import contextlib
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, Self

from bot.redact import redact
from bot.storage.backend import PROBE_WRITE, Backend, Tx
from bot.storage.errors import StorageError
from bot.storage.migrations import migration_name, migrations
from bot.storage.migrations.dialect import POSTGRES
from bot.storage.postgres import PoolSettings, PostgresBackend
from bot.storage.sqlite import SqliteBackend

DEFAULT_DATABASE_URL = "sqlite:///data/tavolo.db"
#: the command that applies pending migrations (the release step of a deploy)
MIGRATE_COMMAND = "python -m bot migrate"

log = logging.getLogger("tavolo.storage")


class SchemaBehind(StorageError):
    """The database's schema is older than this program's and it was opened without
    migrating: someone has to run ``python -m bot migrate`` (or allow ``AUTO_MIGRATE``)."""


#: the PostgreSQL advisory lock held while migrating (several processes start at once)
_MIGRATION_LOCK_KEY = 0x7A701001


def is_postgres_url(database_url: str) -> bool:
    return database_url.startswith(("postgresql://", "postgres://"))


def database_path(database_url: str) -> str:
    """The SQLite file of a ``sqlite:///relative`` or ``sqlite:////absolute`` URL.

    >>> database_path("sqlite:///data/tavolo.db"), database_path("sqlite:////tmp/x.db")
    ('data/tavolo.db', '/tmp/x.db')
    >>> database_path("sqlite:///:memory:")
    ':memory:'
    """
    prefix = "sqlite:///"
    if not database_url.startswith(prefix):
        raise StorageError(
            "DATABASE_URL must look like sqlite:///data/tavolo.db or postgresql://host/db "
            f"(got {database_url.split(':')[0]}:...)"
        )
    path = database_url[len(prefix) :]
    if not path:
        raise StorageError("DATABASE_URL names no file")
    return path


def statements(script: str) -> list[str]:
    """The statements of a migration script (comments dropped; no ``;`` inside literals).

    >>> statements("CREATE TABLE a (x TEXT); -- note; more\\nCREATE INDEX i ON a (x);")
    ['CREATE TABLE a (x TEXT)', 'CREATE INDEX i ON a (x)']
    """
    without_comments = re.sub(r"--[^\n]*", "", script)
    return [part.strip() for part in without_comments.split(";") if part.strip()]


def redacted(database_url: str) -> str:
    """A database URL safe for logs and messages: no password, in either place.

    >>> redacted("postgresql://bot:s3cret@db:5432/tavolo")
    'postgresql://bot:***@db:5432/tavolo'
    >>> redacted("postgresql:///tavolo?user=bot&password=s3cret")
    'postgresql:///tavolo?user=bot&password=***'
    """
    return redact(database_url)


def _short(error: BaseException) -> str:
    """An error's first line, without anything that looks like a path or a URL."""
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return re.sub(r"\S*[/\\]\S*", "…", text)[:120]


class Store:
    """One small named store over the shared backend (``storage.sessions``, ``storage.daily``,
    ...): its queries and transactions, nothing else."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.dialect = backend.dialect

    @contextlib.asynccontextmanager
    async def _transaction(self, wait: bool = True) -> AsyncIterator[Tx]:
        """Statements that belong together: committed at the end, all rolled back on any
        error (``StorageBusy`` / ``AlreadyExists`` / ``StorageError``, never a driver's).
        ``wait=False``: busy at once rather than wait for the write lock (SQLite)."""
        async with self.backend.transaction(wait) as tx:
            yield tx

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one parameterised query (``?`` placeholders, either backend)."""
        return await self.backend.fetch(sql, params)


class StorageBase(Store):
    """The connection, migrations and raw statements (see ``bot.storage.Storage``)."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The raw rows of one parameterised query: for tools, tests and copying a whole
        database (the bot reads through the named stores)."""
        return await self._fetch(sql, params)

    @property
    def _db(self) -> Any:
        """The SQLite connection (tests and benches read the file's own state through it)."""
        return self.backend.db  # type: ignore[attr-defined]

    #: the migrations ``open`` applied, in order (empty: the schema was up to date)
    applied_migrations: tuple[int, ...] = ()

    @classmethod
    async def open(
        cls,
        database_url: str,
        create_parent: bool = False,
        pool: PoolSettings | None = None,
        migrate: bool = True,
    ) -> Self:
        """Open (and migrate) the database; ``StorageError`` when it cannot be used. ``pool``:
        PostgreSQL's connections (how many, how long a request waits for one).

        ``create_parent`` creates a missing parent folder (the default ``data/``); otherwise a
        missing folder is an error, since it usually means a mistyped path. ``migrate=False``
        applies no migration: a schema older than this program's raises ``SchemaBehind``,
        whose message names the command to run."""
        if is_postgres_url(database_url):
            backend: Backend = await PostgresBackend.connect(database_url, pool=pool)
            where = redacted(database_url)
        else:
            where = path = database_path(database_url)
            if path != ":memory:":
                target = Path(path).expanduser().resolve()
                parent = target.parent
                if not parent.is_dir():
                    if create_parent:
                        parent.mkdir(parents=True, exist_ok=True)
                    else:
                        raise StorageError(f"the folder of the database does not exist: {parent}")
                if target.is_dir():
                    # refused here: aiosqlite's thread would print a traceback of its own
                    raise StorageError(f"{path} is a folder, not a database file")
            try:
                backend = await SqliteBackend.connect(path)
            except sqlite3.Error as exc:
                raise StorageError(f"cannot open the database {path}: {exc}") from exc
        store = cls(backend)
        try:
            await store._check_and_migrate(where, migrate)
        except BaseException:
            await backend.close()
            raise
        return store

    async def _check_and_migrate(self, where: str, migrate: bool = True) -> None:
        if self.dialect == POSTGRES:
            await self._migrate(where, migrate)
            return
        try:
            rows = await self.backend.fetch("PRAGMA quick_check")
        except StorageError as exc:
            raise StorageError(f"{where} is not a usable SQLite database: {exc}") from exc
        if [r[0] for r in rows] != ["ok"]:
            problems = "; ".join(str(r[0]) for r in rows[:3])
            raise StorageError(f"{where} is corrupt (integrity check: {problems})")
        try:
            if where != ":memory:":
                await self.backend.fetch("PRAGMA journal_mode=WAL")
            await self.backend.fetch("PRAGMA foreign_keys=ON")
            await self.backend.fetch("PRAGMA synchronous=NORMAL")
        except StorageError as exc:
            raise StorageError(f"cannot prepare the database {where}: {exc}") from exc
        await self._migrate(where, migrate)

    async def _migrate(self, where: str, migrate: bool = True) -> None:
        """Apply the missing migrations, once however many processes start together: the
        check and the scripts run under the write lock (SQLite ``BEGIN IMMEDIATE``,
        PostgreSQL an advisory lock held to the end of the transaction). Each one is logged;
        with ``migrate`` False none is applied and a schema behind raises ``SchemaBehind``."""
        scripts = migrations(self.dialect)
        latest = scripts[-1][0]
        # Up to date (the usual start): read only, so a read-only file still serves reads.
        try:
            current = await self.schema_version()
        except StorageError:
            current = 0  # no schema_version table yet: a new database
        if current == latest:
            return
        if not migrate and current < latest:
            state = f"is at schema version {current}" if current else "has no schema yet"
            raise SchemaBehind(
                f"{where} {state}; this program needs version {latest}: run `{MIGRATE_COMMAND}` "
                "(after a backup), or set AUTO_MIGRATE=1 to let this process migrate it"
            )
        applied: list[int] = []
        created = False
        try:
            async with self.backend.transaction() as tx:
                if self.dialect == POSTGRES:
                    await tx.fetch("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK_KEY,))
                await tx.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                )
                (current,) = (await tx.fetch("SELECT MAX(version) FROM schema_version"))[0]
                current = current or 0
                if current > latest:
                    raise StorageError(
                        f"{where} has schema version {current}, newer than this program's {latest}"
                    )
                # a new database gets one line; an existing one a line per migration
                created = current == 0
                for version, script in scripts:
                    if version > current:
                        if not created:
                            log.info(
                                "%s: applying migration %d (%s)",
                                where,
                                version,
                                migration_name(version),
                            )
                        for statement in statements(script):
                            await tx.execute(statement)
                        await tx.execute(
                            "INSERT INTO schema_version (version) VALUES (?)", (version,)
                        )
                        applied.append(version)
        except StorageError as exc:
            if "schema version" in str(exc):
                raise
            raise StorageError(f"cannot prepare the database {where}: {exc}") from exc
        self.applied_migrations = tuple(applied)
        if applied and created:
            log.info("%s: a new database, its schema created at version %d", where, latest)
        elif applied:
            log.info(
                "%s: schema at version %d (%d migrations applied)", where, latest, len(applied)
            )

    async def close(self) -> None:
        await self.backend.close()

    async def problem(self) -> str | None:
        """Why the database cannot keep what the bot writes now, None when it can: a real
        table read fresh (for SQLite: still the file that was opened, on a connection of its
        own), then a write that changes nothing (a read-only, full, locked or vanished
        database refuses it). Words only: never a path or a URL."""
        found = await self.backend.problem()
        if found is not None:
            return found
        try:
            async with self.backend.transaction() as tx:
                await tx.execute(PROBE_WRITE)
        except StorageError as exc:
            return f"cannot write ({_short(exc)})"
        return None

    async def schema_version(self) -> int:
        rows = await self.backend.fetch("SELECT MAX(version) FROM schema_version")
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    async def write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run parameterised statements in one committed transaction (all or nothing)."""
        async with self._transaction() as tx:
            for sql, params in statements:
                await tx.execute(sql, params)
