"""Migration 2: Playing together (bot/tables.py, bot/timers.py, bot/ratings.py, bot/races.py)."""

from __future__ import annotations

from bot.storage.migrations.dialect import adapt

VERSION = 2

SQL = """
        CREATE TABLE table_play (
            session_id TEXT PRIMARY KEY REFERENCES sessions (id),
            timer_seconds INTEGER,           -- NULL: untimed table
            deadline TEXT,                   -- current turn's deadline (ISO), NULL: none running
            timeouts TEXT NOT NULL DEFAULT '{}',   -- JSON player -> timeouts in a row
            departed TEXT NOT NULL DEFAULT '[]',   -- JSON players who left: auto-passed
            computers TEXT NOT NULL DEFAULT '[]'   -- JSON seats played by the computer
        );
        CREATE INDEX table_play_deadline ON table_play (deadline);
        CREATE TABLE ratings (
            platform TEXT NOT NULL,
            scope TEXT NOT NULL,             -- a chat id, or '*' for the platform-wide rating
            game_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            player_name TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (platform, scope, game_id, player_id)
        );
        CREATE TABLE races (
            id TEXT PRIMARY KEY REFERENCES sessions (id),   -- the race's lobby session
            minutes INTEGER,                 -- NULL: senza tempo (no time limit)
            senza_tempo INTEGER NOT NULL,
            round INTEGER NOT NULL DEFAULT 0,        -- 0 while joining, then 1, 2, ...
            join_deadline TEXT,
            deadline TEXT,                   -- end of the running round (timed races)
            started_at TEXT
        );
        CREATE TABLE race_entries (
            race_id TEXT NOT NULL REFERENCES races (id),
            round INTEGER NOT NULL,
            player_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            PRIMARY KEY (race_id, round, player_id)
        );
        CREATE INDEX race_entries_session ON race_entries (session_id);
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
