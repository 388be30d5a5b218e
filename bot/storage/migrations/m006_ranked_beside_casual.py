"""Migration 6: a ranked daily attempt beside a casual game of the same game.

Migration 5 allowed one active solo game per player, chat and game; a player may now keep a
casual game open while playing the daily of the same game (a daily attempt is its own ranked
session), so the rule becomes one active casual and one active ranked solo game per player,
chat and game. Every row that kept the old rule keeps the new one: nothing to close first."""

from __future__ import annotations

VERSION = 6

SQL = """
        DROP INDEX sessions_one_solo;
        CREATE UNIQUE INDEX sessions_one_solo ON sessions (platform, chat_id, creator, game_id, ranked)
            WHERE kind = 'solo' AND status = 'active';
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return SQL
