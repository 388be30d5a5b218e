"""Exact stall detection for patience games (games.md: the "stallo" ruling).

A game is stalled when no sequence of moves can ever make progress again. Progress is defined by
each game (Solitario: another card on the foundations or a face-down card turned up; Canfield: a
card to a foundation or a card taken from the reserve). The search walks every position
reachable by non-progress moves (shuffling runs, cycling the stock, ...) and stops at the first
legal progress move. No hidden card is revealed along the way, so the set stays small.

A game taking part implements :class:`StallSearchable` (the same fast path a solver uses).

>>> from engine import new_game   # doctest: +SKIP
>>> is_stalled(new_game("solitario", deal=1))   # doctest: +SKIP
False
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from typing import Any, Protocol


class StallSearchable(Protocol):
    def _generate(self) -> list[Any]: ...

    def _apply_unchecked(self, move: Any) -> None: ...

    def _snapshot(self) -> Any: ...

    def _restore(self, snapshot: Any) -> None: ...

    def position_key(self) -> Hashable: ...

    def _progress_baseline(self) -> Any: ...

    def _is_progress(self, move: Any, baseline: Any) -> bool: ...


#: positions visited before giving up. Deals met in play stay far below it; the rare positions
#: with many face-up runs to shuffle and progress many stock turns away can exceed it.
MAX_POSITIONS = 2000


def is_stalled(game: StallSearchable, max_positions: int = MAX_POSITIONS) -> bool:
    """True when no sequence of legal moves from here ever makes progress.

    Exact whenever the positions reachable without progress number at most ``max_positions``;
    past that the answer is False: a stall is never announced unless it is proven (the game
    goes on, the next move searches again, and the player may always resign). The game is
    left exactly as it was found (every visit is undone by a snapshot restore).
    """
    baseline = game._progress_baseline()
    start = game._snapshot()
    seen = {game.position_key()}
    # Breadth first: when progress is possible it is usually a move or two away, and a
    # depth-first walk can wander through thousands of run shuffles before finding it.
    frontier = deque([start])
    try:
        while frontier:
            game._restore(frontier.popleft())
            moves = game._generate()
            # Checking every move for progress before expanding any keeps the common case (a
            # game that is far from stalled) to one move generation.
            if any(game._is_progress(move, baseline) for move in moves):
                return False
            here = game._snapshot()
            for move in moves:
                game._apply_unchecked(move)
                key = game.position_key()
                if key not in seen:
                    if len(seen) >= max_positions:
                        return False
                    seen.add(key)
                    frontier.append(game._snapshot())
                game._restore(here)
        return True
    finally:
        game._restore(start)
