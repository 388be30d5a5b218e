"""Fair to every chat: a token bucket per user and per chat, checked before anything else.

The limits protect the platforms (their message limits) and the bot, not from the players.
A request that posts a new message (a command: ``/help``, ``/play``, ``/leaderboard``, a
button that opens a new board) takes a token first: a user may send a short burst
(``user_burst``) and then ``user_per_minute`` a minute; a chat as a whole ``chat_burst`` and
then ``chat_per_minute``. A *board action* (a move, typed or pressed, an undo, a tap that
picks a pile) mostly edits its board in place, and the outboxes merge quick edits into one,
so it takes no such token: it draws on the user's own, much larger ``move`` bucket
(``move_burst``, ``move_per_minute``: far beyond any human's pace, a guard against scripts),
and what it did post (a turn announcement, an end-of-game message, a refusal typed in a chat)
is charged to the user's and the chat's buckets afterwards. A user whose board actions posted
more than their bucket allows is one token in debt, and their next board action waits until
it is paid back: presses that would exceed the platform's limits are still slowed down.

The first request past a limit gets one "slow down" notice (a private refusal, in the chat's
language); the ones after it get silence until the bucket has a token again, so a flooder
costs the bot one database statement a request and the chat one message in all.

The buckets live in the database (``bot.storage.limits``), so several processes share them:
three processes give a flooder no more than one does. When the database is busy (another
process holds SQLite's write lock), the check is not waited for: a bucket in this process's
memory decides instead, so a busy database never stalls a chat and never lets a flood through.

>>> Limits.from_settings(user_burst=0).enabled   # the chat limit still holds
True
>>> Limits.from_settings(user_burst=0, chat_burst=0).enabled
False
>>> from bot.replies import BoardRef
>>> edited = Reply("board.caption", "", board=BoardRef("s1", "m1"))
>>> won = Reply("game.won", "You won!")
>>> posted_messages([edited], "ana", pressed=True), posted_messages([edited, won], "ana", True)
(0, 1)
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.replies import Reply, Request
from bot.storage import Storage, StorageBusy
from bot.storage.limits import Bucket

log = logging.getLogger("tavolo.limits")

#: buckets kept in memory for the busy-database fallback (least recently used go first)
LOCAL_BUCKETS = 10_000
#: forget stored buckets once every this many checks (rows idle past a full refill)
_PRUNE_EVERY = 1000
#: what a charge after the fact needs: any fill at all (it cannot refuse what was done)
_ALWAYS = -1e9


def posted_messages(replies: list[Reply], user_id: str, pressed: bool) -> int:
    """How many new messages ``replies`` post in a chat: a board edited in place posts none
    (the outboxes merge quick edits of one board), nor does a private answer to the presser of
    a button (a callback answer, an ephemeral message); anything else is a message."""
    posted = 0
    for reply in replies:
        if reply.board is not None and reply.board.message_id is not None:
            continue
        if pressed and reply.is_private and reply.to_user in (None, "", user_id):
            continue
        posted += 1
    return posted


@dataclass(frozen=True)
class Limits:
    """The rate limits (``RATE_*`` settings). A burst of 0 turns that limit off."""

    user_burst: int = 8
    user_per_minute: float = 30.0
    chat_burst: int = 40
    chat_per_minute: float = 120.0
    #: a user's board actions (moves, undos, taps): a guard against scripts, not players
    move_burst: int = 20
    move_per_minute: float = 300.0

    @classmethod
    def from_settings(cls, **values: float) -> Limits:
        return cls(**values)  # type: ignore[arg-type]

    @property
    def enabled(self) -> bool:
        return self.user_burst > 0 or self.chat_burst > 0

    def buckets(self, req: Request, board_action: bool = False) -> list[Bucket]:
        """Every bucket ``req`` draws on before it is handled, the user's first. A board
        action only asks that the user's bucket is not in debt, then takes a ``move`` token."""
        found = []
        if self.user_burst > 0:
            found.append(self._user(req, need=0.0, cost=0.0) if board_action else self._user(req))
        if board_action:
            if self.move_burst > 0:
                found.append(
                    Bucket(
                        "move",
                        f"{req.platform}:{req.user_id}",
                        float(self.move_burst),
                        self.move_per_minute / 60.0,
                    )
                )
        elif self.chat_burst > 0:
            found.append(self._chat(req))
        return found

    def charges(self, req: Request, messages: int) -> list[Bucket]:
        """What a board action that posted ``messages`` new messages pays afterwards: that many
        tokens from the user's and the chat's buckets, at most one into debt."""
        found = []
        if self.user_burst > 0:
            found.append(self._user(req, need=_ALWAYS, cost=float(messages), floor=-1.0))
        if self.chat_burst > 0:
            found.append(self._chat(req, need=_ALWAYS, cost=float(messages), floor=-1.0))
        return found

    def _user(self, req: Request, **draw: float) -> Bucket:
        return Bucket(
            "user",
            f"{req.platform}:{req.user_id}",
            float(self.user_burst),
            self.user_per_minute / 60.0,
            **draw,
        )

    def _chat(self, req: Request, **draw: float) -> Bucket:
        return Bucket(
            "chat",
            f"{req.platform}:{req.chat_id}",
            float(self.chat_burst),
            self.chat_per_minute / 60.0,
            **draw,
        )


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

    def __init__(
        self, store: Storage, limits: Limits, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock
        self._local: OrderedDict[tuple[str, str], _LocalBucket] = OrderedDict()
        self._checks = 0

    async def check(self, req: Request, board_action: bool = False) -> Refused | None:
        """None when ``req`` may go on (a token was taken from each of its buckets).
        ``board_action``: a move, typed or pressed, or a tap on a board (see the module doc)."""
        now = self.clock()
        buckets = self.limits.buckets(req, board_action)
        answers = await self._draw(buckets, now)
        for bucket, refused in zip(buckets, answers, strict=False):
            if refused:
                return Refused(bucket.scope, notify=refused == 1)
        self._checks += 1
        if self._checks % _PRUNE_EVERY == 0:
            await self._prune(now)
        return None

    async def charge(self, req: Request, messages: int) -> None:
        """A board action posted ``messages`` new messages: charge them (see the module doc)."""
        if messages > 0:
            await self._draw(self.limits.charges(req, messages), self.clock(), every=True)

    async def _draw(self, buckets: list[Bucket], now: float, every: bool = False) -> list[int]:
        """Draw on ``buckets`` in the database (this process's memory when it is busy); what
        each answered, stopping at the first refusal."""
        try:
            # every bucket in one statement batch (the user's first: a refused user draws
            # nothing from the chat's)
            answers = await self.store.limits.take_tokens(buckets, now)
        except StorageBusy:
            answers = []
            for bucket in buckets:
                answers.append(self._take_local(bucket, now))
                if answers[-1] and not every:
                    break
        return answers

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
        if bucket.tokens >= spec.need:
            bucket.tokens = max(spec.floor, bucket.tokens - spec.cost)
            bucket.refused = 0
            return 0
        bucket.refused += 1
        return bucket.refused

    async def _prune(self, now: float) -> None:
        limits = self.limits
        rates = (limits.user_per_minute, limits.chat_per_minute, limits.move_per_minute)
        slowest = min(r for r in rates if r > 0)
        # a bucket in debt needs one token more than its burst to be full again
        full_after = (max(limits.user_burst, limits.chat_burst, limits.move_burst) + 1) / (
            slowest / 60.0
        )
        with contextlib.suppress(StorageBusy):  # busy: the next round prunes
            await self.store.limits.prune(now - full_after - 60.0)
