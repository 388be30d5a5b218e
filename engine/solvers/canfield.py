"""Canfield solver on its own compact state (draw three, unlimited turn-overs).

It reads the deal once from the engine's private state, "with full knowledge of the deal"
(``_reserve`` top last, ``_stock`` top last, ``_waste``, ``_tableau``, ``_fnd``,
``base_rank``), then searches tuples of integers, never the ``Game``: a card is
``suit * 16 + rank`` (suits d h c s, as f1-f4; d and h red), the stock and waste are one
talon (:mod:`engine.solvers.talon`), the foundations are four heights counted from the base
rank. The line is in the engine's notation (``d``, ``w2``, ``r3``, ``rf1``, ``2f4``, ``12``)
and ``engine.solvers`` checks it on the real engine.

- **Talon reach**: one search step per card played from the talon.
- **Safe foundation moves**, played automatically and alone: cards never leave a Canfield
  foundation, so only a card that nothing could ever want on the tableau goes home this way
  (both opposite-colour cards one rank lower, counted from the base rank, are home), from a
  pile's top or the reserve's (a reserve card on the table can do all it could do from the
  reserve). Never from the waste: removing a talon card changes which cards later turns
  bring up, so that is only the first move tried.
- **Refills**: a pile emptied while the reserve has cards takes the reserve's top at once,
  as the engine does.
- **Transposition table** on the piles as a sorted multiset, the reserve's size, the talon
  and the waste count (a waste of 3k cards reaches what a fresh turn-over reaches).
- **Pruning**: a whole pile never moves into a space (that only renames the piles); of
  several spaces only the first is a target.
- **Order**: home first, then cards out of the reserve (directly or by emptying a pile the
  reserve refills), then talon to tableau (fewest turns first), then other pile moves.

Every pruning is an exact dominance, so an exhausted search proves the deal lost.
"""

from __future__ import annotations

import sys
from typing import Any

from engine.cards import SUITS
from engine.solvers import LOST, UNKNOWN, WON, Counter, OutOfBudget, SearchOutcome
from engine.solvers.talon import reach

RANKS = 13
_SUIT = {suit: index for index, suit in enumerate(SUITS)}
_RED = (True, True, False, False)

#: a position: (piles, reserve, talon, waste count, foundation heights), all tuples / ints
State = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]


def encode(card: Any) -> int:
    return _SUIT[card.suit] * 16 + card.rank


class CanfieldSearch:
    """Depth-first search; see the module docstring."""

    def __init__(self, game: Any, counter: Counter) -> None:
        self.base = game.base_rank
        self.counter = counter
        self.seen: set[Any] = set()
        self.line: list[str] = []
        self.start: State = (
            tuple(tuple(encode(c) for c in pile) for pile in game._tableau),
            tuple(encode(c) for c in game._reserve),
            tuple(encode(c) for c in game._waste) + tuple(encode(c) for c in reversed(game._stock)),
            len(game._waste),
            tuple(len(pile) for pile in game._fnd),
        )

    def run(self) -> SearchOutcome:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            won = self._dfs(self.start)
        except OutOfBudget:
            return SearchOutcome(UNKNOWN, [], None)
        finally:
            sys.setrecursionlimit(limit)
        return SearchOutcome(WON, list(self.line), WON) if won else SearchOutcome(LOST, [], None)

    def _rel(self, card: int) -> int:
        """The card's place on its foundation: 0 for the base rank."""
        return ((card & 15) - self.base) % RANKS

    def _home_next(self, card: int, fnd: tuple[int, ...]) -> bool:
        return fnd[card >> 4] == self._rel(card)

    def _safe(self, card: int, fnd: tuple[int, ...]) -> bool:
        rel = self._rel(card)
        if rel == 0:
            return False  # the base card is wanted by the last cards of the other colour
        low = min(fnd[2], fnd[3]) if card >> 4 < 2 else min(fnd[0], fnd[1])
        return low >= rel

    @staticmethod
    def _fits(card: int, target: int) -> bool:
        """``card`` may go onto ``target``: one rank lower (K on A), the other colour."""
        return ((target & 15) - (card & 15)) % RANKS == 1 and _RED[card >> 4] != _RED[target >> 4]

    @staticmethod
    def _refill(piles: list[tuple[int, ...]], reserve: tuple[int, ...], i: int) -> tuple[int, ...]:
        """Fill pile ``i`` from the reserve if it is empty; returns the reserve left."""
        if not piles[i] and reserve:
            piles[i] = (reserve[-1],)
            return reserve[:-1]
        return reserve

    def _home(self, fnd: tuple[int, ...], card: int) -> tuple[int, ...]:
        heights = list(fnd)
        heights[card >> 4] += 1
        return tuple(heights)

    def _dfs(self, state: State) -> bool:
        self.counter.tick()
        line = self.line
        mark = len(line)
        piles_t, reserve, talon, p, fnd = state
        # safe moves home, alone
        moved = True
        piles = list(piles_t)
        while moved:
            moved = False
            if reserve and self._home_next(reserve[-1], fnd) and self._safe(reserve[-1], fnd):
                card = reserve[-1]
                reserve = reserve[:-1]
                fnd = self._home(fnd, card)
                line.append(f"rf{(card >> 4) + 1}")
                moved = True
            for i, pile in enumerate(piles):
                if pile and self._home_next(pile[-1], fnd) and self._safe(pile[-1], fnd):
                    card = pile[-1]
                    piles[i] = pile[:-1]
                    reserve = self._refill(piles, reserve, i)
                    fnd = self._home(fnd, card)
                    line.append(f"{i + 1}f{(card >> 4) + 1}")
                    moved = True
            # Not the waste's top: taking a card out of the talon changes which cards later
            # turns bring up, so playing it at once is not a proven dominance (it is the
            # first move tried instead).
        if sum(fnd) == 4 * RANKS:
            return True
        size = len(talon)
        key = (tuple(sorted(piles)), len(reserve), talon, 0 if p % 3 == 0 or p == size else p)
        if key in self.seen:
            del line[mark:]
            return False
        self.seen.add(key)
        for _, _, texts, child in self._children(piles, reserve, talon, p, fnd):
            line.extend(texts)
            if self._dfs(child):
                return True
            del line[len(line) - len(texts) :]
        del line[mark:]
        return False

    def _children(
        self,
        piles: list[tuple[int, ...]],
        reserve: tuple[int, ...],
        talon: tuple[int, ...],
        p: int,
        fnd: tuple[int, ...],
    ) -> list[tuple[int, int, list[str], State]]:
        """The positions one move away, best first: (order, turns, line, state)."""
        children: list[tuple[int, int, list[str], State]] = []
        tops = [pile[-1] if pile else 0 for pile in piles]
        space = next((j for j, pile in enumerate(piles) if not pile), -1)  # only when no reserve
        fits = self._fits

        def put(order: int, turns: int, texts: list[str], new_piles: list[tuple[int, ...]],
                new_reserve: tuple[int, ...], new_talon: tuple[int, ...], new_p: int,
                new_fnd: tuple[int, ...]) -> None:
            children.append((order, turns, texts, (tuple(new_piles), new_reserve, new_talon, new_p, new_fnd)))

        # the reserve's top
        if reserve:
            card = reserve[-1]
            rest = reserve[:-1]
            if self._home_next(card, fnd):
                put(0, 0, [f"rf{(card >> 4) + 1}"], piles, rest, talon, p, self._home(fnd, card))
            for j, target in enumerate(tops):
                if target and fits(card, target):
                    new = piles[:]
                    new[j] = piles[j] + (card,)
                    put(1, 0, [f"r{j + 1}"], new, rest, talon, p, fnd)
        # the piles' tops home, whole piles onto others
        for i, pile in enumerate(piles):
            if not pile:
                continue
            card = pile[-1]
            if self._home_next(card, fnd):
                new = piles[:]
                new[i] = pile[:-1]
                rest = self._refill(new, reserve, i)
                put(0 if len(pile) > 1 or not reserve else 1, 0, [f"{i + 1}f{(card >> 4) + 1}"],
                    new, rest, talon, p, self._home(fnd, card))
            for j, target in enumerate(tops):
                if j == i or not target or not fits(pile[0], target):
                    continue
                new = piles[:]
                new[j] = piles[j] + pile
                new[i] = ()
                rest = self._refill(new, reserve, i)
                put(1 if reserve else 3, 0, [f"{i + 1}{j + 1}"], new, rest, talon, p, fnd)
        # talon cards
        if talon:
            for index, turns in reach(len(talon), p):
                card = talon[index]
                texts = ["d"] * turns
                rest_talon = talon[:index] + talon[index + 1 :]
                if self._home_next(card, fnd):
                    put(0, turns, [*texts, f"wf{(card >> 4) + 1}"], piles, reserve, rest_talon, index,
                        self._home(fnd, card))
                for j, target in enumerate(tops):
                    if (fits(card, target) if target else j == space):
                        new = piles[:]
                        new[j] = piles[j] + (card,)
                        put(2, turns, [*texts, f"w{j + 1}"], new, reserve, rest_talon, index, fnd)
        children.sort(key=lambda child: (child[0], child[1]))
        return children


def search(game: Any, counter: Counter) -> SearchOutcome:
    """Search ``game`` (a ``Canfield``) from its position; see the module docstring."""
    return CanfieldSearch(game, counter).run()
