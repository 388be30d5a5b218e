"""Canfield (games.md section 2): 52 French cards, reserve of 13, foundations from a dealt base
rank wrapping K to A, four tableau piles built down in alternating colours (wrapping: K on A).

Piles (ids as in ``docs/views.md``): ``s`` stock, ``w`` waste, ``r`` reserve, ``1``-``4``
tableau, ``f1``-``f4`` foundations with fixed suits d h c s.

Notation (case-insensitive, spaces ignored; ``str(move)`` is the canonical form and parses back):

=============  ===============================================================================
``d``          turn three stock cards onto the waste; on an empty stock, turn the waste over
               (not shuffled) into a new stock (``s`` and ``sw`` are accepted too)
``r2``, ``w2`` the top card of the reserve / waste onto tableau pile 2 (into a space only once
               the reserve is empty)
``12``         the whole of pile 1 onto pile 2 (only whole piles move); ``12:3`` names the count
``rf``, ``1f`` the card to its suit's foundation; written ``rf1``, ``1f3``
=============  ===============================================================================

A space left in the tableau is filled at once from the reserve, as part of the move that made
it, while the reserve has cards. Score (Canfield's bank): $5 per foundation card, the dealt one
included, $500 for all 52, minus the $50 the deck cost.

The deal: ``DealRandom.for_deal("canfield", n)`` shuffles the deck in ``full_deck`` order; the
first 13 cards form the reserve (the 13th on top, face up), the 14th goes to its foundation and
sets the base rank, the next four start tableau piles 1-4, the other 34 are the stock in turning
order.

Fast path (as in ``engine.solitario``): ``_generate``, ``_apply_unchecked``, ``_snapshot``,
``_restore``, ``position_key``; legal moves are listed once per position and ``play`` applies
a listed one without checking it again; the stall search's hooks as in ``engine.solitario``.

>>> g = Canfield(1)
>>> g.score, len(g.view()["piles"])
(-45, 11)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar

from engine.cards import FRENCH_52, SUITS, Card
from engine.game import IllegalMove
from engine.gameinfo import Column, Daily, GameInfo, Ranking, by_score_then_fewer_moves
from engine.piles import (
    FOUNDATION_NEEDS_BASE,
    TURN,
    PileKind,
    PileMove,
    cards_text,
    foundation_index,
    foundation_rule,
    move_table,
    pile_view,
    stock_cycle,
    tableau_rule,
)
from engine.rng import DealRandom
from engine.stall import SearchKey
from engine.stockwaste import FOUNDATIONS, StockAndWasteGame
from engine.views import CanfieldView, PileView

TABLEAU = ("1", "2", "3", "4")
PILE_IDS = frozenset(("w", "r", *TABLEAU, *FOUNDATIONS))
RESERVE_SIZE = 13
DECK_PRICE = 50
PAY_PER_CARD = 5
PAY_FOR_ALL = 500

_MOVES = move_table(PILE_IDS)


class Canfield(StockAndWasteGame):
    """Canfield. See the module docstring for the notation.

    >>> g = Canfield(1)
    >>> 1 <= g.base_rank <= 13, g.dollars == g.score
    (True, True)
    """

    info: ClassVar[GameInfo] = GameInfo(
        id="canfield",
        names={"en": "Canfield", "es": "Canfield", "it": "Canfield"},
        ranking=Ranking(by_score_then_fewer_moves, (Column.DOLLARS, Column.MOVES)),
        daily=Daily(node_budget=20_000),
        stalls=True,
        solver="canfield",
        could_have_won=True,
        auto_finish=True,
        hint_scorer="whole_piles",
        notation_examples=("d", "r2", "w3", "rf", "wf", "3f", "12"),
        notation_setup=("d",),
    )
    TABLEAU: ClassVar[tuple[str, ...]] = TABLEAU
    PILE_IDS: ClassVar[frozenset[str]] = PILE_IDS
    LISTS = (*StockAndWasteGame.LISTS, "_reserve")

    # ----- dealing ------------------------------------------------------------------------------
    def _setup(self) -> None:
        self._use_deck(FRENCH_52)
        deck = self._cards[:]
        DealRandom.for_deal(self.game_id, self.deal).shuffle(deck)
        self._clear_piles()
        base = deck[RESERVE_SIZE]
        self._reserve = deck[:RESERVE_SIZE]  # top (face up) at the end
        self._fnd[foundation_index(base)].append(base)
        self._set_base(base.rank)
        start = RESERVE_SIZE + 1
        self._tableau = [[card] for card in deck[start : start + len(TABLEAU)]]
        self._stock = deck[start + len(TABLEAU) :][::-1]  # top at the end

    def _set_base(self, rank: int) -> None:
        self._base_rank = rank
        self._tableau_rule = tableau_rule(13, wrap=True)
        self._foundation_rules = tuple(
            foundation_rule(suit, 13, base_rank=rank, wrap=True) for suit in SUITS
        )

    @classmethod
    def from_layout(
        cls,
        tableau: Sequence[str],
        *,
        base_rank: int,
        reserve: str = "",
        waste: str = "",
        stock: str = "",
        foundations: Sequence[str] = (),
    ) -> Canfield:
        """A game in a hand-made position (tests, puzzles, solver checks).

        Each pile reads bottom to top (``reserve``'s last card is its face-up top); ``stock``
        lists cards in the order they will be turned. Cards left out are simply absent.

        >>> g = Canfield.from_layout(["Ah", "Ks"], base_rank=13, reserve="2c Kd")
        >>> [str(m) for m in g.legal_moves()]
        ['rf1', '2f4', '21']
        """
        game = cls(0)
        game._set_base(base_rank)
        piles = list(tableau) + [""] * (len(TABLEAU) - len(tableau))
        game._tableau = [game._parse_cards(text) for text in piles]
        game._reserve = game._parse_cards(reserve)
        game._lay_out_stock_waste_foundations(waste=waste, stock=stock, foundations=foundations)
        return game

    # ----- reading the position -----------------------------------------------------------------
    @property
    def base_rank(self) -> int:
        """The rank every foundation starts from (1-13), set by the dealt foundation card."""
        return self._base_rank

    @property
    def score(self) -> int:
        home = self.cards_home
        return (PAY_FOR_ALL if home == 52 else PAY_PER_CARD * home) - DECK_PRICE

    @property
    def dollars(self) -> int:
        """The bank's balance for the player: the score."""
        return self.score

    @property
    def redeals(self) -> int:
        """How many times the waste was turned over into the stock."""
        return self._recycles

    def position_key(self) -> Hashable:
        """A hashable key of the position (tableau piles sorted: their order never matters)."""
        name = self._names
        return (
            tuple(sorted(name(pile) for pile in self._tableau)),
            name(self._stock),
            name(self._waste),
            len(self._reserve),
            tuple(len(pile) for pile in self._fnd),
        )

    # ----- moves --------------------------------------------------------------------------------
    def _generate(self) -> list[PileMove]:
        """Every legal move, in a fixed order: to foundations (reserve, waste, tableau), reserve
        and waste to the tableau, pile onto pile, turning the stock."""
        moves: list[PileMove] = []
        fnd, rules = self._fnd, self._foundation_rules
        sources = [("r", self._reserve), ("w", self._waste)]
        sources += [(TABLEAU[i], pile) for i, pile in enumerate(self._tableau)]
        for src, pile in sources:
            if pile:
                index = foundation_index(pile[-1])
                if rules[index].accepts(fnd[index][-1] if fnd[index] else None, pile[-1]):
                    moves.append(_MOVES[src, FOUNDATIONS[index]])
        tops = [pile[-1] if pile else None for pile in self._tableau]
        spaces_open = not self._reserve  # a space waits for the reserve while it has cards
        rule = self._tableau_rule
        for src, pile in sources[:2]:
            if pile:
                for j, target in enumerate(tops):
                    if spaces_open if target is None else rule.accepts(target, pile[-1]):
                        moves.append(_MOVES[src, TABLEAU[j]])
        for i, pile in enumerate(self._tableau):
            if pile:
                for j, target in enumerate(tops):
                    if j != i and (
                        spaces_open if target is None else rule.accepts(target, pile[0])
                    ):
                        moves.append(_MOVES[TABLEAU[i], TABLEAU[j]])
        if self._stock or self._waste:
            moves.append(TURN)
        return moves

    def _own_pile(self, pile: str) -> list[Card]:
        if pile != "r":
            raise KeyError(pile)
        return self._reserve

    def _check_move(self, move: PileMove) -> None:
        """Raise the most specific ``IllegalMove`` when ``move`` may not be played."""
        src, dst = move.src, move.dst
        if src not in PILE_IDS or dst not in PILE_IDS:
            raise IllegalMove("bad_notation", text=str(move))
        if dst == "w":
            raise IllegalMove("nothing_onto_waste")
        if dst == "r":
            raise IllegalMove("nothing_onto_reserve")
        if src == dst:
            raise IllegalMove("same_pile", pile=src)
        if src in FOUNDATIONS:
            raise IllegalMove("cards_never_leave_foundation")
        cards = self._pile(src)
        if not cards:
            raise IllegalMove("empty_source", pile=src)
        card = cards[-1]
        target = self._top(dst)
        if dst in FOUNDATIONS:
            if move.count > 1:
                raise IllegalMove("one_card_at_a_time", count=move.count)
            reason = self._foundation_rules[FOUNDATIONS.index(dst)].refusal(target, card)
            if reason == FOUNDATION_NEEDS_BASE:
                # the rule broken names this deal's base rank ("only an 8 starts a foundation")
                rank = "A23456789TJQK"[self._base_rank - 1].replace("T", "10")
                raise IllegalMove(reason, card=card.code, rank=rank)
            self._refuse(reason, card, target)
            return
        if src in TABLEAU:
            if move.count and move.count != len(cards):
                raise IllegalMove("only_whole_pile", pile=src, count=move.count, size=len(cards))
        elif move.count > 1:
            raise IllegalMove("not_a_run", pile=src, count=move.count, playable=1)
        if target is None:
            if self._reserve:
                raise IllegalMove("space_must_wait_for_reserve", pile=dst)
            return
        if src in TABLEAU:
            head = cards[0]
            reason = self._tableau_rule.refusal(target, head)
            if reason is not None and any(self._tableau_rule.accepts(target, c) for c in cards):
                # An upper card would fit, but only whole piles move.
                raise IllegalMove("only_whole_pile", pile=src, card=head.code, onto=target.code)
            self._refuse(reason, head, target)
            return
        self._refuse(self._tableau_rule.refusal(target, card), card, target)

    def _do(self, move: PileMove) -> tuple[str, ...]:
        if move.dst is None:
            return self._turn_stock()
        source = self._pile(move.src)
        if move.src in TABLEAU and move.dst in TABLEAU:
            moving = source[:]
            source.clear()
        else:
            moving = [source.pop()]
        if move.src == "w":
            self._fan = min(max(self._fan - 1, 1), len(source))
        self._pile(move.dst).extend(moving)
        piles: tuple[str, ...] = (move.src, move.dst)
        if move.src in TABLEAU and not source and self._reserve:
            source.append(self._reserve.pop())  # the space is filled at once from the reserve
            piles += ("r",)
        return piles

    # ----- stall search hooks (engine.stall) ----------------------------------------------------
    def _progress_baseline(self) -> None:
        return None

    def _is_progress(self, move: PileMove, baseline: None) -> bool:
        """A card to a foundation (they never leave) or a card taken from the reserve, either
        directly or by emptying a tableau pile that the reserve then fills."""
        if move.dst is None:
            return False
        if move.dst in FOUNDATIONS or move.src == "r":
            return True
        return bool(
            self._reserve
            and move.src in TABLEAU
            and (move.dst in TABLEAU or len(self._tableau[TABLEAU.index(move.src)]) == 1)
        )

    def _progress_by_turning(self, baseline: None) -> bool:
        """Whether stock turns alone bring up a waste card that fits a foundation (the stall
        search's cheap sufficient check: turns change only which waste card is on top)."""
        fnd, rules = self._fnd, self._foundation_rules
        for _, card in stock_cycle(self._stock, self._waste):
            index = foundation_index(card)
            if rules[index].accepts(fnd[index][-1] if fnd[index] else None, card):
                return True
        return False

    def _waste_moves(self, card: Card) -> list[PileMove]:
        """The moves ``card`` would have if it lay on top of the waste, in ``_generate``'s
        order (to its foundation, then onto tableau piles)."""
        moves = []
        index = foundation_index(card)
        fnd = self._fnd[index]
        if self._foundation_rules[index].accepts(fnd[-1] if fnd else None, card):
            moves.append(_MOVES["w", FOUNDATIONS[index]])
        spaces_open = not self._reserve
        for j, pile in enumerate(self._tableau):
            if spaces_open if not pile else self._tableau_rule.accepts(pile[-1], card):
                moves.append(_MOVES["w", TABLEAU[j]])
        return moves

    def _search_key(self) -> SearchKey:
        """:meth:`position_key` for one stall search on this very game object (card object
        ids instead of letters: cheaper)."""
        # (the rest of the position, stock, waste): see ``StockAndWasteGame._search_key``
        return (
            (
                tuple(sorted(tuple(map(id, pile)) for pile in self._tableau)),
                len(self._reserve),
                tuple(map(len, self._fnd)),
            ),
            tuple(map(id, self._stock)),
            tuple(map(id, self._waste)),
        )

    # ----- output -------------------------------------------------------------------------------
    def _extra_pile_views(self) -> list[PileView]:
        """The reserve: only its top card is shown."""
        down = max(len(self._reserve) - 1, 0)
        return [pile_view("r", PileKind.RESERVE, self._reserve, down=down)]

    def view(self, player: str | None = None) -> CanfieldView:
        return {
            **super().view(player),
            "base_rank": self._base_rank,
            "dollars": self.dollars,
            "redeals": self._recycles,
        }

    def _headline(self) -> str:
        base = "A23456789TJQK"[self._base_rank - 1]
        return (
            f"Canfield deal {self.deal}  base {base}  move {self.move_number}  "
            f"${self.dollars}  {self.outcome or 'playing'}"
        )

    def _extra_piles_text(self) -> str:
        return f"  r: {cards_text(self._reserve, max(len(self._reserve) - 1, 0))}"
