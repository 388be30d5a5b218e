"""Imaginary Thirteen solver: depth-first search knowing the whole stock order.

What it reads from the engine (``engine.imaginary13.Imaginary13``, full knowledge of the
deal): ``_stock`` (the 88 cards in turning order), ``_turn_index``, ``_foundations`` and
``_wastes``. The search runs on its own compact model (values only: suits never matter) and
writes moves in the game's notation (``t5``, ``ta``, ``b5``).

- **State key**: turn index, the eight foundation tops and the four waste piles *sorted*:
  waste piles are interchangeable, so two positions that differ only by which letter holds
  which pile are the same position (symmetry).
- **Ordering**: waste tops to foundations first, then the turned card: to a foundation when it
  fits (forced unless option ``free``), else onto a waste pile, best pile first: one whose top
  is needed *later* than the turned card, then an empty pile, then the pile whose top is
  needed last. Equal piles are tried once.
- Imaginary Thirteen has no cycles (every move places a card for good), so a position seen
  before was fully explored without a win and is skipped.

>>> import engine
>>> from engine.solvers import Budget, Counter
>>> found = search(engine.new_game("imaginary13", 1), Counter(Budget(nodes=100_000)))
>>> found.status in ("won", "lost", "unknown")
True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TypeVar

from engine.imaginary13 import (
    FOUNDATION_IDS,
    KING,
    MARKERS,
    WASTE_IDS,
    add_wrapping,
    build_sequence,
)
from engine.rng import DealRandom
from engine.solvers import LOST, UNKNOWN, WON, Counter, OutOfBudget, SearchOutcome

T = TypeVar("T")

_NEVER = 99
#: share of the budget spent on random playouts before the complete search starts
PLAYOUT_SHARE = 0.4
#: how often a playout ignores the waste-pile heuristic and picks a pile at random, in
#: parts per :data:`NOISE_SCALE` (whole numbers: the choice uses only integer draws)
PLAYOUT_NOISE = 200
NOISE_SCALE = 1000
# _POSITION[k][value] = index of value in foundation k's build sequence (base = 0), or None.
_POSITION: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(build_sequence(k).index(v) if v in build_sequence(k) else None for v in range(KING + 1))
    for k in MARKERS
)
# _NEXT[k][top] = the value foundation k + 1 takes on ``top`` (0 once finished at the King).
_NEXT: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if top == KING else add_wrapping(top, k) for top in range(KING + 1)) for k in MARKERS
)


def urgency(value: int, tops: list[int]) -> int:
    """How many cards some foundation still needs before it takes ``value`` (0: fits now).

    >>> urgency(6, [2, 4, 6, 8, 10, 12, 1, 3])   # foundation 2 (top 4) takes 6 now
    0
    """
    best = _NEVER
    for k, top in enumerate(tops):
        if top == KING:
            continue
        want, have = _POSITION[k][value], _POSITION[k][top]
        if want is not None and have is not None and want > have and want - have - 1 < best:
            best = want - have - 1
    return best


def search(game: Any, counter: Counter) -> SearchOutcome:
    """Search ``game`` (an ``Imaginary13``) from its position; see the module docstring."""
    free = bool(game.options["free"])
    stock = [card.rank for card in game._stock]

    def start() -> _State:
        return _State(
            stock,
            game._turn_index,
            [pile[-1].rank for pile in game._foundations],
            [[card.rank for card in pile] for pile in game._wastes],
        )

    # Phase 1: randomised greedy playouts. A depth-first search commits to its first choices
    # and backtracks at the bottom of the tree, so one early misplaced card can hide every win
    # for millions of nodes; playouts sample early choices widely and find most wins at once.
    # The daily deal is the first candidate the solver proves, so its choices come from the
    # project's own generator: the same on every Python version, unlike ``random``.
    chooser = _Chooser(DealRandom.for_deal(f"imaginary13-playouts:{len(game.moves)}", game.deal))
    try:
        while counter.used() < PLAYOUT_SHARE:
            line = _playout(start(), chooser, counter)
            if line is not None:
                return SearchOutcome(WON, line, WON)
    except OutOfBudget:
        return SearchOutcome(UNKNOWN, [], None)
    # Phase 2: a complete search; only it can prove that no win exists.
    state = start()
    line = []
    seen: set[Any] = set()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 2000))
    try:
        won = _dfs(state, free, counter, seen, line)
    except OutOfBudget:
        return SearchOutcome(UNKNOWN, [], None)
    finally:
        sys.setrecursionlimit(limit)
    if won:
        return SearchOutcome(WON, line, WON)
    return SearchOutcome(LOST, [], None)


class _Chooser:
    """The playouts' random choices, drawn from :class:`engine.rng.DealRandom`."""

    __slots__ = ("_rng",)

    def __init__(self, rng: DealRandom) -> None:
        self._rng = rng

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, uniformly (no draw when there is only one)."""
        return items[0] if len(items) == 1 else items[self._rng.below(len(items))]

    def noisy(self) -> bool:
        """True with probability ``PLAYOUT_NOISE / NOISE_SCALE``."""
        return self._rng.below(NOISE_SCALE) < PLAYOUT_NOISE


def _playout(state: _State, chooser: _Chooser, counter: Counter) -> list[str] | None:
    """One greedy game: waste tops go home at once, the turned card to a random fitting
    foundation, else usually to the best waste pile by :func:`_waste_order`. The line if won."""
    tops, wastes, line = state.tops, state.wastes, []
    while True:
        counter.tick()
        moved = True
        while moved:
            moved = False
            for w, pile in enumerate(wastes):
                if pile:
                    fits = [k for k in range(len(tops)) if _NEXT[k][tops[k]] == pile[-1]]
                    if fits:
                        k = chooser.choice(fits)
                        tops[k] = pile.pop()
                        line.append(WASTE_IDS[w] + FOUNDATION_IDS[k])
                        moved = True
        if state.index >= len(state.stock):
            return line if all(top == KING for top in tops) else None
        value = state.stock[state.index]
        state.index += 1
        fits = [k for k in range(len(tops)) if _NEXT[k][tops[k]] == value]
        if fits:
            k = chooser.choice(fits)
            tops[k] = value
            line.append("t" + FOUNDATION_IDS[k])
            continue
        order = _waste_order(value, tops, wastes)
        w = chooser.choice(order) if chooser.noisy() else order[0]
        wastes[w].append(value)
        line.append("t" + WASTE_IDS[w])


class _State:
    __slots__ = ("index", "stock", "tops", "wastes")

    def __init__(self, stock: list[int], index: int, tops: list[int], wastes: list[list[int]]):
        self.stock = stock
        self.index = index
        self.tops = tops
        self.wastes = wastes

    def key(self) -> tuple[Any, ...]:
        return (self.index, tuple(self.tops), tuple(sorted(tuple(w) for w in self.wastes)))


def _dfs(state: _State, free: bool, counter: Counter, seen: set[Any], line: list[str]) -> bool:
    counter.tick()
    tops = state.tops
    if all(top == KING for top in tops):
        return True
    key = state.key()
    if key in seen:
        return False
    seen.add(key)
    wastes = state.wastes
    # Waste tops to foundations first: each is a card placed for good.
    for w, pile in enumerate(wastes):
        if not pile:
            continue
        value = pile[-1]
        for k in range(len(tops)):
            if _NEXT[k][tops[k]] == value:
                old = tops[k]
                tops[k] = value
                pile.pop()
                line.append(WASTE_IDS[w] + FOUNDATION_IDS[k])
                if _dfs(state, free, counter, seen, line):
                    return True
                line.pop()
                pile.append(value)
                tops[k] = old
    if state.index >= len(state.stock):
        return False
    value = state.stock[state.index]
    fits = [k for k in range(len(tops)) if _NEXT[k][tops[k]] == value]
    state.index += 1
    for k in fits:
        old = tops[k]
        tops[k] = value
        line.append("t" + FOUNDATION_IDS[k])
        if _dfs(state, free, counter, seen, line):
            return True
        line.pop()
        tops[k] = old
    if not fits or free:
        for w in _waste_order(value, tops, wastes):
            wastes[w].append(value)
            line.append("t" + WASTE_IDS[w])
            if _dfs(state, free, counter, seen, line):
                return True
            line.pop()
            wastes[w].pop()
    state.index -= 1
    return False


def _waste_order(value: int, tops: list[int], wastes: list[list[int]]) -> list[int]:
    """Waste piles to try for a card of ``value``, best first, one of each distinct pile."""
    need = urgency(value, tops)
    ranked: list[tuple[int, int, int]] = []
    distinct: set[tuple[int, ...]] = set()
    for w, pile in enumerate(wastes):
        shape = tuple(pile)
        if shape in distinct:
            continue
        distinct.add(shape)
        if not pile:
            ranked.append((1, 0, w))
            continue
        below = urgency(pile[-1], tops)
        if below >= need:
            # The new card is wanted first: it will leave before the card it covers is needed.
            ranked.append((0, below - need, w))
        else:
            ranked.append((2, -below, w))
    ranked.sort()
    return [w for _, _, w in ranked]
