"""Canfield solver: :class:`engine.solvers.klondike.PileSearch` with Canfield's knowledge.

It uses the engine's fast path (``_generate``, ``_apply_unchecked``, ``_snapshot`` /
``_restore``, ``position_key``: tableau piles sorted, a symmetry) and reads, with full
knowledge of the deal, ``_reserve`` (face-down order), ``_stock``, ``_waste``, ``_tableau``,
``_fnd`` and ``base_rank``.

- **Safe foundation moves**: cards never leave a Canfield foundation, so a card goes home
  automatically only when nothing could ever want it on the tableau: both opposite-colour
  cards one rank lower (counted from the base rank, wrapping) are home already.
- **Ordering**: to a foundation first, then cards out of the reserve (directly or by emptying
  a pile the reserve refills), then waste to tableau, then other pile moves; fewer stock
  turns first.
- **Pruning**: a whole pile never moves into a space (that only renames the piles).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from engine.solvers import Counter, SearchOutcome
from engine.solvers.klondike import PileSearch, opposite_colour_home

RANKS = 13


class CanfieldRules:
    """Canfield knowledge for :class:`PileSearch`."""

    def key(self, game: Any) -> Hashable:
        return game.position_key()  # type: ignore[no-any-return]

    def is_won(self, game: Any) -> bool:
        return sum(len(pile) for pile in game._fnd) == 4 * RANKS

    def stock_key(self, game: Any) -> Hashable:
        return (len(game._stock), len(game._waste))

    def safe(self, game: Any, move: Any) -> bool:
        if not move.dst.startswith("f"):
            return False
        card = game._pile(move.src)[-1]
        # a foundation holding h cards has ranks base .. base + h - 1 (relative 0 .. h - 1)
        relative = (card.rank - game.base_rank) % RANKS
        if relative == 0:
            return False  # the card under a base card is the last of its suit to go home
        return opposite_colour_home(game, card) >= relative

    def rank(self, game: Any, move: Any) -> int | None:
        src, dst = move.src, move.dst
        if dst.startswith("f"):
            return 0
        if src == "r":
            return 1
        if src == "w":
            return 2
        if not game._tableau[int(dst) - 1]:
            return None  # a whole pile into a space only renames the piles
        return 1 if game._reserve else 3  # the reserve refills the emptied pile


def search(game: Any, counter: Counter) -> SearchOutcome:
    """Search ``game`` (a ``Canfield``) from its position; see the module docstring."""
    return PileSearch(game, CanfieldRules(), counter).run()
