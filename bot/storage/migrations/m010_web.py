"""Migration 10: the web page (issue 29).

``web_players`` gives each player who appears on a page a random public id (the page never
shows a platform user id) and remembers ``/web hide``; ``web_chat_links`` holds the
unguessable links to a chat's own leaderboards, at most one live link per chat (a revoked one
keeps its row with ``revoked_at`` so it answers 404 for good). ``results_session`` serves the
replay and daily pages, which read results by session.
"""

from __future__ import annotations

VERSION = 10

SQL = """
        CREATE TABLE web_players (
            platform TEXT NOT NULL,
            user_id TEXT NOT NULL,
            public_id TEXT NOT NULL UNIQUE,
            hidden INTEGER NOT NULL DEFAULT 0,   -- 1: /web hide, off every public page
            PRIMARY KEY (platform, user_id)
        );
        CREATE TABLE web_chat_links (
            token TEXT PRIMARY KEY,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            created_at TEXT NOT NULL,
            revoked_at TEXT                      -- NULL: the chat's live link
        );
        CREATE UNIQUE INDEX web_chat_links_live ON web_chat_links (platform, chat_id)
            WHERE revoked_at IS NULL;
        CREATE INDEX results_session ON results (session_id);
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return SQL
