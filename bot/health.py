"""What ``/readyz`` says of each dependency, and a log line that repeats at most once a minute.

Each dependency (the database, each chat platform) reports a :class:`Health`: whether the bot
can rely on it now, and a few words an operator can act on (never a URL, a token or an id).

>>> Health(True, "polling").line("telegram")
'telegram: ok (polling)'
>>> Health(False, "polling conflict (409)").line("telegram")
'telegram: polling conflict (409)'
>>> every = Throttle(60.0, clock=iter([0.0, 1.0, 2.0, 61.0]).__next__)
>>> [every.due() for _ in range(4)]   # the first now, then once the minute is over
[0, None, None, 2]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Health:
    """One dependency's state: ``ok``, and ``detail`` (how it is, or what is wrong)."""

    ok: bool
    detail: str = ""

    def line(self, name: str) -> str:
        """The dependency's line in ``/readyz``: ``name: ok (detail)`` or ``name: problem``."""
        if self.ok:
            return f"{name}: ok ({self.detail})" if self.detail else f"{name}: ok"
        return f"{name}: {self.detail or 'down'}"


def as_health(status: Health | str | None) -> Health:
    """A platform's status as ``Health``: a plain string is a problem, None is fine."""
    if isinstance(status, Health):
        return status
    return Health(True) if status is None else Health(False, status)


class Throttle:
    """At most one log line every ``seconds`` for a failure that repeats (a polling conflict
    retried every second must not write a traceback a second)."""

    def __init__(self, seconds: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self._last: float | None = None
        self._held = 0

    def due(self) -> int | None:
        """The number of occurrences held back since the last line when a line is due now
        (and count this one as logged), else None (this one is held back)."""
        now = self.clock()
        if self._last is not None and now - self._last < self.seconds:
            self._held += 1
            return None
        held, self._held, self._last = self._held, 0, now
        return held
