"""Migration 1: The first schema: sessions, moves, results, chat settings and players."""

from __future__ import annotations

from bot.storage.migrations.dialect import adapt

VERSION = 1

SQL = """
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            kind TEXT NOT NULL,              -- solo | table
            game_id TEXT NOT NULL,
            options TEXT NOT NULL,           -- JSON object
            deal INTEGER NOT NULL,
            players TEXT NOT NULL,           -- JSON list of user ids, in turn order
            names TEXT NOT NULL,             -- JSON object user id -> display name
            invited TEXT NOT NULL DEFAULT '[]',
            creator TEXT NOT NULL,
            status TEXT NOT NULL,            -- lobby | active | over | ended
            outcome TEXT,
            faces TEXT NOT NULL,
            ranked INTEGER NOT NULL DEFAULT 0,
            revision INTEGER NOT NULL DEFAULT 0,
            board_message_id TEXT,
            created_at TEXT NOT NULL,
            last_active_at TEXT NOT NULL
        );
        CREATE INDEX sessions_chat ON sessions (platform, chat_id, status);
        CREATE TABLE moves (
            session_id TEXT NOT NULL REFERENCES sessions (id),
            n INTEGER NOT NULL,              -- 1-based move number
            player TEXT NOT NULL,
            notation TEXT NOT NULL,
            played_at TEXT NOT NULL,
            PRIMARY KEY (session_id, n)
        );
        CREATE TABLE results (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            game_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            player_name TEXT NOT NULL,
            deal INTEGER NOT NULL,
            options TEXT NOT NULL,
            score INTEGER NOT NULL,
            tiebreak_move INTEGER NOT NULL,  -- move at which the final score was reached
            move_count INTEGER NOT NULL,
            moves TEXT NOT NULL,             -- JSON list: the verified move list
            outcome TEXT NOT NULL,
            won INTEGER NOT NULL,
            ranked INTEGER NOT NULL,         -- 1: a daily challenge attempt
            day TEXT NOT NULL,               -- UTC date YYYY-MM-DD of the finish
            finished_at TEXT NOT NULL,
            place INTEGER,                   -- multiplayer: 1 = first
            masters INTEGER,
            cards INTEGER
        );
        CREATE INDEX results_board ON results (game_id, day, score);
        CREATE INDEX results_chat ON results (platform, chat_id, day);
        CREATE INDEX results_player ON results (platform, player_id, game_id);
        CREATE TABLE settings (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            language TEXT,
            PRIMARY KEY (platform, chat_id)
        );
        CREATE TABLE players (
            platform TEXT NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL,
            PRIMARY KEY (platform, user_id)
        );
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
