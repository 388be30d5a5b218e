"""Migration 15: a player's open solo games across chats, found by index.

A player may keep only so many solo games open across all chats (``bot.core.room``): each new
one reads the player's open solo games, by platform and player, the least recently touched
first. The index holds open solo games only, so it stays as small as the games being played.
"""

from __future__ import annotations

VERSION = 15

SQL = """
        CREATE INDEX IF NOT EXISTS sessions_player_solo ON sessions (platform, creator, last_active_at)
            WHERE kind = 'solo' AND status = 'active';
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return SQL
