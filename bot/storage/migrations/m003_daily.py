"""Migration 3: Daily challenges (bot/daily.py): the deal chosen per game and UTC day, and each player's one ranked attempt (the primary key makes a second one impossible)."""

from __future__ import annotations

from bot.storage.migrations.dialect import adapt

VERSION = 3

SQL = """
        CREATE TABLE daily (
            game_id TEXT NOT NULL,
            day TEXT NOT NULL,               -- UTC date YYYY-MM-DD
            deal INTEGER NOT NULL,
            candidate INTEGER NOT NULL,      -- index of the chosen candidate (0 = first)
            best TEXT NOT NULL,              -- the solver's proof: won | completo | solitario
            line TEXT NOT NULL,              -- JSON list: the solver's verified line
            nodes INTEGER NOT NULL,          -- solver nodes over every candidate tried
            seconds REAL NOT NULL,
            chosen_at TEXT NOT NULL,
            PRIMARY KEY (game_id, day)
        );
        CREATE TABLE daily_attempts (
            platform TEXT NOT NULL,
            player_id TEXT NOT NULL,
            game_id TEXT NOT NULL,
            day TEXT NOT NULL,               -- the challenge's day (not the finish day)
            session_id TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            status TEXT NOT NULL,            -- playing | accepted | refused
            started_at TEXT NOT NULL,
            PRIMARY KEY (platform, player_id, game_id, day)
        );
        CREATE INDEX daily_attempts_session ON daily_attempts (session_id);
        CREATE INDEX daily_attempts_day ON daily_attempts (day, game_id);
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
