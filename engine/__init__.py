"""Tavolo's rules engine: pure, synchronous, deterministic; no I/O.

>>> import engine
>>> engine.GAMES["freecell"].info.names["en"]
'FreeCell'
>>> g = engine.new_game("solitario", deal=1)
>>> str(g.play("d")), g.move_number
('d', 1)
>>> engine.game_info("squadratik").names["es"], engine.by_word("Trece Imaginario").id
('Squadratik', 'imaginary13')

Each game module documents its move notation in its docstring; each game class carries its
facts as ``info`` (:class:`engine.gameinfo.GameInfo`), which the bot and renderer read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.canfield import Canfield
from engine.freecell import FreeCell
from engine.game import BadSetup, Game, GameError, IllegalMove, Move, Outcome
from engine.gameinfo import GameInfo, normal_word
from engine.imaginary13 import Imaginary13
from engine.solitario import Solitario
from engine.squadratik.el_solitario import ElSolitario
from engine.squadratik.maestras import CartasMaestras

# game id -> class, in the order menus list them (solo games, then table games). A new game
# adds one line here; everything else about it is on its class's ``info``.
GAMES: dict[str, type[Game]] = {}
GAMES[Solitario.game_id] = Solitario
GAMES[Canfield.game_id] = Canfield
GAMES[Imaginary13.game_id] = Imaginary13
GAMES[ElSolitario.game_id] = ElSolitario
GAMES[FreeCell.game_id] = FreeCell
GAMES[CartasMaestras.game_id] = CartasMaestras


def game_info(game_id: str) -> GameInfo:
    """The facts of ``game_id`` (``BadSetup("unknown_game")`` when there is no such game)."""
    try:
        return GAMES[game_id].info
    except KeyError:
        raise BadSetup("unknown_game", game=game_id) from None


def by_word(word: str) -> GameInfo | None:
    """The game a player's word names (its id, a name in any language, an alias; any case,
    spaces and hyphens ignored), or None.

    >>> by_word("cartas-maestras").id
    'maestras'
    >>> by_word("Klondike").id, by_word("chess")
    ('solitario', None)
    """
    wanted = normal_word(word)
    for cls in GAMES.values():
        if wanted in cls.info.words:
            return cls.info
    return None


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
    "GameInfo",
    "IllegalMove",
    "Move",
    "Outcome",
    "by_word",
    "game_info",
    "new_game",
    "replay",
]
