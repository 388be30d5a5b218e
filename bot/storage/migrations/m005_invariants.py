"""Migration 5: the rules the database holds for every process (unique partial indexes).

One active solo game per player, chat and game; one open table or race per chat. (One move per
session and number, and one ranked daily attempt per player, game and day, are primary keys
since migrations 1 and 3.) Rows that break a rule already (left by races between processes
before this migration) are closed first, keeping the newest: the index could not be built."""

from __future__ import annotations

VERSION = 5

SQL = """
        UPDATE sessions SET status = 'ended' WHERE kind = 'solo' AND status = 'active' AND EXISTS (
            SELECT 1 FROM sessions newer WHERE newer.kind = 'solo' AND newer.status = 'active'
            AND newer.platform = sessions.platform AND newer.chat_id = sessions.chat_id
            AND newer.creator = sessions.creator AND newer.game_id = sessions.game_id
            AND (newer.created_at > sessions.created_at
                 OR (newer.created_at = sessions.created_at AND newer.id > sessions.id)));
        CREATE UNIQUE INDEX sessions_one_solo ON sessions (platform, chat_id, creator, game_id)
            WHERE kind = 'solo' AND status = 'active';
        UPDATE sessions SET status = 'ended' WHERE kind = 'table'
            AND status IN ('lobby', 'active', 'racing') AND EXISTS (
            SELECT 1 FROM sessions newer WHERE newer.kind = 'table'
            AND newer.status IN ('lobby', 'active', 'racing')
            AND newer.platform = sessions.platform AND newer.chat_id = sessions.chat_id
            AND (newer.created_at > sessions.created_at
                 OR (newer.created_at = sessions.created_at AND newer.id > sessions.id)));
        CREATE UNIQUE INDEX sessions_one_table ON sessions (platform, chat_id)
            WHERE kind = 'table' AND status IN ('lobby', 'active', 'racing');
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return SQL
