"""Solitario: Italian 40-card Klondike, draw three (games.md section 1); ``cards=52`` is classic
Klondike with the French deck.

Piles (ids as in ``docs/views.md``): ``s`` stock, ``w`` waste, ``1``-``7`` columns, ``f1``-``f4``
foundations with fixed suits d h c s (denari, coppe, bastoni, spade).

Notation (case-insensitive, spaces ignored; ``str(move)`` is the canonical form and parses back):

=============  ===============================================================================
``d``          turn the stock: three cards onto the waste; on an empty stock, turn the waste
               over into a new stock (``s`` and ``sw`` are accepted too)
``w3``         the top waste card onto column 3
``35``         from column 3 onto column 5: the face-up run that fits moves (only one can)
``35:2``       the same with an explicit number of cards (the top two of column 3)
``wf``, ``3f`` the card to its suit's foundation (the "double click"); written ``wf2``, ``3f1``
``f25``        the top card of foundation 2 back onto column 5 (costs 10 points)
=============  ===============================================================================

Scoring: +5 a card moved from the waste, +5 per column card turned up, +10 per card put on a
foundation, -10 per card taken off one; they add up (``wf`` scores 15). ``score_move`` is the
seed's tie-break, "l'ultima mossa in cui sono stati realizzati dei punti": the number of the last
move that raised the score (0 when none did); ``scoring_moves`` lists every such move number, so a
race can map them onto its race-wide move counter.

The deal: ``DealRandom.for_deal("solitario", n)`` (``"solitario52"`` with 52 cards) shuffles a
fresh deck in ``full_deck`` order; columns are dealt row by row from the front of the shuffled
list (column k gets k-1 face down and one face up), the rest is the stock in turning order, and
its first three cards are turned onto the waste. Deal n is the first shuffle of n's stream
after which a scoring move other than turning the stock exists (the next shuffle of the same
stream is tried otherwise).

Fast path for solvers and benchmarks (no checks, no move log, no stall search)::

    snap = game._snapshot()          # cheap: a few list copies
    for move in game._generate():    # the legal moves, also while the game is over
        game._apply_unchecked(move)  # a move from _generate() of this very position only
        key = game.position_key()    # hashable, for transposition tables
        game._restore(snap)

``legal_moves()`` is listed once per position and kept until the position changes (any move,
``undo``, ``_restore``); ``play`` applies a listed move without checking it again. The stall
search (``engine.stall``) also uses ``_search_key`` (``position_key`` by card object ids, for
one search on one game object), ``_progress_by_turning`` and ``_waste_moves``.

>>> g = Solitario(1)
>>> g.view()["piles"][1]["id"], len(g.view()["piles"][1]["cards"])
('w', 3)
>>> move = g.legal_moves()[0]
>>> g.parse_move(str(move)) == move
True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from engine.cards import FRENCH_52, ITALIAN_40, SUITS, Card, top_rank
from engine.game import IllegalMove
from engine.gameinfo import (
    Column,
    Daily,
    GameInfo,
    Ranking,
    by_score_then_earlier_score,
)
from engine.piles import (
    TURN,
    PileMove,
    draw_three,
    foundation_rule,
    move_table,
    stock_cycle,
    tableau_rule,
)
from engine.rng import DealRandom
from engine.stall import SearchKey
from engine.stockwaste import FOUNDATIONS, StockAndWasteGame
from engine.views import SolitarioView

COLUMNS = tuple(str(i) for i in range(1, 8))
PILE_IDS = frozenset(("w", *COLUMNS, *FOUNDATIONS))

_MOVES = move_table(PILE_IDS)
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}

WASTE_POINTS = 5
TURN_UP_POINTS = 5
FOUNDATION_POINTS = 10


class Solitario(StockAndWasteGame):
    """Italian Klondike. See the module docstring for the notation and the fast path.

    >>> g = Solitario(1)
    >>> (g.score, g.move_number, g.score_move, g.outcome)
    (0, 0, 0, None)
    """

    info: ClassVar[GameInfo] = GameInfo(
        id="solitario",
        names={"en": "Solitario", "es": "Solitario", "it": "Solitario"},
        aliases=("klondike",),
        faces=("napoletane", "piacentine", "francesi"),
        ranking=Ranking(by_score_then_earlier_score, (Column.SCORE, Column.SCORE_MOVE)),
        daily=Daily(node_budget=20_000),
        stalls=True,
        solver="klondike",
        could_have_won=True,
        points=True,
        auto_finish=True,
        races=True,
        hint_scorer="piles",
        notation_examples=("d", "w3", "35", "35:2", "wf", "3f", "f25"),
    )
    option_choices: ClassVar[dict[str, tuple[Any, ...]]] = {"cards": (40, 52)}
    TABLEAU: ClassVar[tuple[str, ...]] = COLUMNS
    PILE_IDS: ClassVar[frozenset[str]] = PILE_IDS
    LISTS = (*StockAndWasteGame.LISTS, "_down")
    VALUES = (*StockAndWasteGame.VALUES, "_score", "_plies")

    # ----- dealing ------------------------------------------------------------------------------
    def _setup(self) -> None:
        cards = self.options["cards"]
        self._use_deck(ITALIAN_40 if cards == 40 else FRENCH_52)
        self.top_rank = top_rank(self.deck)
        self._column_rule = tableau_rule(self.top_rank, empty_accepts=self.top_rank)
        self._foundation_rules = tuple(foundation_rule(s, self.top_rank) for s in SUITS)
        rng = DealRandom.for_deal("solitario" if cards == 40 else "solitario52", self.deal)
        while True:
            deck = self._cards[:]
            rng.shuffle(deck)
            self._deal_out(deck)
            if self._has_scoring_move():
                break

    def _deal_out(self, deck: list[Card]) -> None:
        columns: list[list[Card]] = [[] for _ in COLUMNS]
        position = 0
        for row in range(len(COLUMNS)):
            for column in range(row, len(COLUMNS)):
                columns[column].append(deck[position])
                position += 1
        self._clear_piles()
        self._tableau = columns
        self._down = list(range(len(COLUMNS)))
        self._stock = deck[position:][::-1]  # top of the stock at the end
        self._fan = draw_three(self._stock, self._waste)  # the opening turn is part of the deal
        self._score = 0
        self._plies = 0
        self._events: list[tuple[int, int]] = [(0, 0)]  # (move number, score) at each change

    def _has_scoring_move(self) -> bool:
        return any(self._points(move) > 0 for move in self._generate())

    @classmethod
    def from_layout(
        cls,
        columns: Sequence[str],
        *,
        waste: str = "",
        stock: str = "",
        foundations: Sequence[str] = (),
        cards: int = 40,
        score: int = 0,
    ) -> Solitario:
        """A game in a hand-made position (tests, puzzles, solver checks).

        A column reads bottom to top, face-down cards before a ``|``: ``"5h Qc | Kd Qs"`` (no
        ``|``: all face up). ``stock`` lists cards in the order they will be turned; ``waste`` and
        each of ``foundations`` (f1..f4) read bottom to top. Cards left out are simply absent.

        >>> g = Solitario.from_layout(["Ad", "2s | Kh"], waste="2d")
        >>> [str(m) for m in g.legal_moves()]
        ['1f1', '23', '24', '25', '26', '27', 'd']
        """
        game = cls(0, options={"cards": cards})
        game._tableau, game._down = [], []
        for text in list(columns) + [""] * (len(COLUMNS) - len(columns)):
            hidden_text, _, shown_text = text.rpartition("|")
            hidden = game._parse_cards(hidden_text)
            game._tableau.append(hidden + game._parse_cards(shown_text))
            game._down.append(len(hidden))
        game._lay_out_stock_waste_foundations(waste=waste, stock=stock, foundations=foundations)
        game._score = score
        game._events = [(0, score)]
        return game

    # ----- reading the position -----------------------------------------------------------------
    @property
    def score(self) -> int:
        return self._score

    @property
    def score_move(self) -> int:
        """The last move in which points were made (the seed's tie-break; 0: none yet).

        Every later move left the score as it was or lowered it, so this is the last move that
        raised the score towards its final value: a card sent home (+10), taken back (-10) and
        sent home again (+10) gives 3, not 1.

        >>> g = Solitario.from_layout(["Ad", "2c", "", "", "", "", "As"])
        >>> for move in ("1f", "f12", "2f"):
        ...     _ = g.play(move)
        >>> g.score, g.score_move, g.scoring_moves
        (10, 3, (1, 3))
        """
        moves = self.scoring_moves
        return moves[-1] if moves else 0

    @property
    def scoring_moves(self) -> tuple[int, ...]:
        """The numbers of the moves that raised the score, in order (a move that lowered it or
        changed nothing is left out). A race maps them onto its race-wide counter."""
        events = self._events
        return tuple(
            move
            for (move, score), (_, before) in zip(events[1:], events, strict=False)
            if score > before
        )

    @property
    def stock_recycles(self) -> int:
        """How many times the waste was turned over into the stock."""
        return self._recycles

    def position_key(self) -> Hashable:
        """A hashable key of the position: card places and face-down counts, not the score.

        Columns are sorted, since which column holds what never matters to what can happen."""
        letter = self._letters
        return (
            tuple(
                sorted(
                    "".join(map(letter.__getitem__, map(id, col))) + str(down)
                    for col, down in zip(self._tableau, self._down, strict=True)
                )
            ),
            "".join(map(letter.__getitem__, map(id, self._stock))),
            "".join(map(letter.__getitem__, map(id, self._waste))),
            tuple(len(pile) for pile in self._fnd),
        )

    # ----- moves --------------------------------------------------------------------------------
    def _generate(self) -> list[PileMove]:
        """Every legal move, in a fixed order: to foundations, waste to columns, column to
        column, foundation to columns, turning the stock.

        The hot path of the stall search and the solvers: the pile rules are applied here as
        plain rank and colour arithmetic (Solitario's foundations: next rank of their fixed
        suit from the Asso; columns: one lower in the other colour, only a Re on a space);
        ``_check_move`` applies the same rules through ``engine.piles`` with reason codes."""
        moves: list[PileMove] = []
        cols, down, waste = self._tableau, self._down, self._waste
        king = self.top_rank
        home = [pile[-1].rank if pile else 0 for pile in self._fnd]
        tops = [col[-1] if col else None for col in cols]
        waste_top = waste[-1] if waste else None
        if waste_top is not None:
            index = _SUIT_INDEX[waste_top.suit]
            if home[index] + 1 == waste_top.rank:
                moves.append(_MOVES["w", FOUNDATIONS[index]])
        for i, card in enumerate(tops):
            if card is not None:
                index = _SUIT_INDEX[card.suit]
                if home[index] + 1 == card.rank:
                    moves.append(_MOVES[COLUMNS[i], FOUNDATIONS[index]])
        if waste_top is not None:
            rank, red = waste_top.rank, waste_top.is_red
            for j, target in enumerate(tops):
                if (
                    rank == king
                    if target is None
                    else target.rank - 1 == rank and target.is_red != red
                ):
                    moves.append(_MOVES["w", COLUMNS[j]])
        for i, col in enumerate(cols):
            head = down[i]
            size = len(col)
            if size > head:
                head_rank = col[head].rank
                for j, target in enumerate(tops):
                    if j == i:
                        continue
                    if target is None:
                        if head_rank == king:
                            moves.append(_MOVES[COLUMNS[i], COLUMNS[j]])
                        continue
                    # the face-up part is a run: only one card can have the rank needed
                    need = target.rank - 1
                    position = head + head_rank - need
                    if head <= position < size:
                        card = col[position]
                        if card.rank == need and card.is_red != target.is_red:
                            moves.append(_MOVES[COLUMNS[i], COLUMNS[j]])
        for index, pile in enumerate(self._fnd):
            if pile:
                card = pile[-1]
                rank, red = card.rank, card.is_red
                for j, target in enumerate(tops):
                    if (
                        rank == king
                        if target is None
                        else target.rank - 1 == rank and target.is_red != red
                    ):
                        moves.append(_MOVES[FOUNDATIONS[index], COLUMNS[j]])
        if self._stock or waste:
            moves.append(TURN)
        return moves

    def _fitting_run(self, i: int, target: Card | None) -> int | None:
        """How many cards from the top of column ``i`` fit on ``target`` (None: none fit).

        The face-up part of a column is always a run built down in alternating colours, so
        at most one of its cards has the rank ``target`` needs."""
        col = self._tableau[i]
        head = self._down[i]
        if target is None:
            return len(col) - head if col[head].rank == self.top_rank else None
        position = head + col[head].rank - (target.rank - 1)
        if head <= position < len(col) and self._column_rule.accepts(target, col[position]):
            return len(col) - position
        return None

    def _legal_run(self, i: int, target: Card | None) -> int:
        """``_fitting_run`` for a column move already known to be legal: a run fits."""
        fitting = self._fitting_run(i, target)
        assert fitting is not None, "a legal column move moves the run that fits"
        return fitting

    def _check_move(self, move: PileMove) -> int:
        """How many cards ``move`` takes, or the most specific ``IllegalMove``."""
        src, dst = move.src, move.dst
        if src not in PILE_IDS or dst not in PILE_IDS:
            raise IllegalMove("bad_notation", text=str(move))
        if dst == "w":
            raise IllegalMove("nothing_onto_waste")
        if src == dst:
            raise IllegalMove("same_pile", pile=src)
        if src in FOUNDATIONS and dst in FOUNDATIONS:
            raise IllegalMove("foundation_to_foundation")
        cards = self._pile(src)
        if not cards:
            raise IllegalMove("empty_source", pile=src)
        # Only the top card of the waste or of a foundation is playable.
        face_up = len(cards) - self._down[COLUMNS.index(src)] if src in COLUMNS else 1
        if move.count > face_up:
            raise IllegalMove("not_a_run", pile=src, count=move.count, playable=face_up)
        if dst in FOUNDATIONS:
            if move.count > 1:
                raise IllegalMove("one_card_at_a_time", count=move.count)
            card = cards[-1]
            target = self._top(dst)
            rule = self._foundation_rules[FOUNDATIONS.index(dst)]
            self._refuse(rule.refusal(target, card), card, target)
            return 1
        target = self._top(dst)
        if src not in COLUMNS or move.count:
            moving = cards[-(move.count or 1)]
            self._refuse(self._column_rule.refusal(target, moving), moving, target)
            return move.count or 1
        fitting = self._fitting_run(COLUMNS.index(src), target)
        if fitting is not None:
            return fitting
        run = cards[len(cards) - face_up :]
        if target is None:
            self._refuse("empty_column_needs_king", run[0], None)
            raise AssertionError("unreachable")  # pragma: no cover
        need = target.rank - 1
        same_rank = [card for card in run if card.rank == need]
        if same_rank:
            self._refuse(self._column_rule.refusal(target, same_rank[0]), same_rank[0], target)
        # No card of the needed rank is face up: complain about the nearest one.
        nearest = run[0] if run[0].rank < need else run[-1]
        self._refuse("not_one_lower", nearest, target)
        raise AssertionError("unreachable")  # pragma: no cover

    def _do(self, move: PileMove) -> tuple[str, ...]:
        self._plies += 1
        if move.dst is None:
            return self._turn_stock()
        count = 1
        if move.src in COLUMNS and move.dst in COLUMNS:
            count = move.count or self._legal_run(COLUMNS.index(move.src), self._top(move.dst))
        return self._move_cards(move.src, move.dst, count)

    def _move_cards(self, src: str, dst: str, count: int) -> tuple[str, ...]:
        source = self._pile(src)
        moving = source[-count:]
        del source[-count:]
        gained = 0
        if src == "w":
            gained += WASTE_POINTS
            self._fan = min(max(self._fan - 1, 1), len(source))
        elif src in FOUNDATIONS:
            gained -= FOUNDATION_POINTS
        else:
            i = COLUMNS.index(src)
            if source and len(source) == self._down[i]:
                self._down[i] -= 1  # the card left on top is turned up at once
                gained += TURN_UP_POINTS
        self._pile(dst).extend(moving)
        if dst in FOUNDATIONS:
            gained += FOUNDATION_POINTS
        if gained:
            self._score += gained
            self._events.append((self._plies, self._score))
        return (src, dst)

    def _points(self, move: PileMove) -> int:
        """What ``move`` (legal here) would score, without playing it."""
        if move.dst is None:
            return 0
        points = FOUNDATION_POINTS if move.dst in FOUNDATIONS else 0
        if move.src == "w":
            return points + WASTE_POINTS
        if move.src in FOUNDATIONS:
            return points - FOUNDATION_POINTS
        i = COLUMNS.index(move.src)
        col = self._tableau[i]
        taken = (
            1
            if move.dst in FOUNDATIONS
            else (move.count or self._legal_run(i, self._top(move.dst)))
        )
        if self._down[i] and len(col) - taken == self._down[i]:
            points += TURN_UP_POINTS
        return points

    # ----- stall search hooks (engine.stall) ----------------------------------------------------
    def _progress_baseline(self) -> int:
        return self.cards_home

    def _is_progress(self, move: PileMove, baseline: int) -> bool:
        """A card turned up, or the foundations holding more cards than at the search's start
        (taking a card off and putting it back is not progress)."""
        if move.dst is None:
            return False
        if move.dst in FOUNDATIONS and self.cards_home + 1 > baseline:
            return True
        if move.src in COLUMNS:
            i = COLUMNS.index(move.src)
            if self._down[i]:
                taken = (
                    1
                    if move.dst in FOUNDATIONS
                    else (move.count or self._legal_run(i, self._top(move.dst)))
                )
                return len(self._tableau[i]) - taken == self._down[i]
        return False

    def _progress_by_turning(self, baseline: int) -> bool:
        """Whether stock turns alone (no other move) lead to a position with a progress move,
        or to one with a waste card that goes on a column and lets a whole face-up run move
        onto it, turning up the card under that run. A sufficient check for the stall search:
        stock turns change only which waste card is on top, and column moves that make
        progress without the waste are already listed by ``_generate`` here."""
        king = self.top_rank
        home = [pile[-1].rank if pile else 0 for pile in self._fnd]
        may_add_home = self.cards_home + 1 > baseline
        cols, down = self._tableau, self._down
        tops = [col[-1] if col else None for col in cols]
        for _, card in stock_cycle(self._stock, self._waste):
            if may_add_home and home[_SUIT_INDEX[card.suit]] + 1 == card.rank:
                return True
            rank, red = card.rank, card.is_red
            for j, target in enumerate(tops):
                if not (
                    rank == king
                    if target is None
                    else target.rank - 1 == rank and target.is_red != red
                ):
                    continue
                for i, col in enumerate(cols):
                    if i != j and down[i] and len(col) > down[i]:
                        head = col[down[i]]
                        if head.rank == rank - 1 and head.is_red != red:
                            return True
        return False

    def _waste_moves(self, card: Card) -> list[PileMove]:
        """The moves ``card`` would have if it lay on top of the waste, in ``_generate``'s
        order (to its foundation, then onto columns)."""
        moves = []
        index = _SUIT_INDEX[card.suit]
        fnd = self._fnd[index]
        if (fnd[-1].rank if fnd else 0) + 1 == card.rank:
            moves.append(_MOVES["w", FOUNDATIONS[index]])
        rank, red, king = card.rank, card.is_red, self.top_rank
        for j, col in enumerate(self._tableau):
            target = col[-1] if col else None
            if rank == king if target is None else target.rank - 1 == rank and target.is_red != red:
                moves.append(_MOVES["w", COLUMNS[j]])
        return moves

    def _search_key(self) -> SearchKey:
        """:meth:`position_key` for one stall search on this very game object: the same
        information, naming cards by their object ids (cheaper than building strings)."""
        # (the rest of the position, stock, waste): see ``StockAndWasteGame._search_key``
        return (
            (
                tuple(sorted(tuple(map(id, col)) for col in self._tableau)),
                tuple(map(len, self._fnd)),
            ),
            tuple(map(id, self._stock)),
            tuple(map(id, self._waste)),
        )

    def _stall_context(self) -> Hashable:
        """The cards home and the face-down cards (each column's, by card object): a search key
        leaves them out because only progress changes them."""
        down = tuple(
            tuple(map(id, col[:d])) for col, d in zip(self._tableau, self._down, strict=True)
        )
        return self.cards_home, down

    # ----- undo ---------------------------------------------------------------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        # the score's history only grows between snapshots: its length is enough
        return super()._snapshot(), len(self._events)

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        state, events = snapshot
        super()._restore(state)
        del self._events[events:]

    # ----- output -------------------------------------------------------------------------------
    def _tableau_down(self, index: int) -> int:
        return self._down[index]

    def view(self, player: str | None = None) -> SolitarioView:
        return {
            **super().view(player),
            "stock_recycles": self._recycles,
            "score_move": self.score_move,
        }

    def _headline(self) -> str:
        return (
            f"Solitario deal {self.deal} ({4 * self.top_rank} cards)  "
            f"move {self.move_number}  score {self.score}  {self.outcome or 'playing'}"
        )
