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
from typing import Any, ClassVar

from engine.cards import FRENCH_52, SUITS, Card, full_deck
from engine.game import Game, IllegalMove, Outcome
from engine.piles import (
    TURN,
    PileKind,
    PileMove,
    cards_text,
    deepcopy_sharing_cards,
    draw_three,
    foundation_index,
    foundation_rule,
    parse_card_list,
    parse_pile_notation,
    pile_view,
    stock_cycle,
    tableau_rule,
)
from engine.rng import DealRandom
from engine.stall import is_stalled

TABLEAU = ("1", "2", "3", "4")
FOUNDATIONS = ("f1", "f2", "f3", "f4")
PILE_IDS = frozenset(("w", "r", *TABLEAU, *FOUNDATIONS))
RESERVE_SIZE = 13
DECK_PRICE = 50
PAY_PER_CARD = 5
PAY_FOR_ALL = 500


class Canfield(Game):
    """Canfield. See the module docstring for the notation.

    >>> g = Canfield(1)
    >>> 1 <= g.base_rank <= 13, g.dollars == g.score
    (True, True)
    """

    game_id: ClassVar[str] = "canfield"

    # ----- dealing ------------------------------------------------------------------------------
    def _setup(self) -> None:
        self.deck = FRENCH_52
        self._cards = full_deck(FRENCH_52)
        # Position keys name cards by one character found by ``id`` (see engine.solitario).
        self._letters = {id(card): chr(65 + i) for i, card in enumerate(self._cards)}
        deck = self._cards[:]
        DealRandom.for_deal(self.game_id, self.deal).shuffle(deck)
        base = deck[RESERVE_SIZE]
        self._reserve = deck[:RESERVE_SIZE]  # top (face up) at the end
        self._fnd: list[list[Card]] = [[] for _ in SUITS]
        self._fnd[foundation_index(base)].append(base)
        self._set_base(base.rank)
        start = RESERVE_SIZE + 1
        self._tab = [[card] for card in deck[start : start + len(TABLEAU)]]
        self._stock = deck[start + len(TABLEAU) :][::-1]  # top at the end
        self._waste: list[Card] = []
        self._fan = 0
        self._redeals = 0
        self._last_piles: tuple[str, ...] = ()
        self._stall: bool | None = None
        # the legal moves of this position (a set to check moves, the list in order), or None
        self._legal_cache: tuple[frozenset[PileMove], list[PileMove]] | None = None

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
        canonical = {card: card for card in game._cards}

        def parse(text: str) -> list[Card]:
            return [canonical[card] for card in parse_card_list(text, FRENCH_52)]

        game._set_base(base_rank)
        game._tab = [parse(text) for text in list(tableau) + [""] * (4 - len(tableau))]
        game._reserve = parse(reserve)
        game._waste = parse(waste)
        game._stock = parse(stock)[::-1]
        game._fnd = [parse(text) for text in list(foundations) + [""] * (4 - len(foundations))]
        game._fan = min(3, len(game._waste))
        game._stall = None
        game._legal_cache = None
        return game

    # ----- reading the position -----------------------------------------------------------------
    @property
    def base_rank(self) -> int:
        """The rank every foundation starts from (1-13), set by the dealt foundation card."""
        return self._base_rank

    @property
    def cards_home(self) -> int:
        """Cards on the foundations (the dealt base card included)."""
        return sum(len(pile) for pile in self._fnd)

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
        return self._redeals

    @property
    def stalled(self) -> bool:
        """True when no card can ever again reach a foundation or leave the reserve (cached)."""
        if self._stall is None:
            if self.cards_home == 52:
                self._stall = False
            else:
                # the search starts from the legal moves, which the bot asks for next anyway;
                # it leaves the position as it found it, so they stay valid
                legal = self._legal_moves_here()
                self._stall = is_stalled(self, moves=legal[1])
                self._legal_cache = legal
        return self._stall

    def _outcome(self) -> Outcome | None:
        if self.cards_home == 52:
            return Outcome.WON
        return Outcome.STALLED if self.stalled else None

    def position_key(self) -> Hashable:
        """A hashable key of the position (tableau piles sorted: their order never matters)."""

        def name(cards: list[Card]) -> str:
            return "".join(map(self._letters.__getitem__, map(id, cards)))

        return (
            tuple(sorted(name(pile) for pile in self._tab)),
            name(self._stock),
            name(self._waste),
            len(self._reserve),
            tuple(len(pile) for pile in self._fnd),
        )

    # ----- moves --------------------------------------------------------------------------------
    def parse_move(self, text: str) -> PileMove:
        if isinstance(text, PileMove):
            return text
        move = parse_pile_notation(text, PILE_IDS)
        if move.dst == "f":
            card = self._top(move.src)
            if card is None:
                raise IllegalMove("empty_source", pile=move.src)
            move = PileMove(move.src, FOUNDATIONS[foundation_index(card)], move.count)
        return move

    def _legal(self, player: str) -> list[PileMove]:
        if player not in self.players:
            return []
        return list(self._legal_moves_here()[1])

    def _legal_moves_here(self) -> tuple[frozenset[PileMove], list[PileMove]]:
        """The legal moves of this position as a set and in order, listed once per position."""
        if self._legal_cache is None:
            moves = self._generate()
            self._legal_cache = frozenset(moves), moves
        return self._legal_cache

    def _generate(self) -> list[PileMove]:
        """Every legal move, in a fixed order: to foundations (reserve, waste, tableau), reserve
        and waste to the tableau, pile onto pile, turning the stock."""
        moves: list[PileMove] = []
        fnd, rules = self._fnd, self._foundation_rules
        sources = [("r", self._reserve), ("w", self._waste)]
        sources += [(TABLEAU[i], pile) for i, pile in enumerate(self._tab)]
        for src, pile in sources:
            if pile:
                index = foundation_index(pile[-1])
                if rules[index].accepts(fnd[index][-1] if fnd[index] else None, pile[-1]):
                    moves.append(PileMove(src, FOUNDATIONS[index]))
        tops = [pile[-1] if pile else None for pile in self._tab]
        spaces_open = not self._reserve  # a space waits for the reserve while it has cards
        rule = self._tableau_rule
        for src, pile in sources[:2]:
            if pile:
                for j, target in enumerate(tops):
                    if (spaces_open if target is None else rule.accepts(target, pile[-1])):
                        moves.append(PileMove(src, TABLEAU[j]))
        for i, pile in enumerate(self._tab):
            if pile:
                for j, target in enumerate(tops):
                    if j != i and (spaces_open if target is None else rule.accepts(target, pile[0])):
                        moves.append(PileMove(TABLEAU[i], TABLEAU[j]))
        if self._stock or self._waste:
            moves.append(TURN)
        return moves

    def _pile(self, pile: str) -> list[Card]:
        if pile == "w":
            return self._waste
        if pile == "r":
            return self._reserve
        if pile in FOUNDATIONS:
            return self._fnd[FOUNDATIONS.index(pile)]
        return self._tab[TABLEAU.index(pile)]

    def _top(self, pile: str) -> Card | None:
        cards = self._pile(pile)
        return cards[-1] if cards else None

    def _apply(self, move: PileMove, player: str) -> None:
        cache = self._legal_cache
        if cache is not None and isinstance(move, PileMove) and move in cache[0]:
            # listed by legal_moves() for this very position: no need to check it again
            self._apply_unchecked(move)
            return
        if not isinstance(move, PileMove):
            raise IllegalMove("bad_notation", text=str(move))
        if move.is_turn:
            if move != TURN:
                raise IllegalMove("bad_notation", text=str(move))
            if not self._stock and not self._waste:
                raise IllegalMove("stock_empty")
        else:
            self._check(move)
        self._apply_unchecked(move)

    def _check(self, move: PileMove) -> None:
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

    @staticmethod
    def _refuse(reason: str | None, card: Card, onto: Card | None) -> None:
        if reason is not None:
            raise IllegalMove(reason, card=card.code, onto=None if onto is None else onto.code)

    def _apply_unchecked(self, move: PileMove) -> None:
        """Apply a move taken from ``_generate()`` of this position, without any check."""
        self._stall = None
        self._legal_cache = None
        if move.dst is None:
            turned = draw_three(self._stock, self._waste)
            if turned == 0:
                self._redeals += 1
            self._fan = turned
            self._last_piles = ("s", "w")
            return
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
        self._last_piles = piles

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
            and (move.dst in TABLEAU or len(self._tab[TABLEAU.index(move.src)]) == 1)
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
            moves.append(PileMove("w", FOUNDATIONS[index]))
        spaces_open = not self._reserve
        for j, pile in enumerate(self._tab):
            if spaces_open if not pile else self._tableau_rule.accepts(pile[-1], card):
                moves.append(PileMove("w", TABLEAU[j]))
        return moves

    def _search_key(self) -> Hashable:
        """:meth:`position_key` for one stall search on this very game object (card object
        ids instead of letters: cheaper)."""
        return (
            tuple(sorted(tuple(map(id, pile)) for pile in self._tab)),
            tuple(map(id, self._stock)),
            tuple(map(id, self._waste)),
            len(self._reserve),
            tuple(map(len, self._fnd)),
        )

    # ----- undo ---------------------------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        """A copy that shares this game's (immutable) card objects, so position keys work."""
        return deepcopy_sharing_cards(self, self._cards, memo)

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            [pile[:] for pile in self._tab],
            self._reserve[:],
            self._stock[:],
            self._waste[:],
            [pile[:] for pile in self._fnd],
            self._fan,
            self._redeals,
            self._last_piles,
            self._stall,
        )

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        tab, reserve, stock, waste, fnd, *rest = snapshot
        # Copy again: the same snapshot may be restored many times (stall search, solvers).
        self._tab = [pile[:] for pile in tab]
        self._reserve = reserve[:]
        self._stock = stock[:]
        self._waste = waste[:]
        self._fnd = [pile[:] for pile in fnd]
        self._fan, self._redeals, self._last_piles, self._stall = rest
        self._legal_cache = None

    # ----- output -------------------------------------------------------------------------------
    def view(self, player: str | None = None) -> dict[str, Any]:
        """The board as ``docs/views.md`` describes it; only the reserve's top card is shown."""
        reserve_down = max(len(self._reserve) - 1, 0)
        piles = [
            pile_view("s", PileKind.STOCK, (), down=len(self._stock)),
            pile_view("w", PileKind.WASTE, self._waste, show=min(self._fan, len(self._waste))),
            pile_view("r", PileKind.RESERVE, self._reserve, down=reserve_down),
        ]
        for index, pile in enumerate(self._fnd):
            piles.append(pile_view(FOUNDATIONS[index], PileKind.FOUNDATION, pile, suit=SUITS[index]))
        for i, pile in enumerate(self._tab):
            piles.append(pile_view(TABLEAU[i], PileKind.TABLEAU, pile))
        view = self._base_view(player)
        view.update(
            deck=self.deck,
            piles=piles,
            last_move_piles=list(self._last_piles),
            stalled=self.outcome == Outcome.STALLED,
            base_rank=self._base_rank,
            dollars=self.dollars,
            redeals=self._redeals,
        )
        return view

    def __str__(self) -> str:
        status = self.outcome or "playing"
        base = "A23456789TJQK"[self._base_rank - 1]
        lines = [
            f"Canfield deal {self.deal}  base {base}  move {self.move_number}  "
            f"${self.dollars}  {status}",
            f"s: [{len(self._stock)}]  w: {cards_text(self._waste[-3:])}  "
            f"r: {cards_text(self._reserve, max(len(self._reserve) - 1, 0))}",
            "  ".join(f"{FOUNDATIONS[i]}: {cards_text(p[-1:])}" for i, p in enumerate(self._fnd)),
        ]
        for i, pile in enumerate(self._tab):
            lines.append(f"{TABLEAU[i]}: {cards_text(pile)}")
        return "\n".join(lines)
