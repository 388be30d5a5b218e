"""The Klondike family's layer over :class:`engine.pilegame.PileGame`: :class:`StockAndWasteGame`,
the base of Solitario and Canfield.

Both games have a stock turned three at a time onto a waste, four foundations with fixed
suits d h c s (``f1``-``f4``), a row of tableau piles (``1``, ``2``, ...) and the same notation
(``engine.piles.parse_pile_notation``). A game module declares its piles and its rules: the
tableau ids (``TABLEAU``), every pile id its notation accepts (``PILE_IDS``), how it deals,
which moves are legal (``_generate``, fast, and ``_check_move``, with reason codes), what a
move does (``_do``), what it scores, and what counts as progress for the stall search.

This layer does the rest the same way for both (``PileGame`` the rest of the rest):

- notation: ``parse_move`` (``wf`` and ``3f`` find the card's own foundation), the stock
  turn checked (``_check``);
- the stall ruling (``stalled``, ``_outcome``: won when every card is home), cached with the
  legal moves until the position changes (``_position_changed``);
- the stock turn (``_turn_stock``), the game's own card objects (``_use_deck``: position keys
  name cards by ``id``), hand-made layouts (``_lay_out_stock_waste_foundations``);
- ``view()`` and ``str()``: stock, waste, the game's own extra piles, foundations, tableau.

State both keep: ``_tableau`` (lists of cards, bottom to top), ``_stock`` (top at the end),
``_waste`` (top at the end), ``_fnd`` (foundations f1-f4), ``_fan`` (waste cards shown
fanned), ``_recycles`` (waste turned over into the stock), ``_stall``, ``_cards`` (the game's
own card objects) and ``_letters`` (card id -> one letter, for ``position_key``).

>>> from engine.canfield import Canfield
>>> from engine.solitario import Solitario
>>> [isinstance(g, StockAndWasteGame) for g in (Solitario(1), Canfield(1))]
[True, True]
>>> g = Solitario(1)
>>> g.parse_move("W F") == g.parse_move("wf")
True
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from engine.cards import SUITS, Card, full_deck
from engine.game import IllegalMove, Outcome
from engine.pilegame import PileGame
from engine.piles import (
    TURN,
    PileKind,
    PileMove,
    cards_text,
    draw_three,
    foundation_index,
    parse_pile_notation,
    pile_view,
)
from engine.stall import KnownProgress, SearchKey
from engine.stall import search as stall_search
from engine.views import PileGameView, PileView

FOUNDATIONS = ("f1", "f2", "f3", "f4")
_FOUNDATION_INDEX = {pile: index for index, pile in enumerate(FOUNDATIONS)}


class StockAndWasteGame(PileGame):
    """Base class of Solitario and Canfield; see the module docstring for what it shares.

    A subclass declares ``TABLEAU``, ``PILE_IDS`` and its own state (``PILE_ROWS``, ``LISTS``,
    ``VALUES`` beyond this layer's) and implements ``_setup``, ``_generate``, ``_check_move``,
    ``_do``, ``position_key``, the stall search hooks (``engine.stall.StallSearchable``) and
    ``_headline``.
    """

    PILE_ROWS: ClassVar[tuple[str, ...]] = ("_tableau", "_fnd")
    LISTS: ClassVar[tuple[str, ...]] = ("_stock", "_waste")
    VALUES: ClassVar[tuple[str, ...]] = ("_fan", "_recycles", "_stall")

    #: tableau pile ids, in view order
    TABLEAU: ClassVar[tuple[str, ...]]
    #: every pile id the notation accepts (the stock is only ever turned: ``d``)
    PILE_IDS: ClassVar[frozenset[str]]
    FOUNDATIONS: ClassVar[tuple[str, ...]] = FOUNDATIONS
    #: tableau pile id -> index in ``_tableau`` (from ``TABLEAU``; pile lookups are hot)
    _TABLEAU_INDEX: ClassVar[dict[str, int]] = {}

    _cards: list[Card]
    _letters: dict[int, str]
    _tableau: list[list[Card]]
    _stock: list[Card]
    _waste: list[Card]
    _fnd: list[list[Card]]
    _fan: int
    _recycles: int
    _stall: bool | None
    #: the last position proven able to progress, for the next stall search (engine.stall)
    _known_progress: KnownProgress | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "TABLEAU" in cls.__dict__:
            cls._TABLEAU_INDEX = {pile: index for index, pile in enumerate(cls.TABLEAU)}

    # ----- dealing ------------------------------------------------------------------------------
    def _use_deck(self, deck: str) -> None:
        """Take the card objects of one ``deck``: the game only ever holds these, so a position
        key can name each card by one letter found by ``id`` (dataclass hashing is slow)."""
        self.deck = deck
        self._cards = full_deck(deck)
        self._letters = {id(card): chr(65 + i) for i, card in enumerate(self._cards)}

    def _clear_piles(self) -> None:
        """Empty waste and foundations, nothing turned, recycled, moved or cached yet."""
        self._waste = []
        self._fnd = [[] for _ in SUITS]
        self._fan = 0
        self._recycles = 0
        self._last_piles = ()
        self._stall = None
        self._legal_cache = None

    def _parse_cards(self, text: str) -> list[Card]:
        """Card codes (``"Ah 2h Kc"``) as this game's own card objects (for layouts)."""
        canonical = {card: card for card in self._cards}
        return [canonical[card] for card in super()._parse_cards(text)]

    def _lay_out_stock_waste_foundations(
        self, *, waste: str, stock: str, foundations: Sequence[str]
    ) -> None:
        """The piles every ``from_layout`` takes the same way: ``stock`` in turning order,
        ``waste`` and each of ``foundations`` (f1..f4, missing ones empty) bottom to top."""
        self._stock = self._parse_cards(stock)[::-1]
        self._waste = self._parse_cards(waste)
        piles = list(foundations) + [""] * (len(SUITS) - len(foundations))
        self._fnd = [self._parse_cards(text) for text in piles]
        self._fan = min(3, len(self._waste))
        self._position_changed()

    # ----- reading the position -----------------------------------------------------------------
    @property
    def cards_home(self) -> int:
        """Cards on the foundations."""
        return sum(len(pile) for pile in self._fnd)

    @property
    def stalled(self) -> bool:
        """True when no sequence of moves can ever make progress again (``_is_progress``:
        see each game), found by ``engine.stall`` and cached until the position changes."""
        if self._stall is None:
            if self.cards_home == len(self._cards):
                self._stall = False
            else:
                # the search starts from the legal moves, which the bot asks for next anyway;
                # it leaves the position as it found it, so they stay valid
                legal = self._legal_moves_here()
                context = self._stall_context()
                known = self._known_progress
                found = stall_search(
                    self,
                    moves=legal[1],
                    known=known if known and known.context == context else None,
                )
                self._stall = found is True
                self._legal_cache = legal
                if found is False:  # proven: the next position's search may stop here
                    self._known_progress = KnownProgress.of(context, self._search_key())
        return self._stall

    def _won(self) -> bool:
        return self.cards_home == len(self._cards)

    def _outcome(self) -> Outcome | None:
        if self._won():
            return Outcome.WON
        return Outcome.STALLED if self.stalled else None

    def _position_changed(self) -> None:
        self._stall = None
        self._legal_cache = None

    def _names(self, cards: Sequence[Card]) -> str:
        """``cards`` as one letter each, for position keys."""
        return "".join(map(self._letters.__getitem__, map(id, cards)))

    # ----- moves --------------------------------------------------------------------------------
    def parse_move(self, text: str) -> PileMove:
        if isinstance(text, PileMove):
            return text
        move = parse_pile_notation(text, self.PILE_IDS)
        if move.dst == "f":
            card = self._top(move.src)
            if card is None:
                raise IllegalMove("empty_source", pile=move.src)
            move = PileMove(move.src, FOUNDATIONS[foundation_index(card)], move.count)
        return move

    @abstractmethod
    def _generate(self) -> list[PileMove]:
        """Every legal move here, in the game's fixed order (the solvers' fast path)."""

    def _check(self, move: Any) -> None:
        if not isinstance(move, PileMove):
            raise IllegalMove("bad_notation", text=str(move))
        if move.is_turn:
            if move != TURN:
                raise IllegalMove("bad_notation", text=str(move))
            if not self._stock and not self._waste:
                raise IllegalMove("stock_empty")
        else:
            self._check_move(move)

    @abstractmethod
    def _check_move(self, move: PileMove) -> Any:
        """Raise the most specific ``IllegalMove`` when ``move`` (not the stock turn) may not
        be played here."""

    # ----- stall search hooks (``engine.stall.StallSearchable``), per game ----------------------
    @abstractmethod
    def _search_key(self) -> SearchKey:
        """The position, as a key equal for positions the stall search may treat as one: a
        tuple (the rest of the position, the stock's card ids, the waste's card ids)."""

    def _stall_context(self) -> Hashable:
        """What ``_search_key`` leaves out because no move without progress changes it (a
        game with more overrides this): a position proven able to progress
        (``_known_progress``) helps only searches in the same context."""
        context: Hashable = self._progress_baseline()
        return context

    @abstractmethod
    def _progress_baseline(self) -> Any:
        """What progress is measured against, taken where the stall search starts."""

    @abstractmethod
    def _is_progress(self, move: PileMove, baseline: Any) -> bool:
        """Whether ``move`` (legal here) makes progress over ``baseline``."""

    @abstractmethod
    def _progress_by_turning(self, baseline: Any) -> bool:
        """Whether stock turns alone lead to a position with a progress move."""

    @abstractmethod
    def _waste_moves(self, card: Card) -> list[PileMove]:
        """The moves ``card`` would have if it were the waste's top card."""

    def _pile(self, pile: str) -> list[Card]:
        """The cards of pile ``pile`` (any id of ``PILE_IDS``), bottom to top."""
        if pile == "w":
            return self._waste
        index = self._TABLEAU_INDEX.get(pile)
        if index is not None:
            return self._tableau[index]
        index = _FOUNDATION_INDEX.get(pile)
        if index is not None:
            return self._fnd[index]
        return self._own_pile(pile)

    def _own_pile(self, pile: str) -> list[Card]:
        """A pile of the game's own (not stock, waste, foundation or tableau), by id."""
        raise KeyError(pile)

    def _top(self, pile: str) -> Card | None:
        cards = self._pile(pile)
        return cards[-1] if cards else None

    def _turn_stock(self) -> tuple[str, ...]:
        """The stock turn: three cards onto the waste, or the waste turned over when the
        stock is empty (counted in ``_recycles``). Returns the piles it changed."""
        turned = draw_three(self._stock, self._waste)
        if turned == 0:
            self._recycles += 1
        self._fan = turned
        return ("s", "w")

    # ----- output -------------------------------------------------------------------------------
    def _tableau_down(self, index: int) -> int:
        """How many cards of tableau pile ``index`` lie face down (none unless overridden)."""
        return 0

    def _extra_pile_views(self) -> list[PileView]:
        """Views of the game's own piles, listed between the waste and the foundations."""
        return []

    def _pile_views(self) -> list[PileView]:
        piles = [
            pile_view("s", PileKind.STOCK, (), down=len(self._stock)),
            pile_view("w", PileKind.WASTE, self._waste, show=min(self._fan, len(self._waste))),
            *self._extra_pile_views(),
        ]
        for index, pile in enumerate(self._fnd):
            piles.append(
                pile_view(FOUNDATIONS[index], PileKind.FOUNDATION, pile, suit=SUITS[index])
            )
        for i, pile in enumerate(self._tableau):
            piles.append(
                pile_view(self.TABLEAU[i], PileKind.TABLEAU, pile, down=self._tableau_down(i))
            )
        return piles

    def view(self, player: str | None = None) -> PileGameView:
        """The board as ``docs/views.md`` describes it; face-down cards only as counts. A game
        with fields of its own overrides this and adds them (``SolitarioView``...)."""
        return {**super().view(player), "stalled": self.outcome == Outcome.STALLED}

    @abstractmethod
    def _headline(self) -> str:
        """The first line of ``str(game)``: game, deal, move, score, status."""

    def _extra_piles_text(self) -> str:
        """The game's own piles for ``str(game)``, after stock and waste (``"  r: ..."``)."""
        return ""

    def _board_lines(self) -> list[str]:
        """Stock and waste (its top three) on one line, the foundations' tops on the next,
        then a line per tableau pile."""
        lines = [
            f"s: [{len(self._stock)}]  w: {cards_text(self._waste[-3:])}{self._extra_piles_text()}",
            "  ".join(f"{FOUNDATIONS[i]}: {cards_text(p[-1:])}" for i, p in enumerate(self._fnd)),
        ]
        for i, pile in enumerate(self._tableau):
            lines.append(f"{self.TABLEAU[i]}: {cards_text(pile, self._tableau_down(i))}")
        return lines
