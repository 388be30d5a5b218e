"""Migration 11: the rate limits' token buckets, shared by every process.

``rate_buckets``: one row per limited user or chat (``scope`` ``user`` or ``chat``, ``key``
``platform:id``): the tokens left when it was last updated (``updated_at``, seconds since the
epoch: the wall clock every process shares) and how many requests were refused since it last
had a token (``refused``: the first refusal gets the "slow down" notice, the rest silence).
Each request updates its row in one atomic statement, so however many processes serve a user,
they draw on one bucket. Rows idle long enough to be full again are pruned.
"""

from __future__ import annotations

from bot.storage.migrations.dialect import adapt

VERSION = 11

SQL = """
        CREATE TABLE rate_buckets (
            scope TEXT NOT NULL,
            key TEXT NOT NULL,
            tokens REAL NOT NULL,
            updated_at REAL NOT NULL,
            refused INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (scope, key)
        );
        CREATE INDEX rate_buckets_updated ON rate_buckets (updated_at);
"""


def script(dialect: str) -> str:
    """The migration's SQL in ``dialect`` (``sqlite`` or ``postgres``)."""
    return adapt(SQL, dialect)
