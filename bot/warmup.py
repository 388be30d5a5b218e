"""Work done once in the background when the bot starts on a platform, so no player waits:
the renderer's card sprites and Squadratik card pieces, and each day's daily-challenge deals
(the Canfield solver can take tens of seconds to prove a deal), chosen again shortly after
every UTC midnight.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.features.daily import DAILY_GAMES, DailyUnavailable, daily_choice
from bot.storage import Storage

log = logging.getLogger("tavolo.warmup")

#: how long after midnight (UTC) the next day's deals are chosen
AFTER_MIDNIGHT = timedelta(seconds=30)


def seconds_until_next_day(now: datetime) -> float:
    """Seconds from ``now`` to just after the next UTC midnight.

    >>> seconds_until_next_day(datetime(2026, 3, 1, 23, 59, 0, tzinfo=UTC))
    90.0
    """
    tomorrow = (now.astimezone(UTC) + timedelta(days=1)).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    return (tomorrow + AFTER_MIDNIGHT - now).total_seconds()


async def choose_days_deals(store: Storage, now: datetime) -> dict[str, int | None]:
    """Make sure today's deal of every daily game is chosen and stored; returns game -> deal."""
    chosen: dict[str, int | None] = {}
    for game_id in DAILY_GAMES:
        try:
            choice = await daily_choice(store, game_id, now.date(), now)
        except DailyUnavailable:
            choice = None
        chosen[game_id] = None if choice is None else choice.deal
    return chosen


async def keep_warm(store: Storage, clock: Callable[[], datetime] | None = None) -> None:
    """Warm the renderer, then choose the daily deals now and after every UTC midnight.
    Runs until cancelled; failures are logged, never raised (the bot works without it)."""
    clock = clock or (lambda: datetime.now(UTC))
    loop = asyncio.get_running_loop()
    try:
        import renderer

        count = await loop.run_in_executor(None, renderer.warm_up)
        log.info("renderer warmed up: %d card pictures and pieces", count)
    except Exception:
        log.exception("renderer warm-up failed")
    while True:
        now = clock()
        try:
            deals = await choose_days_deals(store, now)
            log.info("daily deals for %s: %s", now.date().isoformat(), deals)
        except Exception:
            log.exception("choosing the daily deals failed")
        await asyncio.sleep(seconds_until_next_day(clock()))
