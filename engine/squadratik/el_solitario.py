"""Squadratik — El Solitario (games.md §5, seed 000): game id ``"squadratik"``.

One player. The central card lies in the middle; the other 46 cards are shuffled into the
stock (``DealRandom.for_deal("squadratik", deal)``) and the player draws four. A turn: play
one hand card onto the board in its printed orientation, then draw one if the stock has any.
A completed path (four non-empty cards after its last empty card) is removed at once and the
normal cards in it score their points.

**Opening a path (reading of the seed).** The seed says the central card takes "una carta
cualquiera en cada uno de sus cuatro lados" and that an empty card accepts any link, and
that masters "funcionan como una normal" here. So in El Solitario *any* card — normal,
master or empty — may open a path on a free side of the central card.

**Endings.** ``completo``: hand and stock empty and only the central card on the table;
``played_out`` (the spec's *Solitario*): hand and stock empty, cards still on the table; ``lost``: the player holds a
card and none of them can be placed anywhere. ``score`` = points of the normal cards removed;
:attr:`ElSolitario.result_rank` is 2 (completo), 1 (played out) or 0 (lost / resigned); results
rank by it, then by score (``ElSolitario.info.ranking``: :func:`result_then_points`).

Notation (see ``engine.squadratik.notation``): ``2N`` puts hand card 2 at the end of path N
(or opens it), ``1Se`` turns east after an empty card. No rotation (``r1`` is refused with
``no_rotation_in_el_solitario``); ``pass`` is refused with ``must_place``.

>>> g = ElSolitario(deal=3)
>>> len(g.view()["hand"]), g.view()["stock"]
(4, 42)
>>> m = g.legal_moves()[0]; _ = g.play(m); g.move_number, g.view()["stock"]
(1, 41)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from engine.game import IllegalMove, Outcome
from engine.gameinfo import Column, Daily, GameInfo, Ranking, Result
from engine.rng import DealRandom
from engine.squadratik.board import Board, Target
from engine.squadratik.common import (
    PlacementTable,
    SquadratikGame,
    check_placement,
    placement_table,
)
from engine.squadratik.deck import DECK
from engine.squadratik.notation import Move, Place
from engine.views import ElSolitarioView

HAND_SIZE = 4
_RANKS: dict[str, int] = {Outcome.COMPLETO: 2, Outcome.PLAYED_OUT: 1}


def result_then_points(result: Result) -> tuple[int, ...]:
    """The leaderboard order: completo, then played out, then any other ending; then more
    points."""
    return (-_RANKS.get(result.outcome, 0), -result.score)  # Outcome is a str: plain keys match


def _any_card(card_id: int) -> bool:
    return True


def _card_text(card_id: int) -> str:
    card = DECK[card_id]
    if card.is_empty:
        return "empty"
    return ("*" if card.kind.value == "master" else "") + " ".join(card.sides)


class ElSolitario(SquadratikGame):
    """El Solitario. State: ``board``, ``hand`` (ids, draw order), ``stock`` (ids, top last),
    ``removed`` (ids of the cards taken off in completed paths), ``removed_points``."""

    info: ClassVar[GameInfo] = GameInfo(
        id="squadratik",
        names={"en": "Squadratik", "es": "Squadratik", "it": "Squadratik"},
        aliases=("elsolitario",),
        titles={"en": "El Solitario", "es": "El Solitario", "it": "El Solitario"},
        wins=frozenset({"completo"}),
        faces=("squadratik_cards",),  # Squadratik cards, drawn by their own drawing
        ranking=Ranking(result_then_points, (Column.OUTCOME, Column.SCORE)),
        # "could it have been won?" is not asked: El Solitario's question would be "could it
        # have been a completo?", which the solver answers only as a best line.
        daily=Daily(node_budget=10_000, proofs=frozenset({"completo", "played_out"})),
        solver="squadratik",
        points=True,
        hint_scorer="el_solitario",
        notation_examples=("2N", "1Se"),
    )

    def _setup(self) -> None:
        shuffled = list(range(1, 47))
        DealRandom.for_deal("squadratik", self.deal).shuffle(shuffled)
        self.board = Board()
        self.stock: list[int] = shuffled[::-1]  # top of the stock last: drawing is a pop()
        self.hand: list[int] = [self.stock.pop() for _ in range(HAND_SIZE)]
        self.removed: list[int] = []
        self.removed_points = 0
        self.last_cells: list[tuple[int, int]] = []
        self._result: Outcome | None = None
        self._table = None
        self._settle()

    @classmethod
    def from_position(
        cls, board: Board, hand: Sequence[int], stock: Sequence[int] = (), removed_points: int = 0
    ) -> ElSolitario:
        """A hand-built position for tests and puzzles (``stock`` listed top first).

        >>> g = ElSolitario.from_position(Board(), hand=[20])
        >>> g.legal_moves()
        [Place(slot=1, side='N', turn=None, rotation=0), Place(slot=1, side='E', turn=None, rotation=0), Place(slot=1, side='S', turn=None, rotation=0), Place(slot=1, side='W', turn=None, rotation=0)]
        """
        game = cls(deal=0)
        game.board = board
        game.hand = list(hand)
        game.stock = list(stock)[::-1]
        game.removed_points = removed_points
        on_table = set(board.card_ids()) | set(hand) | set(stock)
        game.removed = [i for i in range(1, 47) if i not in on_table]
        game._settle()
        return game

    # ----- rules ----------------------------------------------------------------------------
    def _list_table(self) -> PlacementTable:
        return placement_table(self.board, self.hand, (0,), _any_card)

    def _legal(self, player: str) -> list[Move]:
        return list(self._placement_table())

    def _apply(self, move: Move, player: str) -> None:
        if not isinstance(move, Place):
            if str(move) == "pass":
                raise IllegalMove("must_place")
            raise IllegalMove("bad_notation")
        # A listed move is legal by construction: only other moves go through the checks
        # (which find the precise refusal).
        listed = self._placement_table().get(move)
        self._forget_placements()
        card_id, target = listed if listed is not None else self._checked(move)
        del self.hand[move.slot - 1]
        path = self.board.place(target, card_id, 0)
        self.last_cells = [target.cell]
        if path.complete:
            for removed_id in self.board.remove_path(path.side):
                self.removed.append(removed_id)
                self.removed_points += DECK[removed_id].points
        if self.stock:
            self.hand.append(self.stock.pop())
        self._settle()

    def _checked(self, move: Place) -> tuple[int, Target]:
        """The card and target of ``move`` after every check, or the precise ``IllegalMove``."""
        if move.rotation:
            raise IllegalMove("no_rotation_in_el_solitario")
        return check_placement(self.board, self.hand, move)

    def _settle(self) -> None:
        """Decide the ending, once per position (the outcome is read very often); the
        placements listed for the lost check are kept for ``legal_moves`` and ``play``."""
        self._forget_placements()
        if not self.hand and not self.stock:
            only_central = len(self.board.cells) == 1
            self._result = Outcome.COMPLETO if only_central else Outcome.PLAYED_OUT
        elif not self._placement_table():
            self._result = Outcome.LOST
        else:
            self._result = None

    def _outcome(self) -> Outcome | None:
        return self._result

    @property
    def score(self) -> int:
        """Points of the normal cards removed so far."""
        return self.removed_points

    @property
    def result_rank(self) -> int | None:
        """2 completo, 1 played out, 0 lost or resigned; None while the game goes on."""
        outcome = self.outcome
        if outcome is None:
            return None
        return _RANKS.get(outcome, 0)

    # ----- undo -----------------------------------------------------------------------------
    def _snapshot(self) -> Any:
        return (
            self.board.copy(),
            list(self.hand),
            list(self.stock),
            list(self.removed),
            self.removed_points,
            self.last_cells,
            self._result,
        )

    def _restore(self, snapshot: Any) -> None:
        board, hand, stock, removed, points, last_cells, result = snapshot
        self.board = board.copy()
        self.hand, self.stock, self.removed = list(hand), list(stock), list(removed)
        self.removed_points, self.last_cells, self._result = points, last_cells, result
        self._forget_placements()

    # ----- output ---------------------------------------------------------------------------
    def view(self, player: str | None = None) -> ElSolitarioView:
        """The board, the hand (a solo game shows it to everyone), the stock size."""
        board, paths = self.board.to_view()
        return {
            **self._base_view(player),
            "board": board,
            "paths": paths,
            "hand": self._hand_view(self.hand),
            "stock": len(self.stock),
            "removed_points": self.removed_points,
            "last_move_cells": [list(cell) for cell in self.last_cells],
        }

    def __str__(self) -> str:
        hand = "  ".join(f"{slot}:{_card_text(c)}" for slot, c in enumerate(self.hand, 1))
        return self._text_board(
            [
                f"hand {hand}",
                f"stock {len(self.stock)}  points {self.removed_points}  move {self.move_number}"
                + (f"  {self.outcome}" if self.outcome else ""),
            ]
        )
