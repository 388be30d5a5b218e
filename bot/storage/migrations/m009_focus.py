"""Migration 9: the game each player has in focus in a chat, and the questions the bot asked.

``focus``: per platform, chat and player, the session whose board the player was last shown
or last played on there. A typed move, ``/move``, ``/hint`` and ``/board`` go to it. It is
stored, not kept in memory: any process may answer the player's next line.

``confirmations``: a question the bot asked before something that cannot be taken back
(resigning a ranked daily, a race or a table game, leaving a table game). Its id is in the
Yes button; a Yes after ``expires_at`` (seconds since the epoch) or a second press finds no
row, or an expired one, and changes nothing.
"""

from __future__ import annotations

from bot.storage.migrations.dialect import adapt

VERSION = 9

SQL = """
        CREATE TABLE focus (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            focused_at TEXT NOT NULL,
            PRIMARY KEY (platform, chat_id, player_id)
        );
        CREATE TABLE confirmations (
            id TEXT PRIMARY KEY,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            action TEXT NOT NULL,
            expires_at REAL NOT NULL
        );
        CREATE INDEX confirmations_expiry ON confirmations (expires_at);
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
