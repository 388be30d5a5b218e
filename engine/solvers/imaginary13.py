"""Imaginary Thirteen solver: playouts planned with the whole stock order, then a complete search.

What it reads from the engine (``engine.imaginary13.Imaginary13``, full knowledge of the
deal): ``_stock`` (the 88 cards in turning order), ``_turn_index``, ``_foundations`` and
``_wastes``. The search runs on its own compact model (values only: suits never matter) and
writes moves in the game's notation (``t5``, ``ta``, ``b5``).

Three phases share the budget (:func:`search`):

1. A short **complete search** (``EXACT_FIRST_SHARE`` of the budget) settles small positions
   at once, won or lost: end games, a player's stalled game.
2. **Planned playouts** (up to ``PLAYOUT_SHARE``, or all the rest when more than
   ``EXACT_STOCK`` cards are still to turn) find the wins. Each plays one whole game greedily.
   Its plan (:func:`_relaxed_times`, updated every ``REFRESH_EVERY`` turned cards) says when
   every card would reach a foundation if each card still to turn had a waste pile to itself; a
   card that fits no foundation goes onto the pile whose top is played soonest *after* it (so
   the pile empties from the top), else onto an empty pile, else onto the pile whose top is
   played last. A card that fits several foundations goes to the one whose next value is
   nearest to hand. Waste tops go home at once. A share of the choices is random
   (``PLAYOUT_NOISE``), and half the playouts repeat the best playout so far (the most cards
   home) up to a random point before going their own way (``PLAYOUT_RESTART``): a local search
   around the most promising line. Nearly every deal is a win: with 2 CPU seconds per deal,
   deals 1-1000 come out 98.0 % won (mean 0.17 s, p95 0.64 s), and of the deals that 2
   seconds leave undecided, a few thousand more playouts (a few seconds) win almost all.
3. The **complete search** again, with what is left, in positions with at most
   ``EXACT_STOCK`` cards to turn (in bigger ones it could not end). Only it answers "lost".

The complete search (:func:`_dfs`) is a depth-first search over every legal move, so "lost"
is a proof. What it skips is skipped exactly:

- **State key**: turn index, the eight foundation tops and the four waste piles *sorted*:
  waste piles are interchangeable, so two positions that differ only by which letter holds
  which pile are the same position (symmetry). Imaginary Thirteen has no cycles (every move
  places a card for good), so a position seen before was fully explored without a win.
- **Equal piles** are tried once as the destination of the turned card (same position).
- **Dead pile** (:func:`_blocked`): the last card of a value lies under a card that only the
  same foundation takes, later in its sequence: neither can ever leave. The position is lost.
- **Sure play** (:func:`_sure_play`): a waste top that is the last card of its value goes
  to the one foundation that wants it at once, with no alternative tried, when that cannot
  change which turned cards fit a foundation (an exchange argument in the function).

Both need a *balanced* position (as many cards of each value left as foundations still
wanting it), which every deal is and every move keeps; hand-made positions with cards to
spare are searched without them. ``tests/engine/test_solver_imaginary13.py`` compares the
answers with a search of the engine's own moves that prunes nothing, on positions near the end
of real deals. A whole deal is too big to exhaust: "lost" comes from positions near the end
(where a player stopped), not from the start of a deal.

>>> import engine
>>> from engine.solvers import Budget, Counter
>>> found = search(engine.new_game("imaginary13", 1), Counter(Budget(nodes=100_000)))
>>> found.status in ("won", "lost", "unknown")
True
"""

from __future__ import annotations

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
from engine.solvers import LOST, UNKNOWN, WON, Counter, OutOfBudget, SearchOutcome, deep_recursion

T = TypeVar("T")

_NEVER = 99
#: share of the budget the first, short complete search may use (it settles end games)
EXACT_FIRST_SHARE = 0.02
#: share of the budget used up when the random playouts stop and the complete search resumes
PLAYOUT_SHARE = 0.9
#: most cards still to turn for which the complete search gets the end of the budget
EXACT_STOCK = 30
#: turned cards between two updates of a playout's plan (:func:`_relaxed_times`)
REFRESH_EVERY = 15
#: how often a playout ignores the waste-pile heuristic and picks a pile at random, in
#: parts per :data:`NOISE_SCALE` (whole numbers: the choice uses only integer draws)
PLAYOUT_NOISE = 200
#: how often a playout starts by repeating the best playout so far (see :func:`search`), in
#: parts per :data:`NOISE_SCALE`
PLAYOUT_RESTART = 500
NOISE_SCALE = 1000
# _POSITION[k][value] = index of value in foundation k's build sequence (base = 0), or None.
_POSITION: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(build_sequence(k).index(v) if v in build_sequence(k) else None for v in range(KING + 1))
    for k in MARKERS
)
# _SEQUENCE[k] = foundation k + 1's values, base first.
_SEQUENCE: tuple[tuple[int, ...], ...] = tuple(tuple(build_sequence(k)) for k in MARKERS)
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
    following = _following(stock)

    def start() -> _State:
        return _State(
            stock,
            game._turn_index,
            [pile[-1].rank for pile in game._foundations],
            [[card.rank for card in pile] for pile in game._wastes],
            following,
        )

    if counter.limit is None and counter.deadline is None:
        # No budget at all: only the complete search can end.
        return _exact(start(), free, counter, None)
    # Phase 1: a short complete search settles small positions (end games, a player's
    # stalled game) at once, won or lost.
    found = _exact(start(), free, counter, EXACT_FIRST_SHARE)
    if found.status != UNKNOWN or _spent(counter):
        return found
    # Phase 2: randomised greedy playouts. A depth-first search commits to its first choices
    # and backtracks at the bottom of the tree, so one early misplaced card can hide every win
    # for millions of nodes; playouts sample early choices widely and find most wins at once.
    # The daily deal is the first candidate the solver proves, so its choices come from the
    # project's own generator: the same on every Python version, unlike ``random``.
    chooser = _Chooser(DealRandom.for_deal(f"imaginary13-playouts:{len(game.moves)}", game.deal))
    best_score, best_choices = -1, list[int]()
    # With many cards still to turn the complete search cannot end within any budget the bot
    # uses (its tree grows with every card), so the playouts keep all of it.
    stop = PLAYOUT_SHARE if len(stock) - game._turn_index <= EXACT_STOCK else 1.0
    try:
        while counter.used() < stop:
            # Some playouts repeat the choices of the best one so far up to a random point
            # and go their own way from there: a local search around the most promising line.
            replay = best_choices[: chooser.below(len(best_choices))] if chooser.restart() else []
            chooser.begin(replay)
            state = start()
            line = _playout(state, chooser, counter)
            if line is not None:
                return SearchOutcome(WON, line, WON)
            score = sum(_POSITION[k][top] or 0 for k, top in enumerate(state.tops))
            if score >= best_score:
                best_score, best_choices = score, chooser.choices
    except OutOfBudget:
        return SearchOutcome(UNKNOWN, [], None)
    # Phase 3: the complete search again, with the rest of the budget.
    return _exact(start(), free, counter, None)


def _spent(counter: Counter) -> bool:
    """True once ``counter``'s budget is used up."""
    return counter.used() >= 1.0


class _ShareSpent(Exception):
    """The complete search used the share of the budget it was given."""


def _exact(state: _State, free: bool, counter: Counter, share: float | None) -> SearchOutcome:
    """The complete search from ``state``: won (with its line), lost, or unknown when the
    budget (or ``share`` of it) runs out first."""
    line: list[str] = []
    seen: set[Any] = set()
    try:
        with deep_recursion(2000):
            won = _dfs(state, free, counter, seen, line, share)
    except (OutOfBudget, _ShareSpent):
        return SearchOutcome(UNKNOWN, [], None)
    if won:
        return SearchOutcome(WON, line, WON)
    return SearchOutcome(LOST, [], None)


class _Chooser:
    """The playouts' random choices, drawn from :class:`engine.rng.DealRandom`, and the
    record of a playout's decisions, which a later playout may repeat (:meth:`decide`)."""

    __slots__ = ("_replay", "_rng", "choices")

    def __init__(self, rng: DealRandom) -> None:
        self._rng = rng
        self._replay: list[int] = []
        self.choices: list[int] = []

    def begin(self, replay: list[int]) -> None:
        """A new playout, whose first decisions are ``replay``."""
        self._replay = replay
        self.choices = []

    def replayed(self) -> int:
        """The next decision of the playout when it is a replayed one (recorded), else -1:
        then the playout makes it and records it with :meth:`chose`."""
        made = len(self.choices)
        if made < len(self._replay):
            self.choices.append(self._replay[made])
            return self._replay[made]
        return -1

    def chose(self, choice: int) -> int:
        """Record ``choice``, the playout's next decision; returns it."""
        self.choices.append(choice)
        return choice

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (0 when ``n`` is 0)."""
        return self._rng.below(n) if n > 0 else 0

    def restart(self) -> bool:
        """True with probability ``PLAYOUT_RESTART / NOISE_SCALE``."""
        return self._rng.below(NOISE_SCALE) < PLAYOUT_RESTART

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, uniformly (no draw when there is only one)."""
        return items[0] if len(items) == 1 else items[self._rng.below(len(items))]

    def noisy(self) -> bool:
        """True with probability ``PLAYOUT_NOISE / NOISE_SCALE``."""
        return self._rng.below(NOISE_SCALE) < PLAYOUT_NOISE


def _following(stock: Sequence[int]) -> list[list[int]]:
    """``table[i][v]``: the index of the first card of value ``v`` at or after stock index
    ``i`` (``len(stock)`` when none is left)."""
    size = len(stock)
    table = [[size] * (KING + 1) for _ in range(size + 1)]
    for i in range(size - 1, -1, -1):
        row = table[i] = list(table[i + 1])
        row[stock[i]] = i
    return table


def _relaxed_times(
    stock: Sequence[int],
    index: int,
    tops: Sequence[int],
    wastes: Sequence[Sequence[int]],
    ids: Sequence[Sequence[int]],
) -> dict[int, int]:
    """When each card would reach a foundation if every card still to be turned had a waste
    pile to itself.

    Returns card id -> the stock index at which it is played (stock cards are named by
    their index, waste cards by ``ids``). Every card is played as soon as a foundation takes
    its value and it is free (turned, or on top of its waste pile); copies of a value are
    taken first come first served. A heuristic only: the playouts use it to put each card on
    a pile whose top is played *after* it, so that piles empty from the top without blocking.
    """
    waiting: list[list[int]] = [[] for _ in range(KING + 1)]  # value -> foundations wanting it
    free: list[list[int]] = [[] for _ in range(KING + 1)]  # value -> free card ids not played
    times: dict[int, int] = {}
    beneath: dict[int, tuple[int, int]] = {}  # waste card id -> (value, id) of the card under it
    for pile, pile_ids in zip(wastes, ids, strict=True):
        for depth in range(1, len(pile)):
            beneath[pile_ids[depth]] = (pile[depth - 1], pile_ids[depth - 1])
        if pile:
            free[pile[-1]].append(pile_ids[-1])
    tops = list(tops)

    def play(k: int, value: int, card: int, time: int) -> None:
        times[card] = time
        tops[k] = value
        if card in beneath:
            arrive(*beneath[card], time)
        take(k, time)

    def arrive(value: int, card: int, time: int) -> None:
        if waiting[value]:
            play(waiting[value].pop(0), value, card, time)
        else:
            free[value].append(card)

    def take(k: int, time: int) -> None:
        value = _NEXT[k][tops[k]]
        if not value:
            return
        if free[value]:
            play(k, value, free[value].pop(0), time)
        else:
            waiting[value].append(k)

    for k in range(len(tops)):
        if k not in waiting[_NEXT[k][tops[k]]]:
            take(k, index)
    for j in range(index, len(stock)):
        arrive(stock[j], j, j)
    return times


def _playout(state: _State, chooser: _Chooser, counter: Counter) -> list[str] | None:
    """One greedy game; the line if it wins.

    Waste tops go home at once. A card that fits several foundations goes, usually, to the
    one whose next value is nearest to hand (on a waste top, else soonest in the stock). A
    card that fits none goes, usually, onto the pile whose top would be played soonest after
    it (see :func:`_relaxed_times`), else onto an empty pile, else onto the pile whose top is
    played last; "usually": with probability ``PLAYOUT_NOISE / NOISE_SCALE`` the choice is
    random instead, which is what makes every playout different.
    """
    stock, tops, wastes, line = state.stock, state.tops, state.wastes, []
    following = state.following
    ids = [[-1 - 100 * w - d for d in range(len(pile))] for w, pile in enumerate(wastes)]
    times: dict[int, int] = {}
    refreshed = -REFRESH_EVERY
    foundations = range(len(tops))
    wanted = [_NEXT[k][top] for k, top in enumerate(tops)]  # the value each foundation takes
    while True:
        counter.tick()
        moved = True
        while moved:
            moved = False
            for w, pile in enumerate(wastes):
                if pile and pile[-1] in wanted:
                    value = pile[-1]
                    k = chooser.replayed()
                    if k < 0:
                        fits = [k for k in foundations if wanted[k] == value]
                        after = following[state.index]
                        k = chooser.chose(_pick_foundation(fits, tops, wastes, after, chooser))
                    tops[k] = pile.pop()
                    wanted[k] = _NEXT[k][value]
                    ids[w].pop()
                    line.append(WASTE_IDS[w] + FOUNDATION_IDS[k])
                    moved = True
        index = state.index
        if index >= len(stock):
            return line if all(top == KING for top in tops) else None
        value = stock[index]
        state.index += 1
        if value in wanted:
            k = chooser.replayed()
            if k < 0:
                fits = [k for k in foundations if wanted[k] == value]
                after = following[index + 1]
                k = chooser.chose(_pick_foundation(fits, tops, wastes, after, chooser))
            tops[k] = value
            wanted[k] = _NEXT[k][value]
            line.append("t" + FOUNDATION_IDS[k])
            continue
        w = chooser.replayed()
        if w < 0:
            # the plan is needed (and brought up to date) only where the playout decides
            if index - refreshed >= REFRESH_EVERY:
                times = _relaxed_times(stock, index, tops, wastes, ids)
                refreshed = index
            order = _pile_order(times.get(index, _LATE), times, wastes, ids)
            w = chooser.chose(chooser.choice(order) if chooser.noisy() else order[0])
        wastes[w].append(value)
        ids[w].append(index)
        line.append("t" + WASTE_IDS[w])


_LATE = 10_000


def _pile_order(
    time: int, times: dict[int, int], wastes: list[list[int]], ids: list[list[int]]
) -> list[int]:
    """Waste piles for a card played at ``time``, best first (one empty pile at most)."""
    ranked: list[tuple[int, int, int]] = []
    empty = False
    for w, pile in enumerate(wastes):
        if not pile:
            if not empty:
                ranked.append((1, 0, w))
                empty = True
            continue
        below = times.get(ids[w][-1], _LATE)
        if below >= time:
            ranked.append((0, below - time, w))
        else:
            ranked.append((2, -below, w))
    ranked.sort()
    return [w for _, _, w in ranked]


def _pick_foundation(
    fits: list[int],
    tops: list[int],
    wastes: list[list[int]],
    following: list[int],
    chooser: _Chooser,
) -> int:
    """The foundation a card goes to among ``fits`` (they all take its value)."""
    if len(fits) == 1 or chooser.noisy():
        return chooser.choice(fits)
    on_top = {pile[-1] for pile in wastes if pile}
    best, best_wait = fits[0], _LATE
    for k in fits:
        after = _NEXT[k][_NEXT[k][tops[k]]]
        wait = -1 if not after else 0 if after in on_top else following[after]
        if wait < best_wait:
            best, best_wait = k, wait
    return best


class _State:
    __slots__ = ("balanced", "following", "index", "stock", "tops", "wastes")

    def __init__(
        self,
        stock: list[int],
        index: int,
        tops: list[int],
        wastes: list[list[int]],
        following: list[list[int]],
    ):
        self.stock = stock
        self.index = index
        self.tops = tops
        self.wastes = wastes
        self.following = following  # _following(stock)
        # Every deal is balanced: its cards left of each value are exactly as many as the
        # foundations that still want that value (each foundation takes every value but its
        # marker once, and the 88 are the two decks less markers and bases). Every move keeps
        # it so. Hand-made positions (``Imaginary13.from_layout``) may have cards to spare.
        self.balanced = _wanted_counts(tops) == _card_counts(stock[index:], wastes)

    def key(self) -> tuple[Any, ...]:
        return (self.index, tuple(self.tops), tuple(sorted(tuple(w) for w in self.wastes)))


def _dfs(
    state: _State,
    free: bool,
    counter: Counter,
    seen: set[Any],
    line: list[str],
    share: float | None,
) -> bool:
    counter.tick()
    if share is not None and not counter.nodes & 255 and counter.used() >= share:
        raise _ShareSpent
    tops = state.tops
    if all(top == KING for top in tops) and state.index >= len(state.stock):
        return True
    key = state.key()
    if key in seen:
        return False
    seen.add(key)
    wastes = state.wastes
    if state.balanced:
        only = _only_wanter(tops)
        if _blocked(only, wastes):
            return False
        w, k = _sure_play(only, tops, wastes, state, free)
        if w >= 0:
            # The one move worth trying here (see _sure_play): no alternatives.
            value = wastes[w].pop()
            old = tops[k]
            tops[k] = value
            line.append(WASTE_IDS[w] + FOUNDATION_IDS[k])
            if _dfs(state, free, counter, seen, line, share):
                return True
            line.pop()
            tops[k] = old
            wastes[w].append(value)
            return False
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
                if _dfs(state, free, counter, seen, line, share):
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
        if _dfs(state, free, counter, seen, line, share):
            return True
        line.pop()
        tops[k] = old
    if not fits or free:
        for w in waste_order(value, tops, wastes):
            wastes[w].append(value)
            line.append("t" + WASTE_IDS[w])
            if _dfs(state, free, counter, seen, line, share):
                return True
            line.pop()
            wastes[w].pop()
    state.index -= 1
    return False


def _sure_play(
    only: list[int], tops: list[int], wastes: list[list[int]], state: _State, free: bool
) -> tuple[int, int]:
    """A waste top that may go home at once with no loss: ``(pile, foundation)``, or
    ``(-1, -1)``.

    Exact dominance, in a balanced position (see :class:`_State`). Say waste top ``x`` is
    wanted by foundation ``k`` alone (so it is the last card of its value), and ``k``'s value
    after ``x``, ``z``, is not in the stock (turned card included), or ``x`` is the King, or
    the option ``free`` is on. Any winning line ``W`` plays this ``x`` to ``k`` at some move
    ``T`` (``k`` must be finished and no other card can give it ``x``), and until ``T`` no
    card goes onto ``k`` (it takes only ``x``) and the cards put on ``x``'s pile leave again
    before ``T``. Then ``x`` to ``k`` now, followed by ``W`` without its move ``T``, is a
    legal winning line too: the other foundations are as in ``W``, waste tops are the same
    (``W`` never plays ``x`` before ``T``), and a turned card fits the same foundations as in
    ``W``, because ``k`` now wants ``z`` and no ``z`` is turned (or ``free`` lets a card that
    fits go to a waste pile all the same). So no other move needs trying here.
    """
    following = state.following[state.index]
    size = len(state.stock)
    for w, pile in enumerate(wastes):
        if not pile:
            continue
        value = pile[-1]
        k = only[value]
        if k < 0 or _NEXT[k][tops[k]] != value:
            continue
        after = _NEXT[k][value]
        if free or not after or following[after] >= size:
            return w, k
    return -1, -1


def _blocked(only: list[int], wastes: list[list[int]]) -> bool:
    """True when a waste pile holds a card that can never leave it: the position is lost.

    Exact (it never calls a winnable position lost) in a balanced position (see
    :class:`_State`): there the cards left of a value and the foundations still wanting it are
    equally many, and a win places every card. When only one foundation ``k`` still wants
    value ``y``, the one card of value ``y`` left must go to ``k``; when also only ``k`` wants
    value ``x`` and ``k`` takes ``y`` before ``x``, then the card ``x`` lying above that ``y``
    in a waste pile can leave only after ``y`` has reached ``k`` (waste cards leave only to
    foundations, and nothing but ``k`` takes ``x``), and ``y`` only after the ``x`` above it
    has left: neither ever moves, ``k`` is never finished. ``only``: :func:`_only_wanter`.
    """
    for pile in wastes:
        if len(pile) < 2:
            continue
        # highest[k]: the furthest position in foundation k's sequence among the cards seen
        # so far (above the current one) that only foundation k wants
        highest: dict[int, int] = {}
        for value in reversed(pile):
            k = only[value]
            if k < 0:
                continue
            place = _POSITION[k][value]
            assert place is not None  # foundation k wants this value: it is on its sequence
            if highest.get(k, -1) > place:
                return True
            if place > highest.get(k, -1):
                highest[k] = place
    return False


def _wanted_counts(tops: Sequence[int]) -> list[int]:
    """How many foundations still want each value (index 1-13)."""
    count = [0] * (KING + 1)
    for k, top in enumerate(tops):
        have = _POSITION[k][top]
        if top != KING and have is not None:  # a foundation's top is on its sequence
            for value in _SEQUENCE[k][have + 1 :]:
                count[value] += 1
    return count


def _card_counts(stock: Sequence[int], wastes: Sequence[Sequence[int]]) -> list[int]:
    """How many cards of each value (index 1-13) are left in ``stock`` and ``wastes``."""
    count = [0] * (KING + 1)
    for value in stock:
        count[value] += 1
    for pile in wastes:
        for value in pile:
            count[value] += 1
    return count


def _only_wanter(tops: list[int]) -> list[int]:
    """``only[v]``: the foundation that alone still wants value ``v``, or -1 (none or several)."""
    only = [-1] * (KING + 1)
    count = [0] * (KING + 1)
    for k, top in enumerate(tops):
        if top == KING:
            continue
        have = _POSITION[k][top]
        assert have is not None  # a foundation's top is on its sequence
        for value in _SEQUENCE[k][have + 1 :]:
            count[value] += 1
            only[value] = k
    return [k if count[v] == 1 else -1 for v, k in enumerate(only)]


def waste_order(value: int, tops: list[int], wastes: list[list[int]]) -> list[int]:
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
