"""Migration 16: a race beside a table (issue 35).

``sessions_one_table`` held one open table *or* race per chat; README promises a race board and
a table seat at once. It holds one of each now: one open multiplayer session per chat and game
(a race's lobby is a Solitario session, a table a Cartas Maestras one). Dropped and made again,
so a test that rewinds a database and applies it a second time finds it as it should be.
"""

from __future__ import annotations

VERSION = 16

SQL = """
        DROP INDEX IF EXISTS sessions_one_table;
        CREATE UNIQUE INDEX sessions_one_table ON sessions (platform, chat_id, game_id)
            WHERE kind = 'table' AND status IN ('lobby', 'active', 'racing');
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return SQL
