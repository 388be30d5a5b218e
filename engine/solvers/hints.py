"""Hints: a good next move from what the player can see, never from hidden cards.

:func:`hint` reads only ``game.view(player)`` and ``game.legal_moves(player)`` (and each
move's ``src``, ``dst`` and notation), so two games that look the same to the player always
get the same hint, whatever their face-down cards or stock order. It scores every legal move
with a one-move lookahead over the visible cards and returns the best (ties: the first in the
engine's order, so hints are deterministic).

Preferences, by game:

- **Solitario / Canfield**: a card to its foundation; a move that turns up a face-down card
  (Canfield: a card out of the reserve); waste to the tableau; emptying a column only when a
  Re/King is visible that could use the space; drawing when nothing better is visible. Never
  a card back off a foundation or a pile shuffled into a space for nothing.
- **Imaginary Thirteen**: waste tops and the turned card to a foundation, else the turned
  card onto the waste pile whose top is needed later (the card then leaves first).
- **FreeCell**: nothing is hidden, so the hint is the first move of the solver's winning line
  from here (a node budget: the same hint on every machine) that passes through no position
  the game has been in; when the solver proves there is none, no move helps (``lost`` when
  the position cannot be won at all); when it runs out of budget, a card home, then onto a
  column, then into a free cell, never back to an earlier position.
- **El Solitario**: a card that completes a path, then a non-empty card continuing a path,
  then opening a path, then an empty card.
- **Cartas Maestras**: the computer players' choice (``engine.players.squadratik.judge``) on
  the player's own view: complete a path for its masters, never leave a path one card short
  for the next player (an empty card blocks one), keep a side the rest of the hand can follow.

**Never round the stock for nothing** (Solitario, Canfield). When the one-move lookahead sees
nothing better than turning the stock, :func:`advice` first looks for a short sequence of
visible moves (no stock turn: it would show cards nobody has seen) that ends in progress: a
card to a foundation, a face-down card turned up, a card out of the waste or the reserve;
its first move is the hint. Failing that, drawing is suggested only while it can still show
something new: once the player has turned the stock a whole round since the board last
changed, and no waste card of that round had a use, :func:`advice` says that no move helps
(``stuck``) instead of sending them round again. Both tests use what the player has seen:
face-up cards and the waste cards of the round just turned, never the face-down cards or
the stock's order ahead.

**Never back where the game has been**, in any game: a move that leads to a position the game
was in before (its undo history, keyed by the game's ``_search_key`` or ``position_key``) is
never the hint, so following hints never goes round in circles; when every move would, no
move helps (``stuck``).

>>> import engine
>>> game = engine.new_game("imaginary13", 1)
>>> hint(game) in game.legal_moves()
True
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Protocol, cast, runtime_checkable

from engine.game import Game, IllegalMove
from engine.players.squadratik import judge
from engine.solvers import LOST, WON, solver_module
from engine.solvers.imaginary13 import waste_order
from engine.stockwaste import StockAndWasteGame
from engine.views import BaseView, Imaginary13View, PileGameView, PileView, SquadratikView

_VALUES = "A23456789TJQK"
#: the pile scorer's value of turning the stock: moves scored no higher are no better
DRAW_SCORE = 10.0
#: the visible search: at most this many moves deep, this many positions (a few ms)
PLAN_DEPTH = 5
PLAN_POSITIONS = 600


@runtime_checkable
class Positioned(Protocol):
    """A game that tells its positions apart (FreeCell): a hint never leads back to one the
    game has been in. The Klondike family (:class:`engine.stockwaste.StockAndWasteGame`) is
    told apart by its stall search's key instead."""

    def position_key(self) -> Hashable: ...


@runtime_checkable
class CountsHome(Protocol):
    """A game that counts the cards on its foundations: a card going back home after it was
    taken off is no progress."""

    @property
    def cards_home(self) -> int: ...


class HintingSolver(Protocol):
    """What a solver module offers the hint of a game with ``hint_from_solver``: the line's
    moves up to the next card home that passes through none of the ``earlier`` positions
    (undo snapshots), with the search's status (``won``, ``lost`` or ``unknown``)."""

    def plan_avoiding(self, game: Game, earlier: list[Any]) -> tuple[str, list[Any]]: ...


@dataclass(frozen=True, slots=True)
class Advice:
    """What a hint says: ``move`` (None when there is none), or ``stuck`` when moves exist
    but none helps (drawing goes round with nothing new and no visible move leads anywhere).
    ``plan`` is how many moves the visible sequence that ``move`` starts takes to reach
    progress (0: the one-move lookahead chose it). With ``stuck``, the solver may tell why:
    ``lost`` when it proved that the position cannot be won, whatever is played; ``back``
    when a win remains only through a position the game has already been in (``/undo``)."""

    move: Any | None
    stuck: bool = False
    plan: int = 0
    lost: bool = False
    back: bool = False


def hint(game: Game, player: str | None = None) -> Any | None:
    """The suggested move for ``player`` (default: whoever is to move), or None when there is
    no legal move (the game is over, or it is not their turn) or none helps (see
    :func:`advice`)."""
    return advice(game, player).move


def advice(game: Game, player: str | None = None) -> Advice:
    """The hint for ``player`` with what :class:`Advice` tells besides the move. Pass a private
    copy: the history check takes moves back and plays them again."""
    moves = game.legal_moves(player)
    if not moves:
        return Advice(None)
    # the mover's own view: at a table only it holds their hand (the public one has none)
    view = game.view(player if player is not None else game.current_player)
    info = game.info
    if info.hint_from_solver:
        found = _solver_hint(game)
        if found is not None:
            return found
    # Never back to a position this game has been in: taking a card off a foundation (or out
    # of a cell) and putting it back would alternate for ever.
    history = _history(game)
    scorer = _scorer(game)
    scores = [scorer(view, move) for move in moves]
    if scorer not in PILE_SCORERS:
        scores = [
            -math.inf if _returns(game, move, history.keys) else score
            for move, score in zip(moves, scores, strict=True)
        ]
        best = max(range(len(moves)), key=lambda i: (scores[i], -i))
        if scores[best] == -math.inf:
            return Advice(None, stuck=True)  # every move goes back to where the game has been
        return Advice(moves[best])

    def judged(move: Any, score: float) -> float:
        if _is_plain(move) and _repeats(game, move, history.keys):
            return -1000.0
        # a card back home after it was taken off is worth no more than any shuffle
        return min(score, 0.0) if _rehomes(game, move, history.peak) else score

    scores = [judged(move, score) for move, score in zip(moves, scores, strict=True)]
    best = max(range(len(moves)), key=lambda i: (scores[i], -i))
    if scores[best] > DRAW_SCORE:
        return Advice(moves[best])
    plan = _visible_plan(game, history)
    if plan:
        first = str(plan[0])
        chosen = next((move for move in moves if str(move) == first), None)
        if chosen is not None:
            return Advice(chosen, plan=len(plan))
    draw = next((move for move in moves if move.dst is None), None)
    if draw is None or _round_turned_for_nothing(game):
        return Advice(None, stuck=True)
    return Advice(draw)


def _is_plain(move: Any) -> bool:
    """A move that turns no stock card (the stock's next cards stay unseen)."""
    return move.dst is not None


@dataclass(slots=True)
class _History:
    """What the player has seen of their game: the positions it has been in before this one
    (``_search_key``) and the most cards its foundations ever held (``peak``)."""

    keys: set[Any]
    peak: int


def _scorer(game: Game) -> Callable[[Any, Any], float]:
    """The scorer the game names (``GameInfo.hint_scorer``), else the first legal move's."""
    name = game.info.hint_scorer
    return SCORERS[name] if name else _first


def _key(game: Game) -> Hashable | None:
    """The game's position as a hashable key (the stall search's key of a pile game, else
    the game's ``position_key``), or None for a game that has neither (its moves never lead
    back: every one places a card for good)."""
    if isinstance(game, StockAndWasteGame):
        return game._search_key()
    if isinstance(game, Positioned):
        return game.position_key()
    return None


def _home(game: Game) -> int:
    """Cards on the game's foundations (0 for a game that does not count them)."""
    return game.cards_home if isinstance(game, CountsHome) else 0


def _history(game: Game) -> _History:
    """The game's :class:`_History`, read from its undo snapshots; the game is left in its
    position."""
    if _key(game) is None:
        return _History(set(), 0)
    here = game._snapshot()
    found = _History(set(), _home(game))
    try:
        for snapshot in game._undo_stack:
            game._restore(snapshot)
            found.keys.add(_key(game))
            found.peak = max(found.peak, _home(game))
    finally:
        game._restore(here)
    return found


def _returns(game: Game, move: Any, history: set[Any]) -> bool:
    """Whether ``move`` leads back to a position of ``history`` or changes nothing (played
    and taken back: for the games without the stall search's hooks)."""
    if not history and not isinstance(game, Positioned):
        return False
    here = _key(game)
    game.play(move, game.current_player)
    try:
        there = _key(game)
    finally:
        game.undo()
    return there == here or there in history


def _rehomes(game: Game, move: Any, peak: int) -> bool:
    """Whether ``move`` puts a column card on a foundation without taking the foundations
    past the most they ever held: a card going back home, not progress."""
    return str(move.dst).startswith("f") and move.src != "w" and _home(game) + 1 <= peak


def _repeats(game: Game, move: Any, history: set[Any]) -> bool:
    """Whether ``move`` leads back to a position of ``history`` (a pile game's fast path)."""
    if not history or not isinstance(game, StockAndWasteGame):
        return False
    here = game._snapshot()
    try:
        game._apply_unchecked(move)
        return game._search_key() in history
    finally:
        game._restore(here)


def _gains(game: StockAndWasteGame, move: Any, baseline: Any) -> bool:
    """Whether ``move`` gains something that cannot be undone by shuffling: the game's own
    progress (foundation, face-down card, reserve) or a card out of the waste."""
    return bool(game._is_progress(move, baseline)) or move.src == "w"


def _visible_plan(game: Game, history: _History | None = None) -> list[Any] | None:
    """The shortest sequence of moves without a stock turn that ends in a gain (see
    :func:`_gains`), breadth first, or None. Only face-up cards move: a move that would turn
    up a face-down card ends the sequence before that card is looked at. Its first move
    leads to no position of ``history`` (the game's earlier ones)."""
    if not isinstance(game, StockAndWasteGame):
        return None  # a game without the stall search's hooks: no plan, the lookahead decides
    baseline = game._progress_baseline()
    start = game._snapshot()
    seen = {game._search_key()}
    keys = history.keys if history is not None else set()
    frontier: deque[tuple[Any, list[Any]]] = deque([(start, [])])
    try:
        while frontier:
            here, path = frontier.popleft()
            game._restore(here)
            for move in [m for m in game._generate() if _is_plain(m)]:
                if not path and _repeats(game, move, keys):
                    continue  # back to where the game has been: the start of a loop
                if _gains(game, move, baseline):
                    return [*path, move]
                if len(path) + 1 >= PLAN_DEPTH or len(seen) >= PLAN_POSITIONS:
                    continue
                game._apply_unchecked(move)
                key = game._search_key()
                if key not in seen:
                    seen.add(key)
                    frontier.append((game._snapshot(), [*path, move]))
                game._restore(here)
    finally:
        game._restore(start)
    return None


def _useful_here(game: StockAndWasteGame) -> bool:
    """Whether something other than turning the stock helps in the game's position (read
    with the engine's fast hooks, without asking whether the game is stalled)."""
    view = game.view(None)
    moves = [m for m in game._generate() if _is_plain(m)]
    scorer = _scorer(game)
    if any(scorer(view, move) > DRAW_SCORE for move in moves):
        return True
    return _visible_plan(game) is not None


def _round_turned_for_nothing(game: Game) -> bool:
    """Whether the moves since the board last changed (stock turns only) include a whole
    round of the stock, back to the waste the player sees now, with no waste card on the
    way that had a use: then turning again shows nothing new. The turns are taken back on
    ``game``, which is then put back exactly as it was."""
    if not isinstance(game, StockAndWasteGame):
        return False
    turns = 0
    for notation in reversed(game.moves):
        if notation != "d":
            break
        turns += 1
    now = game._search_key()
    here, moves, stack = game._snapshot(), list(game.moves), list(game._undo_stack)
    try:
        for _ in range(turns):
            game.undo()
            if _useful_here(game):
                return False
            if game._search_key() == now:
                return True
        return False
    except IllegalMove:  # no history to take back (a game built from a layout)
        return False
    finally:
        game._restore(here)
        game.moves[:] = moves
        game._undo_stack[:] = stack


def _first(view: BaseView, move: Any) -> float:
    return 0.0


# ----- pile games -----------------------------------------------------------------------------
def _piles(view: PileGameView) -> dict[str, PileView]:
    return {pile["id"]: pile for pile in view["piles"]}


def _rank(code: str, deck: str) -> int:
    symbols = "A234567JQK" if deck == "italian40" else _VALUES
    return symbols.index(code[0]) + 1


def _red(code: str) -> bool:
    return code[1] in "dh"


def _fits_on(card: str, target: str | None, deck: str, top: int, wrap: bool) -> bool:
    """Whether ``card`` may lie on ``target`` in a column (down by one, alternate colours)."""
    if target is None:
        return _rank(card, deck) == top
    below = _rank(target, deck) - 1
    if below == 0:
        if not wrap:
            return False
        below = top
    return _rank(card, deck) == below and _red(card) != _red(target)


def _king_waiting(piles: dict[str, PileView], deck: str, top: int) -> bool:
    """A visible Re/King that an empty column would help: on the waste top, or heading a run
    that lies on face-down cards."""
    waste = piles["w"]["cards"] if "w" in piles else []
    if waste and _rank(waste[-1], deck) == top:
        return True
    return any(
        pile["kind"] == "tableau"
        and pile["down"]
        and pile["cards"]
        and _rank(pile["cards"][0], deck) == top
        for pile in piles.values()
    )


def _whole_pile_score(view: PileGameView, move: Any) -> float:
    """:func:`_pile_score` for a game whose tableau piles move whole (Canfield)."""
    return _pile_score(view, move, whole_piles=True)


def _pile_score(view: PileGameView, move: Any, whole_piles: bool = False) -> float:
    piles = _piles(view)
    deck = view["deck"]
    top = 10 if deck == "italian40" else 13
    src, dst = move.src, move.dst
    if dst is None:
        return DRAW_SCORE  # draw when nothing better is visible
    if dst.startswith("f"):
        return 100.0
    if src.startswith("f"):
        return -50.0
    if src == "r":
        return 90.0
    target = piles[dst]["cards"][-1] if piles[dst]["cards"] else None
    if src == "w":
        return 40.0 if target is not None else 35.0
    source = piles[src]
    cards = source["cards"]
    # The cards that move: whole piles (Canfield), or the run that fits (Solitario).
    start = 0
    if not whole_piles and not move.count:
        start = next(
            (i for i, card in enumerate(cards) if _fits_on(card, target, deck, top, wrap=False)), 0
        )
    elif move.count:
        start = len(cards) - move.count
    whole_run = start == 0
    if whole_piles:
        if target is None:
            return -100.0
        reserves = [pile for pile in piles.values() if pile["kind"] == "reserve"]
        return 70.0 if any(pile["cards"] or pile["down"] for pile in reserves) else 20.0
    if whole_run and source["down"]:
        return 80.0  # turns up a face-down card
    if whole_run:
        if target is None:
            return -100.0  # a Re heading a bare column moves to another empty column
        return 50.0 if _king_waiting(piles, deck, top) else 0.0
    return 5.0


# ----- Imaginary Thirteen ---------------------------------------------------------------------
def _imaginary13_score(view: Imaginary13View, move: Any) -> float:
    piles = _piles(view)
    if move.dst.isdigit():
        return 100.0 if move.src != "t" else 90.0
    tops = [_VALUES.index(piles[str(k)]["cards"][-1][0]) + 1 for k in range(1, 9)]
    wastes = [[_VALUES.index(code[0]) + 1 for code in piles[w]["cards"]] for w in "abcd"]
    turned = piles["t"]["cards"][0]
    order = waste_order(_VALUES.index(turned[0]) + 1, tops, wastes)
    pile = "abcd".index(move.dst)
    return 50.0 - order.index(pile) if pile in order else 0.0


# ----- FreeCell ---------------------------------------------------------------------------------
def _freecell_score(view: dict[str, Any], move: Any) -> float:
    """When the solver has no line: home first, then onto a card, then into a free cell."""
    kinds = {pile["id"]: pile["kind"] for pile in view["piles"]}
    return {"foundation": 100.0, "tableau": 50.0}.get(kinds.get(move.dst, ""), 0.0)


# ----- El Solitario ---------------------------------------------------------------------------
def _squadratik_score(view: SquadratikView, move: Any) -> float:
    slot: int | None = getattr(move, "slot", None)
    if slot is None:
        return 0.0
    card = view["hand"][slot - 1]
    path = view["paths"].get(move.side)
    if card["kind"] == "empty":
        return 10.0
    if path is None:
        return 40.0
    if path["after_empty"] == 3:
        return 100.0 + card["points"]
    return 60.0 + path["after_empty"] + card["points"] / 100


# ----- Cartas Maestras -------------------------------------------------------------------------
def _maestras_score(view: SquadratikView, move: Any) -> float:
    # the computer players' strategy, on the player's own view (their hand, the public board):
    # complete a path for its masters, never leave one a card short for the next player (an
    # empty card blocks one), keep sides the rest of the hand can follow
    return judge(view, move).value


def _solver_hint(game: Game) -> Advice | None:
    """The first move of the solver's winning line (``GameInfo.hint_from_solver``: a game with
    nothing hidden, where the solver's line is fair advice) that passes through no position
    the game has been in. The solver module's ``plan_avoiding(game, earlier)`` is the line's
    moves up to the next card home, so a move that only prepares says so. When the solver
    proves there is no such line: ``stuck``, and ``lost`` too when the position cannot be won
    even by going back (searched again without the earlier positions). None when the solver
    runs out of budget (the scorer decides)."""
    solver = game.info.solver
    if solver is None:
        return None
    # a module offering plan_avoiding (HintingSolver), found by name (GameInfo.solver)
    module = cast(HintingSolver, solver_module(game.game_id))
    earlier = list(game._undo_stack)
    status, steps = module.plan_avoiding(game, earlier)
    if status == WON and steps:
        return Advice(steps[0], plan=len(steps))
    if status != LOST:
        return None
    if earlier and module.plan_avoiding(game, [])[0] != LOST:
        return Advice(None, stuck=True, back=True)  # a win only through an earlier position
    return Advice(None, stuck=True, lost=True)


#: the move scorers a game names (``GameInfo.hint_scorer``); each reads the view of the games
#: that name it: ``piles`` and ``whole_piles`` a game with a stock, a waste, foundations and
#: tableau piles whose runs (Solitario) or whole piles (Canfield) move, the others their
#: game's (named for the rules they read, never by a game's id: a scorer is not a game)
SCORERS: dict[str, Callable[[Any, Any], float]] = {
    "piles": _pile_score,
    "whole_piles": _whole_pile_score,
    "imaginary_thirteen": _imaginary13_score,
    "el_solitario": _squadratik_score,
    "cartas_maestras": _maestras_score,
    "free_cells": _freecell_score,
}
#: the scorers of the pile games: their hints look ahead with the stall search's hooks
PILE_SCORERS = frozenset({_pile_score, _whole_pile_score})
