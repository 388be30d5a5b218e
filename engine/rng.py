"""The project's own seeded random generator, so a deal number means the same deal forever.

Python's ``random`` may change its algorithms between versions; deals must not. This module
uses SplitMix64 (Steele, Lea and Flood 2014), a tiny well-studied 64-bit generator, with
rejection sampling for unbiased integers and a Fisher-Yates shuffle.

>>> rng = DealRandom.for_deal("solitario", 1)
>>> rng.below(10) == DealRandom.for_deal("solitario", 1).below(10)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


class DealRandom:
    """A deterministic stream of 64-bit numbers (SplitMix64)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    @classmethod
    def for_deal(cls, stream: str, deal: int) -> DealRandom:
        """The stream for deal number ``deal`` of ``stream`` (usually a game id).

        The seed comes from SHA-256, which is the same on every machine and Python version.
        """
        digest = hashlib.sha256(f"tavolo:{stream}:{deal}".encode()).digest()
        return cls(int.from_bytes(digest[:8], "big"))

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
