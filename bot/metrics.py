"""What an operator measures: Prometheus metrics on the bot's own registry.

Each ``Core`` holds one :class:`Metrics` with its own ``CollectorRegistry`` (never the global
one), so two cores in one process (tests, several bots) count apart. ``/metrics`` on the
bot's HTTP server (``bot.http``) serves :meth:`Metrics.exposition`.

Labels are bounded on purpose: a command label is a known command name (or ``unknown``,
``text``, ``button``), never what a player typed, so neither a flood of made-up commands nor a
secret pasted into a chat can reach the metrics; a platform label is one of ``PLATFORMS`` (else
``other``); a game label a game id of the engine's.

>>> m = Metrics()
>>> m.commands.labels(command="help", outcome="ok").inc()
>>> b'tavolo_commands_total{command="help",outcome="ok"} 1.0' in m.exposition()
True
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

#: reply latency buckets (seconds): a chat answer should be well under a second, but a busy
#: database or a slow platform has tails of tens of seconds, which the top buckets must show
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0)
#: the platforms a label may name (any other: ``other``)
PLATFORMS = frozenset({"discord", "telegram", "console", "fake"})
#: render buckets (seconds): a board image costs a few milliseconds
_RENDER_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    """Every metric of one bot process (see the README's "Operating Tavolo" for the list)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        #: gauges read from their source just before a scrape (several labels from one call)
        self._before_scrape: list[Callable[[], None]] = []
        self.commands = Counter(
            "tavolo_commands_total",
            "Requests handled, by command and outcome (ok, refused, busy, error, limited)",
            ["command", "outcome"],
            registry=r,
        )
        self.reply_seconds = Histogram(
            "tavolo_reply_seconds",
            "Time from a request reaching the core to its replies being ready, by command "
            "(as tavolo_commands_total) and platform",
            ["command", "platform"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        # the process (CPU, memory, open files) and Python (GC, version), as prometheus_client
        # gives them to its default registry
        for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
            r.register(collector)
        self.build_info = Info(
            "tavolo_build", "The running version of Tavolo and its commit", registry=r
        )
        self.build_info.info(build_info())
        self.pool_connections = Gauge(
            "tavolo_database_pool_connections",
            "PostgreSQL connections of this process's pool, by state (open, idle, max)",
            ["state"],
            registry=r,
        )
        self.pool_waiters = Gauge(
            "tavolo_database_pool_waiters",
            "Requests waiting for a free database connection now",
            registry=r,
        )
        self.pool_wait_seconds = Histogram(
            "tavolo_database_pool_wait_seconds",
            "Time a request waited for a free database connection",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.update_queue = Gauge(
            "tavolo_update_queue_depth",
            "Platform updates received and not yet answered, by platform",
            ["platform"],
            registry=r,
        )
        self.ready = Gauge(
            "tavolo_ready",
            "1 when every dependency of this process is ready (as /readyz), else 0",
            registry=r,
        )
        self.dependency_ready = Gauge(
            "tavolo_dependency_ready",
            "1 when the dependency (database, telegram, discord) is ready, else 0",
            ["dependency"],
            registry=r,
        )
        self.gateway_latency = Gauge(
            "tavolo_gateway_latency_seconds",
            "Discord's heartbeat latency, by shard of this process",
            ["shard"],
            registry=r,
        )
        self.live_sessions = Gauge(
            "tavolo_live_sessions", "Sessions held in this process's memory", registry=r
        )
        self.games_finished = Counter(
            "tavolo_games_finished_total",
            "Games that ended (won, lost, resigned, expired)",
            ["game"],
            registry=r,
        )
        self.database_errors = Counter(
            "tavolo_database_errors_total",
            "Database operations that failed, by kind (busy, error)",
            ["kind"],
            registry=r,
        )
        self.database_wait_seconds = Histogram(
            "tavolo_database_wait_seconds",
            "Time a write waited for the database's write lock",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.outbox_depth = Gauge(
            "tavolo_outbox_depth",
            "Messages queued and not yet sent, by platform",
            ["platform"],
            registry=r,
        )
        self.render_seconds = Histogram(
            "tavolo_render_seconds",
            "Time to draw one board image, by game",
            ["game"],
            buckets=_RENDER_BUCKETS,
            registry=r,
        )
        self.rate_limited = Counter(
            "tavolo_rate_limited_total",
            "Requests refused by a rate limit, by scope (user, chat)",
            ["scope"],
            registry=r,
        )

    def track_live_sessions(self, count: Callable[[], int]) -> None:
        """Read the live session count when scraped (no bookkeeping on every change)."""
        self.live_sessions.set_function(count)

    def track_outbox(self, platform: str, depth: Callable[[], int]) -> None:
        """Read ``platform``'s outbox depth when scraped."""
        self.outbox_depth.labels(platform=platform).set_function(depth)

    def track_update_queue(self, platform: str, depth: Callable[[], int]) -> None:
        """Read how many of ``platform``'s updates wait or are being answered, when scraped."""
        self.update_queue.labels(platform=platform).set_function(depth)

    def track_pool(
        self,
        size: Callable[[], int],
        idle: Callable[[], int],
        most: int,
        waiters: Callable[[], int],
    ) -> None:
        """Read the database pool's connections and waiters when scraped."""
        self.pool_connections.labels(state="open").set_function(size)
        self.pool_connections.labels(state="idle").set_function(idle)
        self.pool_connections.labels(state="max").set(most)
        self.pool_waiters.set_function(waiters)

    def track_gateway(self, latencies: Callable[[], list[tuple[int, float]]]) -> None:
        """Discord's heartbeat latency per shard, read when scraped (a shard's label appears
        once it has connected)."""

        def update() -> None:
            for shard, seconds in latencies():
                if seconds == seconds and seconds != float("inf"):  # not NaN before a heartbeat
                    self.gateway_latency.labels(shard=str(shard)).set(seconds)

        self._before_scrape.append(update)

    def set_readiness(self, found: Sequence[tuple[str, bool]]) -> None:
        """What readiness found (dependency name, ready), read at each scrape."""
        for dependency, ok in found:
            self.dependency_ready.labels(dependency=dependency).set(1 if ok else 0)
        self.ready.set(1 if all(ok for _, ok in found) else 0)

    def reply(self, command: str, platform: str, seconds: float) -> None:
        """Time one answered request (``platform`` outside ``PLATFORMS`` counts as other)."""
        label = platform if platform in PLATFORMS else "other"
        self.reply_seconds.labels(command=command, platform=label).observe(seconds)

    def exposition(self) -> bytes:
        """The Prometheus text format of every metric."""
        for update in self._before_scrape:
            update()
        return generate_latest(self.registry)


def build_info() -> dict[str, str]:
    """The version installed and the commit: ``TAVOLO_COMMIT`` (set by the container build),
    else the checkout's ``git rev-parse`` (bounded to 2 s), else ``unknown``."""
    try:
        version = metadata.version("tavolo")
    except metadata.PackageNotFoundError:
        version = "unknown"
    commit = os.environ.get("TAVOLO_COMMIT", "").strip()
    if not commit:
        try:
            commit = subprocess.run(
                ["git", "rev-parse", "--short=12", "HEAD"],
                capture_output=True,
                text=True,
                timeout=2,
                cwd=Path(__file__).resolve().parent,
                check=False,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            commit = ""
    return {"version": version, "commit": commit or "unknown"}
