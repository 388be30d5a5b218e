"""FreeCell: 52 French cards dealt face up into 8 columns, 4 free cells, 4 foundations.

Rules (the standard game, as Microsoft FreeCell plays it):

* a column takes a card one rank lower and of the other colour than its top card; an empty
  column takes any card;
* a free cell holds one card; a foundation is built up by suit from the ace;
* a run (cards going down by one in alternating colours) moves from column to column as far
  as the free cells and empty columns allow: ``(free cells + 1) * 2 ** (empty columns)``
  cards, halved when the target is itself an empty column (it cannot help);
* cards never leave a foundation; cards do not move from one free cell to another;
* **safe cards go home by themselves**, as part of the move that uncovered them (and at the
  deal): an ace, a two, or a card whose two opposite-colour cards one rank lower are already
  home (no card still in play could be built on it). The stored move is only the player's:
  replaying it repeats the same automatic moves, so a game replays exactly.

Won when all 52 cards are home; lost when no legal move is left (cells full and nothing fits).
Score: cards on the foundations (0-52).

Piles (ids as in ``docs/views.md``): ``1``-``8`` columns, ``a``-``d`` free cells (kind
``cell``), ``h1``-``h4`` foundations with fixed suits d h c s (written ``h``, "home", in moves).

Notation (case-insensitive, spaces ignored; ``str(move)`` is the canonical form and parses back
in the position it was listed in):

=============  ===============================================================================
``3a``         the top card of column 3 into free cell a
``a5``         the card in free cell a onto column 5
``3h``, ``ah`` the top card of column 3 / the card in cell a to its foundation (``f`` works too)
``36``         column 3 onto column 6: onto a card, the run that fits; into an empty column,
               the longest run that may move; ``36:2`` names the count
=============  ===============================================================================

Deals are numbered exactly as Microsoft FreeCell numbers them (:func:`microsoft_deal`): deal 1
starts with JD 2D 9H JC 5D 7H 7C 5H in its first row, deal 11982 is the famous one that cannot
be won.

Reason codes of ``IllegalMove``: ``bad_notation``, ``empty_source`` (``pile``), ``cell_empty``
(``cell``), ``same_pile``,
``cell_taken`` (``cell``), ``cell_to_cell``, ``cell_holds_one``, ``one_card_at_a_time``,
``not_next_rank`` (``card``, ``onto``), ``not_alternating_colour`` / ``not_one_lower``
(``card``, ``onto``), ``run_too_short`` (``count``, ``playable``), ``too_many_cards``
(``count``, ``max``), plus the base class's ``game_over`` and ``not_a_player``.

Built on ``engine.pilegame.PileGame``: this module writes the rules (the deal, ``_generate``,
``_check``, what a move does in ``_do``, the score, its view's own fields and board text); the
base lists the legal moves once per position, takes moves back and copies games.

>>> g = FreeCell(1)
>>> [pile["cards"][0] for pile in g.view()["piles"] if pile["kind"] == "tableau"]
['Jd', '2d', '9h', 'Jc', '5d', '7h', '7c', '5h']
>>> move = g.legal_moves()[0]
>>> g.parse_move(str(move)) == move
True
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import SUITS, Card
from engine.game import IllegalMove
from engine.gameinfo import Column, Daily, Deals, GameInfo, Ranking, Result
from engine.pilegame import PileGame
from engine.piles import PileKind, cards_text, compact_notation, pile_view, tableau_rule
from engine.views import FreeCellView, PileView

COLUMNS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8")
CELLS: tuple[str, ...] = ("a", "b", "c", "d")
#: foundations, one per suit in ``SUITS`` order (d h c s)
HOMES: tuple[str, ...] = ("h1", "h2", "h3", "h4")
KING = 13
CARDS = 52

_COLUMN_INDEX = {pile: i for i, pile in enumerate(COLUMNS)}
_CELL_INDEX = {pile: i for i, pile in enumerate(CELLS)}
_HOME_INDEX = {pile: i for i, pile in enumerate(HOMES)}
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_RULE = tableau_rule(KING)  # down by one, alternating colours; an empty column takes anything
_MOVE_PATTERN = re.compile(r"([1-8a-d])([1-8a-d]|[hf][1-4]?)(?::([1-9][0-9]?))?")
#: Microsoft's deck order for its deals: AC AD AH AS 2C ... KS
_MS_SUITS = "cdhs"


def by_won_then_fewer_moves(result: Result) -> tuple[int, ...]:
    """Won games first, the fewest moves first among them; then the most cards home.

    >>> won, close = Result("won", 52, moves=90), Result("lost", 51, moves=40)
    >>> sorted([close, won], key=by_won_then_fewer_moves)[0].outcome
    'won'
    """
    return (0 if result.outcome == "won" else 1, -result.score, result.moves)


def microsoft_deal(deal: int) -> list[list[Card]]:
    """The eight columns (bottom to top) of Microsoft FreeCell deal ``deal``.

    Microsoft's C library generator (``state = state * 214013 + 2531011``, the random number
    is bits 16-30 of the state) picks a card of the remaining deck, which swaps places with the
    last card and is dealt; cards go left to right, row after row. Seeds over 2**31 are taken
    modulo 2**32, as Microsoft's 32-bit code did.

    >>> [card.code for card in microsoft_deal(617)[0]]
    ['7d', 'Td', 'Th', 'Kd', '4c', '4s', 'Jd']
    """
    state = deal & 0xFFFFFFFF
    deck = list(range(CARDS))
    dealt: list[int] = []
    for left in range(CARDS, 0, -1):
        state = (state * 214013 + 2531011) & 0xFFFFFFFF
        pick = ((state >> 16) & 0x7FFF) % left
        deck[pick], deck[left - 1] = deck[left - 1], deck[pick]
        dealt.append(deck.pop())
    cards = [Card(index // 4 + 1, _MS_SUITS[index % 4]) for index in dealt]
    return [cards[column :: len(COLUMNS)] for column in range(len(COLUMNS))]


def _nothing_in(pile: str) -> IllegalMove:
    """The refusal of a move from an empty column (``empty_source``) or cell (``cell_empty``:
    its own words, since a cell is not a pile in every language's grammar)."""
    if pile in _CELL_INDEX:
        return IllegalMove("cell_empty", cell=pile)
    return IllegalMove("empty_source", pile=pile)


def run_length(column: Sequence[Card]) -> int:
    """How many cards on top of ``column`` go down by one in alternating colours (0 if empty).

    >>> run_length([Card(9, "s"), Card(8, "h"), Card(7, "c")]), run_length([])
    (3, 0)
    """
    if not column:
        return 0
    length = 1
    for below, above in zip(reversed(column[:-1]), reversed(column[1:]), strict=True):
        if below.rank != above.rank + 1 or below.is_red == above.is_red:
            break
        length += 1
    return length


def move_capacity(free_cells: int, empty_columns: int, to_empty: bool) -> int:
    """How many cards may move as one run: ``(cells + 1) * 2 ** empties``, where the target
    column, when empty, does not count among the empties.

    >>> move_capacity(4, 0, False), move_capacity(2, 2, False), move_capacity(1, 1, True)
    (5, 12, 2)
    """
    empties = empty_columns - 1 if to_empty else empty_columns
    return (free_cells + 1) << max(empties, 0)


def is_safe_home(card: Card, homes: Sequence[int]) -> bool:
    """Whether ``card`` (which fits its foundation) may go home without costing anything: an
    ace or a two, or both opposite-colour cards one rank lower are home already, so no card
    left in play could ever be built on it.

    >>> is_safe_home(Card(2, "s"), [0, 0, 0, 0]), is_safe_home(Card(5, "s"), [4, 3, 4, 4])
    (True, False)
    """
    if card.rank <= 2:
        return True
    opposite = (2, 3) if card.is_red else (0, 1)
    return all(homes[index] >= card.rank - 1 for index in opposite)


@dataclass(frozen=True, slots=True)
class FreeCellMove:
    """One FreeCell move: ``src`` a column or cell, ``dst`` a column, cell or foundation
    (``h1``-``h4``: written ``h``), ``count`` 0 for "the run the rules give" or the number of
    cards moved from a column onto a column.

    >>> str(FreeCellMove("3", "a")), str(FreeCellMove("a", "h2")), str(FreeCellMove("3", "6", 2))
    ('3a', 'ah', '36:2')
    """

    src: str
    dst: str
    count: int = 0

    def __str__(self) -> str:
        dst = "h" if self.dst in _HOME_INDEX else self.dst
        text = self.src + dst
        return f"{text}:{self.count}" if self.count else text


class FreeCell(PileGame):
    """FreeCell. See the module docstring for rules and notation.

    >>> g = FreeCell.from_layout(["Kd", "Qs", "Jd"], cells="Ah", homes=[0, 0, 0, 0])
    >>> g.score, [str(m) for m in g.legal_moves()][:3]   # the ace went home by itself
    (1, ['21', '32', '1a'])
    """

    info: ClassVar[GameInfo] = GameInfo(
        id="freecell",
        names={"en": "FreeCell", "es": "FreeCell", "it": "FreeCell"},
        ranking=Ranking(by_won_then_fewer_moves, (Column.SCORE, Column.MOVES)),
        # a won deal is usually found in a few thousand positions (docs/solvers.md)
        daily=Daily(node_budget=50_000),
        solver="freecell",
        could_have_won=True,
        # Microsoft's numbers, 1 to 1,000,000 as Windows FreeCell (from XP) offers them; the
        # classic 1-32,000 are the first of them (deal 11982 among them)
        deals=Deals(1, 1_000_000),
        hint_scorer="free_cells",
        hint_from_solver=True,
        notation_examples=("3a", "a5", "3h", "ah", "36"),
        notation_setup=("1a",),
    )

    PILE_ROWS: ClassVar[tuple[str, ...]] = ("_columns",)
    LISTS: ClassVar[tuple[str, ...]] = ("_cells", "_homes")
    VALUES: ClassVar[tuple[str, ...]] = ("_auto",)
    _columns: list[list[Card]]
    _cells: list[Card | None]  # None: an empty cell
    _homes: list[int]  # cards home per suit (d h c s)
    _auto: tuple[str, ...]  # the cards the last move sent home by themselves

    # ----- dealing ------------------------------------------------------------------------------
    def _setup(self) -> None:
        self._columns = microsoft_deal(self.deal)
        self._cells = [None] * len(CELLS)
        self._homes = [0] * len(HOMES)
        self._auto = tuple(self._go_home())

    @classmethod
    def from_layout(
        cls, columns: Sequence[str], *, cells: str = "", homes: Sequence[int] = (0, 0, 0, 0)
    ) -> FreeCell:
        """A hand-made position (tests, puzzles): ``columns`` bottom to top, ``cells`` the
        cards in cells a, b, ... (``-`` for an empty cell), ``homes`` how many cards of each
        suit (d h c s) are home. Safe cards go home at once, as after a move.

        >>> g = FreeCell.from_layout(["Kd Ks"], cells="- Kc", homes=[12, 13, 12, 12])
        >>> g.score, g.outcome == "won"
        (52, True)
        """
        game = cls(1)
        game._columns = [game._parse_cards(text) for text in columns]
        game._columns += [[] for _ in range(len(COLUMNS) - len(columns))]
        codes = cells.split()
        game._cells = [None if code == "-" else Card.parse(code) for code in codes]
        game._cells += [None] * (len(CELLS) - len(game._cells))
        game._homes = list(homes)
        game._position_changed()
        game._auto = tuple(game._go_home())
        return game

    # ----- reading the position -----------------------------------------------------------------
    @property
    def score(self) -> int:
        """Cards on the foundations."""
        return sum(self._homes)

    @property
    def cards_home(self) -> int:
        return sum(self._homes)

    @property
    def free_cells(self) -> int:
        return self._cells.count(None)

    @property
    def empty_columns(self) -> int:
        return sum(1 for column in self._columns if not column)

    def position_key(self) -> Hashable:
        """A hashable key of the position up to symmetry (as the solver keys it): the columns
        sorted and the cells sorted, since which column or cell holds what never matters to
        what can happen; the foundations hold the rest.

        >>> game = FreeCell.from_layout(["Kd", "Qs"])
        >>> twin = FreeCell.from_layout(["Qs", "Kd"])
        >>> game.position_key() == twin.position_key()
        True
        """
        return (
            tuple(sorted(" ".join(card.code for card in column) for column in self._columns)),
            tuple(sorted("" if card is None else card.code for card in self._cells)),
        )

    def _won(self) -> bool:
        return self.cards_home == CARDS

    # ----- moves --------------------------------------------------------------------------------
    def parse_move(self, text: Any) -> FreeCellMove:
        if isinstance(text, FreeCellMove):
            return text
        norm = compact_notation(text)
        match = _MOVE_PATTERN.fullmatch(norm)
        if match is None:
            raise IllegalMove("bad_notation", text=str(text)[:20])
        src, dst, count_text = match.groups()
        count = int(count_text) if count_text else 0
        if dst[0] in "hf":
            card = self._top(src)
            if card is None:
                raise _nothing_in(src)
            home = HOMES[_SUIT_INDEX[card.suit]]
            if len(dst) > 1 and dst[1:] != home[1:]:
                raise IllegalMove("wrong_suit", card=card.code, onto=self._home_top_code(dst))
            return FreeCellMove(src, home, count)
        if src in _COLUMN_INDEX and dst in _COLUMN_INDEX and count:
            # "36:3" when 3 is what "36" moves anyway is the same move: one form is stored
            implied = self._implied_count(src, dst)
            if implied == count:
                count = 0
        return FreeCellMove(src, dst, count)

    def _top(self, pile: str) -> Card | None:
        if pile in _CELL_INDEX:
            return self._cells[_CELL_INDEX[pile]]
        column = self._columns[_COLUMN_INDEX[pile]]
        return column[-1] if column else None

    def _home_top_code(self, home: str) -> str | None:
        index = int(home[1:]) - 1
        return Card(self._homes[index], SUITS[index]).code if self._homes[index] else None

    def _capacity(self, to_empty: bool) -> int:
        return move_capacity(self.free_cells, self.empty_columns, to_empty)

    def _implied_count(self, src: str, dst: str) -> int | None:
        """How many cards ``src`` -> ``dst`` (two columns) moves when no count is named, or
        None when no run of the source fits there."""
        source = self._columns[_COLUMN_INDEX[src]]
        target = self._columns[_COLUMN_INDEX[dst]]
        run = run_length(source)
        if not source:
            return None
        if not target:
            return min(run, self._capacity(True))
        count = target[-1].rank - source[-1].rank
        if not 1 <= count <= run or source[-count].is_red == target[-1].is_red:
            return None
        return count

    def _generate(self) -> list[FreeCellMove]:
        """Every legal move, in a fixed order: to the foundations (cells, then columns), onto
        cards (columns, then cells), into empty columns (the longest run first, then shorter
        ones; then cells), into free cells."""
        moves: list[FreeCellMove] = []
        homes = self._homes
        sources = [(CELLS[i], card) for i, card in enumerate(self._cells) if card is not None]
        sources += [(COLUMNS[i], col[-1]) for i, col in enumerate(self._columns) if col]
        for src, card in sources:
            index = _SUIT_INDEX[card.suit]
            if homes[index] == card.rank - 1:
                moves.append(FreeCellMove(src, HOMES[index]))
        columns = self._columns
        empty = [COLUMNS[i] for i, column in enumerate(columns) if not column]
        filled = [COLUMNS[i] for i, column in enumerate(columns) if column]
        capacity = self._capacity(False)
        # each column's run once (``_implied_count`` for every pair, without working out the
        # source's run seven times: listing the moves is most of a FreeCell command's work)
        runs = [run_length(column) for column in columns]
        for src in filled:
            source = columns[_COLUMN_INDEX[src]]
            run, top = runs[_COLUMN_INDEX[src]], source[-1]
            for dst in filled:
                if src != dst:
                    onto = columns[_COLUMN_INDEX[dst]][-1]
                    count = onto.rank - top.rank
                    if (
                        1 <= count <= run
                        and count <= capacity
                        and source[-count].is_red != onto.is_red
                    ):
                        moves.append(FreeCellMove(src, dst))
        for i, held in enumerate(self._cells):
            if held is not None:
                for dst in filled:
                    if _RULE.accepts(self._columns[_COLUMN_INDEX[dst]][-1], held):
                        moves.append(FreeCellMove(CELLS[i], dst))
        if empty:
            longest = self._capacity(True)
            for src in filled:
                implied = min(runs[_COLUMN_INDEX[src]], longest)
                # a whole column into an empty one changes nothing: one card fewer at most
                run = min(implied, len(columns[_COLUMN_INDEX[src]]) - 1)
                for dst in empty:
                    moves.extend(
                        FreeCellMove(src, dst, 0 if n == implied else n) for n in range(run, 0, -1)
                    )
            for i, held in enumerate(self._cells):
                if held is not None:
                    moves.extend(FreeCellMove(CELLS[i], dst) for dst in empty)
        free = [CELLS[i] for i, card in enumerate(self._cells) if card is None]
        for src in filled:
            moves.extend(FreeCellMove(src, dst) for dst in free)
        return moves

    def _check(self, move: Any) -> None:
        """Raise the most specific ``IllegalMove`` when ``move`` may not be played here."""
        if not isinstance(move, FreeCellMove):
            raise IllegalMove("bad_notation", text=str(move)[:20])
        src, dst, count = move.src, move.dst, move.count
        if src not in _COLUMN_INDEX and src not in _CELL_INDEX:
            raise IllegalMove("bad_notation", text=str(move))
        if dst not in _COLUMN_INDEX and dst not in _CELL_INDEX and dst not in _HOME_INDEX:
            raise IllegalMove("bad_notation", text=str(move))
        if src == dst:
            raise IllegalMove("same_pile", pile=src)
        if src in _CELL_INDEX and dst in _CELL_INDEX:
            raise IllegalMove("cell_to_cell")  # never, whatever the cells hold
        card = self._top(src)
        if card is None:
            raise _nothing_in(src)
        if dst in _HOME_INDEX:
            if count > 1:
                raise IllegalMove("one_card_at_a_time", count=count)
            index = _HOME_INDEX[dst]
            if SUITS[index] != card.suit:
                raise IllegalMove("wrong_suit", card=card.code, onto=self._home_top_code(dst))
            if self._homes[index] != card.rank - 1:
                raise IllegalMove("not_next_rank", card=card.code, onto=self._home_top_code(dst))
            return
        if dst in _CELL_INDEX:
            if count > 1:
                raise IllegalMove("cell_holds_one", count=count)
            held = self._cells[_CELL_INDEX[dst]]
            if held is not None:
                raise IllegalMove("cell_taken", cell=dst, card=held.code)
            return
        target = self._columns[_COLUMN_INDEX[dst]]
        onto = target[-1] if target else None
        if src in _CELL_INDEX:
            if count > 1:
                raise IllegalMove("cell_holds_one", count=count)
            if onto is not None:
                self._must_fit(card, onto)
            return
        source = self._columns[_COLUMN_INDEX[src]]
        run = run_length(source)
        if count > run:
            raise IllegalMove("run_too_short", pile=src, count=count, playable=run)
        capacity = self._capacity(onto is None)
        if onto is None:
            wanted = count or min(run, capacity)
            if wanted > capacity:
                raise IllegalMove("too_many_cards", count=wanted, max=capacity)
            if wanted == len(source):
                raise IllegalMove("same_pile", pile=src)  # the same column, somewhere else
            return
        implied = onto.rank - card.rank
        if count:
            self._must_fit(source[-count], onto)
            wanted = count
        elif 1 <= implied <= run:
            self._must_fit(source[-implied], onto)
            wanted = implied
        else:
            # no card of the run has the rank that fits: name the one nearest to fitting
            self._must_fit(source[-run] if implied > run else card, onto)
            raise IllegalMove("not_one_lower", card=card.code, onto=onto.code)  # unreachable
        if wanted > capacity:
            raise IllegalMove("too_many_cards", count=wanted, max=capacity)

    def _must_fit(self, card: Card, onto: Card) -> None:
        self._refuse(_RULE.refusal(onto, card), card, onto)

    def _do(self, move: FreeCellMove) -> tuple[str, ...]:
        """Apply a legal move, then send safe cards home."""
        src, dst = move.src, move.dst
        moving: list[Card]
        if src in _CELL_INDEX:
            held = self._cells[_CELL_INDEX[src]]
            assert held is not None  # checked
            moving = [held]
            self._cells[_CELL_INDEX[src]] = None
        else:
            source = self._columns[_COLUMN_INDEX[src]]
            count = 1
            if dst in _COLUMN_INDEX:
                count = move.count or self._implied_count(src, dst) or 1
            moving = source[-count:]
            del source[-count:]
        if dst in _HOME_INDEX:
            self._homes[_HOME_INDEX[dst]] += 1
        elif dst in _CELL_INDEX:
            self._cells[_CELL_INDEX[dst]] = moving[0]
        else:
            self._columns[_COLUMN_INDEX[dst]].extend(moving)
        self._auto = tuple(self._go_home())
        return (src, dst)

    def _go_home(self) -> list[str]:
        """Send every safe card home (cells first, then columns left to right, until none is
        left); returns their codes in the order they went. The result does not depend on the
        order: going home only ever makes more cards safe."""
        moved: list[str] = []
        homes = self._homes
        going = True
        while going:
            going = False
            for i, card in enumerate(self._cells):
                if card is not None and self._goes_home(card):
                    self._cells[i] = None
                    homes[_SUIT_INDEX[card.suit]] += 1
                    moved.append(card.code)
                    going = True
            for column in self._columns:
                while column and self._goes_home(column[-1]):
                    card = column.pop()
                    homes[_SUIT_INDEX[card.suit]] += 1
                    moved.append(card.code)
                    going = True
        return moved

    def _goes_home(self, card: Card) -> bool:
        return self._homes[_SUIT_INDEX[card.suit]] == card.rank - 1 and is_safe_home(
            card, self._homes
        )

    # ----- output -------------------------------------------------------------------------------
    def _pile_views(self) -> list[PileView]:
        piles: list[PileView] = []
        for i, card in enumerate(self._cells):
            piles.append(pile_view(CELLS[i], PileKind.CELL, [] if card is None else [card]))
        for i, count in enumerate(self._homes):
            cards = [Card(rank, SUITS[i]) for rank in range(1, count + 1)]
            piles.append(pile_view(HOMES[i], PileKind.FOUNDATION, cards, suit=SUITS[i]))
        for i, column in enumerate(self._columns):
            piles.append(pile_view(COLUMNS[i], PileKind.TABLEAU, column))
        return piles

    def view(self, player: str | None = None) -> FreeCellView:
        """The board as ``docs/views.md`` describes it (every card is face up)."""
        return {
            **super().view(player),
            "auto_home": list(self._auto),
            "max_run": self._capacity(False),
        }

    def _headline(self) -> str:
        return (
            f"FreeCell deal {self.deal}  move {self.move_number}  home {self.cards_home}  "
            f"{self.outcome or 'playing'}"
        )

    def _board_lines(self) -> list[str]:
        cells = " ".join(card.code if card else "--" for card in self._cells)
        homes = " ".join(Card(n, SUITS[i]).code if n else "--" for i, n in enumerate(self._homes))
        lines = [f"cells: {cells}   home: {homes}"]
        return lines + [f"{COLUMNS[i]}: {cards_text(c)}" for i, c in enumerate(self._columns)]
