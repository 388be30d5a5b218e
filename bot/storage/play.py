"""Playing together: a table's play state (turn timer, timeouts, departed and computer seats)
and races (their rounds and each racer's board)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.backend import Queued, Tx
from bot.storage.base import Store
from bot.storage.records import SessionRecord

#: the default turn timer (games.md / bot.md: three minutes)
DEFAULT_TIMER_SECONDS = 180

_PLAY_SELECT = (
    "SELECT timer_seconds, deadline, timeouts, departed, computers FROM table_play "
    "WHERE session_id = ?"
)
_PLAY_UPSERT = (
    "INSERT INTO table_play (session_id, timer_seconds, deadline, timeouts, departed, computers) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET "
    "timer_seconds = excluded.timer_seconds, deadline = excluded.deadline, "
    "timeouts = excluded.timeouts, departed = excluded.departed, computers = excluded.computers"
)


@dataclass(slots=True)
class TablePlay:
    """What the bot keeps about a table besides the engine's game: the turn timer, the
    running turn's deadline (ISO), each player's timeouts in a row, who left, and which
    seats the computer plays."""

    session_id: str
    timer_seconds: int | None = DEFAULT_TIMER_SECONDS
    deadline: str | None = None
    timeouts: dict[str, int] = field(default_factory=dict)
    departed: list[str] = field(default_factory=list)
    computers: list[str] = field(default_factory=list)

    def auto_played(self, player: str) -> bool:
        """Does the core play this seat's turns (a computer or a player who left)?"""
        return player in self.computers or player in self.departed

    def people_left(self, players: list[str]) -> list[str]:
        """Seated people still playing (not computers, not gone)."""
        return [p for p in players if not self.auto_played(p)]

    def copy(self) -> TablePlay:
        """A copy to change (its dict and lists too): a kept state stays as it was stored."""
        return TablePlay(
            self.session_id,
            self.timer_seconds,
            self.deadline,
            dict(self.timeouts),
            list(self.departed),
            list(self.computers),
        )


def play_params(play: TablePlay) -> tuple[object, ...]:
    """The upsert's parameters for ``play`` (its columns in order, JSON texts)."""
    return (
        play.session_id,
        play.timer_seconds,
        play.deadline,
        json.dumps(play.timeouts, sort_keys=True),
        json.dumps(play.departed),
        json.dumps(play.computers),
    )


def table_play(session_id: str, rows: Sequence[Sequence[Any]]) -> TablePlay | None:
    """The play state in the rows of ``_PLAY_SELECT`` (None: no row)."""
    if not rows:
        return None
    timer, deadline, timeouts, departed, computers = rows[0]
    return TablePlay(
        session_id,
        timer,
        deadline,
        json.loads(timeouts),
        json.loads(departed),
        json.loads(computers),
    )


@dataclass(frozen=True, slots=True)
class Race:
    """A race's settings and its current round (``round`` 0: still gathering racers)."""

    id: str
    minutes: int | None
    senza_tempo: bool
    round: int
    join_deadline: str | None
    deadline: str | None
    started_at: str | None


@dataclass(frozen=True, slots=True)
class RaceEntry:
    """Which race and round a racer's board belongs to."""

    race_id: str
    round: int


@dataclass(frozen=True, slots=True)
class RaceBoard:
    """One racer's board (a solo session) in a round."""

    player_id: str
    session_id: str


@dataclass(frozen=True, slots=True)
class RaceLobby:
    """A race's lobby session: its status and chat."""

    race_id: str
    status: str
    platform: str
    chat_id: str


class PlayStore(Store):
    """Tables and races (``storage.play``)."""

    # ----- tables -----------------------------------------------------------------------------
    async def table(self, session_id: str) -> TablePlay | None:
        """A table's play state, None when none is stored yet."""
        return table_play(session_id, await self._fetch(_PLAY_SELECT, (session_id,)))

    async def save_table(self, play: TablePlay) -> None:
        async with self._transaction() as tx:
            self.queue_table(tx, play)

    @staticmethod
    def queue_table(tx: Tx, play: TablePlay) -> None:
        """Inside a transaction: queue storing a table's play state (what ``save_table``
        does, in another write's transaction: a move's, so the turn clock it starts is stored
        with it)."""
        tx.add(_PLAY_UPSERT, play_params(play))

    @staticmethod
    def queue_table_if(
        tx: Tx, play: TablePlay, departed_was: Sequence[str], refuse: Callable[[], BaseException]
    ) -> None:
        """Inside a transaction: queue storing a table's play state if the stored one still
        lists ``departed_was`` as gone (compare-and-set), else ``refuse()`` is raised at its
        turn and the whole transaction undone."""
        tx.add(
            "UPDATE table_play SET timer_seconds = ?, deadline = ?, timeouts = ?, departed = ?, "
            "computers = ? WHERE session_id = ? AND departed = ?",
            (*play_params(play)[1:], play.session_id, json.dumps(list(departed_was))),
            expect=1,
            refuse=refuse,
        )

    @staticmethod
    def queue_table_read(tx: Tx, session_id: str) -> Queued:
        """Inside a transaction: queue reading a table's play state; ``table_play(session_id,
        queued.rows)`` is the state after the transaction."""
        return tx.add(_PLAY_SELECT, (session_id,), returning=True)

    async def stop_timer(self, session_id: str) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "UPDATE table_play SET deadline = NULL WHERE session_id = ?", (session_id,)
            )

    async def tables_past_deadline(self, now: str) -> list[str]:
        """Tables whose turn deadline (ISO text) is at or before ``now``."""
        rows = await self._fetch(
            "SELECT session_id FROM table_play WHERE deadline IS NOT NULL AND deadline <= ?", (now,)
        )
        return [str(r[0]) for r in rows]

    # ----- races ------------------------------------------------------------------------------
    async def race(self, race_id: str) -> Race | None:
        rows = await self._fetch(
            "SELECT id, minutes, senza_tempo, round, join_deadline, deadline, started_at FROM races WHERE id = ?",
            (race_id,),
        )
        if not rows:
            return None
        rid, minutes, senza, round_number, join_deadline, deadline, started_at = rows[0]
        return Race(
            str(rid), minutes, bool(senza), int(round_number), join_deadline, deadline, started_at
        )

    async def race_entry(self, session_id: str) -> RaceEntry | None:
        """The race and round of a racer's board session, None for any other session."""
        rows = await self._fetch(
            "SELECT race_id, round FROM race_entries WHERE session_id = ?", (session_id,)
        )
        return RaceEntry(str(rows[0][0]), int(rows[0][1])) if rows else None

    async def insert_race(
        self, race_id: str, minutes: int | None, senza_tempo: bool, join_deadline: str
    ) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO races (id, minutes, senza_tempo, round, join_deadline) VALUES (?, ?, ?, 0, ?)",
                (race_id, minutes, int(senza_tempo), join_deadline),
            )

    async def start_round(
        self,
        race_id: str,
        round_number: int,
        deadline: str | None,
        started_at: str,
        boards: Sequence[RaceBoard],
    ) -> None:
        """Record the round's start and each racer's board."""
        async with self._transaction() as tx:
            await tx.execute(
                "UPDATE races SET round = ?, deadline = ?, started_at = ?, join_deadline = NULL WHERE id = ?",
                (round_number, deadline, started_at, race_id),
            )
            for board in boards:
                await tx.execute(
                    "INSERT INTO race_entries (race_id, round, player_id, session_id) VALUES (?, ?, ?, ?)",
                    (race_id, round_number, board.player_id, board.session_id),
                )

    async def round_boards(self, race_id: str, round_number: int) -> list[RaceBoard]:
        """A round's boards, by player."""
        rows = await self._fetch(
            "SELECT player_id, session_id FROM race_entries WHERE race_id = ? AND round = ? ORDER BY player_id",
            (race_id, round_number),
        )
        return [RaceBoard(str(p), str(s)) for p, s in rows]

    def advance_race_counter(self, tx: Tx, rec: SessionRecord) -> None:
        """Inside a move's transaction: when ``rec`` is a race board, queue advancing its
        race's race-wide move counter (nothing for any other session); the move's insert reads
        the new value from the race's row in the same transaction.

        The counter lives on the race's row, so racers served by different processes still get
        distinct numbers in the order their moves were stored (PostgreSQL's row lock, taken by
        this update, holds the next mover until this one commits; SQLite's writes are serial)."""
        tx.add(
            "UPDATE races SET move_counter = move_counter + 1 "
            "WHERE id = (SELECT race_id FROM race_entries WHERE session_id = ?)",
            (rec.id,),
        )

    async def race_move_at(self, session_id: str, n: int) -> int | None:
        """The race-wide number of move ``n`` of a race board (None: no such move, or one
        stored before the race-wide counter existed)."""
        rows = await self._fetch(
            "SELECT race_move FROM moves WHERE session_id = ? AND n = ?", (session_id, n)
        )
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    async def races_in_status(self, statuses: Sequence[str]) -> list[RaceLobby]:
        """The races whose lobby is in ``statuses``."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._fetch(
            "SELECT r.id, s.status, s.platform, s.chat_id FROM races r JOIN sessions s ON s.id = r.id "
            f"WHERE s.status IN ({marks})",
            statuses,
        )
        return [RaceLobby(str(a), str(b), str(c), str(d)) for a, b, c, d in rows]

    async def active_boards(self, race_id: str, round_number: int, active: str) -> int:
        """How many boards of the round are still being played."""
        rows = await self._fetch(
            "SELECT COUNT(*) FROM race_entries e JOIN sessions s ON s.id = e.session_id "
            "WHERE e.race_id = ? AND e.round = ? AND s.status = ?",
            (race_id, round_number, active),
        )
        return int(rows[0][0]) if rows else 0

    # ----- spoilers ---------------------------------------------------------------------------
    async def deals_in_competition(
        self, platform: str, chat_id: str, game_id: str, racing: str, playing: str, today: str
    ) -> set[int]:
        """The deals of ``game_id`` (default options) that a competition in this chat still
        plays: a race round being run (lobby in status ``racing``), a daily attempt still
        ``playing`` (whatever its day: one begun before midnight goes on after it), and
        today's daily deal, which anyone here may still start."""
        rows = await self._fetch(
            "SELECT deal FROM sessions WHERE platform = ? AND chat_id = ? AND game_id = ? AND status = ? "
            "UNION SELECT d.deal FROM daily_attempts a JOIN daily d ON d.game_id = a.game_id AND d.day = a.day "
            "WHERE a.platform = ? AND a.chat_id = ? AND a.game_id = ? AND a.status = ? "
            "UNION SELECT deal FROM daily WHERE game_id = ? AND day = ?",
            (
                platform,
                chat_id,
                game_id,
                racing,
                platform,
                chat_id,
                game_id,
                playing,
                game_id,
                today,
            ),
        )
        return {int(r[0]) for r in rows if r[0] is not None}
