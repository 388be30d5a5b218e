"""Migration 14: who has been seen in which chat, so a player is named or looked up only
where they have been seen (``/stats Ana``, ``/challenge @ana`` find the Ana of this chat, never
someone known only from another chat).

``chat_players``: one row per person and chat, with when they were last seen there (their name
stays in ``players``). It starts with everyone who finished a game in a chat; anyone else is
added when they next write there. Each statement may run again (a test that rewinds a database
to an older migration applies this one again over the table in place).
"""

from __future__ import annotations

from bot.storage.migrations.dialect import adapt

VERSION = 14

SQL = """
        CREATE TABLE IF NOT EXISTS chat_players (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            last_seen TEXT NOT NULL,
            PRIMARY KEY (platform, chat_id, user_id)
        );
        CREATE INDEX IF NOT EXISTS chat_players_user ON chat_players (platform, user_id);
        INSERT INTO chat_players (platform, chat_id, user_id, last_seen)
            SELECT platform, chat_id, player_id, MAX(finished_at) FROM results
            WHERE player_id NOT LIKE '~%' AND player_id NOT LIKE 'former:%'
            GROUP BY platform, chat_id, player_id
            ON CONFLICT (platform, chat_id, user_id) DO NOTHING;
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
