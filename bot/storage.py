"""Storage: sessions, their moves, results, per-chat settings and players, in SQLite (aiosqlite).

The move list is the source of truth of a game: a session row caches the rest (status, board
message, revision) and ``engine.replay`` rebuilds the position from the moves after a restart.
Every write that must be durable before the bot answers is committed before the call returns.

The schema is versioned by numbered migrations (``MIGRATIONS``; the applied number is kept in
``schema_version``). All SQL is parameterised. Writes that belong together run under one
``asyncio.Lock`` so two coroutines never interleave statements of one transaction on the shared
connection.

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

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite

DEFAULT_DATABASE_URL = "sqlite:///data/tavolo.db"
#: a returning player's ``last_seen`` is rewritten at most this often (not on every command)
SEEN_PRECISION = timedelta(seconds=60)
#: in-memory caches are dropped whole when they grow past this many chats / players
CACHE_LIMIT = 100_000

SOLO = "solo"
TABLE = "table"

# Session statuses
LOBBY = "lobby"  # a table waiting for players
ACTIVE = "active"
OVER = "over"  # finished by the rules, resigned, expired
ENDED = "ended"  # a table closed before it finished (no result)

MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        """
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            kind TEXT NOT NULL,              -- solo | table
            game_id TEXT NOT NULL,
            options TEXT NOT NULL,           -- JSON object
            deal INTEGER NOT NULL,
            players TEXT NOT NULL,           -- JSON list of user ids, in turn order
            names TEXT NOT NULL,             -- JSON object user id -> display name
            invited TEXT NOT NULL DEFAULT '[]',
            creator TEXT NOT NULL,
            status TEXT NOT NULL,            -- lobby | active | over | ended
            outcome TEXT,
            faces TEXT NOT NULL,
            ranked INTEGER NOT NULL DEFAULT 0,
            revision INTEGER NOT NULL DEFAULT 0,
            board_message_id TEXT,
            created_at TEXT NOT NULL,
            last_active_at TEXT NOT NULL
        );
        CREATE INDEX sessions_chat ON sessions (platform, chat_id, status);
        CREATE TABLE moves (
            session_id TEXT NOT NULL REFERENCES sessions (id),
            n INTEGER NOT NULL,              -- 1-based move number
            player TEXT NOT NULL,
            notation TEXT NOT NULL,
            played_at TEXT NOT NULL,
            PRIMARY KEY (session_id, n)
        );
        CREATE TABLE results (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            game_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            player_name TEXT NOT NULL,
            deal INTEGER NOT NULL,
            options TEXT NOT NULL,
            score INTEGER NOT NULL,
            tiebreak_move INTEGER NOT NULL,  -- move at which the final score was reached
            move_count INTEGER NOT NULL,
            moves TEXT NOT NULL,             -- JSON list: the verified move list
            outcome TEXT NOT NULL,
            won INTEGER NOT NULL,
            ranked INTEGER NOT NULL,         -- 1: a daily challenge attempt
            day TEXT NOT NULL,               -- UTC date YYYY-MM-DD of the finish
            finished_at TEXT NOT NULL,
            place INTEGER,                   -- multiplayer: 1 = first
            masters INTEGER,
            cards INTEGER
        );
        CREATE INDEX results_board ON results (game_id, day, score);
        CREATE INDEX results_chat ON results (platform, chat_id, day);
        CREATE INDEX results_player ON results (platform, player_id, game_id);
        CREATE TABLE settings (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            language TEXT,
            PRIMARY KEY (platform, chat_id)
        );
        CREATE TABLE players (
            platform TEXT NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL,
            PRIMARY KEY (platform, user_id)
        );
        """,
    ),
    (
        2,
        # Playing together (bot/tables.py, bot/timers.py, bot/ratings.py, bot/races.py).
        """
        CREATE TABLE table_play (
            session_id TEXT PRIMARY KEY REFERENCES sessions (id),
            timer_seconds INTEGER,           -- NULL: untimed table
            deadline TEXT,                   -- current turn's deadline (ISO), NULL: none running
            timeouts TEXT NOT NULL DEFAULT '{}',   -- JSON player -> timeouts in a row
            departed TEXT NOT NULL DEFAULT '[]',   -- JSON players who left: auto-passed
            computers TEXT NOT NULL DEFAULT '[]'   -- JSON seats played by the computer
        );
        CREATE INDEX table_play_deadline ON table_play (deadline);
        CREATE TABLE ratings (
            platform TEXT NOT NULL,
            scope TEXT NOT NULL,             -- a chat id, or '*' for the platform-wide rating
            game_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            player_name TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (platform, scope, game_id, player_id)
        );
        CREATE TABLE races (
            id TEXT PRIMARY KEY REFERENCES sessions (id),   -- the race's lobby session
            minutes INTEGER,                 -- NULL: senza tempo (no time limit)
            senza_tempo INTEGER NOT NULL,
            round INTEGER NOT NULL DEFAULT 0,        -- 0 while joining, then 1, 2, ...
            join_deadline TEXT,
            deadline TEXT,                   -- end of the running round (timed races)
            started_at TEXT
        );
        CREATE TABLE race_entries (
            race_id TEXT NOT NULL REFERENCES races (id),
            round INTEGER NOT NULL,
            player_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            PRIMARY KEY (race_id, round, player_id)
        );
        CREATE INDEX race_entries_session ON race_entries (session_id);
        """,
    ),
    (
        3,
        # Daily challenges (bot/daily.py): the deal chosen per game and UTC day, and each
        # player's one ranked attempt (the primary key makes a second one impossible).
        """
        CREATE TABLE daily (
            game_id TEXT NOT NULL,
            day TEXT NOT NULL,               -- UTC date YYYY-MM-DD
            deal INTEGER NOT NULL,
            candidate INTEGER NOT NULL,      -- index of the chosen candidate (0 = first)
            best TEXT NOT NULL,              -- the solver's proof: won | completo | solitario
            line TEXT NOT NULL,              -- JSON list: the solver's verified line
            nodes INTEGER NOT NULL,          -- solver nodes over every candidate tried
            seconds REAL NOT NULL,
            chosen_at TEXT NOT NULL,
            PRIMARY KEY (game_id, day)
        );
        CREATE TABLE daily_attempts (
            platform TEXT NOT NULL,
            player_id TEXT NOT NULL,
            game_id TEXT NOT NULL,
            day TEXT NOT NULL,               -- the challenge's day (not the finish day)
            session_id TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            status TEXT NOT NULL,            -- playing | accepted | refused
            started_at TEXT NOT NULL,
            PRIMARY KEY (platform, player_id, game_id, day)
        );
        CREATE INDEX daily_attempts_session ON daily_attempts (session_id);
        CREATE INDEX daily_attempts_day ON daily_attempts (day, game_id);
        """,
    ),
    (
        4,
        # A solo game ended for idling (24 h without a move) says so when its player comes
        # back, instead of "you have no game here". NULL: ended any other way, or still on.
        """
        ALTER TABLE sessions ADD COLUMN expired_at TEXT;
        """,
    ),
]


class StorageError(RuntimeError):
    """The database cannot be used: missing directory, not a database, corrupt, too new.

    Raised at start-up with a message a person can act on; never swallowed."""


class StorageBusy(StorageError):
    """The database cannot take this request now: locked by another writer beyond a bounded
    wait, read-only, full, or the connection was lost.

    Nothing of the request was written (its transaction rolled back); the core answers the
    player "busy, try again" in the chat's language and the process lives on."""


@dataclass(slots=True)
class SessionRecord:
    """One row of ``sessions``: a solo game or a multiplayer table."""

    id: str
    platform: str
    chat_id: str
    kind: str
    game_id: str
    options: dict[str, Any]
    deal: int
    players: list[str]
    names: dict[str, str]
    creator: str
    status: str
    faces: str
    created_at: str
    last_active_at: str
    invited: list[str] = field(default_factory=list)
    outcome: str | None = None
    ranked: bool = False
    revision: int = 0
    board_message_id: str | None = None
    #: when the idle sweep ended this solo game (None: it was not ended for idling)
    expired_at: str | None = None


@dataclass(slots=True)
class ResultRecord:
    """One player's result of one finished game."""

    session_id: str
    platform: str
    chat_id: str
    game_id: str
    player_id: str
    player_name: str
    deal: int
    options: dict[str, Any]
    score: int
    tiebreak_move: int
    move_count: int
    moves: list[str]
    outcome: str
    won: bool
    ranked: bool
    day: str
    finished_at: str
    place: int | None = None
    masters: int | None = None
    cards: int | None = None


_SESSION_COLUMNS = (
    "id, platform, chat_id, kind, game_id, options, deal, players, names, invited, creator, "
    "status, outcome, faces, ranked, revision, board_message_id, created_at, last_active_at, expired_at"
)


def database_path(database_url: str) -> str:
    """The SQLite file of a ``sqlite:///relative`` or ``sqlite:////absolute`` URL.

    >>> database_path("sqlite:///data/tavolo.db"), database_path("sqlite:////tmp/x.db")
    ('data/tavolo.db', '/tmp/x.db')
    >>> database_path("sqlite:///:memory:")
    ':memory:'
    """
    prefix = "sqlite:///"
    if not database_url.startswith(prefix):
        raise StorageError(
            f"DATABASE_URL must look like sqlite:///data/tavolo.db (got {database_url.split(':')[0]}:...)"
        )
    path = database_url[len(prefix) :]
    if not path:
        raise StorageError("DATABASE_URL names no file")
    return path


def _row_to_session(row: Sequence[Any]) -> SessionRecord:
    (sid, platform, chat_id, kind, game_id, options, deal, players, names, invited, creator,
     status, outcome, faces, ranked, revision, board_message_id, created_at, last_active_at, expired_at) = row  # fmt: skip
    return SessionRecord(
        id=sid,
        platform=platform,
        chat_id=chat_id,
        kind=kind,
        game_id=game_id,
        options=json.loads(options),
        deal=deal,
        players=json.loads(players),
        names=json.loads(names),
        invited=json.loads(invited),
        creator=creator,
        status=status,
        outcome=outcome,
        faces=faces,
        ranked=bool(ranked),
        revision=revision,
        board_message_id=board_message_id,
        created_at=created_at,
        last_active_at=last_active_at,
        expired_at=expired_at,
    )


class Storage:
    """The bot's database. Open with ``await Storage.open(url)``; close with ``close()``."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._write_lock = asyncio.Lock()
        # Read on every request, changed rarely, written only through this object (one bot
        # process owns the database): kept in memory to spare SQLite round trips per command.
        self._languages: dict[tuple[str, str], str | None] = {}
        self._seen: dict[tuple[str, str], tuple[str, datetime]] = {}
        self._open_ids: dict[tuple[str, str], list[tuple[str, str]]] = {}
        # bumped by every invalidation: a query that raced with a write is not cached
        self._open_generation = 0

    @classmethod
    async def open(cls, database_url: str, create_parent: bool = False) -> Storage:
        """Open (and migrate) the database; ``StorageError`` when it cannot be used.

        ``create_parent`` creates a missing parent folder (the default ``data/``); otherwise a
        missing folder is an error, since it usually means a mistyped path."""
        path = database_path(database_url)
        if path != ":memory:":
            parent = Path(path).expanduser().resolve().parent
            if not parent.is_dir():
                if create_parent:
                    parent.mkdir(parents=True, exist_ok=True)
                else:
                    raise StorageError(f"the folder of the database does not exist: {parent}")
        try:
            db = await aiosqlite.connect(path)
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open the database {path}: {exc}") from exc
        store = cls(db)
        try:
            await store._check_and_migrate(path)
        except BaseException:
            await db.close()
            raise
        return store

    async def _check_and_migrate(self, path: str) -> None:
        try:
            async with self._db.execute("PRAGMA quick_check") as cursor:
                rows = await cursor.fetchall()
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"{path} is not a usable SQLite database: {exc}") from exc
        if [r[0] for r in rows] != ["ok"]:
            problems = "; ".join(str(r[0]) for r in rows[:3])
            raise StorageError(f"{path} is corrupt (integrity check: {problems})")
        try:
            if path != ":memory:":
                await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self._db.execute("PRAGMA synchronous=NORMAL")
            await self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            async with self._db.execute("SELECT MAX(version) FROM schema_version") as cursor:
                (current,) = await cursor.fetchone() or (None,)
            current = current or 0
            latest = MIGRATIONS[-1][0]
            if current > latest:
                raise StorageError(
                    f"{path} has schema version {current}, newer than this program's {latest}"
                )
            for version, script in MIGRATIONS:
                if version > current:
                    await self._db.executescript(
                        f"BEGIN; {script} INSERT INTO schema_version (version) VALUES ({int(version)}); COMMIT;"
                    )
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"cannot prepare the database {path}: {exc}") from exc

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("SELECT MAX(version) FROM schema_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    # ----- generic access for feature modules (tables, races, ratings) ----------------------
    async def write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Run parameterised statements in one committed transaction (all or nothing)."""
        async with self._transaction():
            if any("sessions" in sql.lower() for sql, _ in statements):
                self._forget_cached_sessions()  # a feature module changed sessions: read again
            for sql, params in statements:
                await self._db.execute(sql, tuple(params))

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """Statements that belong together: committed at the end, all rolled back on any error
        (the cached open sessions are then read again, since the cache followed the writes)."""
        async with self._write_lock:
            try:
                yield
                await self._db.commit()
            except BaseException:
                await self._db.rollback()
                self._forget_cached_sessions()
                raise

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one parameterised query."""
        async with self._db.execute(sql, tuple(params)) as cursor:
            return [tuple(row) for row in await cursor.fetchall()]

    # ----- sessions ---------------------------------------------------------------------------
    async def insert_session(self, rec: SessionRecord) -> None:
        async with self._transaction():
            self._open_ids.pop((rec.platform, rec.chat_id), None)
            self._open_generation += 1
            await self._db.execute(
                f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rec.id, rec.platform, rec.chat_id, rec.kind, rec.game_id,
                    json.dumps(rec.options, sort_keys=True), rec.deal, json.dumps(rec.players),
                    json.dumps(rec.names), json.dumps(rec.invited), rec.creator, rec.status,
                    rec.outcome, rec.faces, int(rec.ranked), rec.revision, rec.board_message_id,
                    rec.created_at, rec.last_active_at, rec.expired_at,
                ),
            )  # fmt: skip

    async def save_session(self, rec: SessionRecord) -> None:
        """Write back the mutable fields of a session (everything but its identity)."""
        async with self._transaction():
            await self._update_session(rec)

    async def _update_session(self, rec: SessionRecord) -> None:
        cached = self._open_ids.get((rec.platform, rec.chat_id))
        if cached is not None and any(i == rec.id for _, i in cached) != (rec.status in (LOBBY, ACTIVE)):
            del self._open_ids[(rec.platform, rec.chat_id)]  # opened or closed: read again
            self._open_generation += 1
        await self._db.execute(
            "UPDATE sessions SET options = ?, deal = ?, players = ?, names = ?, invited = ?, "
            "status = ?, outcome = ?, faces = ?, ranked = ?, revision = ?, board_message_id = ?, "
            "last_active_at = ?, expired_at = ? WHERE id = ?",
            (
                json.dumps(rec.options, sort_keys=True), rec.deal, json.dumps(rec.players),
                json.dumps(rec.names), json.dumps(rec.invited), rec.status, rec.outcome, rec.faces,
                int(rec.ranked), rec.revision, rec.board_message_id, rec.last_active_at,
                rec.expired_at, rec.id,
            ),
        )  # fmt: skip

    async def get_session(self, session_id: str) -> SessionRecord | None:
        async with self._db.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return _row_to_session(row) if row else None

    async def open_session_ids(self, platform: str, chat_id: str) -> list[str]:
        """Ids of the chat's open sessions (lobby or active), oldest first; answered from
        memory after the first call (kept up to date by every session write here)."""
        key = (platform, chat_id)
        cached = self._open_ids.get(key)
        if cached is None:
            generation = self._open_generation
            async with self._db.execute(
                "SELECT created_at, id FROM sessions WHERE platform = ? AND chat_id = ? "
                "AND status IN (?, ?) ORDER BY created_at, id",
                (platform, chat_id, LOBBY, ACTIVE),
            ) as cursor:
                cached = [(r[0], r[1]) for r in await cursor.fetchall()]
            if len(self._open_ids) >= CACHE_LIMIT:
                self._open_ids.clear()
            if generation == self._open_generation:
                self._open_ids[key] = cached
        return [session_id for _, session_id in cached]

    def _forget_cached_sessions(self) -> None:
        """After a rollback (or a write the cache cannot follow) read sessions again."""
        self._open_ids.clear()
        self._open_generation += 1

    async def active_solo_sessions(self) -> list[SessionRecord]:
        async with self._db.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE kind = ? AND status = ?",
            (SOLO, ACTIVE),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_row_to_session(r) for r in rows]

    async def last_solo_session(self, platform: str, chat_id: str, player: str) -> SessionRecord | None:
        """The player's most recently started solo game in this chat, whatever its status."""
        async with self._db.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE platform = ? AND chat_id = ? AND kind = ? "
            "AND creator = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
            (platform, chat_id, SOLO, player),
        ) as cursor:
            row = await cursor.fetchone()
        return _row_to_session(row) if row else None

    async def session_exists(self, session_id: str) -> bool:
        async with self._db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)) as cursor:
            return await cursor.fetchone() is not None

    # ----- moves ------------------------------------------------------------------------------
    async def load_moves(self, session_id: str) -> list[str]:
        async with self._db.execute(
            "SELECT notation FROM moves WHERE session_id = ? ORDER BY n", (session_id,)
        ) as cursor:
            return [r[0] for r in await cursor.fetchall()]

    async def record_move(
        self,
        rec: SessionRecord,
        n: int,
        player: str,
        notation: str,
        played_at: str,
        results: Sequence[ResultRecord] = (),
    ) -> None:
        """Store move number ``n``, the session's new state and (when the move ended the game)
        its results, in one committed transaction."""
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO moves (session_id, n, player, notation, played_at) VALUES (?, ?, ?, ?, ?)",
                (rec.id, n, player, notation, played_at),
            )
            await self._update_session(rec)
            await self._insert_results(results)

    async def remove_last_move(self, rec: SessionRecord, n: int) -> None:
        """Take back move number ``n`` (an undo) and store the session's new state."""
        async with self._transaction():
            await self._db.execute("DELETE FROM moves WHERE session_id = ? AND n = ?", (rec.id, n))
            await self._update_session(rec)

    # ----- results ----------------------------------------------------------------------------
    async def finish_session(self, rec: SessionRecord, results: Sequence[ResultRecord]) -> None:
        """Store a session's end and its players' results together."""
        async with self._transaction():
            await self._update_session(rec)
            await self._insert_results(results)

    async def _insert_results(self, results: Sequence[ResultRecord]) -> None:
        for r in results:
            await self._db.execute(
                "INSERT INTO results (session_id, platform, chat_id, game_id, player_id, "
                "player_name, deal, options, score, tiebreak_move, move_count, moves, "
                "outcome, won, ranked, day, finished_at, place, masters, cards) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    r.session_id, r.platform, r.chat_id, r.game_id, r.player_id,
                    r.player_name, r.deal, json.dumps(r.options, sort_keys=True), r.score,
                    r.tiebreak_move, r.move_count, json.dumps(r.moves), r.outcome,
                    int(r.won), int(r.ranked), r.day, r.finished_at, r.place, r.masters,
                    r.cards,
                ),
            )  # fmt: skip

    async def count_results(self, session_id: str | None = None) -> int:
        if session_id is None:
            sql, params = "SELECT COUNT(*) FROM results", ()
        else:
            sql, params = "SELECT COUNT(*) FROM results WHERE session_id = ?", (session_id,)
        async with self._db.execute(sql, params) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    # ----- chats and players ------------------------------------------------------------------
    async def chat_language(self, platform: str, chat_id: str) -> str | None:
        key = (platform, chat_id)
        if key in self._languages:
            return self._languages[key]
        async with self._db.execute(
            "SELECT language FROM settings WHERE platform = ? AND chat_id = ?", (platform, chat_id)
        ) as cursor:
            row = await cursor.fetchone()
        if len(self._languages) >= CACHE_LIMIT:
            self._languages.clear()
        # setdefault: a /lang stored while this query ran has already put the newer value here
        return self._languages.setdefault(key, row[0] if row else None)

    async def set_chat_language(self, platform: str, chat_id: str, language: str) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO settings (platform, chat_id, language) VALUES (?, ?, ?) "
                "ON CONFLICT (platform, chat_id) DO UPDATE SET language = excluded.language",
                (platform, chat_id, language),
            )
        self._languages[(platform, chat_id)] = language

    async def touch_player(self, platform: str, user_id: str, name: str, at: str) -> None:
        """Remember a player's name and when they were last seen; a player seen again under
        the same name within ``SEEN_PRECISION`` costs no write (this runs on every request)."""
        key, moment = (platform, user_id), datetime.fromisoformat(at)
        seen = self._seen.get(key)
        if seen is not None and seen[0] == name and timedelta(0) <= moment - seen[1] < SEEN_PRECISION:
            return
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO players (platform, user_id, name, first_seen, last_seen) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, user_id) DO UPDATE SET "
                "name = excluded.name, last_seen = excluded.last_seen",
                (platform, user_id, name, at, at),
            )
        if len(self._seen) >= CACHE_LIMIT:
            self._seen.clear()
        self._seen[key] = (name, moment)

    async def find_player(self, platform: str, name: str) -> tuple[str, str] | None:
        """(user id, name) of a player known by that name (or id) on the platform."""
        async with self._db.execute(
            "SELECT user_id, name FROM players WHERE platform = ? AND "
            "(lower(name) = lower(?) OR user_id = ?) ORDER BY last_seen DESC LIMIT 1",
            (platform, name, name),
        ) as cursor:
            row = await cursor.fetchone()
        return (row[0], row[1]) if row else None
