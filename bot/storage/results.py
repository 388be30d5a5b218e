"""Reading finished games: leaderboards, streaks and stats, replays."""

from __future__ import annotations

from typing import Any

from bot.storage.base import StorageBase

Row = tuple[Any, ...]

#: (player key, name, score, tiebreak move, move count, outcome) of a leaderboard entry
_ENTRY_COLUMNS = "r.platform || ':' || r.player_id, r.player_name, r.score, r.tiebreak_move, r.move_count, r.outcome"


def _in_chat(
    sql: str, params: list[Any], platform: str, chat: str | None, prefix: str = "r."
) -> str:
    if chat is not None:
        sql += f" AND {prefix}platform = ? AND {prefix}chat_id = ?"
        params += [platform, chat]
    return sql


class ResultsStore(StorageBase):
    """Queries over results (mixed into ``Storage``)."""

    async def daily_entry_rows(
        self, game_id: str, since: str, accepted: str, platform: str, chat: str | None
    ) -> list[Row]:
        """Accepted ranked attempts of the window (by the challenge's day); ``chat`` None:
        every chat."""
        params: list[Any] = [accepted, game_id, since]
        sql = _in_chat(
            f"SELECT {_ENTRY_COLUMNS} FROM results r JOIN daily_attempts a ON a.session_id = r.session_id "
            "WHERE r.ranked = 1 AND a.status = ? AND a.game_id = ? AND a.day >= ?",
            params, platform, chat,
        )  # fmt: skip
        return await self.fetch(sql, params)

    async def casual_entry_rows(
        self, game_id: str, since: str, platform: str, chat: str | None
    ) -> list[Row]:
        """Unranked results of the window (by finish day), daily attempts left out."""
        params: list[Any] = [game_id, since]
        sql = _in_chat(
            f"SELECT {_ENTRY_COLUMNS} FROM results r WHERE r.ranked = 0 AND r.game_id = ? AND r.day >= ? "
            "AND r.session_id NOT IN (SELECT session_id FROM daily_attempts)",
            params, platform, chat,
        )  # fmt: skip
        return await self.fetch(sql, params)

    async def names_without_attempt(
        self, platform: str, chat: str, game_id: str, day: str
    ) -> list[str]:
        """Names of the players known in this chat (they played or joined a game here) with
        no ranked attempt at ``day``'s challenge of ``game_id``."""
        rows = await self.fetch(
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

    async def maestras_table_rows(
        self, platform: str, chat: str | None, since: str
    ) -> list[tuple[str, int, int]]:
        """Cartas Maestras: (name, wins, masters) per player over the window, best first."""
        params: list[Any] = [since]
        sql = _in_chat(
            "SELECT MAX(player_name), SUM(won), COALESCE(SUM(masters), 0) FROM results "
            "WHERE game_id = 'maestras' AND day >= ?",
            params, platform, chat, prefix="",
        )  # fmt: skip
        sql += " GROUP BY platform, player_id ORDER BY SUM(won) DESC, COALESCE(SUM(masters), 0) DESC, MAX(player_name)"
        return [(r[0], int(r[1]), int(r[2])) for r in await self.fetch(sql, params)]

    async def accepted_daily_days(self, platform: str, player_id: str, accepted: str) -> list[str]:
        """The challenge days (ISO) on which the player's attempt was accepted."""
        rows = await self.fetch(
            "SELECT DISTINCT day FROM daily_attempts WHERE platform = ? AND player_id = ? AND status = ?",
            (platform, player_id, accepted),
        )
        return [str(row[0]) for row in rows]

    async def player_result_rows(self, platform: str, player_id: str) -> list[Row]:
        """(game_id, player key, name, score, tiebreak_move, move_count, outcome, won, masters)
        of every finished game of the player."""
        return await self.fetch(
            "SELECT game_id, platform || ':' || player_id, player_name, score, tiebreak_move, move_count, "
            "outcome, won, COALESCE(masters, 0) FROM results WHERE platform = ? AND player_id = ?",
            (platform, player_id),
        )

    async def latest_finished_session(self, platform: str, chat_id: str, player_id: str,
                                      game_id: str | None = None) -> str | None:  # fmt: skip
        """The player's most recently finished game in a chat (of ``game_id`` when given)."""
        sql = (
            "SELECT session_id FROM results WHERE platform = ? AND chat_id = ? AND player_id = ?"
            + (" AND game_id = ?" if game_id else "")
            + " ORDER BY finished_at DESC, id DESC LIMIT 1"
        )
        params: tuple[Any, ...] = (platform, chat_id, player_id) + ((game_id,) if game_id else ())
        rows = await self.fetch(sql, params)
        return str(rows[0][0]) if rows else None
