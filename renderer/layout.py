"""Plain geometry shared by the board modules: rectangles and layout records.

Layouts are computed apart from drawing so tests (and the bot, if it ever wants to map a tap to
a pile) can ask exactly where each pile and card is.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle in image pixels (``x``, ``y`` = top-left corner)."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def centre(self) -> tuple[int, int]:
        return (self.x + self.w // 2, self.y + self.h // 2)

    def box(self) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)`` for Pillow."""
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    def inflate(self, by: int) -> Rect:
        return Rect(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)

    def union(self, other: Rect) -> Rect:
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)


@dataclass(frozen=True, slots=True)
class CardSpot:
    """One card drawn on the board: where, and what (a card code, or ``"down"`` for a back)."""

    rect: Rect
    face: str


@dataclass(slots=True)
class PileSpot:
    """Where a pile is drawn: its base ``slot`` (the empty-pile outline) and its cards, bottom first."""

    id: str
    kind: str
    slot: Rect
    label: Rect
    cards: list[CardSpot] = field(default_factory=list)

    @property
    def top(self) -> Rect:
        """The rectangle of the top card, or the slot when the pile is empty."""
        return self.cards[-1].rect if self.cards else self.slot

    @property
    def area(self) -> Rect:
        """Everything the pile covers."""
        rect = self.slot
        for spot in self.cards:
            rect = rect.union(spot.rect)
        return rect
