"""Migration 4: A solo game ended for idling (24 h without a move) says so when its player comes back, instead of "you have no game here". NULL: ended any other way, or still on."""

from __future__ import annotations

VERSION = 4

SQL = """
        ALTER TABLE sessions ADD COLUMN expired_at TEXT;
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return SQL
