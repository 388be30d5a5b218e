"""Per-chat outgoing queues for the Telegram adapter: flood limits and board coalescing.

Telegram refuses bots that talk too fast (about one message per second in a chat, twenty per
minute in a group, thirty per second overall) with ``429 Too Many Requests``. Everything the
adapter puts in a chat goes through an ``Outbox``: one worker per chat sends its items in order,
waiting its turn with the ``FloodLimiter``. Board updates are *coalesced*: while a board edit
for a session waits its turn, a newer board for the same session replaces it in the same slot,
so the chat sees the newest state and no stale frames. Moves are never lost this way: they are
stored by the core before the board is even drawn; only intermediate pictures are skipped.

>>> sent = []
>>> async def deliver(chat_id, item): sent.append((chat_id, item.payload))
>>> async def demo():
...     outbox = Outbox(deliver, FloodLimits(per_chat_interval=0.0))
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
import warnings
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.warnings import PTBDeprecationWarning

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class FloodLimits:
    """How fast the bot may talk. Defaults: Telegram's published limits, with a small margin."""

    per_chat_interval: float = 1.05  # seconds between two messages in one chat
    group_per_minute: int = 20  # messages per rolling minute in one group
    global_per_second: int = 30  # messages per second over all chats
    #: items one chat may have waiting; past it the oldest waiting message is dropped (a
    #: board is never dropped: a newer one of the same game replaces it in its slot)
    max_per_chat: int = 40


class FloodLimiter:
    """Waits until a chat may receive its next message.

    Each chat is served by a single worker, so per-chat bookkeeping needs no lock; the global
    window is shared but only ever appended to after the wait, so at worst it is briefly
    conservative.
    """

    def __init__(self, limits: FloodLimits, clock: Callable[[], float] = time.monotonic) -> None:
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
        now = self._clock()
        sent = self._per_chat.get(chat_id, deque())
        wait = self._paused_until.get(chat_id, 0.0) - now
        if sent:
            wait = max(wait, sent[-1] + self.limits.per_chat_interval - now)
        if chat_id < 0 and len(sent) >= self.limits.group_per_minute:
            # Negative ids are groups, supergroups and channels in the Bot API.
            wait = max(wait, sent[-self.limits.group_per_minute] + 60.0 - now)
        if not overall:
            return max(wait, 0.0)
        while self._global and now - self._global[0] >= 1.0:
            self._global.popleft()
        if len(self._global) >= self.limits.global_per_second:
            wait = max(wait, self._global[0] + 1.0 - now)
        return max(wait, 0.0)

    async def wait_turn(self, chat_id: int) -> None:
        """Sleep until ``chat_id`` may receive a message, then count it as sent.

        The chat's own limits are waited out first, alone; then chats that are ready take the
        overall limit in turn (``asyncio.Lock`` wakes its waiters first come, first served),
        so when the bot as a whole is at Telegram's 30 a second, no chat is passed over."""
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
        """Telegram said "retry after": nothing more for this chat until then."""
        self._paused_until[chat_id] = self._clock() + seconds


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


Deliver = Callable[[int, OutItem], Awaitable[None]]


class Outbox:
    """Ordered, rate-limited, coalescing delivery of items to chats.

    ``deliver(chat_id, item)`` performs the Telegram calls for one item (it may make several,
    e.g. a failed edit followed by a new message: ``wait_turn`` is offered as ``self.limiter``
    for the extra ones). ``RetryAfter`` is waited out and the item retried; network errors are
    retried a few times; ``Forbidden`` (the bot was removed from the group, or a user blocked
    it) drops what is queued for that chat quietly.
    """

    network_retries = 3

    def __init__(self, deliver: Deliver, limits: FloodLimits | None = None) -> None:
        self._deliver = deliver
        self.limiter = FloodLimiter(limits or FloodLimits())
        self._queues: dict[int, _ChatQueue] = {}
        self._seq = itertools.count(1)
        self._closed = False
        self._busy_workers = 0
        self._idle = asyncio.Event()
        self._idle.set()
        #: messages dropped because their chat's queue was full
        self.dropped = 0

    def put(self, chat_id: int, payload: Any, coalesce_key: Hashable | None = None) -> OutItem:
        """Queue ``payload`` for ``chat_id``. With a ``coalesce_key`` that is already waiting,
        the new payload takes the waiting one's place (and its turn)."""
        queue = self._queues.setdefault(chat_id, _ChatQueue())
        item = OutItem(payload, next(self._seq), coalesce_key)
        if coalesce_key is not None and coalesce_key in queue.items:
            item.coalesced = queue.items[coalesce_key].coalesced + 1
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
                    log.warning("outbox of chat %s full: oldest waiting messages dropped "
                                "(%d so far)", chat_id, self.dropped)  # fmt: skip
                return

    def depth(self) -> int:
        """Items waiting over all chats (the ``tavolo_outbox_depth`` metric)."""
        return sum(len(queue.order) for queue in self._queues.values())

    def stamp(self) -> int:
        """A number larger than every ``OutItem.seq`` given so far (to order events)."""
        return next(self._seq)

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
            log.warning("telegram outbox closed with messages still queued")
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
                if not await self._deliver_with_retries(chat_id, item):
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
            except RetryAfter as error:
                with warnings.catch_warnings():
                    # PTB 22 warns that ``retry_after`` will become a timedelta: both work here.
                    warnings.simplefilter("ignore", PTBDeprecationWarning)
                    seconds = _seconds(error.retry_after)
                log.info(
                    "telegram asked to wait %.1f s before writing to chat %s", seconds, chat_id
                )
                self.limiter.pause(chat_id, seconds)
                await self.limiter.wait_turn(chat_id)
            except (Forbidden, ChatMigrated) as error:
                log.info(
                    "cannot write to chat %s any more (%s); dropping its queue", chat_id, error
                )
                return False
            except BadRequest as error:
                # A request Telegram will never accept: retrying cannot help.
                log.warning("telegram refused a message to chat %s: %s", chat_id, error)
                return True
            except (TimedOut, NetworkError) as error:
                failures += 1
                if failures > self.network_retries:
                    log.warning("giving up a message to chat %s after %s", chat_id, error)
                    return True
                await asyncio.sleep(0.5 * 2**failures)
            except Exception:
                # One broken item must not stop the chat's queue.
                log.exception("could not deliver a message to chat %s", chat_id)
                return True


def _seconds(value: Any) -> float:
    """``RetryAfter.retry_after`` is an int or a timedelta depending on PTB's settings."""
    return float(value.total_seconds()) if hasattr(value, "total_seconds") else float(value)
