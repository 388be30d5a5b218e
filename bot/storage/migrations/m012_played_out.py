"""Migration 12: El Solitario's "Solitario" ending is stored as ``played_out``.

The ending (hand and stock played out, cards still on the table; games.md's *Solitario*) was
stored as ``solitario``, the id of another game. Finished sessions, results and the daily's
proofs of the game ``squadratik`` get the new word; nothing else said ``solitario`` as an
outcome (the game Solitario's endings are ``won``, ``stalled`` and ``resigned``).
"""

from __future__ import annotations

from bot.storage.migrations.dialect import adapt

VERSION = 12

SQL = """
        UPDATE sessions SET outcome = 'played_out'
            WHERE game_id = 'squadratik' AND outcome = 'solitario';
        UPDATE results SET outcome = 'played_out'
            WHERE game_id = 'squadratik' AND outcome = 'solitario';
        UPDATE daily SET best = 'played_out'
            WHERE game_id = 'squadratik' AND best = 'solitario';
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
