"""Migration 6: several solo games per player, and a player's auto-finish setting.

Migration 5 allowed one active solo game per player, chat and game; a player may now keep a
casual game open while playing the daily of the same game (a daily attempt is its own ranked
session), so the rule becomes one active casual and one active ranked solo game per player,
chat and game. Every row that kept the old rule keeps the new one: nothing to close first.

``player_settings`` holds what a player chose for themselves on a platform (``autofinish``: 1,
the default, lets the bot play the last cards to the foundations; 0 leaves them to the player).
"""

from __future__ import annotations

VERSION = 6

SQL = """
        DROP INDEX sessions_one_solo;
        CREATE UNIQUE INDEX sessions_one_solo ON sessions (platform, chat_id, creator, game_id, ranked)
            WHERE kind = 'solo' AND status = 'active';
        CREATE TABLE player_settings (
            platform TEXT NOT NULL,
            user_id TEXT NOT NULL,
            autofinish INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (platform, user_id)
        );
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return SQL
