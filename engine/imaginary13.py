"""Imaginary Thirteen: a two-deck Calculation (games.md section 3).

Layout. Two French decks (104 cards; values A=1 .. K=13, suits kept only for drawing). Eight
markers A 2 3 4 5 6 7 8 lie in a row; under marker ``k`` lies a base of value ``2k`` (less 13
when over 13): 2 4 6 8 10 Q A 3. Markers and bases are the first matching cards of the
*unshuffled* two decks (``engine.cards.full_deck`` order, deck one then deck two), markers
first; the other 88 cards are shuffled into the stock with
``DealRandom.for_deal("imaginary13", deal)``. The first card of the shuffled list is the first
card turned.

Building. Foundation ``k`` takes, regardless of suit, the value ``top + k`` (less 13 when over
13) and is finished at the King, 12 cards with its base. Marker 2: 4 6 8 10 Q A 3 5 7 9 J K.

Play. The top stock card is turned automatically (at the start and after every placement of
the turned card; turning is not a move). It must be placed before the next one is turned:

* if it fits one or more foundations it must go to one of them, the player's pick;
* otherwise it goes onto one of the four waste piles, the player's pick;
* with option ``free`` (the Calculation custom) it may go to a waste pile even when it fits.

The top card of every waste pile may be played to a foundation at any time, **including
while a turned card is waiting** (the seed allows it "at any time"). Nothing moves between
waste piles and nothing leaves a foundation.

End and score. Won when all 88 cards are on the foundations; lost when the stock is spent (no
turned card) and no waste top fits. Score = cards played to the foundations (0-88; the bases do
not count).

Notation (case-insensitive, spaces ignored). Pile ids are the view's: ``t`` the turned card,
``1``-``8`` the foundations (by marker), ``a`` ``b`` ``c`` ``d`` the waste piles, ``s`` the
stock (never part of a move). A move is source then destination:

* ``t5``: the turned card to foundation 5;
* ``ta``: the turned card to waste pile a;
* ``b5``: the top of waste pile b to foundation 5.

``ab`` is well-formed but always refused (``waste_to_waste``). Reason codes of
``IllegalMove``: ``bad_notation``, ``no_turned_card``, ``does_not_fit`` (details ``needed``:
the value 1-13 the foundation takes next, ``card``), ``foundation_finished`` (``foundation``),
``must_play_to_foundation`` (details ``card``, ``fits``: the foundations it fits, as
``"1, 6"``), ``waste_empty`` (``pile``), ``waste_to_waste``, plus the base class's
``game_over`` and ``not_a_player``.

Built on ``engine.pilegame.PileGame``: this module writes the rules (the deal, ``_generate``,
``_check``, what a move does in ``_do``, the score, its view's own fields and board text); the
base lists the legal moves once per position, takes moves back and copies games.

>>> import engine
>>> g = engine.new_game("imaginary13", deal=1)
>>> g.view()["markers"]
[1, 2, 3, 4, 5, 6, 7, 8]
>>> [pile["next"] for pile in g.view()["piles"] if pile["kind"] == "foundation"]
[3, 6, 9, 12, 2, 5, 8, 11]
>>> move = g.legal_moves()[0]
>>> g.parse_move(str(move)) == move
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import FRENCH_52, Card, full_deck
from engine.game import IllegalMove
from engine.gameinfo import Column, Daily, GameInfo, Ranking, by_score_then_fewer_moves
from engine.pilegame import PileGame
from engine.piles import PileKind, compact_notation, pile_view
from engine.rng import DealRandom
from engine.views import Imaginary13View, PileView

KING = 13
MARKERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)
FOUNDATION_IDS: tuple[str, ...] = tuple(str(k) for k in MARKERS)
WASTE_IDS: tuple[str, ...] = ("a", "b", "c", "d")
TURNED = "t"
STOCK = "s"
CARDS_TO_PLAY = 88  # 104 minus 8 markers minus 8 bases
CARDS_PER_FOUNDATION = 12  # the base plus 11 cards, ending at the King


def add_wrapping(value: int, step: int) -> int:
    """``value + step``, less 13 when the total goes over 13 (values stay 1..13).

    >>> add_wrapping(12, 2), add_wrapping(13, 5), add_wrapping(8, 5)
    (1, 5, 13)
    """
    total = value + step
    return total - KING if total > KING else total


def base_value(marker: int) -> int:
    """The value of the base card under ``marker``: twice it, less 13 when over 13.

    >>> [base_value(k) for k in MARKERS]
    [2, 4, 6, 8, 10, 12, 1, 3]
    """
    return add_wrapping(marker, marker)


def build_sequence(marker: int) -> list[int]:
    """The 12 values foundation ``marker`` holds when finished, base first.

    >>> build_sequence(2)
    [4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11, 13]
    """
    values = [base_value(marker)]
    while values[-1] != KING:
        values.append(add_wrapping(values[-1], marker))
    return values


@dataclass(frozen=True, slots=True)
class Imaginary13Move:
    """One placement: ``src`` (``t`` or a waste id) onto ``dst`` (a foundation or waste id).

    >>> str(Imaginary13Move("t", "5"))
    't5'
    """

    src: str
    dst: str

    def __str__(self) -> str:
        return self.src + self.dst


_SOURCES = frozenset((TURNED, *WASTE_IDS))
_DESTINATIONS = frozenset((*FOUNDATION_IDS, *WASTE_IDS))


def _two_decks_layout() -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """Markers, bases and the 88 other cards (unshuffled), per the games.md ruling."""
    remaining = full_deck(FRENCH_52) + full_deck(FRENCH_52)

    def take(rank: int) -> Card:
        index = next(i for i, card in enumerate(remaining) if card.rank == rank)
        return remaining.pop(index)

    markers = tuple(take(k) for k in MARKERS)
    bases = tuple(take(base_value(k)) for k in MARKERS)
    return markers, bases, tuple(remaining)


# The layout is the same for every deal: only the stock's order changes.
_MARKER_CARDS, _BASE_CARDS, _STOCK_CARDS = _two_decks_layout()
# _NEXT_VALUE[k - 1][top] = the value foundation k takes on ``top`` (None once at the King).
_NEXT_VALUE: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(None if top == KING else add_wrapping(top, k) for top in range(KING + 1)) for k in MARKERS
)


class Imaginary13(PileGame):
    """Imaginary Thirteen; see the module docstring for rules and notation.

    >>> g = Imaginary13(deal=1)
    >>> g.score, g.stock_left, g.turned is not None
    (0, 87, True)
    """

    info: ClassVar[GameInfo] = GameInfo(
        id="imaginary13",
        names={"en": "Imaginary Thirteen", "es": "Trece Imaginario", "it": "Tredici Immaginario"},
        aliases=("imaginary", "i13"),
        ranking=Ranking(by_score_then_fewer_moves, (Column.SCORE, Column.MOVES)),
        daily=Daily(node_budget=50_000),
        solver="imaginary13",
        could_have_won=True,
        hint_scorer="imaginary_thirteen",
        notation_examples=("t5", "ta", "b5"),
    )
    option_choices: ClassVar[dict[str, tuple[Any, ...]]] = {"free": (False, True)}

    # ----- state -------------------------------------------------------------------------------
    # Piles are tuples so a snapshot is just two shallow list copies and an int.
    PILE_ROWS: ClassVar[tuple[str, ...]] = ("_foundations", "_wastes")
    VALUES: ClassVar[tuple[str, ...]] = ("_turn_index",)
    _stock: tuple[Card, ...]  # the shuffled 88, in turning order; never changes after the deal
    _turn_index: int  # index in _stock of the turned card; len(_stock) once the stock is spent
    _foundations: list[tuple[Card, ...]]  # index k-1: base first, top last
    _wastes: list[tuple[Card, ...]]  # index 0..3 = a..d, top last

    def _setup(self) -> None:
        stock = list(_STOCK_CARDS)
        DealRandom.for_deal(self.game_id, self.deal).shuffle(stock)
        self._stock = tuple(stock)
        self._turn_index = 0
        self._foundations = [(base,) for base in _BASE_CARDS]
        self._wastes = [() for _ in WASTE_IDS]

    @classmethod
    def from_layout(
        cls,
        foundations: Sequence[str] = (),
        *,
        wastes: Sequence[str] = (),
        stock: str = "",
        free: bool = False,
    ) -> Imaginary13:
        """A game in a hand-made position (tests, puzzles, solver checks).

        Each of ``foundations`` (1-8, by marker) reads bottom to top from its base card and
        must follow the foundation's build sequence (suits are free); a foundation left out or
        given as ``""`` holds its base card alone. ``wastes`` (a-d) read bottom to top.
        ``stock`` lists the cards in turning order, the turned card first; ``""``: the stock is
        spent and no card is turned. Cards need not add up to two decks. A value out of
        sequence or a bad card code raises ``ValueError``.

        >>> g = Imaginary13.from_layout(["2s 3h", "4c"], wastes=["Kd 4d"], stock="6h 9s")
        >>> g.turned.code, g.stock_left, [str(m) for m in g.legal_moves()]
        ('6h', 1, ['t2', 'a1'])
        >>> [p["cards"] for p in g.view()["piles"] if p["id"] in ("1", "a")]
        [['2s', '3h'], ['Kd', '4d']]
        """
        game = cls(0, options={"free": free})

        def parse(text: str) -> tuple[Card, ...]:
            return tuple(game._parse_cards(text))

        piles = list(foundations) + [""] * (len(MARKERS) - len(foundations))
        game._foundations = []
        for marker, text in zip(MARKERS, piles, strict=True):
            pile = parse(text) or (_BASE_CARDS[marker - 1],)
            sequence = build_sequence(marker)
            if [card.rank for card in pile] != sequence[: len(pile)]:
                raise ValueError(f"foundation {marker} builds {sequence}, not {text!r}")
            game._foundations.append(pile)
        game._wastes = [
            parse(text) for text in list(wastes) + [""] * (len(WASTE_IDS) - len(wastes))
        ]
        game._stock = parse(stock)
        game._turn_index = 0
        game._position_changed()
        return game

    # ----- derived facts ---------------------------------------------------------------------
    @property
    def turned(self) -> Card | None:
        """The turned card waiting to be placed, or None once the stock is spent."""
        if self._turn_index < len(self._stock):
            return self._stock[self._turn_index]
        return None

    @property
    def stock_left(self) -> int:
        """Face-down cards still in the stock (the turned card not included)."""
        return max(len(self._stock) - self._turn_index - 1, 0)

    def needed(self, foundation: int) -> int | None:
        """The value foundation ``foundation`` (1-8) takes next, or None when finished.

        >>> Imaginary13(deal=1).needed(2)
        6
        """
        return _NEXT_VALUE[foundation - 1][self._foundations[foundation - 1][-1].rank]

    def _wanted(self) -> dict[int | None, list[str]]:
        """Value -> ids of the foundations that take it next (one pass over the eight)."""
        wanted: dict[int | None, list[str]] = {}
        for table, fid, pile in zip(_NEXT_VALUE, FOUNDATION_IDS, self._foundations, strict=True):
            wanted.setdefault(table[pile[-1].rank], []).append(fid)
        return wanted

    def _fitting(self, card: Card) -> list[str]:
        """Foundation ids ``card`` may go onto now."""
        return self._wanted().get(card.rank, [])

    # ----- moves -----------------------------------------------------------------------------
    def parse_move(self, text: str) -> Imaginary13Move:
        """``t5``, ``ta``, ``b5`` (see the module docstring); ``bad_notation`` otherwise.

        >>> Imaginary13(deal=1).parse_move(" B5 ")
        Imaginary13Move(src='b', dst='5')
        """
        compact = compact_notation(text)
        if len(compact) != 2 or compact[0] not in _SOURCES or compact[1] not in _DESTINATIONS:
            raise IllegalMove("bad_notation", text=str(text))
        return Imaginary13Move(compact[0], compact[1])

    def _generate(self) -> list[Imaginary13Move]:
        moves: list[Imaginary13Move] = []
        wanted = self._wanted()
        turned = self.turned
        if turned is not None:
            fits = wanted.get(turned.rank, [])
            moves.extend(Imaginary13Move(TURNED, fid) for fid in fits)
            if not fits or self.options["free"]:
                moves.extend(Imaginary13Move(TURNED, wid) for wid in WASTE_IDS)
        for wid, pile in zip(WASTE_IDS, self._wastes, strict=True):
            if pile:
                moves.extend(Imaginary13Move(wid, fid) for fid in wanted.get(pile[-1].rank, []))
        return moves

    def _check(self, move: Any) -> None:
        if not isinstance(move, Imaginary13Move):
            raise IllegalMove("bad_notation", text=str(move))
        if move.src not in _SOURCES or move.dst not in _DESTINATIONS:  # a hand-built move
            raise IllegalMove("bad_notation", text=str(move))
        if move.src == TURNED:
            card = self.turned
            if card is None:
                raise IllegalMove("no_turned_card")
            if move.dst in WASTE_IDS:
                fits = self._fitting(card)
                if fits and not self.options["free"]:
                    raise IllegalMove(
                        "must_play_to_foundation", card=card.code, fits=", ".join(fits)
                    )
                return
        else:
            if move.dst in WASTE_IDS:
                raise IllegalMove("waste_to_waste")
            pile = self._wastes[WASTE_IDS.index(move.src)]
            if not pile:
                raise IllegalMove("waste_empty", pile=move.src)
            card = pile[-1]
        foundation = int(move.dst)
        needed = self.needed(foundation)
        if needed is None:
            raise IllegalMove("foundation_finished", foundation=foundation)
        if card.rank != needed:
            raise IllegalMove("does_not_fit", needed=needed, card=card.code)

    def _do(self, move: Imaginary13Move) -> tuple[str, ...]:
        if move.src == TURNED:
            card = self._stock[self._turn_index]
            self._turn_index += 1  # the next stock card is turned at once
        else:
            waste = WASTE_IDS.index(move.src)
            card = self._wastes[waste][-1]
            self._wastes[waste] = self._wastes[waste][:-1]
        if move.dst in WASTE_IDS:
            waste = WASTE_IDS.index(move.dst)
            self._wastes[waste] = (*self._wastes[waste], card)
        else:
            foundation = int(move.dst) - 1
            self._foundations[foundation] = (*self._foundations[foundation], card)
        return (move.src, move.dst)

    # ----- results ---------------------------------------------------------------------------
    @property
    def score(self) -> int:
        """Cards played to the foundations, 0-88 (the bases do not count)."""
        return sum(len(pile) for pile in self._foundations) - len(self._foundations)

    def _won(self) -> bool:
        # a turned card is always placed somewhere (a hand-made layout may have one left)
        return self.turned is None and all(
            len(pile) == CARDS_PER_FOUNDATION for pile in self._foundations
        )

    # ----- what players see ------------------------------------------------------------------
    def _pile_views(self) -> list[PileView]:
        turned = self.turned
        piles = [
            pile_view(STOCK, PileKind.STOCK, (), down=self.stock_left),
            pile_view(TURNED, PileKind.TURNED, [] if turned is None else [turned]),
        ]
        for k, fid in zip(MARKERS, FOUNDATION_IDS, strict=True):
            piles.append(
                {
                    "id": fid,
                    "kind": "foundation",
                    "down": 0,
                    "cards": [card.code for card in self._foundations[k - 1]],
                    "marker": k,
                    "next": self.needed(k),
                }
            )
        for wid, pile in zip(WASTE_IDS, self._wastes, strict=True):
            # Waste piles are fanned whole: every card in them is face up and worth planning on.
            piles.append(pile_view(wid, PileKind.WASTE, pile, show=len(pile)))
        return piles

    def view(self, player: str | None = None) -> Imaginary13View:
        """The board as ``docs/views.md`` describes it; the stock only as a count.

        >>> piles = Imaginary13(deal=1).view()["piles"]
        >>> [p["id"] for p in piles]
        ['s', 't', '1', '2', '3', '4', '5', '6', '7', '8', 'a', 'b', 'c', 'd']
        """
        return {
            **super().view(player),
            "markers": list(MARKERS),
            "marker_cards": [card.code for card in _MARKER_CARDS],
            "stalled": False,
        }

    def _headline(self) -> str:
        """The first line of the plain-text board (for logs and the console).

        >>> print(str(Imaginary13(deal=1)).splitlines()[0])
        Imaginary Thirteen, deal 1: score 0/88, stock 87, move 0
        """
        status = (
            f"score {self.score}/{CARDS_TO_PLAY}, stock {self.stock_left}, move {self.move_number}"
        )
        if self.outcome is not None:
            status += f", {self.outcome}"
        return f"Imaginary Thirteen, deal {self.deal}: {status}"

    def _board_lines(self) -> list[str]:
        lines = []
        lines.append("marker  " + " ".join(f"{k:>3}" for k in MARKERS))
        lines.append("top     " + " ".join(f"{p[-1].code:>3}" for p in self._foundations))
        nexts = (self.needed(k) for k in MARKERS)
        lines.append("next    " + " ".join(f"{_value_symbol(v):>3}" for v in nexts))
        turned = self.turned
        lines.append(f"turned  {turned.code if turned is not None else '--'}")
        for wid, pile in zip(WASTE_IDS, self._wastes, strict=True):
            lines.append(f"waste {wid} " + (" ".join(card.code for card in pile) or "--"))
        return lines


def _value_symbol(value: int | None) -> str:
    """``A 2 .. T J Q K`` for a value, ``--`` for a finished foundation."""
    return "--" if value is None else "A23456789TJQK"[value - 1]
