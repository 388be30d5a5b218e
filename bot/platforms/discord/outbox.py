"""Discord's side of the shared outbox (``bot.platforms.outbox``): its limits and what its
errors mean.

What discord.py already does, and the outbox leaves to it: it keeps Discord's per-route
buckets from the ``X-RateLimit-*`` headers of every answer (keyed by the route's bucket hash and
its major parameter, the channel), waits before a call when a bucket is spent, and on a ``429``
sleeps the body's ``retry_after`` and tries again (five tries in all; a global 429 holds every
call). It gives a 429 to us only when it cannot keep it: a 429 without Discord's ``Via`` header
(the edge in front of Discord, e.g. Cloudflare) or the fifth 429 in a row as ``HTTPException``
with status 429, and a wait longer than ``max_ratelimit_timeout`` as ``RateLimited``.

So the outbox does not pace a channel itself (that would fight discord.py's buckets): its job is
fairness between channels, the bound, merging board edits, and honouring a ``retry_after`` that
does reach it. Overall it keeps under Discord's global limit (50 requests a second for a bot).

>>> discord_limits().global_per_second, discord_limits().per_chat_interval
(45, 0.0)
"""

from __future__ import annotations

import asyncio
import json

import aiohttp
import discord

from bot.platforms.outbox import Deliver, Failure, Outbox, OutboxLimits

#: Discord's "Unknown Channel": the channel was deleted or the bot cannot see it any more
UNKNOWN_CHANNEL = 10003
#: a 429 that gives no ``retry_after`` at all is waited this long
DEFAULT_RETRY_AFTER = 1.0


def discord_limits(global_per_second: int = 45, max_per_chat: int = 40) -> OutboxLimits:
    """Discord's side: no pace per channel (discord.py's per-route buckets keep it), under the
    global 50 requests a second with room for interaction answers; 40 waiting per channel."""
    return OutboxLimits(global_per_second=global_per_second, max_per_chat=max_per_chat)


def retry_after(error: discord.HTTPException) -> float:
    """Seconds a 429 asks to wait: the ``Retry-After`` header, else the body's
    ``retry_after``, else ``DEFAULT_RETRY_AFTER``."""
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None) or {}
    for name in ("Retry-After", "X-RateLimit-Reset-After"):
        try:
            return max(float(headers[name]), 0.0)
        except (KeyError, TypeError, ValueError):
            pass
    try:
        body = json.loads(error.text) if error.text.startswith("{") else {}
        return max(float(body["retry_after"]), 0.0)
    except (KeyError, TypeError, ValueError):
        return DEFAULT_RETRY_AFTER


def classify(error: Exception) -> Failure | None:
    """What a discord.py error means to the outbox."""
    if isinstance(error, discord.RateLimited):
        return Failure("wait", float(error.retry_after))
    if isinstance(error, discord.HTTPException) and error.status == 429:
        return Failure("wait", retry_after(error))
    if isinstance(error, discord.Forbidden):
        return Failure("drop_chat")  # no access to the channel any more
    if isinstance(error, discord.NotFound):
        return Failure("drop_chat" if error.code == UNKNOWN_CHANNEL else "skip")
    if isinstance(error, discord.DiscordServerError):
        return Failure("retry")  # discord.py retried already; a few more, spaced out
    if isinstance(error, discord.HTTPException):
        return Failure("skip")  # a request Discord will never accept
    if isinstance(error, aiohttp.ClientError | OSError | asyncio.TimeoutError):
        return Failure("retry")
    return None


def discord_outbox(deliver: Deliver, limits: OutboxLimits | None = None) -> Outbox:
    """The Discord adapter's outbox."""
    return Outbox(deliver, limits or discord_limits(), classify, platform="discord")
