"""The records storage hands out for sessions and results, and the status words they use."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: the player ids of computer seats at tables (``~cpu1``...): a prefix no platform gives a user
#: id (Discord and Telegram ids are digits; console names cannot hold "~"). Computers play
#: but are never ranked: the leaderboards leave their results out.
COMPUTER_PREFIX = "~cpu"

SOLO = "solo"
TABLE = "table"

# Session statuses
LOBBY = "lobby"  # a table waiting for players
ACTIVE = "active"
OVER = "over"  # finished by the rules, resigned, expired
ENDED = "ended"  # a table closed before it finished (no result)

# Daily attempt statuses (``daily_attempts.status``)
PLAYING = "playing"
ACCEPTED = "accepted"  # verified: ranked
REFUSED = "refused"  # its result is not what the stored moves give: stays unranked


@dataclass(slots=True)
class SessionRecord:
    """One row of ``sessions``: a solo game or a multiplayer table."""

    id: str
    platform: str
    chat_id: str
    kind: str
    game_id: str
    options: dict[str, Any]
    deal: int
    players: list[str]
    names: dict[str, str]
    creator: str
    status: str
    faces: str
    created_at: str
    last_active_at: str
    invited: list[str] = field(default_factory=list)
    outcome: str | None = None
    ranked: bool = False
    revision: int = 0
    board_message_id: str | None = None
    #: when the idle sweep ended this solo game (None: it was not ended for idling)
    expired_at: str | None = None


@dataclass(slots=True)
class ResultRecord:
    """One player's result of one finished game."""

    session_id: str
    platform: str
    chat_id: str
    game_id: str
    player_id: str
    player_name: str
    deal: int
    options: dict[str, Any]
    score: int
    tiebreak_move: int
    move_count: int
    moves: list[str]
    outcome: str
    won: bool
    ranked: bool
    day: str
    finished_at: str
    place: int | None = None
    masters: int | None = None
    cards: int | None = None


SESSION_COLUMNS = (
    "id, platform, chat_id, kind, game_id, options, deal, players, names, invited, creator, "
    "status, outcome, faces, ranked, revision, board_message_id, created_at, last_active_at, expired_at"
)


def row_to_session(row: Sequence[Any]) -> SessionRecord:
    (
        sid,
        platform,
        chat_id,
        kind,
        game_id,
        options,
        deal,
        players,
        names,
        invited,
        creator,
        status,
        outcome,
        faces,
        ranked,
        revision,
        board_message_id,
        created_at,
        last_active_at,
        expired_at,
    ) = row
    return SessionRecord(
        id=sid,
        platform=platform,
        chat_id=chat_id,
        kind=kind,
        game_id=game_id,
        options=json.loads(options),
        deal=deal,
        players=json.loads(players),
        names=json.loads(names),
        invited=json.loads(invited),
        creator=creator,
        status=status,
        outcome=outcome,
        faces=faces,
        ranked=bool(ranked),
        revision=revision,
        board_message_id=board_message_id,
        created_at=created_at,
        last_active_at=last_active_at,
        expired_at=expired_at,
    )


RESULT_COLUMNS = (
    "session_id, platform, chat_id, game_id, player_id, player_name, deal, options, score, "
    "tiebreak_move, move_count, moves, outcome, won, ranked, day, finished_at, place, masters, cards"
)


def row_to_result(row: Sequence[Any]) -> ResultRecord:
    (
        session_id,
        platform,
        chat_id,
        game_id,
        player_id,
        player_name,
        deal,
        options,
        score,
        tiebreak_move,
        move_count,
        moves,
        outcome,
        won,
        ranked,
        day,
        finished_at,
        place,
        masters,
        cards,
    ) = row
    return ResultRecord(
        session_id=str(session_id),
        platform=str(platform),
        chat_id=str(chat_id),
        game_id=str(game_id),
        player_id=str(player_id),
        player_name=str(player_name),
        deal=int(deal),
        options=json.loads(options),
        score=int(score),
        tiebreak_move=int(tiebreak_move),
        move_count=int(move_count),
        moves=json.loads(moves),
        outcome=str(outcome),
        won=bool(won),
        ranked=bool(ranked),
        day=str(day),
        finished_at=str(finished_at),
        place=None if place is None else int(place),
        masters=None if masters is None else int(masters),
        cards=None if cards is None else int(cards),
    )
