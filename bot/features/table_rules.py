"""A table's rules outside the game (tables play the first game whose facts say it is played
at a table, ``GameInfo.table``: Cartas Maestras): which game, its seats, its turn timer
setting, who is a computer, who may manage a table or race lobby, and the words a race's lobby says instead
of a table's. Shared by the table's commands (:mod:`bot.features.tables`), its turns
(:mod:`bot.features.table_turns`) and the races (a race's lobby is a table session).

Arguments of ``/challenge``: mentions of the invited players, ``timer=<minutes>`` (1-1440) or
``untimed``. ``timer=0`` (and ``timer=off``) is accepted as "no timer", and the reply says so
in words ("timer=0 means no turn timer: this table is untimed"). The default turn timer is
three minutes.

>>> parse_timer("timer=5"), parse_timer("untimed"), parse_timer("@ana")
(300, None, Ellipsis)
"""

from __future__ import annotations

import re
import zlib
from typing import TYPE_CHECKING, Any

import engine
from bot import i18n
from bot.core.commands import ascii_number
from bot.features.race_rules import MAX_RACERS, is_race_game
from bot.storage.records import COMPUTER_PREFIX

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.session import Session

MAX_TIMER_MINUTES = 24 * 60
#: timeouts in a row after which a player leaves the table
MAX_TIMEOUTS = 3


def table_game() -> str | None:
    """The game ``/challenge`` opens a table of: the first in ``engine.GAMES`` order whose facts
    say it is played at a table (None: no such game here)."""
    return next((g for g, cls in engine.GAMES.items() if cls.info.table), None)


def max_seats(lobby: Session) -> int:
    """How many may sit in a lobby: its table game's seats, or a race's racers."""
    game_id = lobby.record.game_id
    return MAX_RACERS if is_race_game(game_id) else engine.game_info(game_id).max_players


def min_seats(game_id: str) -> int:
    """How many a table of ``game_id`` needs seated before it is dealt."""
    return engine.game_info(game_id).min_players


def is_computer(player: str) -> bool:
    """True for a seat played by the computer.

    >>> is_computer("~cpu2"), is_computer("ana")
    (True, False)
    """
    return player.startswith(COMPUTER_PREFIX)


def parse_timer(word: str) -> int | None | Any:
    """Seconds of a ``timer=<minutes>`` / ``untimed`` argument; None means untimed, Ellipsis
    means the word is not a timer setting; ``ValueError`` for a bad number of minutes."""
    lowered = word.lower()
    if lowered in ("untimed", "timer=untimed", "timer=off", "timer=0", "notimer"):
        return None
    if lowered.startswith("timer="):
        value = lowered.removeprefix("timer=").removesuffix("m")
        minutes = ascii_number(value)
        if minutes is None or not 1 <= minutes <= MAX_TIMER_MINUTES:
            raise ValueError(value)
        return minutes * 60
    return ...


def names_a_computer(query: str) -> bool:
    """Whether a player's words name a computer seat: its id or "Computer 2" / "Ordenador 2"
    in any language (computers play at tables but are not ranked: no stats, no ratings).

    >>> names_a_computer("Computer 1"), names_a_computer("ordenador 3"), names_a_computer("ana")
    (True, True, False)
    """
    words = " ".join(query.replace("_", " ").split()).casefold()
    if is_computer(words):
        return True
    for lang in i18n.LANGUAGES:
        before, _, after = (
            i18n.t(lang, "tables.computer_name", number="#").casefold().partition("#")
        )
        if re.fullmatch(re.escape(before) + r"\d+" + re.escape(after), words):
            return True
    return False


def seat_check(player: str) -> str:
    """A short check of a seat's player id, carried by a kick button with the seat's index
    (ids may be long or not ASCII, and a button id is 64 ASCII bytes at most)."""
    return format(zlib.crc32(player.encode()) & 0xFFFF, "04x")


#: what a race's lobby says where a table's says "table" (a race's lobby is a table session)
_RACE_WORDING = {
    "join.started": "race.join_started",
    "join.already": "race.join_already",
    "join.full": "race.join_full",
    "join.joined": "race.joined",
    "leave.not_seated": "race.not_seated",
    "leave.closed": "race.closed",
    "leave.left": "race.left",
    "kick.kicked": "race.kicked",
    "start.not_creator": "race.not_creator",
    "end.ended": "race.ended",
}


def lobby_key(lobby: Session, key: str) -> str:
    """``key``, or its race's wording when ``lobby`` is a race's ("ana joins the race", not
    "ana sits down"): a chat may hold both at once, and each message names its own."""
    return _RACE_WORDING.get(key, key) if is_race_game(lobby.record.game_id) else key


def may_manage(ctx: Ctx, lobby: Session) -> bool:
    """The creator of a table or race, and the chat's admins, may seat computers, remove
    players and end it."""
    return ctx.user == lobby.record.creator or ctx.req.is_admin
