"""El Solitario (game id ``squadratik``) solver: finds a *completo* line if one exists, else
the best line it saw (a *played out* one, or failing that the longest losing line).

What it reads from the engine (``engine.squadratik.el_solitario.ElSolitario``, full knowledge of
the deal): ``stock`` (the draw order), ``hand``, ``board``, and it plays through the engine's
board (``Board.targets`` / ``place`` / ``remove_path``) so geometry and completion are the
engine's; the link check and the hand / draw bookkeeping of a turn are repeated with lookup
tables (see ``_Position``), and a test checks they agree with the engine's legal moves.

- **State key**: stock size, the hand as a sorted multiset and each path's cells and cards.
  The six empty cards are identical, so they all count as one card id in the key, and moves
  that put different empty cards on the same place are tried once (symmetry).
- **Pruning** (completo search): every open path must still complete, so it needs at least
  ``4 - after_empty`` more non-empty cards; when the non-empty cards left in hand and stock
  are fewer than the sum of those needs, no completo exists below this position.
- **Ordering**: moves that complete a path first, then non-empty cards continuing a path,
  then opening paths, then empty cards.
- If the completo search ends without one and no *played out* line was seen, a second search
  without the completo pruning looks for a played out line with the rest of the budget.

>>> import engine
>>> from engine.solvers import Budget, Counter
>>> found = search(engine.new_game("squadratik", 3), Counter(Budget(nodes=20_000)))
>>> found.status in ("won", "lost", "unknown")
True
"""

from __future__ import annotations

from typing import Any

from engine.game import Outcome
from engine.solvers import LOST, UNKNOWN, WON, Counter, OutOfBudget, SearchOutcome, deep_recursion
from engine.squadratik.board import COMPLETE_AFTER_EMPTY, Board
from engine.squadratik.deck import DECK, DIRECTIONS, EMPTY_IDS, OPPOSITE
from engine.squadratik.notation import Place

_EMPTY_KEY = EMPTY_IDS[0]
_RANK = {Outcome.COMPLETO: 2, Outcome.PLAYED_OUT: 1}


def _card_key(card_id: int) -> int:
    return _EMPTY_KEY if card_id in EMPTY_IDS else card_id


_BLANK_IDS = frozenset(card.id for card in DECK if card.is_empty)
_PRINTED = tuple(card.sides for card in DECK)
_SIDE_INDEX = {side: i for i, side in enumerate(DIRECTIONS)}


class _Position:
    """A light copy of the engine's state; moves go through the engine's own board
    (``Board.place`` / ``remove_path``), so only the bookkeeping of ``ElSolitario._apply``
    (hand slot out, completed path off, draw one) is repeated here. One placement list per
    node serves both the move list and the lost check."""

    __slots__ = ("board", "hand", "points", "stock")

    def __init__(self, board: Board, hand: list[int], stock: list[int], points: int) -> None:
        self.board, self.hand, self.stock, self.points = board, hand, stock, points

    def copy(self) -> _Position:
        return _Position(self.board.copy(), list(self.hand), list(self.stock), self.points)

    def placements(self) -> list[Place]:
        """The same placements as the engine's ``list_placements`` (printed orientation, any
        card may open a path), with the card facts looked up in tables: it is the hot loop."""
        board = self.board
        moves: list[Place] = []
        for side in DIRECTIONS:
            for target in board.targets(side):
                need = board.facing_side(target)
                facing = _SIDE_INDEX[OPPOSITE[target.direction]]
                for slot, card_id in enumerate(self.hand, start=1):
                    if need is None or card_id in _BLANK_IDS or _PRINTED[card_id][facing] == need:
                        moves.append(Place(slot, side, target.turn, 0))
        return moves

    def play(self, move: Place) -> None:
        card_id = self.hand.pop(move.slot - 1)
        path = self.board.place(self.board.target(move.side, move.turn), card_id, 0)
        if path.complete:
            for removed in self.board.remove_path(path.side):
                self.points += DECK[removed].points
        if self.stock:
            self.hand.append(self.stock.pop())

    def ended(self, moves: list[Place]) -> Outcome | None:
        if not self.hand and not self.stock:
            return Outcome.COMPLETO if len(self.board.cells) == 1 else Outcome.PLAYED_OUT
        return None if moves else Outcome.LOST

    def key(self) -> tuple[Any, ...]:
        """Canonical: empty cards are interchangeable, the hand is a multiset."""
        board = self.board
        paths = tuple(
            None
            if (path := board.paths[side]) is None
            else tuple((cell, _card_key(board.cells[cell].card)) for cell in path.cells)
            for side in DIRECTIONS
        )
        return (len(self.stock), tuple(sorted(_card_key(c) for c in self.hand)), paths)


class _Search:
    def __init__(self, start: _Position, counter: Counter) -> None:
        self.start = start
        self.counter = counter
        self.line: list[str] = []
        self.seen: set[Any] = set()
        # best line so far: (rank, points, length), its moves and its outcome
        self.best: tuple[tuple[int, int, int], list[str], str | None] = ((-1, 0, 0), [], None)

    def _record(self, outcome: Outcome, position: _Position) -> None:
        score = (_RANK.get(outcome, 0), position.points, len(self.line))
        if score > self.best[0]:
            self.best = (score, list(self.line), str(outcome))

    def run(self, completo_only: bool) -> bool:
        """Depth-first search; True when its goal was found (the line is in ``best``)."""
        self.seen = set()
        self.line = []
        return self._dfs(self.start.copy(), completo_only)

    def _dfs(self, position: _Position, completo_only: bool) -> bool:
        self.counter.tick()
        moves = position.placements()
        outcome = position.ended(moves)
        if outcome is not None:
            self._record(outcome, position)
            # The completo search stops at a completo; the fallback at any cleared hand.
            return _RANK.get(outcome, 0) >= (2 if completo_only else 1)
        key = position.key()
        if key in self.seen:
            return False
        self.seen.add(key)
        if completo_only and not _completo_possible(position):
            return False
        for move in _ordered(position, moves):
            child = position.copy()
            child.play(move)
            self.line.append(str(move))
            if self._dfs(child, completo_only):
                return True
            self.line.pop()
        return False


def _completo_possible(position: _Position) -> bool:
    cards_left = sum(1 for c in position.hand if not DECK[c].is_empty)
    cards_left += sum(1 for c in position.stock if not DECK[c].is_empty)
    needed = 0
    for path in position.board.paths.values():
        if path is not None:
            needed += COMPLETE_AFTER_EMPTY - path.after_empty
    return cards_left >= needed


def _ordered(position: _Position, moves: list[Place]) -> list[Place]:
    paths = position.board.paths
    ranked = []
    tried_empty: set[str] = set()
    for move in moves:
        card = DECK[position.hand[move.slot - 1]]
        path = paths[move.side]
        if card.is_empty:
            if move.dst in tried_empty:
                continue  # another empty card already goes there: the same position
            tried_empty.add(move.dst)
            rank = 3
        elif path is None:
            rank = 2
        elif path.after_empty == COMPLETE_AFTER_EMPTY - 1:
            rank = 0
        else:
            rank = 1
        ranked.append((rank, move.slot, move))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [move for _, _, move in ranked]


def search(game: Any, counter: Counter) -> SearchOutcome:
    """Search ``game`` (an ``ElSolitario``) from its position; see the module docstring."""
    start = _Position(game.board.copy(), list(game.hand), list(game.stock), game.removed_points)
    finder = _Search(start, counter)
    try:
        with deep_recursion(2000):
            if finder.run(completo_only=True):
                return SearchOutcome(WON, finder.best[1], finder.best[2])
            if finder.best[2] != str(Outcome.PLAYED_OUT):
                finder.run(completo_only=False)
    except OutOfBudget:
        return SearchOutcome(UNKNOWN, finder.best[1], finder.best[2])
    return SearchOutcome(LOST, finder.best[1], finder.best[2])
