"""Canfield solver on its own compact state (draw three, unlimited turn-overs).

It reads the deal once from the engine's private state, "with full knowledge of the deal"
(``_reserve`` top last, ``_stock`` top last, ``_waste``, ``_tableau``, ``_fnd``,
``base_rank``), then searches ``bytes`` and integers, never the ``Game``. A card is
``suit * 16 + rel`` (suits d h c s, as f1-f4; d and h red) where ``rel`` is its place on its
foundation counted from the base rank (0 for the base rank, 12 for the rank below it): a
card fits onto another of the other colour one ``rel`` higher (mod 13), and goes home when
its foundation is ``rel`` high. The reserve never gains cards, so a position holds only its
size; the stock and waste are one talon (:mod:`engine.solvers.talon`). The line is in the
engine's notation (``d``, ``w2``, ``r3``, ``rf1``, ``2f4``, ``12``) and ``engine.solvers``
checks it on the real engine.

- **Talon reach**: one search step per card played from the talon (exact: it only merges
  turns).
- **Safe foundation moves**, played automatically and alone: cards never leave a Canfield
  foundation, so only a card that nothing could ever want on the tableau goes home this way:
  each of the two other-colour cards one ``rel`` lower is home or lies on another card in a
  pile (it stays there until it goes home: only whole piles move, so it can never again be
  laid on anything). From a pile's top or the reserve's (a reserve card on the table can do
  all it could do from the reserve). Never from the waste: removing a talon card changes
  which cards later turns bring up.
- **Refills**: a pile emptied while the reserve has cards takes the reserve's top at once,
  as the engine does.
- **Transposition table** on the piles as a sorted multiset, the reserve's size, the talon
  and the waste count (a waste of 3k cards reaches what a fresh turn-over reaches); the
  foundations follow from the rest. Every move but a turn is irreversible, so a key seen
  before was searched to its end already. A position with another waste count that was
  searched to its end also closes the one with a waste count of 0: turns alone lead from the
  first to the second.
- **Precedence cycles** (exact, :meth:`CanfieldSearch._closes_cycle`): a card lying on
  another in a pile must go home before it (only whole piles move, so the upper card leaves
  the lower one only for its foundation), and a suit goes home in order. When these "home
  before" relations form a cycle, no order of moves brings every card home: the position is
  lost and is never entered. Such cycles need a pile built across the base rank (a card of
  ``rel`` 12 on one of ``rel`` 0), and they are what most long Canfield searches drown in.
- **The relaxed game** (exact, :meth:`CanfieldSearch._relaxed_lost`): the same game with
  every talon card playable at any time. Each line of the real game is a line of the relaxed
  one, so a position whose relaxed game is lost is lost and is dropped. Its search is small
  because talon cards move only inside *macro moves*, which loses no relaxed win: a talon
  card laid on a pile is of use only once something is laid on it, so it waits for that (a
  chain of talon cards ending under the reserve's top or under a whole pile), and a talon
  card goes home only just before the next card of its suit. With the reserve out the
  relaxed game is won (no cycle: every card can go home in "home before" order), so it is
  about emptying the reserve. Its positions (piles, reserve size, foundations) are kept with
  their verdict for the whole search; a query gives up after :data:`RELAXED_LIMIT` new ones
  and the exact search goes on. Most deals that the exact search alone could not decide in
  2 s are lost in the relaxed game at the start or soon after.
- **Pruning**: a whole pile never moves into a space (that only renames the piles); of
  several spaces only the first is a target.
- **Order**: home first, then cards out of the reserve (directly or by emptying a pile the
  reserve refills), then talon to tableau (fewest turns first), then other pile moves.

One exact pass: "lost" comes only from proofs (its exhausted search, a precedence cycle, a
lost relaxed game). A heuristic quick pass
before it (30 % of the budget, sending every card home at once and never building across the
base rank) was dropped once the search ran in C: it found no win the exact pass missed, and
without it deals 1-1000 at 2 s decide 92.6 % instead of 91.9 % (in Python alone, deals 1-200:
78.0 % instead of 76.0 %).

The tests compare won/lost with a search of every legal move of the engine, without any
pruning, on small random positions (many with piles across the base rank), and the relaxed
game's "lost" with it on random positions with up to 7 reserve cards.

The search also exists in C (``engine/solvers/_canfield.c``, the extension module
``engine.solvers._canfield``, built by ``pip install`` when a C compiler is there; setup.py).
It is a port of :meth:`CanfieldSearch._search`, ``_dfs``, ``_children``, ``_safe``,
``_closes_cycle``, ``_has_wrap`` and the relaxed game (``_relaxed_lost``, ``_relaxed``,
``_relaxed_children``): the same positions in the same order, keys that tell the same
positions apart (stored whole: no lossy hashing) and the waste-0 twin, one node per ``_dfs``
entry and per new relaxed position, and the clock read every 256 nodes as
:meth:`engine.solvers.Counter.tick` does, so for a node budget it answers exactly as the
Python code, line and node count included (tests compare them), 20-30 times faster.
:meth:`CanfieldSearch.run` uses it unless the module is missing or the environment variable
``TAVOLO_PURE_PYTHON`` is ``1`` (:func:`compiled`). A change to the search must be made in
both.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import Any

from engine.cards import SUITS, Card
from engine.solvers import (
    LOST,
    UNKNOWN,
    WON,
    Counter,
    OutOfBudget,
    SearchOutcome,
    deep_recursion,
    use_compiled,
)
from engine.solvers.talon import reach

try:  # both passes in C, built by ``pip install`` when a C compiler is there (setup.py)
    from engine.solvers import _canfield
except ImportError:  # pragma: no cover - no compiler: the Python code, same answers
    _canfield = None  # type: ignore[assignment]  # the module, or None without a compiler

RANKS = 13
_SUIT = {suit: index for index, suit in enumerate(SUITS)}
_RED = (True, True, False, False)

#: the cards of ``rel`` 0 (the base rank of each suit)
_BASES = (0, 16, 32, 48)

#: ``_ONTO[card]``: the two cards ``card`` may lie on in a pile (other colour, one rel higher)
_ONTO: list[tuple[int, int]] = [(0, 0)] * 64
for _suit in range(4):
    for _rel in range(RANKS):
        _up = (_rel + 1) % RANKS
        _others = (2, 3) if _suit < 2 else (0, 1)
        _ONTO[_suit * 16 + _rel] = (_others[0] * 16 + _up, _others[1] * 16 + _up)


#: ``_WANTERS[card]``: the two cards that may lie on ``card`` in a pile
_WANTERS: list[list[int]] = [[] for _ in range(64)]
for _card in range(64):
    for _target in _ONTO[_card]:
        if _card & 15 < RANKS:
            _WANTERS[_target].append(_card)


#: every card, as a bit mask (bit ``card``)
_ALL_CARDS = sum(1 << (suit * 16 + rel) for suit in range(4) for rel in range(RANKS))

#: new positions one relaxed query may search before it gives up (and the exact search goes
#: on). Deals 1-1000 at 2 s decide about as many with 100,000 or with an allowance growing
#: with the search; 2,000 wastes least on queries that give up.
RELAXED_LIMIT = 2000

#: a ``bytes.translate`` table turning every base-rank card into 255
_MARK_BASES = bytes(255 if card in _BASES else card for card in range(256))


def encode(card: Card, base_rank: int) -> int:
    """``suit * 16 + rel``: ``rel`` is the card's place on its foundation (0 = base rank)."""
    return _SUIT[card.suit] * 16 + (card.rank - base_rank) % RANKS


def compiled() -> bool:
    """Whether the search runs in C: the module was built and the environment variable
    ``TAVOLO_PURE_PYTHON`` is not ``1`` (read at every search, so tests can switch)."""
    return use_compiled(_canfield)


def fits(card: int, target: int) -> bool:
    """``card`` may lie on ``target`` in a pile."""
    return target in _ONTO[card]


class CanfieldSearch:
    """Depth-first search; see the module docstring."""

    def __init__(self, game: Any, counter: Counter) -> None:
        base = game.base_rank
        self.counter = counter
        self.reserve = bytes(encode(c, base) for c in game._reserve)
        talon = [encode(c, base) for c in game._waste] + [
            encode(c, base) for c in reversed(game._stock)
        ]
        self.start = (
            tuple(bytes(encode(c, base) for c in pile) for pile in game._tableau),
            len(self.reserve),
            bytes(talon),
            len(game._waste),
            tuple(len(pile) for pile in game._fnd),
        )
        self.seen: set[Any] = set()
        self.line: list[tuple[int, ...]] = []
        #: relaxed positions decided so far: True won (a relaxed line was found), False lost
        self.relaxed: dict[Any, bool] = {}
        self._relaxed_left = 0

    # ----- the search ---------------------------------------------------------------------------
    def run(self) -> SearchOutcome:
        try:
            if compiled():
                won = self._run_compiled()
            else:
                with deep_recursion(20_000):
                    won = self._search()
        except OutOfBudget:
            return SearchOutcome(UNKNOWN, [], None)
        if won:
            return SearchOutcome(WON, self._texts(), WON)
        return SearchOutcome(LOST, [], None)

    def _search(self) -> bool:
        """True when won (the line is :attr:`line`), False when lost (a precedence cycle at the
        start, or the search exhausted)."""
        if self._has_cycle(self.start[0]):
            return False
        return self._dfs(*self.start)

    def _run_compiled(self) -> bool:
        """:meth:`_search` in C (``engine.solvers._canfield``): the same positions in the same
        order, the same nodes counted and the same :attr:`line`; the counter's nodes are
        brought up to date and ``OutOfBudget`` raised as :meth:`Counter.tick` would."""
        counter = self.counter
        piles, _, talon, waste, fnd = self.start
        status, self.line, counter.nodes = _canfield.search(
            piles,
            self.reserve,
            talon,
            waste,
            fnd,
            counter.limit,
            counter.deadline,
            counter.nodes,
            RELAXED_LIMIT,
        )
        if status < 0:
            raise OutOfBudget
        return status == 1

    def _texts(self) -> list[str]:
        """The line in the engine's notation."""
        texts: list[str] = []
        for kind, source, target, turns in self.line:
            texts.extend(["d"] * turns)
            name = "r" if source < 0 else "w" if source == 4 else str(source + 1)
            texts.append(f"{name}f{target + 1}" if kind == 0 else f"{name}{target + 1}")
        return texts

    # ----- precedence cycles --------------------------------------------------------------------
    @staticmethod
    def _has_wrap(piles: tuple[bytes, ...]) -> bool:
        """Whether some pile holds a card on a base-rank card (only then can a cycle exist)."""
        return any(len(pile) > 1 and 255 in pile[:-1].translate(_MARK_BASES) for pile in piles)

    @staticmethod
    def _closes_cycle(piles: tuple[bytes, ...], upper: int, lower: int) -> bool:
        """Whether ``upper`` lying on ``lower`` (an edge of ``piles``) is on a cycle of the
        "goes home before" relation.

        Exactness: ``a`` directly on ``b`` in a pile means ``a`` goes home before ``b`` (``a``
        leaves ``b`` only for its foundation: whole piles move, cards never come back from a
        foundation, so nothing ever comes between them either), and a card goes home before
        the next one of its suit. A cycle of these relations cannot be ordered, so not every
        card can go home: the position is lost. The search walks from ``lower`` along both
        relations; reaching ``upper`` closes the cycle."""
        seen = {lower}
        todo = [lower]
        while todo:
            card = todo.pop()
            nexts = []
            if card & 15 < 12:
                nexts.append(card + 1)
            for pile in piles:
                index = pile.find(card)
                if index > 0:
                    nexts.append(pile[index - 1])
                    break
            for nxt in nexts:
                if nxt == upper:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    def _has_cycle(self, piles: tuple[bytes, ...]) -> bool:
        return any(
            self._closes_cycle(piles, pile[k], pile[k - 1])
            for pile in piles
            for k in range(1, len(pile))
        )

    # ----- search -------------------------------------------------------------------------------
    def _dfs(
        self, piles_t: tuple[bytes, ...], r: int, talon: bytes, p: int, fnd_t: tuple[int, ...]
    ) -> bool:
        self.counter.tick()
        line = self.line
        mark = len(line)
        reserve = self.reserve
        piles = list(piles_t)
        fnd = list(fnd_t)
        # safe moves home, alone
        moved = True
        while moved:
            moved = False
            if r:
                card = reserve[r - 1]
                suit = card >> 4
                if fnd[suit] == card & 15 and self._safe(card, fnd, piles):
                    r -= 1
                    fnd[suit] += 1
                    line.append((0, -1, suit, 0))
                    moved = True
            for i in range(4):
                pile = piles[i]
                if pile:
                    card = pile[-1]
                    suit = card >> 4
                    if fnd[suit] == card & 15 and self._safe(card, fnd, piles):
                        pile = pile[:-1]
                        if not pile and r:
                            r -= 1
                            pile = reserve[r : r + 1]
                        piles[i] = pile
                        fnd[suit] += 1
                        line.append((0, i, suit, 0))
                        moved = True
        if fnd[0] + fnd[1] + fnd[2] + fnd[3] == 4 * RANKS:
            return True
        size = len(talon)
        key = (tuple(sorted(piles)), r, talon, 0 if p % 3 == 0 or p == size else p)
        if key in self.seen:
            del line[mark:]
            return False
        self.seen.add(key)
        if r and self._relaxed_lost(piles, r, fnd):
            del line[mark:]
            return False
        for move, child in self._children(piles, r, talon, p, fnd):
            line.append(move)
            if self._dfs(*child):
                return True
            line.pop()
        if key[3]:
            # turns alone lead from here to the same cards after a turn-over (waste count 0),
            # which can therefore do no better: it is lost too
            self.seen.add((key[0], r, talon, 0))
        del line[mark:]
        return False

    # ----- the relaxed game ---------------------------------------------------------------------
    def _relaxed_lost(self, piles: list[bytes], r: int, fnd: list[int]) -> bool:
        """Whether the position is lost even when every talon card may be played at any time
        (then it is lost: every line of the real game is one of the relaxed game). The query
        searches at most :data:`RELAXED_LIMIT` new relaxed positions; beyond that it answers
        False and the exact search goes on. What it decided is kept in :attr:`relaxed`."""
        self._relaxed_left = RELAXED_LIMIT
        try:
            return not self._relaxed(tuple(piles), r, tuple(fnd))
        except _Spent:
            return False

    def _relaxed(self, piles: tuple[bytes, ...], r: int, fnd: tuple[int, ...]) -> bool:
        """Whether the relaxed game can be won from here (see :meth:`_relaxed_children`)."""
        if not r:
            # with the reserve out and no precedence cycle (never entered), the cards can go
            # home in any order of "home before": the next one is a free talon card or a
            # pile's top (the cards above it went home before it)
            return True
        key = (tuple(sorted(piles)), r, fnd)
        known = self.relaxed.get(key)
        if known is not None:
            return known
        self.counter.tick()
        self._relaxed_left -= 1
        if self._relaxed_left < 0:
            raise _Spent
        for child in self._relaxed_children(piles, r, fnd):
            if self._relaxed(*child):
                self.relaxed[key] = True
                return True
        self.relaxed[key] = False
        return False

    def _relaxed_children(
        self, piles: tuple[bytes, ...], r: int, fnd: tuple[int, ...]
    ) -> Iterator[tuple[tuple[bytes, ...], int, tuple[int, ...]]]:
        """The relaxed game's positions one *macro move* away (the reserve has cards, so a
        pile is empty only in a hand-built position, and takes nothing), in this order: the reserve's top home, onto a pile (through a chain
        of talon cards), a whole pile onto another (through a chain; the reserve refills its
        place), a pile's top home.

        Talon cards move only inside these moves, which loses no relaxed win: a talon card
        laid on a pile is of use only once something is laid on it, so it can wait until
        then (a chain of talon cards ending under the reserve's top or under a whole pile),
        and a talon card goes home only just before the next card of its suit (``_lazy``:
        the cards under a card that goes home, when they are all in the talon)."""
        reserve = self.reserve
        talon = _ALL_CARDS
        for pile in piles:
            for card in pile:
                talon &= ~(1 << card)
        for card in reserve[:r]:
            talon &= ~(1 << card)
        for suit in range(4):
            for rel in range(fnd[suit]):
                talon &= ~(1 << (suit * 16 + rel))
        wrapped = self._has_wrap(piles)
        card = reserve[r - 1]
        heights = _lazy(card, fnd, talon)
        if heights is not None:
            yield piles, r - 1, heights
        # a pile left empty by a hand-built position takes nothing while the reserve has
        # cards, as in the exact search
        filled = [i for i in range(4) if piles[i]]
        for j in filled:
            for chain in _chains(piles[j][-1], card, talon):
                laid = chain + bytes((card,))
                child = piles[:j] + (piles[j] + laid,) + piles[j + 1 :]
                if not self._closes_any(child, wrapped, piles[j][-1], laid):
                    yield child, r - 1, fnd
        for i in filled:
            pile = piles[i]
            for j in filled:
                if j == i:
                    continue
                for chain in _chains(piles[j][-1], pile[0], talon):
                    laid = chain + pile[:1]
                    new = list(piles)
                    new[j] = piles[j] + chain + pile
                    new[i] = reserve[r - 1 : r]
                    child = tuple(new)
                    if not self._closes_any(child, wrapped, piles[j][-1], laid):
                        yield child, r - 1, fnd
        for i in filled:
            pile = piles[i]
            heights = _lazy(pile[-1], fnd, talon)
            if heights is not None:
                if len(pile) > 1:
                    yield piles[:i] + (pile[:-1],) + piles[i + 1 :], r, heights
                else:
                    yield piles[:i] + (reserve[r - 1 : r],) + piles[i + 1 :], r - 1, heights

    def _closes_any(self, piles: tuple[bytes, ...], wrapped: bool, lower: int, laid: bytes) -> bool:
        """Whether laying ``laid`` (bottom first) on ``lower`` closed a precedence cycle: one
        of the new edges is on a cycle (a cycle needs a wrap: an old one or a new edge
        across the base rank)."""
        for upper in laid:
            if (wrapped or upper & 15 == 12) and self._closes_cycle(piles, upper, lower):
                return True
            lower = upper
        return False

    @staticmethod
    def _safe(card: int, fnd: list[int], piles: list[bytes]) -> bool:
        """Nothing could ever want ``card`` on the tableau: each of the two cards that could
        lie on it (other colour, one rel lower) is home or lies in a pile above another card,
        where it stays until it goes home (only whole piles move)."""
        for wanter in _WANTERS[card]:
            if fnd[wanter >> 4] > wanter & 15:
                continue
            for pile in piles:
                if pile.find(wanter) > 0:
                    break
            else:
                return False
        return True

    def _children(
        self, piles: list[bytes], r: int, talon: bytes, p: int, fnd: list[int]
    ) -> list[tuple[tuple[int, ...], tuple[Any, ...]]]:
        """The positions one move away, best first: (move, position)."""
        ranked: list[tuple[int, int, tuple[int, ...], tuple[Any, ...]]] = []
        reserve = self.reserve
        tops = [pile[-1] if pile else -1 for pile in piles]
        # a space takes a card only once the reserve is empty (the engine's rule)
        space = tops.index(-1) if -1 in tops and not r else -1
        fnd_t = tuple(fnd)
        # a new cycle needs a card on a base-rank card: one already in a pile or the new one
        wrapped = self._has_wrap(tuple(piles))
        cycle = self._closes_cycle

        def closes(child: tuple[bytes, ...], upper: int, lower: int) -> bool:
            return (wrapped or upper & 15 == 12) and cycle(child, upper, lower)

        def home(card: int) -> tuple[int, ...]:
            heights = list(fnd_t)
            heights[card >> 4] += 1
            return tuple(heights)

        # the reserve's top
        if r:
            card = reserve[r - 1]
            onto = _ONTO[card]
            if fnd[card >> 4] == card & 15:
                ranked.append(
                    (0, 0, (0, -1, card >> 4, 0), (tuple(piles), r - 1, talon, p, home(card)))
                )
            for j in range(4):
                if tops[j] in onto:
                    new = piles[:]
                    new[j] = piles[j] + bytes((card,))
                    child = tuple(new)
                    if not closes(child, card, tops[j]):
                        ranked.append((1, 0, (1, -1, j, 0), (child, r - 1, talon, p, fnd_t)))
        # the piles' tops home, whole piles onto others
        for i in range(4):
            pile = piles[i]
            if not pile:
                continue
            card = pile[-1]
            if fnd[card >> 4] == card & 15:
                new = piles[:]
                rest = r
                if len(pile) > 1:
                    new[i] = pile[:-1]
                elif r:
                    rest = r - 1
                    new[i] = reserve[rest:r]
                else:
                    new[i] = b""
                ranked.append(
                    (
                        0 if len(pile) > 1 or not r else 1,
                        0,
                        (0, i, card >> 4, 0),
                        (tuple(new), rest, talon, p, home(card)),
                    )
                )
            onto = _ONTO[pile[0]]
            for j in range(4):
                if j == i or tops[j] not in onto:
                    continue
                new = piles[:]
                new[j] = piles[j] + pile
                rest = r
                if r:
                    rest = r - 1
                    new[i] = reserve[rest:r]
                else:
                    new[i] = b""
                child = tuple(new)
                if not closes(child, pile[0], tops[j]):
                    ranked.append((1 if r else 3, 0, (1, i, j, 0), (child, rest, talon, p, fnd_t)))
        # talon cards
        if talon:
            for index, turns in reach(len(talon), p):
                card = talon[index]
                rest_talon = talon[:index] + talon[index + 1 :]
                if fnd[card >> 4] == card & 15:
                    ranked.append(
                        (
                            0,
                            turns,
                            (0, 4, card >> 4, turns),
                            (tuple(piles), r, rest_talon, index, home(card)),
                        )
                    )
                onto = _ONTO[card]
                for j in range(4):
                    if tops[j] in onto or j == space:
                        new = piles[:]
                        new[j] = piles[j] + bytes((card,))
                        child = tuple(new)
                        if j == space or not closes(child, card, tops[j]):
                            ranked.append(
                                (2, turns, (1, 4, j, turns), (child, r, rest_talon, index, fnd_t))
                            )
        ranked.sort(key=lambda entry: (entry[0], entry[1]))
        return [(move, child) for _, _, move, child in ranked]


class _Spent(Exception):
    """A relaxed query searched :data:`RELAXED_LIMIT` positions."""


def _lazy(card: int, fnd: tuple[int, ...], talon: int) -> tuple[int, ...] | None:
    """The foundation heights once ``card`` went home, the cards of its suit under it coming
    home from the talon (``talon``: a bit mask); None when one of them is not in the talon."""
    suit = card >> 4
    for rel in range(fnd[suit], card & 15):
        if not talon >> (suit * 16 + rel) & 1:
            return None
    return fnd[:suit] + ((card & 15) + 1,) + fnd[suit + 1 :]


def _chains(top: int, card: int, talon: int) -> list[bytes]:
    """The chains of talon cards (``talon``: a bit mask) that may lie on ``top``, one on
    another, with ``card`` fitting on the last one (the empty chain when it fits on
    ``top``). Each step goes one ``rel`` down in the other colour, so the length and each
    step's two candidates are fixed; the chains come in the order of a depth-first walk
    trying the lower card (by suit) first."""
    steps = ((top & 15) - (card & 15) - 1) % RANKS
    colour = top >> 5  # 0 red (d, h), 1 black (c, s)
    if colour ^ (steps & 1) == card >> 5:
        return []  # the last card would have the colour of ``card``
    levels = []
    rel = top & 15
    for step in range(1, steps + 1):
        rel = (rel - 1) % RANKS
        first = (colour ^ (step & 1)) * 32 + rel
        found = [c for c in (first, first + 16) if talon >> c & 1]
        if not found:
            return []
        levels.append(found)
    return [bytes(chain) for chain in product(*levels)]


def search(game: Any, counter: Counter) -> SearchOutcome:
    """Search ``game`` (a ``Canfield``) from its position; see the module docstring."""
    return CanfieldSearch(game, counter).run()
