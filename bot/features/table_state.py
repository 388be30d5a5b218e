"""A table's play state that the engine does not keep, stored in its ``table_play`` row: the
turn timer, the running turn's deadline, each player's timeouts in a row, who left, and which
seats the computer plays."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bot.storage import Storage

#: the default turn timer (games.md / bot.md: three minutes)
DEFAULT_TIMER_SECONDS = 180


@dataclass(slots=True)
class TablePlay:
    """What the bot keeps about a table besides the engine's game."""

    session_id: str
    timer_seconds: int | None = DEFAULT_TIMER_SECONDS
    deadline: str | None = None
    timeouts: dict[str, int] = field(default_factory=dict)
    departed: list[str] = field(default_factory=list)
    computers: list[str] = field(default_factory=list)

    def auto_played(self, player: str) -> bool:
        """Does the core play this seat's turns (a computer or a player who left)?"""
        return player in self.computers or player in self.departed

    def people_left(self, players: list[str]) -> list[str]:
        """Seated people still playing (not computers, not gone)."""
        return [p for p in players if not self.auto_played(p)]


async def load_play(store: Storage, session_id: str) -> TablePlay:
    """The table's play state (defaults for a table that has none stored yet)."""
    row = await store.table_play_row(session_id)
    if not row:
        return TablePlay(session_id)
    timer, deadline, timeouts, departed, computers = row
    return TablePlay(
        session_id,
        timer,
        deadline,
        json.loads(timeouts),
        json.loads(departed),
        json.loads(computers),
    )


async def save_play(store: Storage, play: TablePlay) -> None:
    await store.save_table_play((play.session_id, play.timer_seconds, play.deadline,
                                 json.dumps(play.timeouts, sort_keys=True), json.dumps(play.departed),
                                 json.dumps(play.computers)))  # fmt: skip
