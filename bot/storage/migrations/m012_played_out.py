"""Migration 12: one meaning per stored word of the Squadratik games.

- El Solitario's "Solitario" ending (hand and stock played out, cards still on the table;
  games.md's *Solitario*) was stored as ``solitario``, the id of another game: finished
  sessions, results and the daily's proofs of the game ``squadratik`` say ``played_out`` now;
  nothing else said ``solitario`` as an outcome (the game Solitario's endings are ``won``,
  ``stalled`` and ``resigned``).
- The card faces of both Squadratik games (``squadratik`` and ``maestras``) are
  ``squadratik_cards``: Cartas Maestras stored ``squadratik``, a game id, and El Solitario the
  French faces it never drew.
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
        UPDATE sessions SET faces = 'squadratik_cards'
            WHERE game_id IN ('squadratik', 'maestras') AND faces IN ('squadratik', 'francesi');
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
