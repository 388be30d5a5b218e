"""Storage: everything the bot keeps, in SQLite (the embedded default) or PostgreSQL.

``Storage`` is the one object the bot opens (``await Storage.open(url)``) and closes; it
migrates the schema and holds the connection. What it keeps is read and written through its
small named stores, one module each, all over the one shared backend:

- ``storage.sessions``: sessions, their moves (compare-and-set on the revision), storing results
- ``storage.players``: chat languages, players and their settings
- ``storage.daily``: the day's deals and the ranked attempts
- ``storage.play``: tables (turn timers, seats) and races
- ``storage.ratings``: table ratings
- ``storage.results``: reading results: leaderboards, streaks and stats, replays
- ``storage.claims``: once-only work across processes (a claim row with a lease)
- ``storage.updates``: platform update ids already handled (a redelivered update is dropped)
- ``storage.focus``: each player's game in focus in a chat, and the Yes/No questions awaiting an answer
- ``storage.web``: the web page's public player ids, ``/web hide``, chat links and ``/forgetme``
- ``storage.limits``: the rate limits' token buckets, shared by every process
- ``storage.pseudonyms``: the database's key for keyed hashes that stand for a player
- ``records``: the session and result records, and the status words they use
- ``migrations/``: the numbered schema, one module per migration, shared by both backends
- ``backend``: the SQLite and PostgreSQL connections; ``base``: opening and migrating

Every method returns named records (frozen or slotted dataclasses), never positional rows, and
takes a record where it stores one.

No SQL text lives outside this package. Errors are ``StorageError`` (cannot be used at all),
``StorageBusy`` (not now: locked, read-only, full, connection lost; nothing written),
``AlreadyExists`` (a unique rule refused an insert) and ``StaleRevision`` (another process
moved first).

>>> import asyncio
>>> async def demo():
...     store = await Storage.open("sqlite:///:memory:")
...     await store.players.set_chat_language("console", "c1", "it")
...     lang = await store.players.chat_language("console", "c1")
...     await store.close()
...     return lang
>>> asyncio.run(demo())
'it'
"""

from __future__ import annotations

from bot.storage.backend import BUSY_TIMEOUT_SECONDS, Backend
from bot.storage.base import (
    DEFAULT_DATABASE_URL,
    StorageBase,
    database_path,
    is_postgres_url,
    redacted,
)
from bot.storage.claims import DEFAULT_LEASE_SECONDS, Claim, ClaimsStore
from bot.storage.daily import DailyAttempt, DailyChoice, DailyStore
from bot.storage.errors import AlreadyExists, StaleRevision, StorageBusy, StorageError
from bot.storage.focus import ChatView, Confirmation, FocusStore
from bot.storage.limits import LimitsStore
from bot.storage.migrations import MIGRATIONS
from bot.storage.play import (
    DEFAULT_TIMER_SECONDS,
    PlayStore,
    Race,
    RaceBoard,
    RaceEntry,
    RaceLobby,
    TablePlay,
)
from bot.storage.players import CACHE_LIMIT, SEEN_PRECISION, Player, PlayersStore
from bot.storage.postgres import PoolSettings
from bot.storage.pseudonyms import PseudonymStore
from bot.storage.ratings import RatingRecord, RatingsStore
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
from bot.storage.results import (
    Entry,
    PlayerResult,
    RaceResult,
    ResultsStore,
    SoloWin,
    TableTally,
)
from bot.storage.sessions import SessionRevision, SessionsStore, StoredMove
from bot.storage.updates import UpdatesStore
from bot.storage.web import ChatKey, PlayerKey, WebStore


class Storage(StorageBase):
    """The bot's database. Open with ``await Storage.open(url)``; close with ``close()``;
    read and write through its named stores (``storage.sessions.get(...)``)."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self.play = PlayStore(backend)
        self.sessions = SessionsStore(backend, self.play)
        self.players = PlayersStore(backend)
        self.pseudonyms = PseudonymStore(backend)
        self.daily = DailyStore(backend, self.pseudonyms)
        self.ratings = RatingsStore(backend)
        self.results = ResultsStore(backend)
        self.claims = ClaimsStore(backend)
        self.updates = UpdatesStore(backend)
        self.focus = FocusStore(backend)
        self.web = WebStore(backend, self.players, self.daily)
        self.limits = LimitsStore(backend)


__all__ = [
    "PoolSettings",
    "ACCEPTED",
    "ACTIVE",
    "BUSY_TIMEOUT_SECONDS",
    "CACHE_LIMIT",
    "DEFAULT_DATABASE_URL",
    "DEFAULT_LEASE_SECONDS",
    "DEFAULT_TIMER_SECONDS",
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
    "ChatKey",
    "ChatView",
    "Claim",
    "ClaimsStore",
    "Confirmation",
    "DailyAttempt",
    "DailyChoice",
    "DailyStore",
    "Entry",
    "FocusStore",
    "LimitsStore",
    "Player",
    "PlayerKey",
    "PlayerResult",
    "PlayersStore",
    "PlayStore",
    "PseudonymStore",
    "Race",
    "RaceBoard",
    "RaceEntry",
    "RaceLobby",
    "RaceResult",
    "RatingRecord",
    "RatingsStore",
    "ResultRecord",
    "ResultsStore",
    "SessionRecord",
    "SessionRevision",
    "SessionsStore",
    "SoloWin",
    "StaleRevision",
    "Storage",
    "StorageBusy",
    "StorageError",
    "StoredMove",
    "TablePlay",
    "TableTally",
    "UpdatesStore",
    "WebStore",
    "database_path",
    "is_postgres_url",
    "redacted",
]
