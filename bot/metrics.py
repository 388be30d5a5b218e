"""What an operator measures: Prometheus metrics on the bot's own registry.

Each ``Core`` holds one :class:`Metrics` with its own ``CollectorRegistry`` (never the global
one), so two cores in one process (tests, several bots) count apart. ``/metrics`` on the
bot's HTTP server (``bot.http``) serves :meth:`Metrics.exposition`.

Labels are bounded on purpose: a command label is a known command name (or ``unknown``,
``text``, ``button``), never what a player typed, so neither a flood of made-up commands nor a
secret pasted into a chat can reach the metrics.

>>> m = Metrics()
>>> m.commands.labels(command="help", outcome="ok").inc()
>>> b'tavolo_commands_total{command="help",outcome="ok"} 1.0' in m.exposition()
True
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

#: reply latency buckets (seconds): a chat answer should be well under a second
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: render buckets (seconds): a board image costs a few milliseconds
_RENDER_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    """Every metric of one bot process (see the README's "Operating Tavolo" for the list)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.commands = Counter(
            "tavolo_commands_total",
            "Requests handled, by command and outcome (ok, refused, busy, error, limited)",
            ["command", "outcome"],
            registry=r,
        )
        self.reply_seconds = Histogram(
            "tavolo_reply_seconds",
            "Time from a request reaching the core to its replies being ready",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.live_sessions = Gauge(
            "tavolo_live_sessions", "Sessions held in this process's memory", registry=r
        )
        self.games_finished = Counter(
            "tavolo_games_finished_total", "Games that ended (won, lost, resigned, expired)",
            ["game"], registry=r,
        )  # fmt: skip
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
            "tavolo_outbox_depth", "Messages queued and not yet sent, by platform", ["platform"],
            registry=r,
        )  # fmt: skip
        self.render_seconds = Histogram(
            "tavolo_render_seconds", "Time to draw one board image", buckets=_RENDER_BUCKETS,
            registry=r,
        )  # fmt: skip
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

    def exposition(self) -> bytes:
        """The Prometheus text format of every metric."""
        return generate_latest(self.registry)
