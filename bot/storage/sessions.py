"""Sessions, their moves and their results.

The move list is the source of truth of a game: a session row caches the rest (status, board
message, revision) and ``engine.replay`` rebuilds the position from the moves. A move is stored
with compare-and-set on the session's revision, so moves arriving at several processes for one
session are stored one after the other, each exactly once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.backend import Backend, Queued, Tx
from bot.storage.base import Store
from bot.storage.errors import StaleRevision
from bot.storage.migrations.dialect import POSTGRES
from bot.storage.play import PlayStore, TablePlay, play_params, table_play
from bot.storage.records import (
    ACTIVE,
    LOBBY,
    SESSION_COLUMNS,
    SOLO,
    ResultRecord,
    SessionRecord,
    row_to_session,
)

_SESSION_UPDATE = (
    "UPDATE sessions SET options = ?, deal = ?, players = ?, names = ?, invited = ?, "
    "status = ?, outcome = ?, faces = ?, ranked = ?, "
    # never backwards: a copy read before another process's move must not undo its revision
    "revision = CASE WHEN revision > ? THEN revision ELSE ? END, board_message_id = ?, "
    "last_active_at = ?, expired_at = ? WHERE id = ?"
)


def _update_params(rec: SessionRecord) -> tuple[object, ...]:
    return (
        json.dumps(rec.options, sort_keys=True),
        rec.deal,
        json.dumps(rec.players),
        json.dumps(rec.names),
        json.dumps(rec.invited),
        rec.status,
        rec.outcome,
        rec.faces,
        int(rec.ranked),
        rec.revision,
        rec.revision,
        rec.board_message_id,
        rec.last_active_at,
        rec.expired_at,
        rec.id,
    )


#: the update under the revision check (compare-and-set), not the never-backwards CASE
_CHECKED_UPDATE = _SESSION_UPDATE.replace("WHERE id = ?", "WHERE id = ? AND revision = ?")
#: a race board's move's race-wide number: its race's counter, just advanced in the same
#: transaction (NULL for a board in no race)
_RACE_MOVE = (
    "(SELECT move_counter FROM races WHERE id = "
    "(SELECT race_id FROM race_entries WHERE session_id = ?))"
)


def _stale(session_id: str, revision: int) -> Callable[[], StaleRevision]:
    return lambda: StaleRevision(f"session {session_id} is no longer at revision {revision}")


#: a chat's open sessions (lobby or active), oldest first, with their stored revisions
OPEN_REVISIONS_SQL = (
    "SELECT id, revision FROM sessions WHERE platform = ? AND chat_id = ? "
    "AND status IN (?, ?) ORDER BY created_at, id"
)


#: a session's stored revision
REVISION_SQL = "SELECT revision FROM sessions WHERE id = ?"


def open_revisions_params(platform: str, chat_id: str) -> tuple[str, ...]:
    return (platform, chat_id, LOBBY, ACTIVE)


def session_revisions(rows: Sequence[Sequence[Any]]) -> list[SessionRevision]:
    return [SessionRevision(str(r[0]), int(r[1])) for r in rows]


@dataclass(frozen=True, slots=True)
class StoredMove:
    """One move to store: its number in the game, who played it, its notation."""

    n: int
    player: str
    notation: str


@dataclass(frozen=True, slots=True)
class SessionRevision:
    """A session's id and the revision storage holds for it."""

    id: str
    revision: int


class SessionsStore(Store):
    """Sessions, moves and results (``storage.sessions``). A move on a race board takes its
    race-wide number from the play store (``play``), in the move's own transaction."""

    def __init__(self, backend: Backend, play: PlayStore) -> None:
        super().__init__(backend)
        self._play = play

    async def insert(self, rec: SessionRecord) -> None:
        """Store a new session; ``AlreadyExists`` when the database's rules refuse it (the
        player has an active solo game of that game in the chat, or the chat has its open
        table or race already)."""
        async with self._transaction() as tx:
            tx.add(
                f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rec.id,
                    rec.platform,
                    rec.chat_id,
                    rec.kind,
                    rec.game_id,
                    json.dumps(rec.options, sort_keys=True),
                    rec.deal,
                    json.dumps(rec.players),
                    json.dumps(rec.names),
                    json.dumps(rec.invited),
                    rec.creator,
                    rec.status,
                    rec.outcome,
                    rec.faces,
                    int(rec.ranked),
                    rec.revision,
                    rec.board_message_id,
                    rec.created_at,
                    rec.last_active_at,
                    rec.expired_at,
                ),
            )

    async def save(self, rec: SessionRecord, expected_revision: int | None = None) -> None:
        """Write back the mutable fields of a session (everything but its identity).

        ``expected_revision``: compare-and-set, the write happens only if storage still holds
        that revision (``StaleRevision`` otherwise: another process changed the session since
        this copy was read). The core always passes it; None writes unconditionally (tools)."""
        async with self._transaction() as tx:
            self._checked_update(tx, rec, expected_revision)

    def _checked_update(self, tx: Tx, rec: SessionRecord, expected_revision: int | None) -> None:
        """Queue the update (``StaleRevision`` at its turn when the revision moved on)."""
        if expected_revision is None:
            tx.add(_SESSION_UPDATE, _update_params(rec))
            return
        # the plain column update (not the never-backwards CASE) under the revision check
        tx.add(
            _CHECKED_UPDATE,
            (*_update_params(rec), expected_revision),
            expect=1,
            refuse=_stale(rec.id, expected_revision),
        )

    async def set_board_message(self, session_id: str, message_id: str) -> None:
        """Remember the session's board message (this column only: never races a move)."""
        async with self._transaction() as tx:
            tx.add(
                "UPDATE sessions SET board_message_id = ? WHERE id = ?", (message_id, session_id)
            )

    def _swap_revision(self, tx: Tx, rec: SessionRecord, changes: int = 1) -> None:
        """Queue storing ``rec`` if the stored revision is the one ``changes`` before it
        (compare-and-set); ``StaleRevision`` when another process changed the session first.
        On SQLite the write lock is the whole database's."""
        if self.dialect == POSTGRES:
            # the row lock queues concurrent movers of this session until we commit
            tx.add("SELECT revision FROM sessions WHERE id = ? FOR UPDATE", (rec.id,))
        tx.add(
            _CHECKED_UPDATE,
            (*_update_params(rec), rec.revision - changes),
            expect=1,
            refuse=_stale(rec.id, rec.revision - changes),
        )

    async def get(self, session_id: str) -> SessionRecord | None:
        rows = await self._fetch(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,)
        )
        return row_to_session(rows[0]) if rows else None

    async def revision(self, session_id: str) -> int | None:
        """The stored revision of a session (None: unknown): one indexed read, for checking
        an in-memory copy against what other processes stored."""
        rows = await self._fetch(REVISION_SQL, (session_id,))
        return int(rows[0][0]) if rows else None

    async def open_revisions(self, platform: str, chat_id: str) -> list[SessionRevision]:
        """The chat's open sessions (lobby or active), oldest first. Always read from the
        database (another process may have opened or closed one): one read that also tells
        which copies in memory another process has moved past."""
        rows = await self._fetch(OPEN_REVISIONS_SQL, open_revisions_params(platform, chat_id))
        return session_revisions(rows)

    async def active_solo(self) -> list[SessionRecord]:
        rows = await self._fetch(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE kind = ? AND status = ?", (SOLO, ACTIVE)
        )
        return [row_to_session(r) for r in rows]

    async def open_solos_of(self, platform: str, player: str) -> list[SessionRecord]:
        """The player's active solo games in every chat of the platform, the least recently
        touched first (by the index of open solo games, migration 15)."""
        rows = await self._fetch(
            # the kind and status written out, as the partial index says them: a planner
            # uses that index only when the query's own words imply its condition
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE platform = ? AND creator = ? "
            f"AND kind = '{SOLO}' AND status = '{ACTIVE}' ORDER BY last_active_at, id",
            (platform, player),
        )
        return [row_to_session(r) for r in rows]

    async def last_solo(self, platform: str, chat_id: str, player: str) -> SessionRecord | None:
        """The player's most recently started solo game in this chat, whatever its status."""
        # rowid breaks ties within one second on SQLite; PostgreSQL has none (ties are rare)
        tiebreak = "last_active_at DESC" if self.dialect == POSTGRES else "rowid DESC"
        rows = await self._fetch(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE platform = ? AND chat_id = ? AND kind = ? "
            f"AND creator = ? ORDER BY created_at DESC, {tiebreak} LIMIT 1",
            (platform, chat_id, SOLO, player),
        )
        return row_to_session(rows[0]) if rows else None

    async def one_in_status(self, platform: str, chat_id: str, status: str) -> str | None:
        """The id of one session of the chat in ``status`` (a running race), if any."""
        rows = await self._fetch(
            "SELECT id FROM sessions WHERE platform = ? AND chat_id = ? AND status = ? LIMIT 1",
            (platform, chat_id, status),
        )
        return str(rows[0][0]) if rows else None

    async def exists(self, session_id: str) -> bool:
        return bool(await self._fetch("SELECT 1 FROM sessions WHERE id = ?", (session_id,)))

    async def status(self, session_id: str) -> str | None:
        rows = await self._fetch("SELECT status FROM sessions WHERE id = ?", (session_id,))
        return str(rows[0][0]) if rows else None

    # ----- moves ------------------------------------------------------------------------------
    async def moves(self, session_id: str) -> list[str]:
        rows = await self._fetch(
            "SELECT notation FROM moves WHERE session_id = ? ORDER BY n", (session_id,)
        )
        return [r[0] for r in rows]

    async def record_move(
        self,
        rec: SessionRecord,
        n: int,
        player: str,
        notation: str,
        played_at: str,
        results: Sequence[ResultRecord] = (),
        table: TablePlay | None = None,
        read_table: bool = False,
    ) -> TablePlay | None:
        """Store move number ``n``, the session's new state (``rec.revision`` one past the
        stored one) and, when the move ended the game, its results, in one transaction. On a
        race board the move also takes the race's next race-wide number (``race_move``).
        ``table``: a table's play state, stored in the same transaction (the turn clock a
        command's last move starts goes with it: one commit, not two). ``read_table``: the
        table's play state as stored when the move was is returned (read in the move's
        transaction: a separate read would cost a hand-off of its own); None otherwise, or
        when the table has none.

        ``StaleRevision`` when another process stored a move of this session first."""
        return await self.record_moves(
            rec, [StoredMove(n, player, notation)], played_at, results, table, read_table
        )

    async def record_moves(
        self,
        rec: SessionRecord,
        moves: Sequence[StoredMove],
        played_at: str,
        results: Sequence[ResultRecord] = (),
        table: TablePlay | None = None,
        read_table: bool = False,
        departed_was: Sequence[str] | None = None,
    ) -> TablePlay | None:
        """``record_move`` for several moves in a row (a person's move at a table and the
        computer seats' answers): all stored in one transaction or none, ``rec.revision`` one
        past the stored one for each. ``departed_was``: ``table`` (the play state) is stored
        only if the stored one still lists these players as gone (who left decides which
        seats the bot plays: another process may have seen someone leave); else
        ``StaleRevision`` and nothing is stored."""
        if self.dialect == POSTGRES and not results and (len(moves) == 1 or rec.kind != SOLO):
            return await self._record_moves_at_once(
                rec, moves, played_at, table, read_table, departed_was
            )
        # One hand-off on SQLite: every statement is queued and runs with the COMMIT.
        read: Queued | None = None
        async with self._transaction() as tx:
            self._swap_revision(tx, rec, len(moves))
            for move in moves:
                if rec.kind == SOLO:
                    # a race board's move takes its race's next race-wide number (the
                    # counter's row is written first, so no other mover of the race reads it
                    # until commit)
                    self._play.advance_race_counter(tx, rec)
                    race_move = _RACE_MOVE
                else:
                    race_move = "NULL"
                tx.add(
                    "INSERT INTO moves (session_id, n, player, notation, played_at, race_move) "
                    f"VALUES (?, ?, ?, ?, ?, {race_move})",
                    (
                        rec.id,
                        move.n,
                        move.player,
                        move.notation,
                        played_at,
                        *([rec.id] if rec.kind == SOLO else []),
                    ),
                )
            self._insert_results(tx, results)
            if table is not None and departed_was is not None:
                self._play.queue_table_if(
                    tx, table, departed_was, _stale(rec.id, rec.revision - len(moves))
                )
            elif table is not None:
                self._play.queue_table(tx, table)
            if read_table:
                read = self._play.queue_table_read(tx, rec.id)
        return None if read is None else table_play(rec.id, read.rows)

    async def _record_moves_at_once(
        self,
        rec: SessionRecord,
        moves: Sequence[StoredMove],
        played_at: str,
        table: TablePlay | None,
        read_table: bool,
        departed_was: Sequence[str] | None,
    ) -> TablePlay | None:
        """PostgreSQL: ``record_moves`` (no results) as one statement, one round trip: the
        session's compare-and-set on its revision (its row lock queues concurrent movers), the
        moves, a race board's race-wide number, the table's play state, and the play state read
        back. A stale revision (or, with ``departed_was``, a play state whose departed seats
        changed) updates and inserts nothing: ``StaleRevision``."""
        params: list[object] = []
        ctes: list[str] = []
        guard = ""
        if departed_was is not None:
            # compare-and-set on who left: the play state's row is locked first (a concurrent
            # departure is waited for and then re-checked), and the session moves only if
            # the row still lists the same players as gone
            ctes.append(
                "locked AS (SELECT session_id FROM table_play WHERE session_id = ? "
                "AND departed = ? FOR UPDATE)"
            )
            params += [rec.id, json.dumps(list(departed_was))]
            guard = " AND EXISTS (SELECT 1 FROM locked)"
        ctes.append(
            "moved AS ("
            + _SESSION_UPDATE.replace("WHERE id = ?", f"WHERE id = ? AND revision = ?{guard}")
            + " RETURNING id)"
        )
        params += [*_update_params(rec), rec.revision - len(moves)]
        race_move = "NULL"
        if rec.kind == SOLO:  # one move (the caller's test): a race board's race-wide number
            ctes.append(
                "counted AS (UPDATE races SET move_counter = move_counter + 1 "
                "WHERE id = (SELECT race_id FROM race_entries WHERE session_id = ?) "
                "AND EXISTS (SELECT 1 FROM moved) RETURNING move_counter)"
            )
            params.append(rec.id)
            race_move = "(SELECT move_counter FROM counted)"
        if table is not None:
            ctes.append(
                "played AS (INSERT INTO table_play (session_id, timer_seconds, deadline, "
                "timeouts, departed, computers) SELECT id, ?::integer, ?::text, ?::text, "
                "?::text, ?::text FROM moved ON CONFLICT (session_id) DO UPDATE SET "
                "timer_seconds = excluded.timer_seconds, deadline = excluded.deadline, "
                "timeouts = excluded.timeouts, departed = excluded.departed, "
                "computers = excluded.computers)"
            )
            params += play_params(table)[1:]
        rows_sql = ", ".join("(?::integer, ?::text, ?::text)" for _ in moves)
        params.append(played_at)  # the insert's SELECT names it before the VALUES rows
        for move in moves:
            params += [move.n, move.player, move.notation]
        # The play state as this statement leaves it: the one it writes, else the stored one
        # (a statement's parts all see the rows as they were before it, and this one writes
        # no play state then)
        read_back = ""
        if read_table and table is None:
            read_back = ", " + ", ".join(
                f"(SELECT {column} FROM table_play p WHERE p.session_id = moves.session_id)"
                for column in ("timer_seconds", "deadline", "timeouts", "departed", "computers")
            )
        sql = (
            "WITH "
            + ", ".join(ctes)
            + " INSERT INTO moves (session_id, n, player, notation, played_at, race_move) "
            f"SELECT moved.id, v.n, v.player, v.notation, ?, {race_move} "
            f"FROM moved, (VALUES {rows_sql}) AS v (n, player, notation) "
            "ORDER BY v.n RETURNING n" + read_back
        )
        rows = await self._fetch(sql, tuple(params))
        if not rows:
            raise StaleRevision(
                f"session {rec.id} is no longer at revision {rec.revision - len(moves)}"
            )
        if not read_table:
            return None
        if table is not None:
            return table
        # a table's play state row always has its computers (a JSON list): NULL, no row
        return None if rows[0][5] is None else table_play(rec.id, [rows[0][1:]])

    async def remove_last_move(self, rec: SessionRecord, n: int) -> None:
        """Take back move number ``n`` (an undo) and store the session's new state."""
        async with self._transaction() as tx:
            self._swap_revision(tx, rec)
            tx.add("DELETE FROM moves WHERE session_id = ? AND n = ?", (rec.id, n))

    # ----- results ----------------------------------------------------------------------------
    async def finish(
        self,
        rec: SessionRecord,
        results: Sequence[ResultRecord],
        expected_revision: int | None = None,
    ) -> None:
        """Store a session's end and its players' results together (``expected_revision``:
        compare-and-set as in ``save``)."""
        async with self._transaction() as tx:
            self._checked_update(tx, rec, expected_revision)
            self._insert_results(tx, results)

    def _insert_results(self, tx: Tx, results: Sequence[ResultRecord]) -> None:
        for r in results:
            tx.add(
                "INSERT INTO results (session_id, platform, chat_id, game_id, player_id, "
                "player_name, deal, options, score, tiebreak_move, move_count, moves, "
                "outcome, won, ranked, day, finished_at, place, masters, cards) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    r.session_id,
                    r.platform,
                    r.chat_id,
                    r.game_id,
                    r.player_id,
                    r.player_name,
                    r.deal,
                    json.dumps(r.options, sort_keys=True),
                    r.score,
                    r.tiebreak_move,
                    r.move_count,
                    json.dumps(r.moves),
                    r.outcome,
                    int(r.won),
                    int(r.ranked),
                    r.day,
                    r.finished_at,
                    r.place,
                    r.masters,
                    r.cards,
                ),
            )
