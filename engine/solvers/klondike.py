"""Solitario (Klondike, draw three, unlimited recycling; also ``cards=52``) solver, and the
search shared with Canfield (:class:`PileSearch`).

The search uses the engines' documented fast path (see ``engine/solitario.py``):
``_generate()`` (legal moves), ``_apply_unchecked(move)``, ``_snapshot()`` / ``_restore()``.
It reads the private deal state for its keys and rules, "with full knowledge of the deal":
Solitario ``_tableau`` (columns), ``_down`` (face-down counts), ``_stock`` (top last), ``_waste``, ``_fnd``.

Techniques:

- **Transposition table** over the engine's canonical ``position_key()``: the columns as a
  multiset (their order does not matter: a symmetry), the stock and waste order, the
  foundation heights.
- **Stock macro moves**: one search step is "turn the stock k times, then play the waste's top
  card" for every k in one full cycle of the stock. The line written is the engine's real
  moves (``d`` k times, then e.g. ``w3``), so the replay check sees ordinary play.
- **Safe automatic foundation moves**: a card goes home as the only child when nothing can
  ever need it on the table (Klondike: rank 2 or less, or both opposite-colour cards one rank
  lower are home). Dominance: no other move is tried there.
- **Move ordering**: to a foundation first, then moves that turn up a face-down card, then
  waste to column, then other column moves, then foundation to column; fewer turns first.
- **Pruning**: a run headed by the column's bottom card never moves to an empty column.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from typing import Any, Protocol

from engine.piles import TURN
from engine.solvers import LOST, UNKNOWN, WON, Counter, OutOfBudget, SearchOutcome

TURN_TEXT = "d"
#: the most stock turns a macro step takes; a draw-three cycle of 24 cards is 9 turns
MAX_TURNS = 40


class PileRules(Protocol):
    """What :class:`PileSearch` needs to know about a pile game beyond its fast path."""

    def key(self, game: Any) -> Hashable: ...

    def is_won(self, game: Any) -> bool: ...

    def stock_key(self, game: Any) -> Hashable: ...

    def safe(self, game: Any, move: Any) -> bool: ...

    def rank(self, game: Any, move: Any) -> int | None:
        """Ordering bucket, lower first; None prunes the move."""


class PileSearch:
    """Depth-first search over a pile game's fast path; see the module docstring."""

    def __init__(self, game: Any, rules: PileRules, counter: Counter) -> None:
        self.game = game
        self.rules = rules
        self.counter = counter
        self.line: list[str] = []
        self.seen: set[Hashable] = set()

    def run(self) -> SearchOutcome:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 5000))
        start = self.game._snapshot()
        try:
            won = self._dfs()
        except OutOfBudget:
            return SearchOutcome(UNKNOWN, [], None)
        finally:
            sys.setrecursionlimit(limit)
            self.game._restore(start)
        return SearchOutcome(WON, self.line, WON) if won else SearchOutcome(LOST, [], None)

    def _dfs(self) -> bool:
        self.counter.tick()
        game, rules = self.game, self.rules
        if rules.is_won(game):
            return True
        key = rules.key(game)
        if key in self.seen:
            return False
        self.seen.add(key)
        snapshot = game._snapshot()
        here = [move for move in game._generate() if move.dst is not None]
        for move in here:
            if rules.safe(game, move):
                return self._try(snapshot, 0, move)
        candidates: list[tuple[int, int, int, Any]] = []
        for index, move in enumerate(here):
            rank = rules.rank(game, move)
            if rank is not None:
                candidates.append((rank, 0, index, move))
        # Stock macro moves: the waste's top card after each number of turns in one cycle.
        turned_snapshots = [snapshot]
        if any(move.dst is None for move in game._generate()):
            cycle = {rules.stock_key(game)}
            for turns in range(1, MAX_TURNS + 1):
                game._apply_unchecked(_TURN)
                stock_key = rules.stock_key(game)
                if stock_key in cycle:
                    break
                cycle.add(stock_key)
                turned_snapshots.append(game._snapshot())
                for index, move in enumerate(game._generate()):
                    if move.src == "w" and move.dst is not None:
                        rank = rules.rank(game, move)
                        if rank is not None:
                            candidates.append((rank, turns, index, move))
            game._restore(snapshot)
        candidates.sort(key=lambda item: item[:3])
        for _, turns, _, move in candidates:
            if self._try(turned_snapshots[turns], turns, move):
                return True
        game._restore(snapshot)
        return False

    def _try(self, snapshot: Any, turns: int, move: Any) -> bool:
        game = self.game
        game._restore(snapshot)
        game._apply_unchecked(move)
        mark = len(self.line)
        self.line.extend([TURN_TEXT] * turns)
        self.line.append(str(move))
        if self._dfs():
            return True
        del self.line[mark:]
        return False


_TURN = TURN


def opposite_colour_home(game: Any, card: Any) -> int:
    """The fewest cards on a foundation of the colour ``card`` is built on in the tableau
    (foundations d h c s: 0-1 red, 2-3 black): how far home the cards that could ever want
    ``card`` on them have gone. Both pile solvers' test for a safe move home."""
    heights = [len(pile) for pile in game._fnd]
    return min(heights[2:] if card.is_red else heights[:2])


class KlondikeRules:
    """Solitario / Klondike knowledge for :class:`PileSearch`."""

    def key(self, game: Any) -> Hashable:
        # The engine's key already sorts the columns (their order never matters).
        return game.position_key()  # type: ignore[no-any-return]

    def is_won(self, game: Any) -> bool:
        return sum(len(pile) for pile in game._fnd) == 4 * game.top_rank

    def stock_key(self, game: Any) -> Hashable:
        return (len(game._stock), len(game._waste))

    def safe(self, game: Any, move: Any) -> bool:
        """Home is safe when no card could ever want this one on the table: both
        opposite-colour cards one rank lower are home (an Ace or a 2 always)."""
        if not move.dst.startswith("f") or move.src.startswith("f"):
            return False
        card = game._pile(move.src)[-1]
        if card.rank <= 2:
            return True
        return opposite_colour_home(game, card) >= card.rank - 1

    def rank(self, game: Any, move: Any) -> int | None:
        src, dst = move.src, move.dst
        if dst.startswith("f"):
            return 0
        if src == "w":
            return 2
        if src.startswith("f"):
            return 5
        i = int(src) - 1
        col, down = game._tableau[i], game._down[i]
        count = move.count or game._fitting_run(i, game._top(dst))
        left = len(col) - count
        if left == 0 and not game._tableau[int(dst) - 1]:
            return None  # a whole column into an empty one changes nothing
        if down and left == down:
            return 1  # turns up a face-down card
        if left == 0:
            return 3  # empties a column
        return 4


def search(game: Any, counter: Counter) -> SearchOutcome:
    """Search ``game`` (a ``Solitario``) from its position; see the module docstring."""
    return PileSearch(game, KlondikeRules(), counter).run()
