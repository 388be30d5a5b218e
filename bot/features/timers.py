"""Turn timers and race clocks: what the bot does when time runs out.

Deadlines are stored (``table_play.deadline``, ``races.join_deadline`` / ``races.deadline``),
never kept only in memory, so a restarted bot picks them up: :func:`table_timeouts` (and the
races' own ticker) compare every stored deadline with the core's injectable clock and act on
those that have passed. The core runs the registered tickers every few seconds in a background
task; tests move a fake clock and call ``await core.tick()`` themselves.

A Cartas Maestras player whose turn timer runs out gets a *timeout*: the core plays
:func:`timeout_move` for them (the engine's pass, drawing a card, when the rules allow it;
``stop`` in the final phase; otherwise, since a pass is illegal while a card fits and the
engine has no timeout move, the greedy computer player places a card for them). Three
timeouts in a row and they leave the table (their seat is auto-passed from then on).

>>> import engine
>>> g = engine.new_game("maestras", deal=1, players=["ana", "bo"])
>>> str(timeout_move(g, "ana")) in {str(m) for m in g.legal_moves("ana")}
True
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.core.session import iso
from engine import Game
from engine.players.squadratik import GreedyPlayer

if TYPE_CHECKING:
    from bot.core.service import Service

log = logging.getLogger("tavolo.timers")


def computer_move(
    game: Game, player: str, seed: int = 0, view: Mapping[str, Any] | None = None
) -> Any:
    """The move the computer (the engine's greedy strategy, ``make_player("greedy", seed)``,
    which draws no random number) plays for ``player``; ``view``: the seat's view of the
    position, when the caller has it already."""
    return GreedyPlayer().choose(game, player, view)


def timeout_move(game: Game, player: str, view: Mapping[str, Any] | None = None) -> Any:
    """The move that passes ``player``'s turn as far as the rules allow (see module doc).

    >>> import engine
    >>> g = engine.new_game("maestras", deal=3, players=["ana", "bo"])
    >>> timeout_move(g, "ana") in g.legal_moves("ana")
    True
    """
    legal = game.legal_moves(player)
    for move in legal:
        if str(move) in ("pass", "stop"):
            return move
    return computer_move(game, player, view=view)


async def table_timeouts(
    core: Service, time_out: Callable[[str, datetime], Awaitable[bool]], now: datetime
) -> int:
    """Act on every table turn timer that ran out by ``now``; returns how many."""
    handled = 0
    for session_id in await core.store.play.tables_past_deadline(iso(now)):
        try:
            if await time_out(session_id, now):
                handled += 1
        except Exception:
            log.exception("turn timeout of table %s failed", session_id)
    return handled
