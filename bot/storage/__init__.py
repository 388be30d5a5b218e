"""Storage: everything the bot keeps, in SQLite (the embedded default) or PostgreSQL.

One module per concern, mixed into the one ``Storage`` object the bot holds:

- ``sessions``: sessions, their moves (compare-and-set on the revision) and results
- ``players``: chat languages and players
- ``daily``: the day's deals and the ranked attempts
- ``play``: tables (turn timers, seats) and races
- ``ratings``: table ratings
- ``results``: leaderboards, streaks and stats, replays
- ``claims``: once-only work across processes (a claim row with a lease)
- ``updates``: platform update ids already handled (a redelivered update is dropped)
- ``focus``: each player's game in focus in a chat, and the Yes/No questions awaiting an answer
- ``web``: the web page's public player ids, ``/web hide``, chat links and ``/forgetme``
- ``limits``: the rate limits' token buckets, shared by every process
- ``migrations/``: the numbered schema, one module per migration, shared by both backends
- ``backend``: the SQLite and PostgreSQL connections; ``base``: opening and migrating

No SQL text lives outside this package. Errors are ``StorageError`` (cannot be used at all),
``StorageBusy`` (not now: locked, read-only, full, connection lost; nothing written),
``AlreadyExists`` (a unique rule refused an insert) and ``StaleRevision`` (another process
moved first).

>>> import asyncio
>>> async def demo():
...     store = await Storage.open("sqlite:///:memory:")
...     await store.set_chat_language("console", "c1", "it")
...     lang = await store.chat_language("console", "c1")
...     await store.close()
...     return lang
>>> asyncio.run(demo())
'it'
"""

from __future__ import annotations

from bot.storage.backend import BUSY_TIMEOUT_SECONDS, Backend
from bot.storage.base import DEFAULT_DATABASE_URL, database_path, is_postgres_url, redacted
from bot.storage.claims import DEFAULT_LEASE_SECONDS, ClaimsStore
from bot.storage.daily import DailyStore
from bot.storage.errors import AlreadyExists, StaleRevision, StorageBusy, StorageError
from bot.storage.focus import FocusStore
from bot.storage.limits import LimitsStore
from bot.storage.migrations import MIGRATIONS
from bot.storage.play import PlayStore
from bot.storage.players import CACHE_LIMIT, SEEN_PRECISION, PlayersStore
from bot.storage.ratings import RatingsStore
from bot.storage.records import (
    ACCEPTED,
    ACTIVE,
    ENDED,
    LOBBY,
    OVER,
    PLAYING,
    REFUSED,
    SOLO,
    TABLE,
    ResultRecord,
    SessionRecord,
)
from bot.storage.results import ResultsStore
from bot.storage.sessions import SessionsStore
from bot.storage.updates import UpdatesStore
from bot.storage.web import WebStore


class Storage(
    SessionsStore,
    PlayersStore,
    DailyStore,
    PlayStore,
    RatingsStore,
    ResultsStore,
    ClaimsStore,
    UpdatesStore,
    FocusStore,
    WebStore,
    LimitsStore,
):
    """The bot's database. Open with ``await Storage.open(url)``; close with ``close()``."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self._init_players()
        self._init_claims()


__all__ = [
    "ACCEPTED",
    "ACTIVE",
    "BUSY_TIMEOUT_SECONDS",
    "CACHE_LIMIT",
    "DEFAULT_LEASE_SECONDS",
    "DEFAULT_DATABASE_URL",
    "ENDED",
    "LOBBY",
    "MIGRATIONS",
    "OVER",
    "PLAYING",
    "REFUSED",
    "SEEN_PRECISION",
    "SOLO",
    "TABLE",
    "AlreadyExists",
    "ResultRecord",
    "SessionRecord",
    "StaleRevision",
    "Storage",
    "StorageBusy",
    "StorageError",
    "database_path",
    "is_postgres_url",
    "redacted",
]
