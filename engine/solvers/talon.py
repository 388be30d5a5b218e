"""The stock and waste of a draw-three game as one *talon* (shared by the pile solvers).

The talon lists the waste (bottom to top) followed by the stock in turning order; ``p`` cards
of it are on the waste, so the waste's top card is ``talon[p - 1]``. Turning the stock (the
engine's ``d``) moves three cards (fewer at the end) onto the waste; on an empty stock it turns
the waste over. With unlimited turn-overs the cards that turns alone can bring to the top of
the waste are computable, so a solver takes one search step per card *played* from the talon
instead of one per turn (``reach``).

>>> reach(7, 2)          # waste 2 cards, stock 5: tops after 0, 1, 2 turns, then the turn-over
((1, 0), (4, 1), (6, 2), (2, 4), (5, 5))
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def reach(size: int, waste: int) -> tuple[tuple[int, int], ...]:
    """``(index, turns)`` for every talon card that stock turns alone bring to the top of the
    waste, with the fewest turns, from a talon of ``size`` cards with ``waste`` on the waste.
    Playing the card at ``index`` leaves ``index`` cards on the waste."""
    found: dict[int, int] = {}
    if waste:
        found[waste - 1] = 0
    top, turns = waste, 0
    while top < size:
        top = min(top + 3, size)
        turns += 1
        found.setdefault(top - 1, turns)
    if size:
        turns += 1  # the turn-over
        top = 0
        while top < size:
            top = min(top + 3, size)
            turns += 1
            found.setdefault(top - 1, turns)
    return tuple(found.items())
