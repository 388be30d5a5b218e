"""Solvers for the four solitaires: search a deal with full knowledge of it.

Every solver searches depth first with a transposition table over a canonical state key,
plays safe moves automatically, orders moves by promise, and stops when its :class:`Budget`
(nodes and/or seconds) runs out. A winning line is returned only after it was **verified**:
the engine itself parses every move of it, checks it against its own legal moves and applies
it, and the line must end in the outcome the solver claims (tests replay lines through
``engine.replay`` too).

Statuses (:class:`SolveResult`):

* ``won``: ``moves`` is a verified winning line (El Solitario: a *completo* line);
* ``lost``: a proof that no win exists: the search was exhausted using only prunings that are
  exact dominances (a heuristic pass may find wins faster, but never answers ``lost``);
* ``unknown``: the budget ran out first.

``outcome`` is the engine outcome the returned ``moves`` reach (``None`` when there is no
line). El Solitario also reports its best line when it has no completo: ``outcome`` is then
``"played_out"`` or ``"lost"`` (:attr:`SolveResult.best`).

>>> from engine.solvers import Budget, solve
>>> result = solve("imaginary13", 1, budget=Budget(nodes=50_000))
>>> result.status, len(result.moves) > 0
('won', True)

"Could it have been won?" (:func:`decide`): a :class:`Verdict` for any position of a game,
from the start of a deal or from where a player stopped. The solver knows the whole deal,
hidden cards included (ask after the game ended; hints, which must stay blind, live in
:mod:`engine.solvers.hints`). ``line`` is in the engine's notation, from that position::

    verdict = decide(Position("canfield", 12, {}, moves_played), Budget(nodes=300_000, seconds=None))
    verdict.result   # "won" | "lost" | "unknown"
    verdict.line     # e.g. ["d", "w3", "rf1", ...]: engine.replay(... moves_played + line) wins

:class:`Position` is four plain values, so ``decide`` can run in a worker thread or process
(``concurrent.futures``: it pickles). Given a ``Game`` object instead, ``decide`` leaves it as
it found it but uses it meanwhile: pass one no other thread touches. Budgets: ``seconds`` are
CPU seconds of the calling process (``time.process_time``: the answer barely moves with the
machine's load, but threads of one process share the clock); anything stored or shared (the
daily deal) must use ``nodes`` with ``seconds=None``, the same on every machine.

Strength and speed are measured by ``python -m engine.solve`` and ``make bench`` (decided
share, mean and p95 CPU seconds per deal). With 2 CPU seconds per deal a deal that is not
decided comes back ``unknown``; a won deal's line is usually found in well under a second.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any, NamedTuple

import engine
from engine.game import Game
from engine.stockwaste import StockAndWasteGame

WON = "won"
LOST = "lost"
UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search may run: at most ``nodes`` positions and/or ``seconds`` of CPU time
    (``time.process_time``; None: no limit of that kind).

    >>> Budget(nodes=1000).nodes, Budget().seconds
    (1000, 10.0)
    """

    nodes: int | None = None
    seconds: float | None = 10.0


@dataclass(slots=True)
class SolveResult:
    """What a search found. ``moves`` are engine notation strings from the start position.

    >>> SolveResult("imaginary13", 1, UNKNOWN).best
    'unknown'
    """

    game_id: str
    deal: int
    status: str
    moves: list[str] = field(default_factory=list)
    outcome: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> str:
        """The best result found: the outcome of ``moves`` when there is a line, else status.

        Solitaires: ``won`` / ``lost`` / ``unknown``; El Solitario: ``completo``,
        ``played_out``, ``lost`` or ``unknown``."""
        return self.outcome if self.outcome is not None else self.status

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {**asdict(self), "best": self.best}


class Position(NamedTuple):
    """A position named by its deal and the moves played since (picklable: for workers)."""

    game_id: str
    deal: int
    options: Mapping[str, Any] | None
    moves: Sequence[str]

    def build(self) -> Game:
        """The game at this position (``engine.replay``)."""
        return engine.replay(self.game_id, self.deal, None, self.options, list(self.moves))


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a position can still be won: ``result`` is ``won`` (``line``, engine notation
    from that position, wins), ``lost`` (no sequence of moves wins) or ``unknown`` (budget)."""

    result: str
    line: list[str] = field(default_factory=list)


class OutOfBudget(Exception):
    """Raised inside a search when its budget is spent; the solver turns it into ``unknown``."""


class Counter:
    """Counts searched positions and raises :class:`OutOfBudget` when the budget is spent.

    The clock is the process's CPU time (``time.process_time``: a loaded machine changes the
    answers little), read only every 256 nodes: reading it costs about as much as a node.
    """

    __slots__ = ("deadline", "limit", "nodes", "started")

    def __init__(self, budget: Budget) -> None:
        self.started = time.process_time()
        self.nodes = 0
        self.limit = budget.nodes
        self.deadline = None if budget.seconds is None else self.started + budget.seconds

    def tick(self) -> None:
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise OutOfBudget
        deadline = self.deadline
        if deadline is not None and not self.nodes & 255 and time.process_time() > deadline:
            raise OutOfBudget

    @property
    def seconds(self) -> float:
        return time.process_time() - self.started

    def used(self) -> float:
        """The share of the budget spent so far (0.0 - 1.0; 0.0 for an unlimited budget)."""
        shares = [0.0]
        if self.limit:
            shares.append(self.nodes / self.limit)
        if self.deadline is not None and self.deadline > self.started:
            shares.append(self.seconds / (self.deadline - self.started))
        return max(shares)


_recursion_lock = threading.Lock()
_recursion_users = 0
_recursion_before = 0


@contextmanager
def deep_recursion(depth: int) -> Iterator[None]:
    """Let a recursive search go ``depth`` Python frames deep.

    The recursion limit is one number for the whole process, and searches run on worker
    threads (the bot's "could it have been won?", the daily choice): a search that put back
    the limit it found could lower it under another one still running. So the limit is raised
    while any search runs and put back when the last one ends.

    >>> with deep_recursion(5000):
    ...     sys.getrecursionlimit() >= 5000
    True
    """
    global _recursion_users, _recursion_before
    with _recursion_lock:
        if not _recursion_users:
            _recursion_before = sys.getrecursionlimit()
        _recursion_users += 1
        if sys.getrecursionlimit() < depth:
            sys.setrecursionlimit(depth)
    try:
        yield
    finally:
        with _recursion_lock:
            _recursion_users -= 1
            if not _recursion_users:
                sys.setrecursionlimit(_recursion_before)


@dataclass(slots=True)
class SearchOutcome:
    """A solver module's raw answer, before verification."""

    status: str
    moves: list[str]
    outcome: str | None


def use_compiled(module: ModuleType | None) -> bool:
    """Whether a solver runs its C part: ``module`` (the extension module, None when it did not
    build) is there and the environment variable ``TAVOLO_PURE_PYTHON`` is not ``1``. Read at
    every search, so tests can switch between the two; both give the same answers.

    >>> use_compiled(None)
    False
    """
    return module is not None and os.environ.get("TAVOLO_PURE_PYTHON") != "1"


#: A solver module's ``search(game, counter)``: searches from ``game``'s position (it may
#: change ``game``: it gets a private copy).
Searcher = Callable[[Game, Counter], SearchOutcome]


def solver_module(game_id: str) -> ModuleType:
    """The module that searches ``game_id`` (``GameInfo.solver``: a module of this package, or
    a full dotted module name), imported on first use; ``ValueError`` when it has none."""
    cls = engine.GAMES.get(game_id)
    if cls is None or cls.info.solver is None:
        raise ValueError(f"no solver for {game_id}")
    name = cls.info.solver
    return importlib.import_module(name if "." in name else f"engine.solvers.{name}")


def _searcher(game_id: str) -> Searcher:
    search: Searcher = solver_module(game_id).search
    return search


#: the games a solver searches
SOLVABLE = tuple(game_id for game_id, cls in engine.GAMES.items() if cls.info.solver)


def solve(
    game_id: str,
    deal: int,
    options: Mapping[str, Any] | None = None,
    budget: Budget | None = None,
) -> SolveResult:
    """Solve deal ``deal`` of ``game_id`` from its start; the line is verified by replay.

    >>> solve("imaginary13", 3, budget=Budget(nodes=20_000)).status in ("won", "lost", "unknown")
    True
    """
    game = engine.new_game(game_id, deal, None, options)
    return solve_game(game, budget)


def solve_game(game: Game, budget: Budget | None = None) -> SolveResult:
    """Solve ``game`` from its current position (hand-built positions too). ``moves`` continue
    from there; they are verified by playing them and taking them back: the game ends as it
    was."""
    budget = budget or Budget()
    searcher = _searcher(game.game_id)
    counter = Counter(budget)
    # Solvers work on the game itself through its fast path and put it back as they found it
    # (a deep copy would break engines that key their caches on card identity).
    found = searcher(game, counter)
    result = SolveResult(
        game.game_id,
        game.deal,
        found.status,
        list(found.moves),
        found.outcome,
        counter.nodes if counter.limit is None else min(counter.nodes, counter.limit),
        round(counter.seconds, 4),
        dict(game.options),
    )
    if result.moves:
        _verify(game, result)
        # the check of the line is part of what a caller waits for
        result.seconds = round(time.process_time() - counter.started, 4)
    return result


def decide(position: Game | Position, budget: Budget | None = None) -> Verdict:
    """Could ``position`` (a game, or a :class:`Position`) be won? See the module docstring.

    >>> decide(Position("solitario", 2, {"cards": 52}, []), Budget(nodes=10_000, seconds=None)).result
    'won'
    """
    game = position.build() if isinstance(position, Position) else position
    if str(game.outcome) == "resigned":
        # the cards still lie where the player left them, which is what the question is about
        game = _reopened(game)
    result = solve_game(game, budget)
    if result.status != WON:
        return Verdict(result.status)
    return Verdict(WON, list(result.moves))


def _reopened(game: Game) -> Game:
    """``game``'s position in a game that is not resigned (the moves replayed)."""
    return engine.replay(game.game_id, game.deal, None, game.options, list(game.moves))


def _verify(game: Game, result: SolveResult) -> None:
    """Play ``result.moves`` on ``game`` and take them back: the line must reach the outcome
    the solver claims.

    Pile games go through their fast path: each move is parsed by the engine, must be one of
    the engine's own legal moves there (``_generate``) and is applied by it; the outcome is the
    engine's at the end. This is ``Game.play`` without the stall check after every move (a
    winning line never passes a stalled position), which would cost more than the search.
    Other games play and undo through the public API."""
    if isinstance(game, StockAndWasteGame):
        start = game._snapshot()
        try:
            for text in result.moves:
                move = game.parse_move(text)
                if move not in game._generate():
                    raise AssertionError(
                        f"{result.game_id} deal {result.deal}: {text} is not legal"
                    )
                game._apply_unchecked(move)
            _check_line(game, result)
        finally:
            game._restore(start)
        return
    played = 0
    try:
        for text in result.moves:
            game.play(text)
            played += 1
        _check_line(game, result)
    finally:
        for _ in range(played):
            game.undo()


def _check_line(game: Game, result: SolveResult) -> None:
    """A solver bug must never reach a player as a false 'won': fail loudly instead."""
    reached = None if game.outcome is None else str(game.outcome)
    if reached != result.outcome:
        raise AssertionError(
            f"{result.game_id} deal {result.deal}: line ends in {reached}, solver said {result.outcome}"
        )


__all__ = [
    "LOST",
    "SOLVABLE",
    "UNKNOWN",
    "WON",
    "Budget",
    "Counter",
    "Position",
    "Verdict",
    "decide",
    "deep_recursion",
    "OutOfBudget",
    "SearchOutcome",
    "SolveResult",
    "solve",
    "solve_game",
    "solver_module",
    "use_compiled",
]
