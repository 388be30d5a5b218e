"""Squadratik move notation, shared by El Solitario and Cartas Maestras.

A placement is ``<slot><SIDE>[<turn>][r<k>]``:

- ``slot``: the hand card, 1 for the first card as the view lists the hand;
- ``SIDE``: ``N``, ``E``, ``S`` or ``W``: the end of that side's path, or the central card's
  free side (opening a path);
- ``turn`` (optional, lower case ``n e s w``): the direction the path takes right after an
  empty card (not the central one); leave it out to go straight on. ``1S>e`` is also accepted;
- ``r<k>`` (Cartas Maestras only): ``k`` = 1, 2 or 3 quarter turns clockwise before placing.

Plus ``pass`` (Cartas Maestras: draw a card and pass, only when nothing can be placed) and
``stop`` (Cartas Maestras final phase: end your tie-break path). Input is case-insensitive;
``str(move)`` is the canonical form and parses back to the same move.

>>> m = parse_notation("1se r2".replace(" ", ""))
>>> m, str(m), m.src, m.dst
(Place(slot=1, side='S', turn='E', rotation=2), '1Ser2', 'h1', 'S>e')
>>> str(parse_notation("PASS")), parse_notation("stop").src is None
('pass', True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.game import IllegalMove

_PLACE = re.compile(r"^(\d{1,2})([nesw])>?([nesw])?(?:r([0-3]))?$")


@dataclass(frozen=True, slots=True)
class Place:
    """Put hand card ``slot`` (1-based) on path ``side``, turning to ``turn`` after an empty
    card (None: straight on), after ``rotation`` quarter turns clockwise.

    ``src`` is ``"h<slot>"``, ``dst`` is ``"N"`` or ``"N>e"`` (for select-then-target buttons).

    >>> str(Place(3, "W", None, 1)), Place(3, "W", None, 1).dst
    ('3Wr1', 'W')
    """

    slot: int
    side: str
    turn: str | None = None
    rotation: int = 0
    src: str = field(init=False, repr=False, compare=False)
    dst: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "src", f"h{self.slot}")
        dst = self.side if self.turn is None else f"{self.side}>{self.turn.lower()}"
        object.__setattr__(self, "dst", dst)

    def __str__(self) -> str:
        turn = "" if self.turn is None else self.turn.lower()
        rotation = f"r{self.rotation}" if self.rotation else ""
        return f"{self.slot}{self.side}{turn}{rotation}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Draw a card (if the stock has any) and pass: only when nothing can be placed."""

    src: None = field(default=None, init=False, repr=False, compare=False)
    dst: None = field(default=None, init=False, repr=False, compare=False)

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Stop:
    """Final phase of Cartas Maestras: end your tie-break path now."""

    src: None = field(default=None, init=False, repr=False, compare=False)
    dst: None = field(default=None, init=False, repr=False, compare=False)

    def __str__(self) -> str:
        return "stop"


Move = Place | Pass | Stop


def parse_notation(text: str) -> Move:
    """Parse a move without looking at the position; raises ``IllegalMove("bad_notation")``.

    >>> parse_notation("2n")
    Place(slot=2, side='N', turn=None, rotation=0)
    >>> parse_notation("2N>w")
    Place(slot=2, side='N', turn='W', rotation=0)
    """
    cleaned = str(text).strip().lower().replace(" ", "")
    if cleaned == "pass":
        return Pass()
    if cleaned == "stop":
        return Stop()
    match = _PLACE.match(cleaned)
    if match is None:
        raise IllegalMove("bad_notation")
    slot, side, turn, rotation = match.groups()
    return Place(int(slot), side.upper(), turn.upper() if turn else None, int(rotation or 0))
