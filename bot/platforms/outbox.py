"""Per-chat outgoing queues shared by the platform adapters: bounded, fair, coalescing.

Every platform limits how fast a bot may talk and answers ``429 Too Many Requests`` with a
``retry_after`` past that. What an adapter puts in a chat outside the direct answer to a user's
own action goes through an ``Outbox``: one worker per chat sends its items in order, waiting its
turn with the ``RateLimiter`` (the platform's ``OutboxLimits``). The mechanism is the same on
every platform; what differs is only the limits and which errors mean "wait", "try again",
"this chat is gone" or "give this item up" (the platform's ``classify`` function):
``bot.platforms.telegram.outbox`` and ``bot.platforms.discord.outbox`` hold those.

* **Fair**: a chat's own limits are waited out alone; then the chats that are ready take the
  overall limit in turn (first come, first served), so a flooded chat delays another chat by one
  message at most.
* **Coalescing**: while a board edit waits its turn, a newer board of the same game replaces it
  in the same slot, so the chat sees the newest state and no stale frames. Moves are never lost
  this way: the core stores them before the board is even drawn; only pictures are skipped.
* **Bounded**: a chat holds at most ``max_per_chat`` waiting items; past it the *oldest waiting
  text* is dropped (never a board: boards are merged instead, so a player always sees the final
  board).

>>> sent = []
>>> async def deliver(chat_id, item): sent.append((chat_id, item.payload))
>>> async def demo():
...     outbox = Outbox(deliver, OutboxLimits())
...     outbox.put(-100, "hello")
...     outbox.put(-100, "board v1", coalesce_key="board:s1")
...     outbox.put(-100, "board v2", coalesce_key="board:s1")  # replaces v1
...     await outbox.drain()
...     await outbox.close()
>>> asyncio.run(demo())
>>> sent
[(-100, 'hello'), (-100, 'board v2')]
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.logs import pseudonym

log = logging.getLogger(__name__)


class Bounded(OrderedDict):  # type: ignore[type-arg]
    """A dict that keeps at most ``limit`` entries, forgetting the least recently written:
    an adapter's per-chat, per-game and per-message notes stay flat in a bot that runs for
    weeks (each has a fallback: the database, or posting a board anew).

    >>> notes = Bounded(2); notes["a"] = 1; notes["b"] = 2; notes["c"] = 3
    >>> list(notes)
    ['b', 'c']
    """

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: object, value: object) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


def _every_chat(chat_id: int) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class OutboxLimits:
    """How fast the bot may talk on one platform. The defaults limit nothing but the queue."""

    per_chat_interval: float = 0.0  # seconds between two messages in one chat
    #: messages per rolling minute in a chat ``per_minute_applies`` to (0: no such limit)
    per_minute: int = 0
    per_minute_applies: Callable[[int], bool] = _every_chat
    global_per_second: int = 0  # messages per second over all chats (0: no such limit)
    #: items one chat may have waiting; past it the oldest waiting message is dropped (a
    #: board is never dropped: a newer one of the same game replaces it in its slot)
    max_per_chat: int = 40


class RateLimiter:
    """Waits until a chat may receive its next message.

    Each chat is served by a single worker, so per-chat bookkeeping needs no lock; the global
    window is shared but only ever appended to after the wait, so at worst it is briefly
    conservative.
    """

    def __init__(self, limits: OutboxLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._per_chat: dict[int, deque[float]] = {}
        self._global: deque[float] = deque()
        self._paused_until: dict[int, float] = {}
        self._turn = asyncio.Lock()
        self._recorded = 0

    def delay(self, chat_id: int, overall: bool = True) -> float:
        """Seconds to wait before ``chat_id`` may receive a message (0 when it may now);
        ``overall=False``: by the chat's own limits only."""
        limits = self.limits
        now = self._clock()
        sent = self._per_chat.get(chat_id, deque())
        wait = self._paused_until.get(chat_id, 0.0) - now
        if sent:
            wait = max(wait, sent[-1] + limits.per_chat_interval - now)
        if (
            limits.per_minute
            and len(sent) >= limits.per_minute
            and limits.per_minute_applies(chat_id)
        ):
            wait = max(wait, sent[-limits.per_minute] + 60.0 - now)
        if not overall or not limits.global_per_second:
            return max(wait, 0.0)
        while self._global and now - self._global[0] >= 1.0:
            self._global.popleft()
        if len(self._global) >= limits.global_per_second:
            wait = max(wait, self._global[0] + 1.0 - now)
        return max(wait, 0.0)

    async def wait_turn(self, chat_id: int) -> None:
        """Sleep until ``chat_id`` may receive a message, then count it as sent.

        The chat's own limits are waited out first, alone; then chats that are ready take the
        overall limit in turn (``asyncio.Lock`` wakes its waiters first come, first served),
        so when the bot as a whole is at the platform's overall limit, no chat is passed over."""
        while (wait := self.delay(chat_id, overall=False)) > 0:
            await asyncio.sleep(wait)
        async with self._turn:
            while (wait := self.delay(chat_id)) > 0:
                await asyncio.sleep(wait)
            self.record(chat_id)

    def record(self, chat_id: int) -> None:
        """Count one message to ``chat_id`` as sent now."""
        now = self._clock()
        sent = self._per_chat.setdefault(chat_id, deque())
        sent.append(now)
        while sent and now - sent[0] >= 60.0:
            sent.popleft()
        if self.limits.global_per_second:
            self._global.append(now)
        self._recorded += 1
        if self._recorded % 1000 == 0:
            self._forget_quiet_chats(now)

    def _forget_quiet_chats(self, now: float) -> None:
        """Chats with nothing sent in the last minute need no bookkeeping (memory stays flat)."""
        for chat_id in [
            c for c, sent in self._per_chat.items() if not sent or now - sent[-1] >= 60.0
        ]:
            del self._per_chat[chat_id]
        for chat_id in [c for c, until in self._paused_until.items() if until <= now]:
            del self._paused_until[chat_id]

    def pause(self, chat_id: int, seconds: float) -> None:
        """The platform said "retry after": nothing more for this chat until then."""
        self._paused_until[chat_id] = self._clock() + seconds


@dataclass(frozen=True, slots=True)
class Failure:
    """What the outbox does about an error raised while delivering an item:

    * ``wait``: the platform said 429; nothing more to this chat for ``seconds``, then the
      same item again;
    * ``retry``: a network hiccup; the same item again after a short back-off, a few times;
    * ``drop_chat``: the bot may not write to this chat any more; what waits for it goes;
    * ``skip``: the platform will never accept this item; the chat's next item goes on.
    """

    action: Literal["wait", "retry", "drop_chat", "skip"]
    seconds: float = 0.0


#: the platform's reading of an error (None: unexpected; logged with its traceback, skipped)
Classify = Callable[[Exception], Failure | None]


@dataclass(slots=True)
class OutItem:
    """One queued item. ``payload`` is whatever the adapter delivers; ``seq`` orders items
    over all chats (a later item has a larger ``seq``)."""

    payload: Any
    seq: int
    coalesce_key: Hashable | None = None
    coalesced: int = 0  # how many older payloads this one replaced


@dataclass
class _ChatQueue:
    order: deque[Hashable] = field(default_factory=deque)
    items: dict[Hashable, OutItem] = field(default_factory=dict)
    worker: asyncio.Task[None] | None = None
    sending: Hashable | None = None  # the key of the item being delivered now


Deliver = Callable[[int, OutItem], Awaitable[None]]


class Outbox:
    """Ordered, rate-limited, coalescing, bounded delivery of items to chats.

    ``deliver(chat_id, item)`` performs the platform calls for one item (it may make several,
    e.g. a failed edit followed by a new message: ``wait_turn`` is offered as ``self.limiter``
    for the extra ones). An error it raises is read by ``classify`` (see ``Failure``).
    """

    network_retries = 3

    def __init__(
        self,
        deliver: Deliver,
        limits: OutboxLimits | None = None,
        classify: Classify | None = None,
        platform: str = "",
    ) -> None:
        self._deliver = deliver
        self._classify: Classify = classify or (lambda error: None)
        self.platform = platform
        self.limiter = RateLimiter(limits or OutboxLimits())
        self._queues: dict[int, _ChatQueue] = {}
        self._seq = itertools.count(1)
        self._closed = False
        self._busy_workers = 0
        self._idle = asyncio.Event()
        self._idle.set()
        #: messages dropped because their chat's queue was full
        self.dropped = 0
        #: board updates merged into a newer one while they waited
        self.merged = 0

    def put(
        self,
        chat_id: int,
        payload: Any,
        coalesce_key: Hashable | None = None,
        seq: int | None = None,
    ) -> OutItem:
        """Queue ``payload`` for ``chat_id``. With a ``coalesce_key`` that is already waiting,
        the newer payload takes the waiting one's place (and its turn). ``seq``: how new the
        payload is, a ``stamp()`` taken when it was made (default: now)."""
        queue = self._queues.setdefault(chat_id, _ChatQueue())
        item = OutItem(payload, next(self._seq) if seq is None else seq, coalesce_key)
        if coalesce_key is not None and coalesce_key in queue.items:
            waiting = queue.items[coalesce_key]
            self.merged += 1
            if waiting.seq > item.seq:  # made later than this one: it stays
                waiting.coalesced += 1
                return waiting
            item.coalesced = waiting.coalesced + 1
            queue.items[coalesce_key] = item
        else:
            key = coalesce_key if coalesce_key is not None else ("item", item.seq)
            queue.order.append(key)
            queue.items[key] = item
            if len(queue.order) > self.limiter.limits.max_per_chat:
                self._drop_oldest_message(chat_id, queue)
        if not self._closed and (queue.worker is None or queue.worker.done()):
            self._busy_workers += 1
            self._idle.clear()
            queue.worker = asyncio.get_running_loop().create_task(self._work(chat_id, queue))
        return item

    def _drop_oldest_message(self, chat_id: int, queue: _ChatQueue) -> None:
        """The chat's queue is full: its oldest waiting message (not a board) goes."""
        for key in queue.order:
            if queue.items[key].coalesce_key is None:
                queue.order.remove(key)
                del queue.items[key]
                self.dropped += 1
                if self.dropped % 100 == 1:  # a flood is one line now and then, not a flood
                    log.warning(
                        "%s outbox of chat %s full: oldest waiting messages dropped (%d so far)",
                        self.platform,
                        pseudonym(chat_id),
                        self.dropped,
                    )
                return

    def depth(self) -> int:
        """Items waiting over all chats (the ``tavolo_outbox_depth`` metric)."""
        return sum(len(queue.order) for queue in self._queues.values())

    def stamp(self) -> int:
        """A number larger than every ``OutItem.seq`` given so far (to order events)."""
        return next(self._seq)

    def holds(self, chat_id: int, coalesce_key: Hashable) -> bool:
        """Whether an item with ``coalesce_key`` waits for ``chat_id`` or is being sent."""
        queue = self._queues.get(chat_id)
        return queue is not None and (coalesce_key in queue.items or queue.sending == coalesce_key)

    def pending(self, chat_id: int) -> int:
        queue = self._queues.get(chat_id)
        return len(queue.order) if queue else 0

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every queued item has been delivered (or dropped)."""
        await asyncio.wait_for(self._idle.wait(), timeout)

    async def close(self, timeout: float = 10.0) -> None:
        """Deliver what is queued (up to ``timeout`` seconds), then stop the workers."""
        try:
            await self.drain(timeout)
        except TimeoutError:
            log.warning("%s outbox closed with messages still queued", self.platform)
        self._closed = True
        workers = [q.worker for q in self._queues.values() if q.worker and not q.worker.done()]
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)

    async def _work(self, chat_id: int, queue: _ChatQueue) -> None:
        try:
            while queue.order:
                await self.limiter.wait_turn(chat_id)
                # Taken only now, after the wait: a board that was replaced meanwhile is sent
                # in its newest state.
                key = queue.order.popleft()
                item = queue.items.pop(key)
                queue.sending = item.coalesce_key
                try:
                    delivered = await self._deliver_with_retries(chat_id, item)
                finally:
                    queue.sending = None
                if not delivered:
                    queue.order.clear()
                    queue.items.clear()
        finally:
            if not queue.order and self._queues.get(chat_id) is queue:
                del self._queues[chat_id]  # a quiet chat holds no memory
            self._busy_workers -= 1
            if self._busy_workers == 0:
                self._idle.set()

    async def _deliver_with_retries(self, chat_id: int, item: OutItem) -> bool:
        """Deliver one item; False when the chat is gone for the bot."""
        failures = 0
        while True:
            try:
                await self._deliver(chat_id, item)
                return True
            except Exception as raised:  # read by the platform's classify
                error = raised
                failure = self._classify(error)
                if failure is None:
                    # One broken item must not stop the chat's queue.
                    log.exception("could not deliver a message to chat %s", pseudonym(chat_id))
                    return True
            if failure.action == "wait":
                log.info(
                    "%s asked to wait %.1f s before writing to chat %s",
                    self.platform,
                    failure.seconds,
                    pseudonym(chat_id),
                )
                self.limiter.pause(chat_id, failure.seconds)
                await self.limiter.wait_turn(chat_id)
            elif failure.action == "drop_chat":
                log.info(
                    "cannot write to chat %s any more (%s); dropping its queue",
                    pseudonym(chat_id),
                    error,
                )
                return False
            elif failure.action == "skip":
                log.warning(
                    "%s refused a message to chat %s: %s", self.platform, pseudonym(chat_id), error
                )
                return True
            else:
                failures += 1
                if failures > self.network_retries:
                    log.warning(
                        "giving up a message to chat %s after %s", pseudonym(chat_id), error
                    )
                    return True
                await asyncio.sleep(0.5 * 2**failures)
