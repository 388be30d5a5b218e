"""Golf: the small game ``tests/test_adding_a_game.py`` adds the way ``docs/adding-a-game.md``
says (this module is what the guide's "engine" step writes).

Seven columns of five cards, all face up; the other seventeen cards are the stock, whose top
card starts the foundation ``f``. A column's top card goes onto the foundation when its rank
is one above or one below the foundation's top card (suits do not matter, no wrapping from
King to Ace). The game is won when all 35 column cards are home, and lost when the stock is
empty and no column card fits.

Notation: ``d`` turns the stock's top card onto the foundation; ``1``-``7`` plays that
column's top card onto the foundation.

The rules are all it writes: ``engine.pilegame.PileGame`` lists the legal moves once per
position, checks a move that was not listed, takes moves back, copies, shows the view's common
fields and writes the board as text.

>>> g = Golf(deal=1)
>>> len(g.legal_moves()) > 0, g.score
(True, 0)
>>> print(str(g).splitlines()[0])
Golf deal 1  move 0  score 0  playing
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card, full_deck
from engine.game import IllegalMove
from engine.gameinfo import Column, Daily, GameInfo, Ranking, by_score_then_fewer_moves
from engine.pilegame import PileGame
from engine.piles import PileKind, compact_notation, pile_view
from engine.rng import DealRandom
from engine.views import PileView

COLUMNS = 7
DEPTH = 5
CARDS_IN_COLUMNS = COLUMNS * DEPTH


@dataclass(frozen=True, slots=True)
class GolfMove:
    """``d`` (the stock onto the foundation) or a column's number (its top card there)."""

    column: int | None  # None: the stock

    @property
    def src(self) -> str:
        return "s" if self.column is None else str(self.column)

    @property
    def dst(self) -> str | None:
        return None if self.column is None else "f"  # a stock turn has no destination

    def __str__(self) -> str:
        return "d" if self.column is None else str(self.column)


class Golf(PileGame):
    info: ClassVar[GameInfo] = GameInfo(
        id="golf",
        names={"en": "Golf", "es": "Golf", "it": "Golf"},
        aliases=("golfsolitaire",),
        ranking=Ranking(by_score_then_fewer_moves, (Column.SCORE, Column.MOVES)),
        daily=Daily(node_budget=20_000),
        solver="tests.adding_a_game.golf_solver",
        notation_examples=("d", "3"),
    )
    # what a move changes, for undo: the columns (a row of piles), the stock and the foundation
    PILE_ROWS: ClassVar[tuple[str, ...]] = ("columns",)
    LISTS: ClassVar[tuple[str, ...]] = ("stock", "home")

    def _setup(self) -> None:
        cards = full_deck(self.deck)
        DealRandom.for_deal(self.game_id, self.deal).shuffle(cards)
        self.columns: list[list[Card]] = [
            cards[k * DEPTH : (k + 1) * DEPTH] for k in range(COLUMNS)
        ]
        self.stock: list[Card] = cards[CARDS_IN_COLUMNS:]
        self.home: list[Card] = [self.stock.pop()]

    def parse_move(self, text: str) -> GolfMove:
        word = compact_notation(text)
        if word == "d":
            return GolfMove(None)
        if word.isdigit() and 1 <= int(word) <= COLUMNS:
            return GolfMove(int(word))
        raise IllegalMove("bad_notation", text=str(text))

    def _fits(self, card: Card) -> bool:
        return abs(card.rank - self.home[-1].rank) == 1

    def _generate(self) -> list[GolfMove]:
        moves = [
            GolfMove(k + 1)
            for k, column in enumerate(self.columns)
            if column and self._fits(column[-1])
        ]
        if self.stock:
            moves.append(GolfMove(None))
        return moves

    def _check(self, move: object) -> None:
        if not isinstance(move, GolfMove):
            raise IllegalMove("bad_notation", text=str(move))
        if move.column is None:
            if not self.stock:
                raise IllegalMove("stock_empty")
            return
        column = self.columns[move.column - 1]
        if not column:
            raise IllegalMove("empty_source")
        if not self._fits(column[-1]):
            raise IllegalMove("not_one_apart", card=column[-1].code, top=self.home[-1].code)

    def _do(self, move: GolfMove) -> tuple[str, ...]:
        source = self.stock if move.column is None else self.columns[move.column - 1]
        self.home.append(source.pop())
        return (move.src, "f")

    def _won(self) -> bool:
        return self.score == CARDS_IN_COLUMNS  # lost: no legal move left (the base's rule)

    @property
    def score(self) -> int:
        """Cards played from the columns."""
        return CARDS_IN_COLUMNS - sum(len(column) for column in self.columns)

    def _pile_views(self) -> list[PileView]:
        return [
            pile_view("s", PileKind.STOCK, (), down=len(self.stock)),
            pile_view("f", PileKind.FOUNDATION, self.home),
            *(pile_view(str(k + 1), PileKind.TABLEAU, c) for k, c in enumerate(self.columns)),
        ]
