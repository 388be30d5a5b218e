"""The FreeCell solver: an exhaustive best-first search over positions.

Every card is face up, so a FreeCell position is the whole truth and the search is exact:
``won`` comes with a line the engine replays, ``lost`` means every position reachable from
here was visited and none wins. What keeps the search small, each an exact reduction:

* **safe cards go home by themselves**, as the engine plays them (``engine.freecell``): a card
  that no card in play could be built on is never needed in a column;
* **symmetry**: positions are keyed with their columns sorted and their cells sorted, and
  of several empty cells or empty columns only the first is tried (the others lead to the
  same key);
* **moves that change nothing** are left out (a whole column into an empty one), and a run
  onto a card moves as one step (the engine's supermove), an empty column gets the longest
  run or a single card: the single-card moves alone reach every position (a run moving is
  single cards moving through cells and empty columns), so nothing is lost.

The position expanded next is the one that looks nearest to a win (:meth:`_Search.estimate`:
cards not home, cards lying on the next card of each foundation, cells in use, empty
columns). Unlike depth first it never stays stuck below an early mistake, and it still visits
every reachable position before it answers ``lost``. A won deal is usually found within a
few thousand positions, with a line of 50-100 moves; Microsoft's deal 11982, which cannot be
won, has 61,643 positions to visit (docs/solvers.md has the measured figures).

The search also exists in C (``engine/solvers/_freecell.c``, the extension module
``engine.solvers._freecell``, built by ``pip install`` when a C compiler is there; setup.py):
the same positions in the same order, the same node counts and line, about 20 times faster,
which proves deal 11982 lost in 0.15-0.2 CPU s, within the usual 2 s. It runs unless it did
not build or ``TAVOLO_PURE_PYTHON`` is ``1`` (:func:`compiled`). A change to the search must
be made in both languages.

Hints come from the same search (:func:`hint`): nothing is hidden in FreeCell, so the first
move of a winning line from the player's position is a fair hint.

>>> import engine
>>> from engine.solvers import Budget, solve
>>> solve("freecell", 1, budget=Budget(nodes=20_000, seconds=None)).status
'won'
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

from engine.freecell import (
    CELLS,
    COLUMNS,
    HOMES,
    FreeCell,
    FreeCellMove,
    move_capacity,
)
from engine.solvers import (
    LOST,
    UNKNOWN,
    WON,
    Budget,
    Counter,
    OutOfBudget,
    SearchOutcome,
    use_compiled,
)

try:  # the search in C, built by ``pip install`` when a C compiler is there (setup.py)
    from engine.solvers import _freecell
except ImportError:  # pragma: no cover - no compiler: the Python code, same answers
    _freecell = None  # type: ignore[assignment]  # the module, or None without a compiler

KING = 13
#: weights of the estimate: per card not home, per card lying on a card a foundation needs
#: next, per empty column (a bonus), per card in a cell (tuned on deals 31-160)
PER_CARD_OUT, PER_CARD_ON_NEEDED, PER_EMPTY_COLUMN, PER_CELL_USED = 8, 3, 8, 2
#: no card: an empty cell
NONE = -1
#: the positions a hint may search (nodes, not seconds: a hint is the same on every machine);
#: enough to prove deal 11982 lost from its start (61,643 positions), so its hint says so
HINT_NODES = 100_000


#: one move of the search: (kind, source index, target index, count)
Step = tuple[str, int, int, int]
#: a position as the C search reads it: the columns (bytes, bottom first), the cells (bytes,
#: 255 for an empty one), the foundations' heights
Encoded = tuple[tuple[bytes, ...], bytes, tuple[int, ...]]

#: the kinds of moves as the C search numbers them
_KINDS = ("eh", "ch", "cc", "ec", "cx")


def compiled() -> bool:
    """Whether the search runs in C: the module was built and the environment variable
    ``TAVOLO_PURE_PYTHON`` is not ``1`` (read at every search, so tests can switch)."""
    return use_compiled(_freecell)


def table_bytes(reset: bool = False) -> tuple[int, int] | None:
    """The C search's memory: the bytes of its tables (seen set, nodes, frontier) held now,
    and the most held at once since the last ``reset`` (every search in the process, on any
    thread); ``reset`` starts that most from now. Every table is given back when its search
    ends, before its answer returns: held is 0 between searches. None without the C module.

    >>> held, _ = table_bytes() or (0, 0)
    >>> held
    0
    """
    if _freecell is None:
        return None
    return _freecell.table_bytes(reset)


def _fits(card: int, onto: int) -> bool:
    """``card`` may lie on ``onto`` in a column."""
    return onto % 13 == card % 13 + 1 and (card < 26) != (onto < 26)


class _Search:
    """One search from a FreeCell position (cards as ints: suit index * 13 + rank - 1)."""

    def __init__(self, game: FreeCell, counter: Counter) -> None:
        code = {suit: i for i, suit in enumerate("dhcs")}
        self.columns = [[code[c.suit] * 13 + c.rank - 1 for c in col] for col in game._columns]
        self.cells = [NONE if c is None else code[c.suit] * 13 + c.rank - 1 for c in game._cells]
        self.homes = list(game._homes)
        self.counter = counter
        self.seen: set[tuple[Any, ...]] = set()
        self.steps: list[Step] = []

    def encoded(self) -> Encoded:
        """The position as the C search reads it (and :func:`search`'s ``avoid`` holds it)."""
        cells = bytes(255 if card == NONE else card for card in self.cells)
        return tuple(bytes(column) for column in self.columns), cells, tuple(self.homes)

    # ----- position -----------------------------------------------------------------------------
    def key(self) -> tuple[Any, ...]:
        """The position up to symmetry: columns sorted, cells sorted (as :meth:`best_first`
        keys its positions)."""
        return (tuple(sorted(bytes(column) for column in self.columns)), tuple(sorted(self.cells)))

    def safe(self, card: int) -> bool:
        rank = card % 13 + 1
        if self.homes[card // 13] != rank - 1:
            return False
        if rank <= 2:
            return True
        homes = self.homes
        if card < 26:
            return homes[2] >= rank - 1 and homes[3] >= rank - 1
        return homes[0] >= rank - 1 and homes[1] >= rank - 1

    def go_home(self) -> list[tuple[str, int, int]]:
        """Send safe cards home as the engine does; returns how to put them back."""
        undo: list[tuple[str, int, int]] = []
        going = True
        while going:
            going = False
            for i, card in enumerate(self.cells):
                if card != NONE and self.safe(card):
                    self.cells[i] = NONE
                    self.homes[card // 13] += 1
                    undo.append(("cell", i, card))
                    going = True
            for i, column in enumerate(self.columns):
                while column and self.safe(column[-1]):
                    card = column.pop()
                    self.homes[card // 13] += 1
                    undo.append(("col", i, card))
                    going = True
        return undo

    def put_back(self, undo: list[tuple[str, int, int]]) -> None:
        for where, i, card in reversed(undo):
            self.homes[card // 13] -= 1
            if where == "cell":
                self.cells[i] = card
            else:
                self.columns[i].append(card)

    # ----- moves --------------------------------------------------------------------------------
    def moves(self) -> list[tuple[str, int, int, int]]:
        """Every move the search tries here: (kind, source, target, count). Kinds: ``ch``
        column home, ``eh`` cell home, ``cc`` column onto column, ``ec`` cell onto column,
        ``cx`` column into cell. The best-first loop's moves (:func:`_children`), in its
        order: one generator of moves for both."""
        columns = tuple(bytes(column) for column in self.columns)
        return [move for move, _ in _children(columns, tuple(self.cells), tuple(self.homes), {})]

    def play(self, kind: str, src: int, dst: int, count: int) -> None:
        if kind == "eh":
            self.cells[src] = NONE
            self.homes[dst] += 1
        elif kind == "ch":
            self.columns[src].pop()
            self.homes[dst] += 1
        elif kind == "cc":
            source = self.columns[src]
            self.columns[dst].extend(source[-count:])
            del source[-count:]
        elif kind == "ec":
            self.columns[dst].append(self.cells[src])
            self.cells[src] = NONE
        else:  # cx
            self.cells[dst] = self.columns[src].pop()

    def take_back(self, kind: str, src: int, dst: int, count: int) -> None:
        if kind == "eh":
            self.homes[dst] -= 1
            self.cells[src] = dst * 13 + self.homes[dst]
        elif kind == "ch":
            self.homes[dst] -= 1
            self.columns[src].append(dst * 13 + self.homes[dst])
        elif kind == "cc":
            target = self.columns[dst]
            self.columns[src].extend(target[-count:])
            del target[-count:]
        elif kind == "ec":
            self.cells[src] = self.columns[dst].pop()
        else:
            self.columns[src].append(self.cells[dst])
            self.cells[dst] = NONE

    def notation(self, kind: str, src: int, dst: int, count: int) -> str:
        """The move in the engine's notation, in the position before it."""
        if kind == "eh":
            return str(FreeCellMove(CELLS[src], HOMES[dst]))
        if kind == "ch":
            return str(FreeCellMove(COLUMNS[src], HOMES[dst]))
        if kind == "ec":
            return str(FreeCellMove(CELLS[src], COLUMNS[dst]))
        if kind == "cx":
            return str(FreeCellMove(COLUMNS[src], CELLS[dst]))
        if self.columns[dst]:
            return str(FreeCellMove(COLUMNS[src], COLUMNS[dst]))  # the run that fits
        free = self.cells.count(NONE)
        empties = sum(1 for column in self.columns if not column)
        implied = min(_run(self.columns[src]), move_capacity(free, empties, True))
        return str(FreeCellMove(COLUMNS[src], COLUMNS[dst], 0 if count == implied else count))

    # ----- the search ---------------------------------------------------------------------------
    def won(self) -> bool:
        return sum(self.homes) == 52

    def estimate(self) -> int:
        """How far from a win this position looks (smaller is nearer): cards not home, the
        cards lying on the next card each foundation needs, cells in use, empty columns."""
        homes = self.homes
        cost = PER_CARD_OUT * (52 - sum(homes))
        needed = {suit * 13 + homes[suit]: suit for suit in range(4) if homes[suit] < KING}
        for column in self.columns:
            if not column:
                cost -= PER_EMPTY_COLUMN
                continue
            for k in range(len(column) - 1, -1, -1):
                if column[k] in needed:
                    cost += PER_CARD_ON_NEEDED * (len(column) - 1 - k)
        cost += PER_CELL_USED * (4 - self.cells.count(NONE))
        return cost

    def best_first(self) -> bool:
        """Best first on :meth:`estimate`: the nearest-looking position is expanded next. It
        visits every reachable position in the end, like depth first, but it does not stay
        stuck below an early mistake. On success ``steps`` is the line.

        The loop works on immutable positions (each column a ``bytes``, whose hash Python
        keeps, and whose run length is looked up once per distinct column) and builds each
        child directly: the same moves in the same order as :meth:`moves`, the same
        :meth:`estimate`, so the same positions are visited, 2-3 times faster."""
        seen = self.seen
        tick = self.counter.tick
        runs: dict[bytes, int] = {}
        start: _Node = (
            tuple(bytes(column) for column in self.columns),
            tuple(self.cells),
            tuple(self.homes),
        )
        parents: list[tuple[int, Step | None]] = [(-1, None)]
        frontier: list[tuple[int, int, _Node]] = [(_estimate(*start), 0, start)]
        pop, push = heapq.heappop, heapq.heappush
        while frontier:
            _, node, (columns, cells, homes) = pop(frontier)
            tick()
            for move, child in _children(columns, cells, homes, runs):
                child_columns, child_cells, child_homes = child
                if sum(child_homes) == 52:
                    parents.append((node, move))
                    self.steps = _line(parents, len(parents) - 1)
                    return True
                key = (tuple(sorted(child_columns)), tuple(sorted(child_cells)))
                if key not in seen:
                    seen.add(key)
                    parents.append((node, move))
                    push(frontier, (_estimate(*child), len(parents) - 1, child))
        return False

    def best_first_compiled(self, avoid: list[Encoded]) -> bool:
        """:meth:`best_first` in C (``engine.solvers._freecell``): the same positions in the
        same order, the same nodes counted and the same :attr:`steps`; the counter's nodes are
        brought up to date and ``OutOfBudget`` raised as :meth:`Counter.tick` would."""
        counter = self.counter
        status, line, counter.nodes = _freecell.search(
            [bytes(column) for column in self.columns],
            bytes(255 if card == NONE else card for card in self.cells),
            self.homes,
            counter.limit,
            counter.deadline,
            counter.nodes,
            (PER_CARD_OUT, PER_CARD_ON_NEEDED, PER_EMPTY_COLUMN, PER_CELL_USED),
            avoid,
        )
        if status < 0:
            raise OutOfBudget
        self.steps = [(_KINDS[kind], src, dst, count) for kind, src, dst, count in line]
        return status == 1

    def settle(self, kind: str, src: int) -> list[tuple[str, int, int]]:
        """Safe cards home after a move. Only a card going home or a card uncovered can make
        a card safe (a card moved elsewhere was on top already, and not safe)."""
        if kind in ("eh", "ch"):
            return self.go_home()
        if kind in ("cc", "cx"):
            column = self.columns[src]
            if column and self.safe(column[-1]):
                return self.go_home()
        return []

    def texts(self, start: FreeCell) -> list[str]:
        """The line found, in the engine's notation, replayed from ``start``'s position and
        shortened: depth first wanders, so wherever one move leads from a position of the
        line to a later one (the very same columns and cells), the moves between are dropped.
        Deal 1's line goes from 293 moves to about 120 this way."""
        replay = _Search(start, self.counter)
        steps = self.steps
        # the positions along the line: index in the line by exact key
        keys = [replay.exact_key()]
        for kind, src, dst, count in steps:
            replay.play(kind, src, dst, count)
            replay.go_home()
            keys.append(replay.exact_key())
        at = {key: i for i, key in enumerate(keys)}  # the last visit of each position
        replay = _Search(start, self.counter)
        texts: list[str] = []
        i = 0
        while i < len(steps):
            best, best_move = i + 1, steps[i]
            for kind, src, dst, count in replay.moves():
                replay.play(kind, src, dst, count)
                undo = replay.go_home()
                reached = at.get(replay.exact_key(), -1)
                if reached > best:
                    best, best_move = reached, (kind, src, dst, count)
                replay.put_back(undo)
                replay.take_back(kind, src, dst, count)
            kind, src, dst, count = best_move
            texts.append(replay.notation(kind, src, dst, count))
            replay.play(kind, src, dst, count)
            replay.go_home()
            i = best
        return texts

    def exact_key(self) -> tuple[Any, ...]:
        """The position as it lies (columns in place, cells in place)."""
        return (tuple(map(tuple, self.columns)), tuple(self.cells))


#: a position of the best-first loop: (columns, cells, homes); each column a ``bytes`` of cards
_Node = tuple[tuple[bytes, ...], tuple[int, ...], tuple[int, ...]]


def _estimate(columns: tuple[bytes, ...], cells: tuple[int, ...], homes: tuple[int, ...]) -> int:
    """:meth:`_Search.estimate` of an immutable position."""
    cost = PER_CARD_OUT * (52 - sum(homes)) + PER_CELL_USED * (4 - cells.count(NONE))
    needed = [suit * 13 + homes[suit] for suit in range(4) if homes[suit] < KING]
    for column in columns:
        if not column:
            cost -= PER_EMPTY_COLUMN
            continue
        top = len(column) - 1
        for card in needed:
            at = column.find(card)
            if at >= 0:
                cost += PER_CARD_ON_NEEDED * (top - at)
    return cost


def _safe(card: int, homes: list[int]) -> bool:
    """``card`` goes home by itself (:meth:`_Search.safe`)."""
    rank = card % 13 + 1
    if homes[card // 13] != rank - 1:
        return False
    if rank <= 2:
        return True
    if card < 26:
        return homes[2] >= rank - 1 and homes[3] >= rank - 1
    return homes[0] >= rank - 1 and homes[1] >= rank - 1


def _settled(columns: list[bytes], cells: list[int], homes: list[int]) -> None:
    """Send safe cards home in place, as :meth:`_Search.go_home`."""
    going = True
    while going:
        going = False
        for i, card in enumerate(cells):
            if card != NONE and _safe(card, homes):
                cells[i] = NONE
                homes[card // 13] += 1
                going = True
        for i, column in enumerate(columns):
            end = len(column)
            while end and _safe(column[end - 1], homes):
                homes[column[end - 1] // 13] += 1
                end -= 1
                going = True
            if end < len(column):
                columns[i] = column[:end]


def _children(
    columns: tuple[bytes, ...],
    cells: tuple[int, ...],
    homes: tuple[int, ...],
    runs: dict[bytes, int],
) -> list[tuple[Step, _Node]]:
    """Each move of :meth:`_Search.moves` (in its order) with the position it leads to, safe
    cards sent home (:meth:`_Search.settle`)."""
    found: list[tuple[Step, _Node]] = []

    def add(
        move: Step, new_columns: list[bytes], new_cells: list[int], new_homes: list[int]
    ) -> None:
        kind, src = move[0], move[1]
        if kind == "eh" or kind == "ch":
            _settled(new_columns, new_cells, new_homes)
        elif kind != "ec":  # cc, cx: only the uncovered card can have become safe
            column = new_columns[src]
            if column and _safe(column[-1], new_homes):
                _settled(new_columns, new_cells, new_homes)
        found.append((move, (tuple(new_columns), tuple(new_cells), tuple(new_homes))))

    free = cells.count(NONE)
    empty = [i for i, column in enumerate(columns) if not column]
    capacity = move_capacity(free, len(empty), False)
    for i, card in enumerate(cells):
        if card != NONE and homes[card // 13] == card % 13:
            new_cells, new_homes = list(cells), list(homes)
            new_cells[i] = NONE
            new_homes[card // 13] += 1
            add(("eh", i, card // 13, 1), list(columns), new_cells, new_homes)
    top_of: dict[int, int] = {}
    lengths: list[int] = []
    for i, column in enumerate(columns):
        if not column:
            lengths.append(0)
            continue
        top = column[-1]
        top_of[top] = i
        if homes[top // 13] == top % 13:
            new_columns, new_homes = list(columns), list(homes)
            new_columns[i] = column[:-1]
            new_homes[top // 13] += 1
            add(("ch", i, top // 13, 1), new_columns, list(cells), new_homes)
        length = runs.get(column)
        if length is None:
            length = runs[column] = _run(list(column))
        lengths.append(length)
    for i, column in enumerate(columns):
        for count in range(1, min(lengths[i], capacity) + 1):
            card = column[-count]
            if card % 13 == KING - 1:
                continue
            for suit in (2, 3) if card < 26 else (0, 1):
                j = top_of.get(suit * 13 + card % 13 + 1)
                if j is not None and j != i:
                    new_columns = list(columns)
                    new_columns[j] = columns[j] + column[-count:]
                    new_columns[i] = column[:-count]
                    add(("cc", i, j, count), new_columns, list(cells), list(homes))
    for i, card in enumerate(cells):
        if card == NONE or card % 13 == KING - 1:
            continue
        for suit in (2, 3) if card < 26 else (0, 1):
            j = top_of.get(suit * 13 + card % 13 + 1)
            if j is not None:
                new_columns, new_cells = list(columns), list(cells)
                new_columns[j] = columns[j] + bytes((card,))
                new_cells[i] = NONE
                add(("ec", i, j, 1), new_columns, new_cells, list(homes))
    if empty:
        first = empty[0]
        longest = move_capacity(free, len(empty), True)
        for i, column in enumerate(columns):
            most = min(lengths[i], longest)
            if most == len(column):
                most -= 1  # the whole column elsewhere: the same position
            if most >= 1:
                for count in (most, 1) if most > 1 else (most,):
                    new_columns = list(columns)
                    new_columns[first] = column[-count:]
                    new_columns[i] = column[:-count]
                    add(("cc", i, first, count), new_columns, list(cells), list(homes))
        for i, card in enumerate(cells):
            if card != NONE:
                new_columns, new_cells = list(columns), list(cells)
                new_columns[first] = bytes((card,))
                new_cells[i] = NONE
                add(("ec", i, first, 1), new_columns, new_cells, list(homes))
    if free:
        cell = cells.index(NONE)
        for i, column in enumerate(columns):
            if column:
                new_columns, new_cells = list(columns), list(cells)
                new_columns[i] = column[:-1]
                new_cells[cell] = column[-1]
                add(("cx", i, cell, 1), new_columns, new_cells, list(homes))
    return found


def _run(column: list[int]) -> int:
    """Cards on top of ``column`` going down by one in alternating colours."""
    if not column:
        return 0
    length = 1
    for k in range(len(column) - 1, 0, -1):
        if not _fits(column[k], column[k - 1]):
            break
        length += 1
    return length


def _line(parents: list[tuple[int, Step | None]], node: int) -> list[Step]:
    """The moves from the start to ``node`` of a best-first search."""
    steps = []
    while node > 0:
        node, move = parents[node]
        assert move is not None
        steps.append(move)
    return steps[::-1]


def _key_of(position: Encoded) -> tuple[Any, ...]:
    """:meth:`_Search.key` of an encoded position."""
    columns, cells, _ = position
    return (tuple(sorted(columns)), tuple(sorted(NONE if card == 255 else card for card in cells)))


def search(game: Any, counter: Counter, avoid: Sequence[Encoded] = ()) -> SearchOutcome:
    """Search ``game`` (a ``FreeCell``) from its position; see the module docstring. The line
    found passes through no position of ``avoid`` (up to symmetry, as the search keys them):
    they count as visited before the search starts, so ``lost`` then means no win that
    avoids them."""
    state = _Search(game, counter)
    if state.won():
        return SearchOutcome(WON, [], WON)
    try:
        if compiled():
            won = state.best_first_compiled(list(avoid))
        else:
            state.seen.update(_key_of(position) for position in avoid)
            state.seen.add(state.key())
            won = state.best_first()
    except OutOfBudget:
        return SearchOutcome(UNKNOWN, [], None)
    if won:
        return SearchOutcome(WON, state.texts(game), WON)
    return SearchOutcome(LOST, [], None)


def encode(game: FreeCell) -> Encoded:
    """``game``'s position as :func:`search`'s ``avoid`` holds it."""
    return _Search(game, Counter(Budget(nodes=None, seconds=None))).encoded()


def plan(game: FreeCell, nodes: int = HINT_NODES) -> list[FreeCellMove]:
    """The start of a winning line from ``game``'s position: its moves up to the first that
    sends a card home (that one included); empty when the search finds no win within ``nodes``
    positions. ``game`` is left as it was (the moves are played and taken back).

    >>> [str(move) for move in plan(FreeCell.from_layout(["Qd Kc", "Ks"], cells="Kd",
    ...                                                   homes=[11, 13, 12, 12]))]
    ['1h']
    """
    return plan_avoiding(game, [], nodes)[1]


def plan_avoiding(
    game: FreeCell, earlier: Sequence[Any], nodes: int | None = None
) -> tuple[str, list[FreeCellMove]]:
    """(status, :func:`plan`) of a winning line from ``game``'s position that passes through
    none of the ``earlier`` positions (``game._snapshot()`` values: the hint never leads back
    to where the game has been). The status is ``won`` with the line's start, else ``lost``
    (no such line: every position reachable without them was visited) or ``unknown`` (out of
    ``nodes``, default :data:`HINT_NODES`), with no moves. ``game`` is left as it was."""
    here = game._snapshot()
    avoid: list[Encoded] = []
    try:
        for snapshot in earlier:
            game._restore(snapshot)
            avoid.append(encode(game))
    finally:
        game._restore(here)
    budget = Budget(nodes=HINT_NODES if nodes is None else nodes, seconds=None)
    found = search(game, Counter(budget), avoid)
    if found.status != WON:
        return found.status, []
    steps: list[FreeCellMove] = []
    score = game.score
    try:
        for text in found.moves:
            move = game.parse_move(text)
            game.play(move)
            steps.append(move)
            if game.score > score:
                break
    finally:
        for _ in steps:
            game.undo()
    return WON, steps


def hint(game: FreeCell, nodes: int = HINT_NODES) -> FreeCellMove | None:
    """The first move of a winning line from ``game``'s position, or None when the search
    finds none within ``nodes`` positions (or the position cannot be won)."""
    steps = plan(game, nodes)
    return steps[0] if steps else None


__all__ = ["HINT_NODES", "compiled", "encode", "hint", "plan", "plan_avoiding", "search"]
