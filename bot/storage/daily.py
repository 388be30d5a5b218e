"""Daily challenges: the deal chosen per game and UTC day, and each player's ranked attempt."""

from __future__ import annotations

from typing import Any

from bot.storage.base import StorageBase
from bot.storage.records import OVER

CHOICE_COLUMNS = "game_id, day, deal, candidate, best, line, nodes, seconds"
ATTEMPT_COLUMNS = "platform, player_id, game_id, day, session_id, chat_id, status, started_at"

Row = tuple[Any, ...]


class DailyStore(StorageBase):
    """Daily choices and attempts (mixed into ``Storage``)."""

    async def daily_choice_row(self, game_id: str, day: str) -> Row | None:
        """(``CHOICE_COLUMNS``) of the day's stored choice, None before one is stored."""
        rows = await self.fetch(
            f"SELECT {CHOICE_COLUMNS} FROM daily WHERE game_id = ? AND day = ?", (game_id, day)
        )
        return rows[0] if rows else None

    async def store_daily_choice(self, row: Row, chosen_at: str) -> None:
        """Keep the first stored choice of a day: another process may have stored it already.
        ``row`` is (``CHOICE_COLUMNS``) with the line as JSON text."""
        async with self._transaction() as tx:
            await tx.execute(
                f"INSERT INTO daily ({CHOICE_COLUMNS}, chosen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, day) DO NOTHING",
                (*row, chosen_at),
            )

    async def daily_attempt_row(
        self, platform: str, player_id: str, game_id: str, day: str
    ) -> Row | None:
        rows = await self.fetch(
            f"SELECT {ATTEMPT_COLUMNS} FROM daily_attempts "
            "WHERE platform = ? AND player_id = ? AND game_id = ? AND day = ?",
            (platform, player_id, game_id, day),
        )
        return rows[0] if rows else None

    async def daily_attempt_row_of_session(self, session_id: str) -> Row | None:
        rows = await self.fetch(
            f"SELECT {ATTEMPT_COLUMNS} FROM daily_attempts WHERE session_id = ?", (session_id,)
        )
        return rows[0] if rows else None

    async def add_daily_attempt(self, row: Row) -> None:
        """Record a ranked attempt (``ATTEMPT_COLUMNS``); ``AlreadyExists`` when the player
        has one for that game and day already."""
        async with self._transaction() as tx:
            await tx.execute(
                f"INSERT INTO daily_attempts ({ATTEMPT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )

    async def ranked_result_rows(self, session_id: str) -> list[Row]:
        """(game_id, deal, options, moves, score, outcome, move_count, tiebreak_move) of the
        session's ranked results."""
        return await self.fetch(
            "SELECT game_id, deal, options, moves, score, outcome, move_count, tiebreak_move "
            "FROM results WHERE session_id = ? AND ranked = 1 ORDER BY id",
            (session_id,),
        )

    async def settle_daily_attempt(self, session_id: str, status: str, unrank: bool) -> None:
        """Mark the attempt ``status``; ``unrank``: its result no longer counts as ranked."""
        async with self._transaction() as tx:
            await tx.execute(
                "UPDATE daily_attempts SET status = ? WHERE session_id = ?", (status, session_id)
            )
            if unrank:
                await tx.execute(
                    "UPDATE results SET ranked = 0 WHERE session_id = ?", (session_id,)
                )

    async def finished_attempt_sessions(self, attempt_status: str) -> list[str]:
        """Sessions of attempts in ``attempt_status`` whose game is over."""
        rows = await self.fetch(
            "SELECT a.session_id FROM daily_attempts a JOIN sessions s ON s.id = a.session_id "
            "WHERE a.status = ? AND s.status = ?",
            (attempt_status, OVER),
        )
        return [str(r[0]) for r in rows]

    async def share_result_row(self, session_id: str) -> Row | None:
        """(game_id, deal, options, moves, score, outcome) of the session's first result."""
        rows = await self.fetch(
            "SELECT game_id, deal, options, moves, score, outcome FROM results WHERE session_id = ?",
            (session_id,),
        )
        return rows[0] if rows else None
