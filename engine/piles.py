"""Pile rules as frozen data, shared by Solitario and Canfield (in the spirit of PySolFC).

A pile rule says which card may go on top of which: the suit vocabulary (same suit, alternate
colour, any suit), the build direction (down or up), whether ranks wrap (K then A), and the rank
an empty pile accepts. Checking a placement returns a stable reason code (the ``IllegalMove``
codes the bot translates) or ``None`` when the card fits.

>>> from engine.cards import Card, ITALIAN_40
>>> column = tableau_rule(top_rank=10, empty_accepts=10)
>>> column.refusal(Card(7, "h", ITALIAN_40), Card(6, "s", ITALIAN_40)) is None
True
>>> column.refusal(Card(7, "h", ITALIAN_40), Card(6, "d", ITALIAN_40))
'not_alternating_colour'
>>> column.refusal(None, Card(9, "s", ITALIAN_40))
'empty_column_needs_king'
>>> foundation_rule("d", top_rank=13, base_rank=8, wrap=True).next_rank(13)
1

Moves of both games are :class:`PileMove` values: ``src`` and ``dst`` are pile ids exactly as in
``docs/views.md``; ``count`` is 0 for "whatever the rules allow" (the fitting run in Solitario,
the whole pile in Canfield) or an explicit number of cards taken from the top of ``src``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.cards import RED_SUITS, SUITS, Card
from engine.game import IllegalMove
from engine.views import PileView

#: reason codes a placement check may return (a subset of the games' ``IllegalMove`` codes)
NOT_ALTERNATING_COLOUR = "not_alternating_colour"
NOT_ONE_LOWER = "not_one_lower"
WRONG_SUIT = "wrong_suit"
NOT_NEXT_RANK = "not_next_rank"
EMPTY_COLUMN_NEEDS_KING = "empty_column_needs_king"
FOUNDATION_NEEDS_ACE = "foundation_needs_ace"
FOUNDATION_NEEDS_BASE = "foundation_needs_base"


class SuitRule(StrEnum):
    """How the suit of a card relates to the card it is placed on (PySolFC's SS / AC / RK)."""

    SAME_SUIT = "same_suit"
    ALTERNATE_COLOUR = "alternate_colour"
    ANY_SUIT = "any_suit"


class PileKind(StrEnum):
    """The ``kind`` of a pile in a view."""

    STOCK = "stock"
    WASTE = "waste"
    FOUNDATION = "foundation"
    TABLEAU = "tableau"
    RESERVE = "reserve"
    CELL = "cell"  # FreeCell's free cells: one card each
    TURNED = "turned"  # Imaginary Thirteen's turned card, waiting to be placed


@dataclass(frozen=True, slots=True)
class PileRule:
    """Which card may be placed on top of which, as data.

    ``direction`` is +1 (build up) or -1 (build down). With ``wrap`` the rank after ``top_rank``
    is 1 (and before 1 is ``top_rank``). ``empty_accepts`` is the rank an empty pile takes, or
    ``None`` for any card. ``suit`` fixes the pile's suit (foundations with a fixed order).
    """

    suit_rule: SuitRule
    direction: int
    top_rank: int
    wrap: bool = False
    empty_accepts: int | None = None
    suit: str | None = None

    def next_rank(self, rank: int) -> int | None:
        """The rank that goes on ``rank`` (``None`` when nothing can).

        >>> tableau_rule(top_rank=13, wrap=True).next_rank(1)
        13
        """
        following = rank + self.direction
        if 1 <= following <= self.top_rank:
            return following
        if not self.wrap:
            return None
        return 1 if following > self.top_rank else self.top_rank

    def refusal(self, under: Card | None, card: Card) -> str | None:
        """Why ``card`` may not go on ``under`` (``None``: empty pile), or ``None`` if it may.

        The rank is checked before the suit, so "7 on 6" reads ``not_one_lower`` even when the
        colours would also clash: the most specific complaint is the one about rank order.
        An empty foundation refuses a card of the wrong rank for that reason, before its suit:
        a 4 sent to an empty foundation breaks "only an ace starts a foundation", whichever
        foundation it was sent to.
        """
        if under is None and self.direction > 0 and self.empty_accepts not in (None, card.rank):
            return FOUNDATION_NEEDS_ACE if self.empty_accepts == 1 else FOUNDATION_NEEDS_BASE
        if self.suit is not None and card.suit != self.suit:
            return WRONG_SUIT
        if under is None:
            if self.empty_accepts is None or card.rank == self.empty_accepts:
                return None
            if self.direction < 0:
                return EMPTY_COLUMN_NEEDS_KING
            return NOT_NEXT_RANK
        if self.next_rank(under.rank) != card.rank:
            return NOT_ONE_LOWER if self.direction < 0 else NOT_NEXT_RANK
        if self.suit_rule is SuitRule.SAME_SUIT and card.suit != under.suit:
            return WRONG_SUIT
        if self.suit_rule is SuitRule.ALTERNATE_COLOUR and card.is_red == under.is_red:
            return NOT_ALTERNATING_COLOUR
        return None

    def accepts(self, under: Card | None, card: Card) -> bool:
        """True when ``card`` may go on ``under``: :meth:`refusal` is None, worked out
        without the reason (move generation and stall searches ask this very often)."""
        if self.suit is not None and card.suit != self.suit:
            return False
        if under is None:
            return self.empty_accepts is None or card.rank == self.empty_accepts
        following = under.rank + self.direction
        if not 1 <= following <= self.top_rank:
            if not self.wrap:
                return False
            following = 1 if following > self.top_rank else self.top_rank
        if following != card.rank:
            return False
        if self.suit_rule is SuitRule.SAME_SUIT:
            return card.suit == under.suit
        if self.suit_rule is SuitRule.ALTERNATE_COLOUR:
            return (card.suit in RED_SUITS) != (under.suit in RED_SUITS)
        return True

    def is_sequence(self, cards: Sequence[Card]) -> bool:
        """True when each card of ``cards`` (bottom to top) is built on the one below it.

        >>> from engine.cards import Card
        >>> tableau_rule(13).is_sequence([Card(13, "s"), Card(12, "h"), Card(11, "c")])
        True
        """
        return all(
            self.refusal(below, above) is None
            for below, above in zip(cards, cards[1:], strict=False)
        )


def tableau_rule(
    top_rank: int, *, wrap: bool = False, empty_accepts: int | None = None
) -> PileRule:
    """Down by one in alternating colours. Solitario: ``empty_accepts=top_rank`` (Re/King only);
    Canfield: ``wrap=True`` and any card in a space."""
    return PileRule(SuitRule.ALTERNATE_COLOUR, -1, top_rank, wrap, empty_accepts)


def foundation_rule(
    suit: str, top_rank: int, *, base_rank: int = 1, wrap: bool = False
) -> PileRule:
    """Up by one in one fixed suit, starting at ``base_rank``."""
    return PileRule(SuitRule.SAME_SUIT, +1, top_rank, wrap, base_rank, suit)


def foundation_index(card: Card) -> int:
    """Foundations have fixed suits in the order d h c s: the index (0-3) of ``card``'s one."""
    return SUITS.index(card.suit)


@dataclass(frozen=True, slots=True)
class PileMove:
    """One move of a pile game: a hashable value whose ``str`` is its notation.

    ``PileMove("s", None)`` turns the stock (written ``d``). Otherwise ``src`` + ``dst`` (+
    ``:count`` when a count was given): ``w3``, ``35``, ``3f2``, ``f25``, ``35:2``.

    >>> str(PileMove("3", "f2")), str(PileMove("s", None)), str(PileMove("3", "5", 2))
    ('3f2', 'd', '35:2')
    """

    src: str
    dst: str | None
    count: int = 0

    @property
    def is_turn(self) -> bool:
        """True for the stock turn (``d``)."""
        return self.dst is None

    def __str__(self) -> str:
        if self.dst is None:
            return "d"
        text = self.src + self.dst
        return f"{text}:{self.count}" if self.count else text


TURN = PileMove("s", None)


def move_table(pile_ids: frozenset[str]) -> dict[tuple[str, str], PileMove]:
    """One shared move value per (source, destination) pair of ``pile_ids``, for a game's
    move generation: moves are immutable, and building a frozen dataclass is slow.

    >>> move_table(frozenset({"w", "1"}))["w", "1"]
    PileMove(src='w', dst='1', count=0)
    """
    return {(src, dst): PileMove(src, dst) for src in pile_ids for dst in pile_ids if src != dst}


def parse_card_list(text: str, deck: str) -> list[Card]:
    """Card codes separated by spaces or commas, e.g. ``"Ah 2h Kc"`` (for layouts in tests)."""
    return [Card.parse(code, deck) for code in text.replace(",", " ").split()]


def compact_notation(text: object) -> str:
    """Move notation as the pile games read it: case-insensitive, spaces ignored.

    >>> compact_notation(" W F "), compact_notation("3 a")
    ('wf', '3a')
    """
    return "".join(str(text).split()).lower()


_MOVE_PATTERN = re.compile(r"(w|r|f[1-4]|[1-9])(s|w|r|f[1-4]?|[1-9])(?::([1-9][0-9]?))?")
TURN_WORDS = frozenset({"d", "s", "sw"})


def parse_pile_notation(text: str, pile_ids: frozenset[str]) -> PileMove:
    """Parse pile-game notation: case-insensitive, spaces ignored.

    ``d`` (also ``s``, ``sw``) turns the stock. Otherwise ``<src><dst>[:count]`` with pile ids
    from ``pile_ids``; a bare ``f`` as destination means "that card's foundation" and is
    returned as ``dst="f"`` for the game to resolve against the position.

    >>> ids = frozenset({"w", "1", "2", "f1", "f2", "f3", "f4"})
    >>> parse_pile_notation("W F", ids), parse_pile_notation("f2 1", ids)
    (PileMove(src='w', dst='f', count=0), PileMove(src='f2', dst='1', count=0))
    """
    norm = compact_notation(text)
    if norm in TURN_WORDS:
        return TURN
    match = _MOVE_PATTERN.fullmatch(norm)
    if match is None:
        raise IllegalMove("bad_notation", text=text)
    src, dst, count = match.group(1), match.group(2), match.group(3)
    if src not in pile_ids or (dst != "f" and dst not in pile_ids):
        raise IllegalMove("bad_notation", text=text)
    return PileMove(src, dst, int(count) if count else 0)


def pile_view(
    pile_id: str,
    kind: PileKind,
    cards: Sequence[Card],
    down: int = 0,
    *,
    show: int | None = None,
    suit: str | None = None,
) -> PileView:
    """One pile of a view (``docs/views.md``): ``cards`` are the face-up cards, bottom to top;
    the first ``down`` cards of the pile are face down and appear only as that count. ``show``
    (a waste's fanned cards) and ``suit`` (a foundation's) are left out when not given."""
    entry: PileView = {
        "id": pile_id,
        "kind": str(kind),
        "down": down,
        "cards": [card.code for card in cards[down:]],
    }
    if show is not None:
        entry["show"] = show
    if suit is not None:
        entry["suit"] = suit
    return entry


def draw_three(stock: list[Card], waste: list[Card]) -> int:
    """Turn up to three cards from the stock (top at the end) onto the waste; when the stock is
    empty, turn the waste over (not shuffled) into a new stock instead. Returns how many cards
    were turned onto the waste (0 for a turn-over).

    >>> stock, waste = [Card(1, "s"), Card(2, "s")], [Card(3, "s")]
    >>> draw_three(stock, waste), [c.code for c in waste]
    (2, ['3s', '2s', 'As'])
    >>> draw_three(stock, waste), [c.code for c in stock]
    (0, ['As', '2s', '3s'])
    """
    if not stock:
        # The waste turned face down: its bottom card becomes the stock's top.
        stock.extend(reversed(waste))
        waste.clear()
        return 0
    turned = min(3, len(stock))
    for _ in range(turned):
        waste.append(stock.pop())
    return turned


def stock_cycle(stock: Sequence[Card], waste: Sequence[Card]) -> list[tuple[int, Card]]:
    """Every waste top that stock turns alone lead to, with the number of turns: turning three
    at a time, the waste turned over into a new stock (one turn) when the stock runs out. One
    entry per stock position: the current one (0 turns), those until the stock runs out, then
    one full cycle of the turned-over stock (positions without a waste card are left out).

    Stock turns move no other card, so a stall search can look at these waste cards instead of
    visiting every stock position.

    >>> stock = [Card(r, "s") for r in (7, 6, 5, 4, 3)]   # top at the end: 3s is turned first
    >>> [(turns, c.code) for turns, c in stock_cycle(stock, [Card(1, "h"), Card(2, "h")])]
    [(0, '2h'), (1, '5s'), (2, '7s'), (4, '3s'), (5, '6s'), (6, '7s')]
    """
    turning = list(reversed(stock))  # in the order the cards will be turned
    found: list[tuple[int, Card]] = []
    if waste:
        found.append((0, waste[-1]))
    groups = -(-len(turning) // 3)
    for turn in range(1, groups + 1):
        found.append((turn, turning[min(3 * turn, len(turning)) - 1]))
    # the turn-over, then the whole waste in order as the new stock, cycled forever
    cycle = [*waste, *turning]
    for turn in range(1, -(-len(cycle) // 3) + 1):
        found.append((groups + 1 + turn, cycle[min(3 * turn, len(cycle)) - 1]))
    return found


def cards_text(cards: Sequence[Card], down: int = 0) -> str:
    """A pile as text for boards: ``##`` per face-down card, then the face-up codes."""
    return " ".join(["##"] * down + [card.code for card in cards[down:]]) or "--"
