"""Claims: work that must happen once however many bot processes run (a table's turn timeout,
the idle sweep, a race's clock, a day's deal choice).

A claim is a row ``(name, holder, expires_at)``. ``take`` takes it in one statement (an
insert that, on conflict, takes the row over only when its lease has run out or the holder is
the same), so of N processes asking at once exactly one gets it. The holder renews the lease
while it works and releases the claim when done; a holder that dies leaves a lease that
expires, and the next process to ask takes over. The work itself re-reads what it acts on
after taking the claim (a deadline another process already handled is seen as handled).

>>> import asyncio
>>> from bot.storage import Storage
>>> async def demo():
...     store = await Storage.open("sqlite:///:memory:")
...     first = await store.claims.take("sweep", "a", 30, now=1000.0)
...     second = await store.claims.take("sweep", "b", 30, now=1010.0)
...     after_lease = await store.claims.take("sweep", "b", 30, now=1031.0)
...     await store.close()
...     return first, second, after_lease
>>> asyncio.run(demo())
(True, False, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from bot.storage.backend import Backend
from bot.storage.base import Store
from bot.storage.errors import StorageBusy

log = logging.getLogger("tavolo.storage.claims")

#: the default lease: long enough for any once-only job's step, short enough that a dead
#: process's work is taken over within a minute
DEFAULT_LEASE_SECONDS = 30.0


def new_holder() -> str:
    """A name for this process's claims: host, pid and a random part (a restarted process
    with a recycled pid is still another holder)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True, slots=True)
class Claim:
    """Who holds a claim, and until when (seconds since the epoch)."""

    name: str
    holder: str
    expires_at: float


class ClaimsStore(Store):
    """Claims with a lease (``storage.claims``)."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        #: this process's (this ``Storage``'s) holder name
        self.holder = new_holder()
        #: the time leases are measured in (seconds since the epoch); tests set their own
        self.clock: Callable[[], float] = time.time

    async def take(
        self, name: str, holder: str, lease_seconds: float, now: float | None = None
    ) -> bool:
        """Take the claim ``name`` for ``lease_seconds``: True when ``holder`` has it now
        (it was free, its lease had run out, or ``holder`` held it already)."""
        moment = self.clock() if now is None else now
        async with self._transaction() as tx:
            changed = await tx.execute(
                "INSERT INTO claims (name, holder, expires_at) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at "
                "WHERE claims.expires_at <= ? OR claims.holder = excluded.holder",
                (name, holder, moment + lease_seconds, moment),
            )
        return changed == 1

    async def renew(
        self, name: str, holder: str, lease_seconds: float, now: float | None = None
    ) -> bool:
        """Push the lease of a claim ``holder`` holds; False when it is no longer theirs."""
        moment = self.clock() if now is None else now
        async with self._transaction() as tx:
            changed = await tx.execute(
                "UPDATE claims SET expires_at = ? WHERE name = ? AND holder = ?",
                (moment + lease_seconds, name, holder),
            )
        return changed == 1

    async def release(self, name: str, holder: str) -> None:
        """Give a claim back (only the holder's own)."""
        async with self._transaction() as tx:
            await tx.execute("DELETE FROM claims WHERE name = ? AND holder = ?", (name, holder))

    async def get(self, name: str) -> Claim | None:
        """Who holds the claim ``name`` and until when; None when nobody holds it."""
        rows = await self._fetch("SELECT holder, expires_at FROM claims WHERE name = ?", (name,))
        return Claim(name, str(rows[0][0]), float(rows[0][1])) if rows else None

    @contextlib.asynccontextmanager
    async def hold(
        self, name: str, lease_seconds: float = DEFAULT_LEASE_SECONDS
    ) -> AsyncIterator[bool]:
        """``async with store.claims.hold("sweep") as mine:`` -- ``mine`` is True when this process
        took the claim; then the lease is renewed in the background while the block runs and
        the claim released after it. False: another process is doing this work now."""
        if not await self.take(name, self.holder, lease_seconds):
            yield False
            return
        renewer = asyncio.create_task(self._keep_renewing(name, lease_seconds))
        try:
            yield True
        finally:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
            try:
                await self.release(name, self.holder)
            except StorageBusy as error:  # the lease runs out by itself
                log.warning("claim %s not released (it expires with its lease): %s", name, error)

    async def _keep_renewing(self, name: str, lease_seconds: float) -> None:
        while True:
            await asyncio.sleep(lease_seconds / 3)
            try:
                if not await self.renew(name, self.holder, lease_seconds):
                    log.warning("claim %s was taken over while held", name)
                    return
            except StorageBusy as error:
                log.warning("claim %s not renewed: %s", name, error)
