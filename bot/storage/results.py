"""Reading finished games: leaderboards, streaks and stats, replays."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.base import Store
from bot.storage.records import COMPUTER_PREFIX, RESULT_COLUMNS, SOLO, ResultRecord, row_to_result

#: (player key, name, score, tiebreak move, move count, outcome) of a leaderboard entry
_ENTRY_COLUMNS = "r.platform || ':' || r.player_id, r.player_name, r.score, r.tiebreak_move, r.move_count, r.outcome"


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's result on a board (``player`` is ``platform:user id``; ``session_id``
    is the game's, when the board links its replays)."""

    player: str
    name: str
    score: int
    tiebreak_move: int
    move_count: int
    outcome: str
    session_id: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One finished game of a player, as their stats count it."""

    game_id: str
    entry: Entry
    won: bool
    masters: int


@dataclass(frozen=True, slots=True)
class TableTally:
    """A player's wins and masters won at Cartas Maestras tables over a window."""

    name: str
    wins: int
    masters: int


@dataclass(frozen=True, slots=True)
class RaceResult:
    """A player's board in a ranked race round: how it ended, its place, how many raced."""

    outcome: str
    place: int
    racers: int


@dataclass(frozen=True, slots=True)
class SoloWin:
    """A won solo game: its game, when it was dealt and when it was won (ISO times)."""

    game_id: str
    started_at: str
    finished_at: str


def _entry(row: Sequence[Any], session_id: str | None = None) -> Entry:
    player, name, score, tiebreak_move, move_count, outcome = row[:6]
    return Entry(
        str(player),
        str(name),
        int(score),
        int(tiebreak_move),
        int(move_count),
        str(outcome),
        session_id,
    )


def _in_chat(
    sql: str, params: list[Any], platform: str, chat: str | None, prefix: str = "r."
) -> str:
    if chat is not None:
        sql += f" AND {prefix}platform = ? AND {prefix}chat_id = ?"
        params += [platform, chat]
    return sql


class ResultsStore(Store):
    """Queries over results (``storage.results``)."""

    # ----- one game's results -----------------------------------------------------------------
    async def count(self, session_id: str | None = None) -> int:
        """How many results are stored (of ``session_id`` when given)."""
        if session_id is None:
            rows = await self._fetch("SELECT COUNT(*) FROM results")
        else:
            rows = await self._fetch(
                "SELECT COUNT(*) FROM results WHERE session_id = ?", (session_id,)
            )
        return int(rows[0][0]) if rows else 0

    async def of_session(self, session_id: str) -> list[ResultRecord]:
        """A finished game's results, by place (then as stored)."""
        rows = await self._fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE session_id = ? "
            "ORDER BY COALESCE(place, 0), id",
            (session_id,),
        )
        return [row_to_result(r) for r in rows]

    async def first(self, session_id: str) -> ResultRecord | None:
        """The first stored result of a session (a solo game's only one), None before it ends."""
        rows = await self._fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE session_id = ? ORDER BY id LIMIT 1",
            (session_id,),
        )
        return row_to_result(rows[0]) if rows else None

    async def ranked(self, session_id: str) -> list[ResultRecord]:
        """The session's ranked results, as stored."""
        rows = await self._fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE session_id = ? AND ranked = 1 ORDER BY id",
            (session_id,),
        )
        return [row_to_result(r) for r in rows]

    async def set_places(self, places: dict[str, int]) -> None:
        """Store the place each session's (one) result took in a competition (a race round),
        all in one transaction."""
        if not places:
            return
        async with self._transaction() as tx:
            for session_id, place in sorted(places.items()):
                tx.add("UPDATE results SET place = ? WHERE session_id = ?", (place, session_id))

    async def race_places(self, session_ids: Sequence[str]) -> dict[str, RaceResult]:
        """Of the given sessions, the race boards whose round was ranked, by session."""
        found: dict[str, RaceResult] = {}
        wanted = sorted(set(session_ids))
        for start in range(0, len(wanted), 500):  # bounded IN lists on either backend
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = await self._fetch(
                "SELECT e.session_id, r.outcome, r.place, (SELECT COUNT(*) FROM race_entries o "
                "WHERE o.race_id = e.race_id AND o.round = e.round) FROM race_entries e "
                "JOIN results r ON r.session_id = e.session_id "
                f"WHERE e.session_id IN ({marks}) AND r.place IS NOT NULL",
                chunk,
            )
            found.update({str(s): RaceResult(str(o), int(p), int(n)) for s, o, p, n in rows})
        return found

    async def race_results(self, platform: str, player_id: str) -> list[RaceResult]:
        """The player's ranked race boards, oldest first: outcome, place and racers."""
        rows = await self._fetch(
            "SELECT r.outcome, r.place, (SELECT COUNT(*) FROM race_entries o "
            "WHERE o.race_id = e.race_id AND o.round = e.round) FROM results r "
            "JOIN race_entries e ON e.session_id = r.session_id "
            "WHERE r.platform = ? AND r.player_id = ? AND r.place IS NOT NULL "
            "ORDER BY r.finished_at, r.id",
            (platform, player_id),
        )
        return [RaceResult(str(o), int(p), int(n)) for o, p, n in rows]

    # ----- leaderboards -----------------------------------------------------------------------
    async def daily_entries(
        self, game_id: str, since: str, accepted: str, platform: str, chat: str | None
    ) -> list[Entry]:
        """Accepted ranked attempts of the window (by the challenge's day); ``chat`` None:
        every chat."""
        params: list[Any] = [accepted, game_id, since]
        sql = _in_chat(
            f"SELECT {_ENTRY_COLUMNS} FROM results r JOIN daily_attempts a ON a.session_id = r.session_id "
            "WHERE r.ranked = 1 AND a.status = ? AND a.game_id = ? AND a.day >= ?",
            params,
            platform,
            chat,
        )
        return [_entry(r) for r in await self._fetch(sql, params)]

    async def day_entries(self, game_id: str, day: str, accepted: str) -> list[Entry]:
        """The accepted attempts of one day's challenge, every chat, with their sessions."""
        rows = await self._fetch(
            f"SELECT {_ENTRY_COLUMNS}, r.session_id FROM results r "
            "JOIN daily_attempts a ON a.session_id = r.session_id "
            "WHERE r.ranked = 1 AND a.status = ? AND a.game_id = ? AND a.day = ?",
            (accepted, game_id, day),
        )
        return [_entry(r, str(r[6])) for r in rows]

    async def casual_entries(
        self, game_id: str, since: str, platform: str, chat: str | None
    ) -> list[Entry]:
        """Unranked results of the window (by finish day), daily attempts left out."""
        params: list[Any] = [game_id, since]
        sql = _in_chat(
            f"SELECT {_ENTRY_COLUMNS} FROM results r WHERE r.ranked = 0 AND r.game_id = ? AND r.day >= ? "
            "AND r.session_id NOT IN (SELECT session_id FROM daily_attempts)",
            params,
            platform,
            chat,
        )
        return [_entry(r) for r in await self._fetch(sql, params)]

    async def names_without_attempt(
        self, platform: str, chat: str, game_id: str, day: str
    ) -> list[str]:
        """Names of the players known in this chat (they played or joined a game here) with
        no ranked attempt at ``day``'s challenge of ``game_id``."""
        rows = await self._fetch(
            "SELECT name FROM (SELECT DISTINCT p.name AS name FROM players p WHERE p.platform = ? "
            "AND p.user_id IN ("
            "  SELECT player_id FROM results WHERE platform = ? AND chat_id = ?"
            "  UNION SELECT creator FROM sessions WHERE platform = ? AND chat_id = ?"
            ") AND p.user_id NOT IN ("
            "  SELECT player_id FROM daily_attempts WHERE platform = ? AND game_id = ? AND day = ?"
            ")) AS known ORDER BY lower(name)",
            (platform, platform, chat, platform, chat, platform, game_id, day),
        )
        return [row[0] for row in rows]

    async def table_tallies(
        self, game_id: str, platform: str, chat: str | None, since: str
    ) -> list[TableTally]:
        """A table game (Cartas Maestras): wins and masters per person over the window, best
        first (computer seats play but are never ranked)."""
        params: list[Any] = [game_id, since, COMPUTER_PREFIX + "%"]
        sql = _in_chat(
            "SELECT MAX(player_name), SUM(won), COALESCE(SUM(masters), 0) FROM results "
            "WHERE game_id = ? AND day >= ? AND player_id NOT LIKE ?",
            params,
            platform,
            chat,
            prefix="",
        )
        sql += " GROUP BY platform, player_id ORDER BY SUM(won) DESC, COALESCE(SUM(masters), 0) DESC, MAX(player_name)"
        return [TableTally(str(r[0]), int(r[1]), int(r[2])) for r in await self._fetch(sql, params)]

    # ----- one player's games -----------------------------------------------------------------
    async def player_results(self, platform: str, player_id: str) -> list[PlayerResult]:
        """Every finished game of the player."""
        rows = await self._fetch(
            "SELECT platform || ':' || player_id, player_name, score, tiebreak_move, move_count, "
            "outcome, game_id, won, COALESCE(masters, 0) FROM results WHERE platform = ? AND player_id = ?",
            (platform, player_id),
        )
        return [PlayerResult(str(r[6]), _entry(r), bool(r[7]), int(r[8])) for r in rows]

    async def recent(self, platform: str, player_id: str, limit: int) -> list[ResultRecord]:
        """The player's latest finished games, newest first."""
        rows = await self._fetch(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE platform = ? AND player_id = ? "
            "ORDER BY finished_at DESC, id DESC LIMIT ?",
            (platform, player_id, limit),
        )
        return [row_to_result(r) for r in rows]

    async def solo_wins(self, platform: str, player_id: str) -> list[SoloWin]:
        """Each solo game the player won, with when it was dealt and won."""
        rows = await self._fetch(
            "SELECT r.game_id, s.created_at, r.finished_at FROM results r JOIN sessions s ON s.id = r.session_id "
            "WHERE r.platform = ? AND r.player_id = ? AND r.won = 1 AND s.kind = ?",
            (platform, player_id, SOLO),
        )
        return [SoloWin(str(g), str(start), str(end)) for g, start, end in rows]

    async def finished_in_chat(
        self, platform: str, chat_id: str, player_id: str, limit: int
    ) -> list[str]:
        """The sessions of the player's finished games in a chat, the latest first."""
        rows = await self._fetch(
            "SELECT session_id FROM results WHERE platform = ? AND chat_id = ? AND player_id = ? "
            "ORDER BY finished_at DESC, id DESC LIMIT ?",
            (platform, chat_id, player_id, limit),
        )
        return [str(r[0]) for r in rows]

    async def latest_finished(
        self, platform: str, chat_id: str, player_id: str, game_id: str | None = None
    ) -> str | None:
        """The session of the player's most recently finished game in a chat (of ``game_id``
        when given)."""
        sql = (
            "SELECT session_id FROM results WHERE platform = ? AND chat_id = ? AND player_id = ?"
            + (" AND game_id = ?" if game_id else "")
            + " ORDER BY finished_at DESC, id DESC LIMIT 1"
        )
        params: tuple[Any, ...] = (platform, chat_id, player_id) + ((game_id,) if game_id else ())
        rows = await self._fetch(sql, params)
        return str(rows[0][0]) if rows else None
