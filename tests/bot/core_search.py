"""A small test-side search over the public engine API: finds a move list that wins a deal.

Depth-first, trying moves to a foundation first and turning the stock last, never visiting a
position twice (positions are compared by their public view without counters). Used to play
whole games through the bot without pinning long move lists in the tests.
"""

from __future__ import annotations

import json
from typing import Any

import engine

#: view keys that change with every move but do not change the position
_COUNTERS = ("move_number", "last_move", "score", "score_move", "last_move_piles",
             "last_move_cells", "stock_recycles", "redeals", "dollars", "current_player")  # fmt: skip


def _key(view: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in view.items() if k not in _COUNTERS}, sort_keys=True)


def _order(game: Any, moves: list[Any]) -> list[Any]:
    foundations = {p["id"] for p in game.view().get("piles", []) if p.get("kind") == "foundation"}

    def rank(move: Any) -> int:
        if getattr(move, "dst", None) in foundations:
            return 0
        if getattr(move, "dst", None) is None:
            return 2  # turning the stock: last
        return 1

    return sorted(moves, key=rank)


def find_win(game_id: str, deal: int, options: dict[str, Any] | None = None,
             node_limit: int = 60_000) -> list[str] | None:  # fmt: skip
    """The notations of a winning game, or None when none was found within ``node_limit``."""
    game = engine.new_game(game_id, deal, None, options or {})
    seen: set[str] = set()
    path: list[str] = []
    nodes = 0

    def dfs() -> bool:
        nonlocal nodes
        if game.outcome == "won":
            return True
        if game.is_over or nodes >= node_limit:
            return False
        key = _key(game.view())
        if key in seen:
            return False
        seen.add(key)
        for move in _order(game, game.legal_moves()):
            nodes += 1
            game.play(move)
            path.append(str(move))
            if dfs():
                return True
            path.pop()
            game.undo()
        return False

    return list(path) if dfs() else None
