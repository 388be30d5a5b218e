"""The SQLite backend (aiosqlite, the embedded default): two connections per process, each on
its own thread, WAL journal.

An SQLite connection keeps working on the file it opened even after that file is deleted or
replaced (it writes on to the unlinked inode, and everything is lost at the next start), and a
connection's page cache can hide a damaged file for a long time. So every hand-off of a write
transaction first checks, on the writer's thread, that the path still names the very file that
was opened (device and inode) and that the file still starts as an SQLite database does: a
``stat`` and a 16-byte read, a few microseconds. When it does not, the write is refused as
``StorageBusy`` (the player hears "busy, nothing was changed") and the backend reopens the
path once a database is back there (a restored file), by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.backend import (
    BUSY_TIMEOUT_SECONDS,
    PROBE_READ,
    REOPEN_EVERY_SECONDS,
    SHORT_WAIT_SECONDS,
    Observed,
    Params,
    Queued,
    QueuedTx,
    Tx,
)
from bot.storage.errors import AlreadyExists, StorageBusy, StorageError
from bot.storage.migrations.dialect import SQLITE

log = logging.getLogger("tavolo.storage")

#: the first bytes of every SQLite database file
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SQLITE_BUSY_WORDS = (
    "locked",  # database is locked / database table is locked (busy timeout ran out)
    "readonly",  # attempt to write a readonly database
    "read-only",
    "disk is full",
    "disk i/o error",
    "unable to open",  # the file vanished or its folder became unreachable
)


#: what SQLite says of a damaged file (no request can be kept on it: "busy", not a crash)
_SQLITE_DAMAGE_WORDS = ("malformed", "not a database", "corrupt")


class FileChanged(StorageBusy):
    """The SQLite file is no longer the one that was opened (deleted, replaced) or no longer
    an SQLite database: nothing may be written, or acknowledged, until it is back."""


def file_identity(path: str) -> tuple[int, int] | None:
    """The device and inode of ``path`` (None when it cannot be read)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def file_problem(path: str, identity: tuple[int, int] | None) -> str | None:
    """Why the file at ``path`` is not the database opened as ``identity`` (deleted, replaced,
    damaged at its start), None when it still is. ``identity`` None: any SQLite file will do.

    >>> file_problem("/nonexistent/tavolo.db", None)
    'the database file was deleted'
    """
    try:
        with open(path, "rb") as file:
            found = os.fstat(file.fileno())
            head = file.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return "the database file was deleted"
    except OSError as error:
        return f"the database file cannot be read ({error.strerror or type(error).__name__})"
    if identity is not None and (found.st_dev, found.st_ino) != identity:
        return "the database file was replaced"
    # an empty file is a new database SQLite has not written its header to yet
    if head and head != _SQLITE_MAGIC:
        return "the database file is not an SQLite database any more"
    return None


def _check_file(path: str, identity: tuple[int, int] | None) -> None:
    """``FileChanged`` unless ``path`` is still the database opened (on the writer's thread)."""
    problem = file_problem(path, identity)
    if problem is not None:
        raise FileChanged(problem)


def sqlite_error(exc: BaseException) -> BaseException:
    """The storage error for a driver error (the original when it is not a database error)."""
    if isinstance(exc, sqlite3.DatabaseError) and any(
        word in str(exc).lower() for word in _SQLITE_DAMAGE_WORDS
    ):
        return FileChanged(f"the database file is damaged: {exc}")
    if isinstance(exc, sqlite3.IntegrityError):
        text = str(exc)
        if "UNIQUE" in text or "PRIMARY KEY" in text:
            return AlreadyExists(text)
        return StorageError(text)
    if isinstance(exc, sqlite3.OperationalError):
        if any(word in str(exc).lower() for word in _SQLITE_BUSY_WORDS):
            return StorageBusy(str(exc))
        return StorageError(str(exc))
    if isinstance(exc, sqlite3.DatabaseError):
        return StorageError(str(exc))
    if isinstance(exc, ValueError) and any(
        words in str(exc).lower() for words in ("no active connection", "connection closed")
    ):
        return StorageBusy("the database connection is closed")
    return exc


def _on_thread(db: aiosqlite.Connection, work: Callable[[sqlite3.Connection], Any]) -> Any:
    """``work(connection)`` on the aiosqlite connection's own thread: one hand-off however many
    statements it runs. Each hand-off to that thread and back costs the event loop a wake-up,
    a future and a thread switch, far more CPU than a small indexed statement; aiosqlite runs
    one per call (three for a read through a cursor), so storage hands whole reads and whole
    transactions over at once. aiosqlite has no public call for this: ``_execute`` and
    ``_conn`` are what its own methods use (tests/bot/test_storage_roundtrips.py checks them).

    The call handed over holds the sqlite3 connection, never ``db`` itself: the thread keeps
    the last call it ran, and a ``db`` it kept alive would never be collected, so one nobody
    closed (a start-up that failed) would keep its thread, and the process, from ending."""
    connection = db._conn  # ValueError once closed: storage answers "busy"
    execute: Callable[..., Awaitable[Any]] = db._execute  # aiosqlite's own, unannotated
    return execute(work, connection)


def _rows(connection: sqlite3.Connection, sql: str, params: Params) -> list[tuple[Any, ...]]:
    cursor = connection.execute(sql, tuple(params))
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _changed(connection: sqlite3.Connection, sql: str, params: Params) -> int:
    cursor = connection.execute(sql, tuple(params))
    try:
        return cursor.rowcount
    finally:
        cursor.close()


def _run_queued(statement: Queued, connection: sqlite3.Connection) -> None:
    """Run a queued statement on SQLite's thread."""
    if statement.skipped:
        return
    if statement.returning:
        statement.rows = _rows(connection, statement.sql, statement.params)
    else:
        statement.checked(_changed(connection, statement.sql, statement.params))


class _SqliteTx(QueuedTx):
    """One write transaction on the writer connection, handed to its thread as few times as
    possible: ``BEGIN IMMEDIATE`` goes with the first statement, queued statements (``add``)
    with the next one or with the ``COMMIT``."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        begin: Callable[[sqlite3.Connection], float],
        guard: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self._db = db
        #: run on the writer's thread before each hand-off: raises when the file is not the
        #: one opened (so nothing is committed, and acknowledged, on a file that is gone)
        self._guard = guard
        #: starts the transaction; returns the seconds it waited for the write lock
        self._begin: Callable[[sqlite3.Connection], float] | None = begin
        #: seconds the BEGIN waited for another process's write lock (None: not begun)
        self.waited: float | None = None

    @property
    def begun(self) -> bool:
        return self.waited is not None

    async def execute(self, sql: str, params: Params = ()) -> int:
        return int(await self._run(lambda c: _changed(c, sql, params)))

    async def fetch(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = await self._run(lambda c: _rows(c, sql, params))
        return rows

    async def commit(self) -> None:
        if self._begin is not None and not self._queued:
            return  # nothing was written: no transaction was begun
        await self._run(lambda c: c.execute("COMMIT").close())

    async def _run(self, last: Callable[[sqlite3.Connection], Any]) -> Any:
        begin, queued, guard = self._begin, self._queued, self._guard
        self._queued = []
        waited: list[float] = []  # not ``self``: see ``_on_thread``

        def work(connection: sqlite3.Connection) -> Any:
            if guard is not None:
                guard()
            if begin is not None:
                waited.append(begin(connection))
            for statement in queued:
                _run_queued(statement, connection)
            return last(connection)

        self._begin = None
        try:
            return await _on_thread(self._db, work)
        finally:
            if waited:  # begun, even when a statement after the BEGIN failed
                self.waited = waited[0]


class SqliteBackend(Observed):
    """Two aiosqlite connections per process (each on its own thread), WAL journal:

    - the writer runs every transaction, ``BEGIN IMMEDIATE`` (the write lock is taken at the
      start, so two processes never both read then both write), waiting at most
      ``BUSY_TIMEOUT_SECONDS`` for another process's lock;
    - the reader answers every read outside a transaction. In WAL mode a read needs no lock
      another process can hold, so while a backup or an operator's ``sqlite3`` holds the write
      lock (and this process's writer waits for it), ``/help``, boards and leaderboards are
      still answered at once, and a read never sees another request's uncommitted writes.

    An in-memory database (``:memory:``, tests) is one connection: a second would be another
    database. ``PRAGMA`` statements go to the writer (they set up the connection that writes).

    Every read (``fetch``, and ``fetch_many``'s several queries) is one hand-off to its
    connection's thread, and so is a transaction of queued statements (``Tx.add``) with its
    ``BEGIN`` and ``COMMIT``; a transaction's ``execute``/``fetch`` are one each (the first
    carries the ``BEGIN``)."""

    dialect = SQLITE

    def __init__(
        self,
        db: aiosqlite.Connection,
        reader: aiosqlite.Connection | None = None,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        path: str | None = None,
    ) -> None:
        self.db = db
        self.reader = reader
        self.busy_timeout = busy_timeout
        #: the database file (None in memory), and the device and inode it had when opened
        self.path = path
        self.identity = file_identity(path) if path is not None else None
        # one transaction at a time on the writer (statements never interleave)
        self._write_lock = asyncio.Lock()
        #: the file went away or was damaged: reopen the path once a database is back there
        self._lost = False
        self._reopen_tried = 0.0

    @classmethod
    async def connect(cls, path: str, busy_timeout: float = BUSY_TIMEOUT_SECONDS) -> SqliteBackend:
        db, reader = await cls._open(path, busy_timeout)
        on_disk = path != ":memory:" and not path.startswith("file:")
        return cls(db, reader, busy_timeout, path if on_disk else None)

    @staticmethod
    async def _open(
        path: str, busy_timeout: float, *, create: bool = True
    ) -> tuple[aiosqlite.Connection, aiosqlite.Connection | None]:
        """The writer and (for a file) the reader. ``create=False``: never make a new empty
        file (reopening a database that went away must not invent an empty one)."""
        on_disk = path != ":memory:" and not path.startswith("file:")
        target, uri = path, False
        if on_disk and not create:
            target, uri = Path(path).resolve().as_uri() + "?mode=rw", True
        # isolation_level=None: no implicit transactions; ``transaction()`` says BEGIN itself
        db = await aiosqlite.connect(target, timeout=busy_timeout, isolation_level=None, uri=uri)
        reader = None
        if on_disk:
            try:
                reader = await aiosqlite.connect(
                    target, timeout=busy_timeout, isolation_level=None, uri=uri
                )
                await reader.execute("PRAGMA query_only = ON")
            except BaseException:
                await db.close()
                raise
        return db, reader

    def _guard(self) -> Callable[[], None] | None:
        """The check each write hand-off runs first (holds no connection: see ``_on_thread``)."""
        if self.path is None:
            return None
        path, identity = self.path, self.identity
        return lambda: _check_file(path, identity)

    async def _reopen(self) -> None:
        """Under the write lock, after the file went away or was damaged: when a database is
        back at the path, open it anew and use it (a file that fails to open is tried again
        at most every ``REOPEN_EVERY_SECONDS``)."""
        path = self.path
        if path is None or file_problem(path, None) is not None:
            return  # nothing (usable) there yet: a stat and a read, cheap to ask every time
        now = time.monotonic()
        if now - self._reopen_tried < REOPEN_EVERY_SECONDS:
            return  # a file is there but failed to open a moment ago
        self._reopen_tried = now
        try:
            db, reader = await self._open(path, self.busy_timeout, create=False)
        except (sqlite3.Error, OSError, ValueError) as exc:
            log.warning("the database file is back but cannot be opened: %s", exc)
            return
        try:
            for pragma in (
                "PRAGMA journal_mode=WAL",
                "PRAGMA foreign_keys=ON",
                "PRAGMA synchronous=NORMAL",
                PROBE_READ,
            ):
                await db.execute(pragma)
            if reader is not None:
                await reader.execute(PROBE_READ)
        except sqlite3.Error as exc:
            log.warning("the database file is back but cannot be used: %s", exc)
            for connection in (reader, db):
                if connection is not None:
                    with contextlib.suppress(sqlite3.Error, ValueError):
                        await connection.close()
            return
        old = (self.reader, self.db)
        self.db, self.reader = db, reader
        self.identity = file_identity(path)
        self._lost = False
        for connection in old:
            if connection is not None:
                with contextlib.suppress(sqlite3.Error, ValueError):
                    await connection.close()
        log.warning("the database file is back: reopened it, writes are taken again")
        if self.on_reopen is not None:
            self.on_reopen()

    async def problem(self) -> str | None:
        """The file is still the one opened (when it is not, a reopen is tried first), and a
        connection of its own, with no page cache to hide a damaged file, reads a real table."""
        if self.path is None:
            try:
                await _on_thread(self.db, lambda c: _rows(c, PROBE_READ, ()))
            except (sqlite3.Error, ValueError) as exc:
                return f"cannot read ({sqlite_error(exc)})"
            return None
        found = file_problem(self.path, self.identity)
        if found is not None:
            self._lost = True
            if not self._write_lock.locked():
                async with self._write_lock:
                    await self._reopen()
            found = file_problem(self.path, self.identity)
            if found is not None:
                return found
        uri = Path(self.path).resolve().as_uri() + "?mode=ro"

        def fresh_read() -> None:
            connection = sqlite3.connect(uri, uri=True, timeout=self.busy_timeout)
            try:
                connection.execute(PROBE_READ).fetchall()
            finally:
                connection.close()

        try:
            await asyncio.to_thread(fresh_read)
        except sqlite3.Error as exc:
            return f"cannot read ({sqlite_error(exc)})"
        return None

    def _connection_for(self, sql: str) -> aiosqlite.Connection:
        if self.reader is not None and not sql.lstrip()[:6].upper().startswith("PRAGMA"):
            return self.reader
        return self.db

    async def fetch(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        try:
            rows: list[tuple[Any, ...]] = await _on_thread(
                self._connection_for(sql), lambda c: _rows(c, sql, params)
            )
        except (sqlite3.Error, ValueError) as exc:
            self._raise_as_storage(exc, sqlite_error(exc))
        return rows

    async def fetch_many(
        self, queries: Sequence[tuple[str, Params]]
    ) -> list[list[tuple[Any, ...]]]:
        """The rows of several reads in one hand-off (the reader's own consistent view of each;
        they are not one snapshot, as separate reads are not)."""
        if not queries:
            return []
        try:
            found: list[list[tuple[Any, ...]]] = await _on_thread(
                self._connection_for(queries[0][0]),
                lambda c: [_rows(c, sql, params) for sql, params in queries],
            )
        except (sqlite3.Error, ValueError) as exc:
            self._raise_as_storage(exc, sqlite_error(exc))
        return found

    def _begin(self, wait: bool) -> Callable[[sqlite3.Connection], float]:
        """What starts a transaction on the writer's thread (with its first statement)."""
        short, usual = int(SHORT_WAIT_SECONDS * 1000), int(self.busy_timeout * 1000)

        def begin(connection: sqlite3.Connection) -> float:
            started = time.perf_counter()
            if wait:
                connection.execute("BEGIN IMMEDIATE").close()
                return time.perf_counter() - started
            connection.execute(f"PRAGMA busy_timeout = {short}").close()
            try:
                connection.execute("BEGIN IMMEDIATE").close()
            finally:
                connection.execute(f"PRAGMA busy_timeout = {usual}").close()
            return time.perf_counter() - started

        return begin

    @contextlib.asynccontextmanager
    async def transaction(self, wait: bool = True) -> AsyncIterator[Tx]:
        """One write transaction. ``wait=False``: the locks are waited for at most
        ``SHORT_WAIT_SECONDS`` (then ``StorageBusy``): for writes worth less than a reply's
        delay."""
        since = time.perf_counter()
        if wait:
            await self._write_lock.acquire()
        else:
            try:
                await asyncio.wait_for(self._write_lock.acquire(), SHORT_WAIT_SECONDS)
            except TimeoutError:
                raise StorageBusy("busy writing: this write was not waited for") from None
        queued_at = time.perf_counter()
        try:
            if self._lost:
                await self._reopen()
            tx = _SqliteTx(self.db, self._begin(wait), self._guard())
            try:
                yield tx
                await tx.commit()
            except BaseException as exc:
                if tx.begun:
                    with contextlib.suppress(sqlite3.Error, ValueError):
                        await tx._db.execute("ROLLBACK")
                mapped = sqlite_error(exc)
                if isinstance(mapped, FileChanged) and self.path is not None:
                    if not self._lost:
                        log.error("no more writes until the database is back: %s", mapped)
                    self._lost = True
                self._raise_as_storage(exc, mapped)
            if tx.waited is not None and self.on_wait is not None:
                # the wait for this process's turn and for another process's write lock
                self.on_wait(queued_at - since + tx.waited)
        finally:
            self._write_lock.release()

    async def run_script(self, script: str) -> None:
        await self.db.executescript(script)

    async def close(self) -> None:
        try:
            if self.reader is not None:
                await self.reader.close()
        finally:
            await self.db.close()
