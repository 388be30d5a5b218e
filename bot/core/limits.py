"""Fair to every chat: a token bucket per user and per chat, checked before anything else.

A user may send a short burst (``user_burst`` requests) and then ``user_per_minute`` a
minute; a chat as a whole ``chat_burst`` and then ``chat_per_minute``. The first request past
a limit gets one "slow down" notice (a private refusal, in the chat's language); the ones after
it get silence until the bucket has a token again, so a flooder costs the bot one database
statement a request and the chat one message in all.

The buckets live in the database (``bot.storage.limits``), so several processes share them:
three processes give a flooder no more than one does. When the database is busy (another
process holds SQLite's write lock), the check is not waited for: a bucket in this process's
memory decides instead, so a busy database never stalls a chat and never lets a flood through.

>>> Limits.from_settings(user_burst=0).enabled   # the chat limit still holds
True
>>> Limits.from_settings(user_burst=0, chat_burst=0).enabled
False
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.replies import Request
from bot.storage import Storage, StorageBusy
from bot.storage.limits import Bucket

log = logging.getLogger("tavolo.limits")

#: buckets kept in memory for the busy-database fallback (least recently used go first)
LOCAL_BUCKETS = 10_000
#: forget stored buckets once every this many checks (rows idle past a full refill)
_PRUNE_EVERY = 1000


@dataclass(frozen=True)
class Limits:
    """The rate limits (``RATE_*`` settings). A burst of 0 turns that limit off."""

    user_burst: int = 8
    user_per_minute: float = 30.0
    chat_burst: int = 40
    chat_per_minute: float = 120.0

    @classmethod
    def from_settings(cls, **values: float) -> Limits:
        return cls(**values)  # type: ignore[arg-type]

    @property
    def enabled(self) -> bool:
        return self.user_burst > 0 or self.chat_burst > 0

    def buckets(self, req: Request) -> list[Bucket]:
        """Every bucket ``req`` draws on, the user's first."""
        found = []
        if self.user_burst > 0:
            found.append(Bucket("user", f"{req.platform}:{req.user_id}", float(self.user_burst),
                                self.user_per_minute / 60.0))  # fmt: skip
        if self.chat_burst > 0:
            found.append(Bucket("chat", f"{req.platform}:{req.chat_id}", float(self.chat_burst),
                                self.chat_per_minute / 60.0))  # fmt: skip
        return found


@dataclass(frozen=True)
class Refused:
    """A request over a limit: which one, and whether this is the one that gets the notice."""

    scope: str
    notify: bool


class _LocalBucket:
    __slots__ = ("tokens", "updated_at", "refused")

    def __init__(self, tokens: float, now: float) -> None:
        self.tokens, self.updated_at, self.refused = tokens, now, 0


class RateLimiter:
    """Checks each request against the limits (see the module doc)."""

    def __init__(self, store: Storage, limits: Limits,
                 clock: Callable[[], float] = time.time) -> None:  # fmt: skip
        self.store = store
        self.limits = limits
        self.clock = clock
        self._local: OrderedDict[tuple[str, str], _LocalBucket] = OrderedDict()
        self._checks = 0

    async def check(self, req: Request) -> Refused | None:
        """None when ``req`` may go on (a token was taken from each of its buckets)."""
        now = self.clock()
        buckets = self.limits.buckets(req)
        try:
            # every bucket in one statement batch (the user's first: a refused user draws
            # nothing from the chat's)
            answers = await self.store.limits.take_tokens(buckets, now)
        except StorageBusy:
            answers = []
            for bucket in buckets:
                answers.append(self._take_local(bucket, now))
                if answers[-1]:
                    break
        for bucket, refused in zip(buckets, answers, strict=False):
            if refused:
                return Refused(bucket.scope, notify=refused == 1)
        self._checks += 1
        if self._checks % _PRUNE_EVERY == 0:
            await self._prune(now)
        return None

    def _take_local(self, spec: Bucket, now: float) -> int:
        name = (spec.scope, spec.key)
        bucket = self._local.get(name)
        if bucket is None:
            bucket = self._local[name] = _LocalBucket(spec.burst, now)
            while len(self._local) > LOCAL_BUCKETS:
                self._local.popitem(last=False)
        self._local.move_to_end(name)
        grown = bucket.tokens + max(0.0, now - bucket.updated_at) * spec.per_second
        bucket.tokens = min(spec.burst, grown)
        bucket.updated_at = max(now, bucket.updated_at)
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            bucket.refused = 0
            return 0
        bucket.refused += 1
        return bucket.refused

    async def _prune(self, now: float) -> None:
        limits = self.limits
        slowest = min(r for r in (limits.user_per_minute, limits.chat_per_minute) if r > 0)
        full_after = max(limits.user_burst, limits.chat_burst) / (slowest / 60.0)
        with contextlib.suppress(StorageBusy):  # busy: the next round prunes
            await self.store.limits.prune(now - full_after - 60.0)
