"""Telegram's side of the shared outbox (``bot.platforms.outbox``): its published limits and
what its errors mean.

Telegram refuses bots that talk too fast (about one message per second in a chat, twenty per
minute in a group, thirty per second overall) with ``429 Too Many Requests`` and a
``retry_after``, which PTB raises as ``RetryAfter``.

>>> limits = flood_limits()
>>> limits.per_minute, limits.per_minute_applies(-100), limits.per_minute_applies(7)
(20, True, False)
"""

from __future__ import annotations

import warnings
from typing import Any

from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.warnings import PTBDeprecationWarning

from bot.platforms.outbox import Deliver, Failure, Outbox, OutboxLimits


def _is_group(chat_id: int) -> bool:
    # Negative ids are groups, supergroups and channels in the Bot API.
    return chat_id < 0


def flood_limits(
    per_chat_interval: float = 1.05,
    group_per_minute: int = 20,
    global_per_second: int = 30,
    max_per_chat: int = 40,
) -> OutboxLimits:
    """Telegram's published limits, with a small margin: one message a second in a chat, 20 a
    minute in a group, 30 a second overall; 40 waiting per chat."""
    return OutboxLimits(
        per_chat_interval=per_chat_interval,
        per_minute=group_per_minute,
        per_minute_applies=_is_group,
        global_per_second=global_per_second,
        max_per_chat=max_per_chat,
    )


def classify(error: Exception) -> Failure | None:
    """What a PTB error means to the outbox: ``RetryAfter`` is waited out and the item
    retried; network errors are retried a few times; ``Forbidden`` (the bot was removed from
    the group, or a user blocked it) and ``ChatMigrated`` drop what is queued for that chat;
    a ``BadRequest`` will never be accepted, so the item is given up."""
    if isinstance(error, RetryAfter):
        with warnings.catch_warnings():
            # PTB 22 warns that ``retry_after`` will become a timedelta: both work here.
            warnings.simplefilter("ignore", PTBDeprecationWarning)
            return Failure("wait", _seconds(error.retry_after))
    if isinstance(error, Forbidden | ChatMigrated):
        return Failure("drop_chat")
    if isinstance(error, BadRequest):
        return Failure("skip")
    if isinstance(error, TimedOut | NetworkError):
        return Failure("retry")
    return None


def telegram_outbox(deliver: Deliver, limits: OutboxLimits | None = None) -> Outbox:
    """The Telegram adapter's outbox."""
    return Outbox(deliver, limits or flood_limits(), classify, platform="telegram")


def _seconds(value: Any) -> float:
    """``RetryAfter.retry_after`` is an int or a timedelta depending on PTB's settings."""
    return float(value.total_seconds()) if hasattr(value, "total_seconds") else float(value)
