"""Tavolo's rules engine: pure, synchronous, deterministic; no I/O.

>>> import engine
>>> engine.GAMES["solitario"]
<class 'engine.solitario.Solitario'>
>>> g = engine.new_game("solitario", deal=1)
>>> move = g.play(g.legal_moves()[0])
>>> g.moves == [str(move)], g.move_number
(True, 1)

Each game module documents its move notation in its docstring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.canfield import Canfield
from engine.game import BadSetup, Game, GameError, IllegalMove, Move, Outcome
from engine.imaginary13 import Imaginary13
from engine.solitario import Solitario
from engine.squadratik.maestras import CartasMaestras
from engine.squadratik.solitario import ElSolitario

# game id -> class. Each game module adds its line here when it lands.
GAMES: dict[str, type[Game]] = {}
GAMES[Solitario.game_id] = Solitario
GAMES[Canfield.game_id] = Canfield
GAMES[Imaginary13.game_id] = Imaginary13
GAMES[ElSolitario.game_id] = ElSolitario
GAMES[CartasMaestras.game_id] = CartasMaestras


def new_game(
    game_id: str,
    deal: int = 0,
    players: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """A new game of ``game_id`` on deal number ``deal``."""
    try:
        cls = GAMES[game_id]
    except KeyError:
        raise BadSetup("unknown_game", game=game_id) from None
    return cls(deal, players, options)


def replay(
    game_id: str,
    deal: int,
    players: Sequence[str] | None,
    options: Mapping[str, Any] | None,
    moves: Iterable[str],
) -> Game:
    """Rebuild a game from its log (``game.moves``).

    Every game is turn-based, so each move is played by whoever is to move at that point."""
    game = new_game(game_id, deal, players, options)
    for text in moves:
        game.play(text)
    return game


__all__ = [
    "GAMES",
    "BadSetup",
    "Game",
    "GameError",
    "IllegalMove",
    "Move",
    "Outcome",
    "new_game",
    "replay",
]
