"""Computer players. One interface: ``player.choose(game, player_id) -> move``.

A computer player sees what a person in that seat sees: ``game.view(player_id)`` and
``game.legal_moves(player_id)``, nothing else (no other hand, no stock order).

- :class:`RandomPlayer` (any game): a uniformly random legal move, seeded, so a run repeats.
- :class:`engine.players.squadratik.GreedyPlayer` (El Solitario and Cartas Maestras): scores
  every legal move one move deep; see its docstring for the strategy.
- :class:`engine.players.squadratik.CarefulPlayer` (El Solitario): values the position each
  move leaves (what its hand and the unseen cards can still place) and searches the last
  hand exactly.

>>> import engine
>>> g = engine.new_game("maestras", deal=5, players=["ana", "cpu"])
>>> bot = make_player("random", seed=1)
>>> bot.choose(g, "ana") in g.legal_moves("ana")
True
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.game import Game
from engine.rng import DealRandom


class ComputerPlayer(Protocol):
    def choose(self, game: Game, player: str | None = None) -> Any: ...


class RandomPlayer:
    """A uniformly random legal move from the project's seeded generator.

    >>> import engine
    >>> g = engine.new_game("squadratik", deal=2)
    >>> RandomPlayer(7).choose(g) == RandomPlayer(7).choose(g)
    True
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = DealRandom(seed)

    def choose(self, game: Game, player: str | None = None) -> Any:
        legal = game.legal_moves(player)
        if not legal:
            raise ValueError("no legal move: the game is over or it is not this player's turn")
        return legal[self._rng.below(len(legal))]


def make_player(strategy: str, seed: int = 0) -> ComputerPlayer:
    """``"greedy"``, ``"careful"`` (El Solitario's best player that sees only its seat; it
    plays Cartas Maestras as the greedy one) or ``"random"`` (seeded)."""
    if strategy == "random":
        return RandomPlayer(seed)
    if strategy == "greedy":
        from engine.players.squadratik import GreedyPlayer

        return GreedyPlayer()
    if strategy == "careful":
        from engine.players.squadratik import CarefulPlayer

        return CarefulPlayer()
    raise ValueError(f"unknown strategy {strategy!r}")


STRATEGIES = ("greedy", "careful", "random")
