"""Migration 13: forgetting a player completely, without a second ranked daily (issue 35).

``pseudonym_key``: one row, the random key of the keyed hashes that stand for a player where
the bot must recognise them without keeping who they are (written on first use by whichever
process comes first; every process reads the same one).

``daily_ranked``: a keyed hash of (platform, player, game, day) for every ranked daily attempt
of the current days, and no name: ``/forgetme`` deletes the attempt but keeps this row, and its
primary key refuses a second ranked attempt at the same game and day, in every process. Rows
of days that can no longer be played are deleted.

``generations``: counters that tell every process its in-memory copies are out of date
(``web``: the pages kept in memory, advanced by ``/forgetme``).

Only new tables, each ``IF NOT EXISTS``: a test that rewinds a database to an older migration
and applies the later ones again finds them in place.
"""

from __future__ import annotations

from bot.storage.migrations.dialect import adapt

VERSION = 13

SQL = """
        CREATE TABLE IF NOT EXISTS pseudonym_key (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            secret TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS daily_ranked (
            day TEXT NOT NULL,               -- the challenge's UTC day
            game_id TEXT NOT NULL,
            player_hash TEXT NOT NULL,       -- keyed hash of platform, player, game and day
            PRIMARY KEY (day, game_id, player_hash)
        );
        CREATE TABLE IF NOT EXISTS generations (
            name TEXT PRIMARY KEY,
            value INTEGER NOT NULL
        );
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
