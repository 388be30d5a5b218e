"""The rows storage hands out: sessions and results, and the status words they use."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

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
    (sid, platform, chat_id, kind, game_id, options, deal, players, names, invited, creator,
     status, outcome, faces, ranked, revision, board_message_id, created_at, last_active_at, expired_at) = row  # fmt: skip
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
