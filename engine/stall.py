"""Exact stall detection for patience games (games.md: the "stallo" ruling).

A game is stalled when no sequence of moves can ever make progress again. Progress is defined by
each game (Solitario: another card on the foundations or a face-down card turned up; Canfield: a
card to a foundation or a card taken from the reserve). The search walks every position
reachable by non-progress moves (shuffling runs, cycling the stock, ...) and stops at the first
legal progress move. No hidden card is revealed along the way, so the set stays small.

Stock turns move no card but the stock's and the waste's, so they are not steps of their own:
a search node stands for its position *and every position its stock turns lead to*. From a
node the steps are the moves that leave the waste alone, played here, and every waste move,
played after the turns that bring its card up (``engine.piles.stock_cycle``). A position
reached by turns and then a move that leaves the waste alone is reached from the node that
move leads to, by the same turns; so the nodes stand for every position reachable without
progress, and the search stays exact while visiting several times fewer positions.

A search that ends "not stalled" leaves the game a :class:`KnownProgress` of its position, and
the next search (after the player's next move) stops as soon as it reaches that position, or
one whose stock turns lead to it: in an endgame a player shuffles runs between columns or turns
the stock, one move from a position already proven, and each move searched the whole set of
positions again before (a few ms each).

A game taking part implements :class:`StallSearchable` (the fast path a solver uses, plus the
hooks below) with :class:`engine.piles.PileMove` moves: ``dst`` None is the stock turn and
``src`` ``"w"`` a waste move.

>>> from engine import new_game
>>> is_stalled(new_game("solitario", deal=1))
False
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.cards import Card
from engine.piles import TURN, PileMove, stock_cycle

#: a position as the search tells positions apart: (the rest of the position, the stock's card
#: object ids, the waste's), so a stock turn's effect can be read off it (``KnownProgress``)
SearchKey = tuple[Hashable, tuple[int, ...], tuple[int, ...]]


class StallSearchable(Protocol):
    _stock: list[Card]
    _waste: list[Card]

    def _generate(self) -> list[PileMove]: ...

    def _apply_unchecked(self, move: PileMove) -> None: ...

    def _snapshot(self) -> Any: ...

    def _restore(self, snapshot: Any) -> None: ...

    def _search_key(self) -> SearchKey: ...

    def _progress_baseline(self) -> Any: ...

    def _is_progress(self, move: PileMove, baseline: Any) -> bool: ...

    def _progress_by_turning(self, baseline: Any) -> bool: ...

    def _waste_moves(self, card: Card) -> list[PileMove]: ...


#: search nodes (positions up to stock turns) visited before giving up. A search that gets
#: this far is one whose non-progress positions really are many: long face-up runs that can be
#: split and shuffled between columns and spaces, foundation cards that can come down. Measured
#: on random play (27,000 Solitario, 17,600 Solitario 52 and 16,000 Canfield searches), the
#: largest search took 2,566 nodes (52 cards, ~0.5 s CPU) and none reached this cap; a node
#: costs ~0.2 ms, so the cap bounds the worst case near 0.6 s.
MAX_POSITIONS = 3000


def is_stalled(
    game: StallSearchable,
    max_positions: int = MAX_POSITIONS,
    moves: list[PileMove] | None = None,
    known: KnownProgress | None = None,
) -> bool:
    """True when no sequence of legal moves from here ever makes progress.

    Exact whenever the search nodes (positions up to stock turns, see the module docstring)
    reachable without progress number at most ``max_positions``; past that the answer is
    False: a stall is never announced unless it is proven (the game goes on, the next move
    searches again, and the player may always resign). So the only possible error is a late
    announcement, never a false one. The game is left exactly as it was found (every visit is
    undone by a snapshot restore). ``moves``: the legal moves here (``_generate()``), when
    the caller has them already; ``known``: a position proven able to progress (see
    :class:`KnownProgress`): reaching it ends the search.

    The common case (far from stalled) costs one move generation and one walk through the
    stock cycle: a progress move playable now or after stock turns alone ends the search
    before any position is visited.
    """
    return search(game, max_positions, moves, known) is True


@dataclass(frozen=True, slots=True)
class KnownProgress:
    """A position from which progress was proven reachable (a search that ended "not
    stalled", or a progress move there), kept by the game for its next search: a position
    from which this one can be reached can progress too, so that search may stop there.

    A player who shuffles runs between columns, or takes a step and turns the stock, stands
    one move from the last position; without this, each of those moves searched the whole
    set of positions again (up to ``MAX_POSITIONS``, a few ms each in an endgame).

    ``context``: what the search key leaves out (``_stall_context``: the cards home, the
    face-down cards): only a search in the same context may use it. ``layout``: the search
    key without stock and waste; ``sequence``: the waste and the stock in turning order
    (stock turns never change it); ``split``: how many of it are on the waste."""

    context: Hashable
    layout: Hashable
    sequence: tuple[int, ...]
    split: int

    @classmethod
    def of(cls, context: Hashable, key: SearchKey) -> KnownProgress:
        layout, stock, waste = key
        return cls(context, layout, waste + stock[::-1], len(waste))

    def reached_from(self, key: SearchKey) -> bool:
        """Whether the position with search key ``key`` (in the same context) is this one or
        leads to it by stock turns alone: turns move the split three cards at a time to the
        end of the sequence, then back to 0 (the waste turned over), then on by threes."""
        layout, stock, waste = key
        if layout != self.layout or waste + stock[::-1] != self.sequence:
            return False
        here, there, end = len(waste), self.split, len(self.sequence)
        return there in (here, end) or there % 3 == 0 or (there > here and (there - here) % 3 == 0)


def search(
    game: StallSearchable,
    max_positions: int = MAX_POSITIONS,
    moves: list[PileMove] | None = None,
    known: KnownProgress | None = None,
) -> bool | None:
    """:func:`is_stalled` with its third answer told apart: True stalled, False progress
    proven reachable, None the budget spent before either was proven."""
    baseline = game._progress_baseline()
    steps = _steps(game, baseline, moves)
    if steps is None:
        return False
    start = here = game._snapshot()
    first = game._search_key()
    if known is not None and known.reached_from(first):
        return False
    seen = {first}
    # Breadth first: when progress is possible it is usually a move or two away, and a
    # depth-first walk can wander through thousands of run shuffles before finding it.
    frontier: deque[Any] = deque()

    def visit() -> bool | None:
        """Queue the position the game is in unless seen; False when it leads to the known
        position, None once the budget is spent, True to go on."""
        key = game._search_key()
        if key not in seen:
            if known is not None and known.reached_from(key):
                return False
            if len(seen) >= max_positions:
                return None
            seen.add(key)
            frontier.append(game._snapshot())
        return True

    try:
        while True:
            plain, after_turns = steps
            for move in plain:
                game._apply_unchecked(move)
                went_on = visit()
                if went_on is not True:
                    return went_on
                game._restore(here)  # restoring copies: a snapshot may be restored many times
            # Waste moves in turning order: turn on from one stock position to the next
            # instead of replaying every turn from the node for each move.
            turned, at = 0, here
            for turns, move in after_turns:
                if turns != turned:
                    for _ in range(turns - turned):
                        game._apply_unchecked(TURN)
                    turned, at = turns, game._snapshot()
                game._apply_unchecked(move)
                went_on = visit()
                if went_on is not True:
                    return went_on
                game._restore(at)
            if not frontier:
                return True
            here = frontier.popleft()
            game._restore(here)
            steps = _steps(game, baseline)
            if steps is None:
                return False
    finally:
        game._restore(start)


Steps = tuple[list[PileMove], list[tuple[int, PileMove]]]


def _steps(
    game: StallSearchable, baseline: Any, moves: list[PileMove] | None = None
) -> Steps | None:
    """The non-progress steps from this node: the moves that leave the waste alone, and the
    waste moves with the stock turns that come first (fewest turns first); or None when
    progress is within reach: a progress move now, or one after stock turns alone."""
    if moves is None:
        moves = game._generate()
    if any(game._is_progress(move, baseline) for move in moves):
        return None
    if game._progress_by_turning(baseline):
        return None
    plain = [move for move in moves if move.dst is not None and move.src != "w"]
    after_turns: list[tuple[int, PileMove]] = []
    for turns, card in stock_cycle(game._stock, game._waste):
        for move in game._waste_moves(card):
            if game._is_progress(move, baseline):
                return None
            after_turns.append((turns, move))
    return plain, after_turns
