"""The 47 Squadratik cards (games.md §4): ids, sides, rotation, linking and points.

Card ids follow ``docs/views.md``: 0 the central card, 1-6 the other empty cards, 7-14 the
master cards (red rotations 0-3, then black rotations 0-3), 15-46 the normal cards 0-31 of
the side-list formula. A side is a short code: ``"0"`` blank, ``"R1".."R4"`` red balls,
``"B1".."B4"`` black balls. Sides are listed N, E, S, W.

The design and its measured balance are in ``docs/squadratik-deck.md``.

>>> DECK[7].sides, DECK[8].sides
(('R2', 'R4', 'B2', 'B4'), ('R4', 'B2', 'B4', 'R2'))
>>> DECK[15].sides, DECK[15].points
(('0', 'B4', 'B4', 'R2'), 10)
>>> placed_sides(7, 1)          # one quarter turn clockwise: printed W is now on top
('B4', 'R2', 'R4', 'B2')
>>> sides_link(DECK[7], 0, "E", DECK[8], 0)   # master 7's E (R4) against master 8's W (R2)
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.views import SquadratikCardView

DIRECTIONS = ("N", "E", "S", "W")
#: unit steps on the grid: x grows east, y grows south
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
BLANK = "0"


class Kind(StrEnum):
    CENTRAL = "central"
    EMPTY = "empty"
    MASTER = "master"
    NORMAL = "normal"


@dataclass(frozen=True, slots=True)
class SquadratikCard:
    """One printed card. ``sides`` are the printed N, E, S, W codes."""

    id: int
    kind: Kind
    sides: tuple[str, str, str, str]
    #: what every view of the card repeats, worked out once: its kind's name and its points
    #: (a table's view lists every card on the board, several times a move)
    _kind_name: str = field(init=False, repr=False, compare=False)
    _points: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        points = 0
        if self.kind is Kind.NORMAL:
            points = sum(int(side[1]) for side in self.sides if side != BLANK)
        object.__setattr__(self, "_kind_name", str(self.kind))
        object.__setattr__(self, "_points", points)

    @property
    def is_empty(self) -> bool:
        """Central and empty cards show nothing and link with anything."""
        return self.kind in (Kind.CENTRAL, Kind.EMPTY)

    @property
    def points(self) -> int:
        """Total balls; only normal cards give points (masters and empties give none)."""
        return self._points

    def to_view(self, rotation: int = 0) -> SquadratikCardView:
        """The card as ``docs/views.md`` describes it.

        >>> DECK[0].to_view()["kind"]
        'central'
        """
        return {
            "id": self.id,
            "kind": self._kind_name,
            "sides": list(self.sides),
            "rotation": rotation,
            "points": self._points,
        }


#: How many of the 32 normal cards show each side value on each side position (N, E, S and W
#: alike): mostly two or four balls, a single blank (see docs/squadratik-deck.md for the why).
SIDE_COUNTS: dict[str, int] = {
    BLANK: 1,
    "R1": 0,
    "R2": 9,
    "R3": 0,
    "R4": 7,
    "B1": 0,
    "B2": 8,
    "B3": 0,
    "B4": 7,
}
#: The 32-entry side list V: every value as often as SIDE_COUNTS says, in that order.
SIDE_LIST: tuple[str, ...] = tuple(code for code, n in SIDE_COUNTS.items() for _ in range(n))
#: Normal card i shows N = V[i] and, for E, S, W, V[(a * i + b) mod 32] with these (a, b):
#: odd multipliers make each a permutation, so every side position shows V's counts.
SIDE_FORMULA: tuple[tuple[int, int], ...] = ((27, 29), (17, 26), (23, 8))

CENTRAL_ID = 0
EMPTY_IDS = tuple(range(1, 7))
MASTER_IDS = tuple(range(7, 15))
NORMAL_IDS = tuple(range(15, 47))


def _build_deck() -> tuple[SquadratikCard, ...]:
    blank4 = (BLANK, BLANK, BLANK, BLANK)
    cards = [SquadratikCard(CENTRAL_ID, Kind.CENTRAL, blank4)]
    cards += [SquadratikCard(i, Kind.EMPTY, blank4) for i in EMPTY_IDS]
    # masters: two red and two black sides, two and four balls each, so they link like the
    # normal cards; the red masters run R2 R4 B2 B4 round the card, the black ones B2 R2 B4 R4
    for colour_index, pattern in enumerate((("R2", "R4", "B2", "B4"), ("B2", "R2", "B4", "R4"))):
        for r in range(4):
            sides = pattern[r:] + pattern[:r]
            cards.append(SquadratikCard(7 + 4 * colour_index + r, Kind.MASTER, sides))  # type: ignore[arg-type]
    v = SIDE_LIST
    for i in range(32):
        east, south, west = (v[(a * i + b) % 32] for a, b in SIDE_FORMULA)
        cards.append(SquadratikCard(15 + i, Kind.NORMAL, (v[i], east, south, west)))
    return tuple(cards)


#: All 47 cards, indexed by id.
DECK: tuple[SquadratikCard, ...] = _build_deck()

# placed sides of every card in every rotation: _PLACED[card_id][rotation] = (N, E, S, W)
_PLACED: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(card.sides[(k - r) % 4] for k in range(4)) for r in range(4)) for card in DECK
)
_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}


def placed_sides(card_id: int, rotation: int) -> tuple[str, ...]:
    """The N, E, S, W sides a card shows after ``rotation`` quarter turns clockwise.

    After r turns the placed side k shows printed side ``(k - r) mod 4``.

    >>> placed_sides(7, 2)
    ('B2', 'B4', 'R2', 'R4')
    """
    return _PLACED[card_id][rotation % 4]


def placed_side(card_id: int, rotation: int, direction: str) -> str:
    """One placed side (``direction`` in N, E, S, W)."""
    return _PLACED[card_id][rotation % 4][_INDEX[direction]]


def sides_link(
    card_a: SquadratikCard, rot_a: int, facing: str, card_b: SquadratikCard, rot_b: int
) -> bool:
    """Whether ``card_a`` (its ``facing`` side) links with ``card_b`` lying on that side of it.

    Same count in the same colour links; blank links blank; an empty card links with anything.

    >>> sides_link(DECK[1], 0, "N", DECK[20], 3)
    True
    """
    if card_a.is_empty or card_b.is_empty:
        return True
    return placed_side(card_a.id, rot_a, facing) == placed_side(card_b.id, rot_b, OPPOSITE[facing])


def deck_for_players(players: int | None) -> list[int]:
    """Card ids used in a game, central card included, before shuffling.

    El Solitario (``None``) uses all 47; Cartas Maestras removes 3 empties for 2, 3, 6, 7
    players or 5 for 4, 5, 8. The seed's "43 / 41 cards in play" are the cards besides the
    central one (which never leaves the table). The highest-numbered empties go.

    >>> len(deck_for_players(None)), len(deck_for_players(2)) - 1, len(deck_for_players(4)) - 1
    (47, 43, 41)
    """
    ids = list(range(47))
    if players is None:
        return ids
    removed = 5 if players in (4, 5, 8) else 3
    gone = set(EMPTY_IDS[len(EMPTY_IDS) - removed :])
    return [i for i in ids if i not in gone]
