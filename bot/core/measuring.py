"""Measuring the core: each request counted by command and outcome and timed, the requests in
hand counted (``Core.close`` waits for them), each board image timed, and the storage's and
the sessions' own figures hooked into ``bot.metrics``. Labels stay few and clean: a command's
name, never what was typed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.core.commands import ParsedLine
from bot.core.guard import Silenced
from bot.core.presentation import RenderFn
from bot.core.sessions import Sessions
from bot.metrics import Metrics
from bot.replies import Reply
from bot.storage import Storage
from bot.storage.postgres import PostgresBackend

log = logging.getLogger("tavolo.core")


class Measure:
    """The metrics of one core and the count of its requests in hand."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def watch(self, store: Storage, sessions: Sessions) -> None:
        """Hook the storage's waits, errors and pool, and the live and finished sessions,
        into the metrics."""
        metrics = self.metrics
        metrics.track_live_sessions(sessions.live_count)
        sessions.on_finished = lambda game: metrics.games_finished.labels(game=game).inc()
        backend = store.backend
        backend.on_wait = metrics.database_wait_seconds.observe
        backend.on_error = lambda kind: metrics.database_errors.labels(kind=kind).inc()
        if isinstance(backend, PostgresBackend):  # SQLite has no pool: two fixed connections
            pool = backend
            metrics.track_pool(
                pool.pool.get_size,
                pool.pool.get_idle_size,
                pool.settings.size,
                lambda: pool.waiting,
            )
            pool.on_pool_wait = metrics.pool_wait_seconds.observe

    def renderer(self, render: RenderFn | None) -> RenderFn:
        """``render`` with each image's seconds observed by game."""
        return timed_renderer(
            render,
            lambda game, seconds: self.metrics.render_seconds.labels(game=game).observe(seconds),
        )

    async def request(
        self, label: str, platform: str, answering: Awaitable[list[Reply]]
    ) -> list[Reply]:
        """Count the request by command and outcome and time its answer (and count it in
        hand, so ``close`` waits for it)."""
        started = time.perf_counter()
        self.in_flight += 1
        self._idle.clear()
        try:
            replies = await answering
        finally:
            self.in_flight -= 1
            if not self.in_flight:
                self._idle.set()
        self.metrics.reply(label, platform, time.perf_counter() - started)
        self.metrics.commands.labels(command=label, outcome=outcome_of(replies)).inc()
        return replies

    async def settled(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until no request is in hand."""
        if not self.in_flight:
            return
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            log.warning("closing with %d request(s) still in hand", self.in_flight)


def command_label(line: ParsedLine | None, commands: Mapping[str, Any]) -> str:
    """The metrics label of a chat line: a known command's name, ``unknown`` for any other
    command (or a line too long to read), ``text`` for plain text (never what was typed:
    labels stay few and clean)."""
    if line is None:
        return "unknown"
    if line.command is None:
        return "text"
    return line.command if line.command in commands else "unknown"


def timed_renderer(render: RenderFn | None, observe: Callable[[str, float], None]) -> RenderFn:
    """``render`` (by default ``renderer.render``, imported on the first board) timed into
    ``observe``, its game and seconds per image (it runs on the render threads)."""

    def timed(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
        draw = render
        if draw is None:
            import renderer as renderer_module  # loaded on first board: start-up stays light

            draw = renderer_module.render
        started = time.perf_counter()
        try:
            return draw(game_id, view, **style)
        finally:
            observe(game_id, time.perf_counter() - started)

    return timed


#: the outcome of a request by the key of its reply, for the metrics
_OUTCOMES = {
    "error.busy": "busy",
    "error.internal": "error",
    "error.slow_down": "limited",
    "error.slow_down_chat": "limited",
}


def outcome_of(replies: list[Reply]) -> str:
    """``ok``, ``refused`` (a bad command, an illegal move), ``busy``, ``error`` or
    ``limited`` (a rate limit's notice, or its silence: no reply at all)."""
    if isinstance(replies, Silenced):
        return "limited"
    for reply in replies:
        if reply.key in _OUTCOMES:
            return _OUTCOMES[reply.key]
        if reply.refusal:
            return "refused"
    return "ok"
