"""Migration 7: work that must happen once across processes, and Telegram updates seen.

``claims``: one row per piece of once-only work being done (a table's turn timeout, the idle
sweep, a race's clock, a day's deal choice). A process takes a claim for a lease; an expired
lease may be taken over, so a process that dies mid-claim is replaced once its lease runs out.
``expires_at`` is seconds since the epoch (wall clock, the same on every process).

``handled_updates``: the ids of platform updates (Telegram's ``update_id``) already handled, so
an update delivered twice, or to two webhook workers, is handled once; old ids are pruned.

``private_messages``: which table (group chat) a private message with buttons belongs to (a
player's Cartas Maestras hand sent to their private chat), so its buttons play at that table
from any process and after a restart.
"""

from __future__ import annotations

from bot.storage.migrations.dialect import adapt

VERSION = 7

SQL = """
        CREATE TABLE claims (
            name TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            expires_at REAL NOT NULL
        );
        CREATE TABLE handled_updates (
            platform TEXT NOT NULL,
            update_id BIGINT NOT NULL,
            seen_at REAL NOT NULL,
            PRIMARY KEY (platform, update_id)
        );
        CREATE INDEX handled_updates_seen ON handled_updates (seen_at);
        CREATE TABLE private_messages (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            message_id TEXT NOT NULL,
            origin_chat TEXT NOT NULL,
            sent_at REAL NOT NULL,
            PRIMARY KEY (platform, chat_id, message_id)
        );
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
