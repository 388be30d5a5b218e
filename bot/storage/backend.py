"""The interface behind ``Storage``, and what its two backends share: SQLite
(``bot.storage.sqlite``, aiosqlite, the embedded default) and PostgreSQL
(``bot.storage.postgres``, asyncpg, the ``tavolo[postgres]`` extra).

Both speak the same small interface: ``fetch`` (a read), ``fetch_many`` (several reads at
once), ``transaction()`` (statements that commit together or not at all) and ``close``. SQL is
written once with ``?`` placeholders; PostgreSQL gets them numbered (``$1``...). Every driver
error leaves a backend as a storage error: ``StorageBusy`` (locked beyond a bounded wait,
read-only, full, connection lost), ``AlreadyExists`` (a unique rule refused an insert) or
``StorageError``. A transaction's statements are queued (``Tx.add``) and run together with the
next statement whose answer the code awaits, or with the ``COMMIT``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Protocol

from bot.storage.errors import AlreadyExists, StorageBusy, StorageError

log = logging.getLogger("tavolo.storage")

#: how long a write waits for another process's write lock before the player hears "busy"
#: (another process may hold it for up to 30 s; the player must get an answer, not a hang)
BUSY_TIMEOUT_SECONDS = 3.0
#: how long a write that is worth less than a reply's delay (a player's sighting) waits
SHORT_WAIT_SECONDS = 0.2
#: how often, at most, a backend whose file went away tries to open it again
REOPEN_EVERY_SECONDS = 2.0
#: what a write that touches the data without changing it looks like: the readiness probe's
#: proof that the database takes a write (read-only, full, locked, gone: it fails)
PROBE_WRITE = (
    "UPDATE schema_version SET version = version "
    "WHERE version = (SELECT MAX(version) FROM schema_version)"
)
PROBE_READ = "SELECT MAX(version) FROM schema_version"

Params = Sequence[Any]


class Tx(Protocol):
    """The statements of one transaction."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""

    async def fetch(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        """The rows of one query, inside the transaction."""

    def add(
        self,
        sql: str,
        params: Params = (),
        *,
        expect: int | None = None,
        refuse: Callable[[], BaseException] | None = None,
        returning: bool = False,
        only_if: Callable[[], bool] | None = None,
    ) -> Queued:
        """Queue one statement: it runs, in order, with the next ``execute``/``fetch`` or at
        the commit (on SQLite in the same hand-off to the database's thread: a transaction of
        queued statements is one round trip). ``expect``: the rows it must change, else
        ``refuse()`` is raised and the whole transaction undone. ``returning``: its rows are
        kept in the returned ``Queued.rows`` (read them after the transaction). ``only_if``:
        asked when its turn comes (after the statements before it ran, so it may read their
        rows); False skips it."""


class Backend(Protocol):
    dialect: str
    #: called with the seconds a write waited for the write lock (metrics), if set
    on_wait: Callable[[float], None] | None
    #: called with ``busy`` or ``error`` when an operation fails (metrics), if set
    on_error: Callable[[str], None] | None
    #: called when the database was opened anew (an SQLite file put back): whatever was kept
    #: in memory of the old file is to be forgotten
    on_reopen: Callable[[], None] | None

    async def fetch(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]: ...

    async def fetch_many(
        self, queries: Sequence[tuple[str, Params]]
    ) -> list[list[tuple[Any, ...]]]: ...

    def transaction(self, wait: bool = True) -> contextlib.AbstractAsyncContextManager[Tx]: ...

    async def run_script(self, script: str) -> None: ...

    async def problem(self) -> str | None:
        """Why the database cannot be used now, read fresh (a real table, and for SQLite the
        file itself); None when it can. Writes are probed apart (``PROBE_WRITE``)."""

    async def close(self) -> None: ...


class Queued:
    """A statement queued with ``Tx.add``: run later, its row count checked if asked, its
    rows kept in ``rows`` when it was queued ``returning``."""

    __slots__ = ("sql", "params", "expect", "refuse", "returning", "only_if", "rows")

    def __init__(
        self,
        sql: str,
        params: Params,
        expect: int | None,
        refuse: Callable[[], BaseException] | None,
        returning: bool,
        only_if: Callable[[], bool] | None = None,
    ) -> None:
        self.sql, self.params, self.expect, self.refuse = sql, tuple(params), expect, refuse
        self.returning, self.only_if = returning, only_if
        self.rows: list[tuple[Any, ...]] = []

    @property
    def skipped(self) -> bool:
        """Whether its ``only_if`` says no (asked when its turn comes)."""
        return self.only_if is not None and not self.only_if()

    def checked(self, changed: int) -> None:
        if self.expect is not None and changed != self.expect:
            raise (self.refuse or _unexpected_count)()


def _unexpected_count() -> BaseException:
    return StorageError("a statement changed another number of rows than expected")


class QueuedTx:
    """What both backends' transactions share: statements queued by ``add`` (``Tx.add``), run
    by the transaction when its next statement or its commit goes to the database."""

    def __init__(self) -> None:
        self._queued: list[Queued] = []

    def add(
        self,
        sql: str,
        params: Params = (),
        *,
        expect: int | None = None,
        refuse: Callable[[], BaseException] | None = None,
        returning: bool = False,
        only_if: Callable[[], bool] | None = None,
    ) -> Queued:
        queued = Queued(sql, params, expect, refuse, returning, only_if)
        self._queued.append(queued)
        return queued


class Observed:
    """The metrics hooks both backends call (unset: nothing is measured)."""

    on_wait: Callable[[float], None] | None = None
    on_error: Callable[[str], None] | None = None
    #: called with the seconds a request waited for a free connection (PostgreSQL's pool)
    on_pool_wait: Callable[[float], None] | None = None
    on_reopen: Callable[[], None] | None = None

    def _raise_as_storage(self, exc: BaseException, mapped: BaseException) -> NoReturn:
        """Raise ``mapped`` (what storage calls ``exc``: busy, already exists, ...) in its
        place, counted in the metrics; ``exc`` itself when it needs no other name."""
        self._failed(mapped)
        if mapped is exc:
            raise exc
        raise mapped from exc

    def _failed(self, mapped: BaseException) -> None:
        # a unique rule refusing an insert is an answer (asked twice), not a failure
        if self.on_error is None or isinstance(mapped, AlreadyExists):
            return
        if isinstance(mapped, StorageError):
            self.on_error("busy" if isinstance(mapped, StorageBusy) else "error")

    def _waited(self, since: float) -> None:
        if self.on_wait is not None:
            self.on_wait(time.perf_counter() - since)
