"""Migration 8: the race-wide move counter (seed 001's "contatore generale").

Every move of every racer advances one counter kept on the race's row; each move of a race
board stores the counter's value it took (``moves.race_move``, NULL on every other board). A
racer's tie-break is the ``race_move`` of their last scoring move, so the value lives in the
database with the moves and a restarted process reads it back instead of recounting."""

from __future__ import annotations

VERSION = 8

SQL = """
        ALTER TABLE races ADD COLUMN move_counter INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE moves ADD COLUMN race_move INTEGER;
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return SQL
