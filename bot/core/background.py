"""The core's background work: the idle sweep (solo games idle for 24 h end as resigned, one
process at a time) and the tick (turn timers and race clocks that ran out, stored deadlines
resumed after a restart), each a task that runs its job every so often until stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.core.service import IDLE_LIMIT, Service
from bot.storage import StorageBusy

log = logging.getLogger("tavolo.core")

#: how often the background sweep looks for idle games
SWEEP_INTERVAL_SECONDS = 600.0
#: how often the background task looks at the stored deadlines (turn timers, race clocks)
TICK_SECONDS = 5.0


class Background:
    """The sweep and the tick of one core, and their tasks once started."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.sweeper: asyncio.Task[None] | None = None
        self.ticker: asyncio.Task[None] | None = None

    def start(self, sweep_interval: float) -> None:
        """Sweep every ``sweep_interval`` seconds and tick every ``TICK_SECONDS``."""
        self.sweeper = asyncio.create_task(self._every(sweep_interval, self.sweep))
        # Turn timers and race clocks are stored deadlines: this resumes them after a restart.
        self.ticker = asyncio.create_task(self._every(TICK_SECONDS, self.tick))

    async def stop(self) -> None:
        """Cancel the tasks and wait until they have stopped."""
        for task in (self.sweeper, self.ticker):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.sweeper = self.ticker = None

    async def tick(self) -> int:
        """Act on the turn timers and race clocks that ran out by the core's clock (the
        background task calls this every few seconds; tests call it after moving the clock).
        A busy database puts them off to the next tick."""
        handled = 0
        try:
            now = self.service.clock()
            for ticker in self.service.registry.tickers:
                handled += await ticker(now)
        except StorageBusy as error:
            log.warning("storage busy, timers put off to the next tick: %s", error)
        return handled

    async def sweep(self) -> int:
        """End every solo game idle for 24 h as resigned; returns how many were ended. A busy
        database ends this round early (the next sweep takes the rest)."""
        try:
            # one process sweeps at a time; the next round (any process) reads what is left
            async with self.service.store.claims.hold("sweep") as mine:
                return await self._sweep() if mine else 0
        except StorageBusy as error:
            log.warning("storage busy, idle sweep put off: %s", error)
            return 0

    async def _sweep(self) -> int:
        ended = 0
        try:
            now = self.service.clock()
            # the keyed hashes of ranked dailies that can no longer be played go
            await self.service.store.daily.prune_ranked(now.date().isoformat())
            for record in await self.service.store.sessions.active_solo():
                if now - datetime.fromisoformat(record.last_active_at) < IDLE_LIMIT:
                    continue
                session = await self.service.sessions.get(record.id)
                if session is None:
                    continue
                async with self.service.sessions.lock(session.id):
                    if await self.service.expire_if_idle(session, now):
                        ended += 1
                        lang = await self.service.chat_language(record.platform, record.chat_id)
                        name = session.name_of(record.players[0])
                        await self.service.push(
                            record.platform,
                            record.chat_id,
                            self.service.reply(lang, "game.expired_notice", name=name),
                        )
        except StorageBusy as error:
            log.warning("storage busy, idle sweep put off: %s", error)
        return ended

    async def _every(self, interval: float, job: Callable[[], Awaitable[int]]) -> None:
        """A background task: ``job`` every ``interval`` seconds until cancelled."""
        while True:
            await asyncio.sleep(interval)
            try:
                await job()
            except Exception:
                log.exception("background %s failed", getattr(job, "__name__", "job"))
