"""Work handed off the event loop to threads, at the least cost per hand-off.

``loop.run_in_executor`` costs the loop about twice what the work's own hand-off needs (a
``concurrent.futures`` future chained to an asyncio one, the pool's bookkeeping on every
submit): some 60-80 µs of CPU a call more on this machine, paid on every board a move draws.
:class:`Workers` is the plain version, as aiosqlite hands statements to its thread: a queue,
threads that take from it, and the result set on the caller's loop with one
``call_soon_threadsafe``.

>>> import asyncio
>>> asyncio.run(Workers("doctest", 1).run(sum, [1, 2, 3]))
6
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_STOP = object()


class Workers:
    """Up to ``size`` daemon threads (started as the work needs them, never more than are
    busy at once plus one) running calls handed over with :meth:`run`. ``in_place``: run each
    call on the caller's thread instead (benches that measure without threads)."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self.in_place = False
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._idle = 0

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on one of the threads; its result (or exception) here."""
        if self.in_place:
            return fn(*args)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        with self._lock:
            if self._idle <= 0 and len(self._threads) < self.size:
                thread = threading.Thread(
                    target=self._work, name=f"{self.name}-{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
            else:
                self._idle -= 1  # it is taken by this call (or the next started thread is)
        self._queue.put((future, fn, args))
        return await future

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            future, fn, args = item
            try:
                result, error = fn(*args), None
            except BaseException as exc:  # handed to the awaiting caller, as a pool would
                result, error = None, exc
            # a closed loop (RuntimeError): nobody waits for the result any more
            with contextlib.suppress(RuntimeError):
                future.get_loop().call_soon_threadsafe(_settle, future, result, error)
            with self._lock:
                self._idle += 1


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


#: the threads that draw boards (the default executor's size for this machine's CPUs)
RENDER = Workers("tavolo-render", min(32, (os.cpu_count() or 1) + 4))
