"""Daily challenges: the deal chosen per game and UTC day, and each player's ranked attempt."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from bot.storage.backend import Backend
from bot.storage.base import Store
from bot.storage.pseudonyms import PseudonymStore
from bot.storage.records import OVER

_CHOICE_COLUMNS = "game_id, day, deal, candidate, best, line, nodes, seconds"
_ATTEMPT_COLUMNS = "platform, player_id, game_id, day, session_id, chat_id, status, started_at"


@dataclass(frozen=True, slots=True)
class DailyChoice:
    """The deal of one game on one UTC day, with the solver's proof.

    ``line`` is the solver's verified line (a win, or El Solitario's played out line);
    ``nodes``/``seconds`` add up every candidate tried; ``candidate`` is the index of the
    chosen one (0 = the first)."""

    game_id: str
    day: str
    deal: int
    candidate: int
    best: str
    line: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class DailyAttempt:
    """A player's ranked attempt at one day's challenge (``status``: ``PLAYING``,
    ``ACCEPTED`` or ``REFUSED``)."""

    platform: str
    player_id: str
    game_id: str
    day: str
    session_id: str
    chat_id: str
    status: str
    started_at: str


def _choice(row: Sequence[Any]) -> DailyChoice:
    game_id, day, deal, candidate, best, line, nodes, seconds = row
    return DailyChoice(
        str(game_id),
        str(day),
        int(deal),
        int(candidate),
        best,
        json.loads(line),
        int(nodes),
        float(seconds),
    )


def _attempt(row: Sequence[Any]) -> DailyAttempt:
    return DailyAttempt(*(str(value) for value in row))


def ranked_days_kept(day: str) -> str:
    """The first challenge day whose ranked players are still kept when ``day`` is today: a
    daily is started on its own UTC day only, so yesterday's is kept (a player's clock may
    lag) and older days are let go.

    >>> ranked_days_kept("2025-03-01")
    '2025-02-28'
    """
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


class DailyStore(Store):
    """Daily choices and attempts (``storage.daily``). Each ranked attempt also leaves a keyed
    hash of its player, game and day in ``daily_ranked`` (no name, no id): ``/forgetme``
    deletes the attempt but not the hash, whose primary key refuses a second ranked attempt
    at the same daily."""

    def __init__(self, backend: Backend, pseudonyms: PseudonymStore) -> None:
        super().__init__(backend)
        self._pseudonyms = pseudonyms

    async def ranked_hash(self, platform: str, player_id: str, game_id: str, day: str) -> str:
        """The keyed hash that stands for the player's ranked attempt at one daily."""
        return await self._pseudonyms.of("daily", platform, player_id, game_id, day)

    async def ranked_before(self, platform: str, player_id: str, game_id: str, day: str) -> bool:
        """Whether the player has had a ranked attempt at the daily, even one since forgotten."""
        player_hash = await self.ranked_hash(platform, player_id, game_id, day)
        rows = await self._fetch(
            "SELECT 1 FROM daily_ranked WHERE day = ? AND game_id = ? AND player_hash = ?",
            (day, game_id, player_hash),
        )
        return bool(rows)

    async def choice(self, game_id: str, day: str) -> DailyChoice | None:
        """The day's stored choice, None before one is stored."""
        rows = await self._fetch(
            f"SELECT {_CHOICE_COLUMNS} FROM daily WHERE game_id = ? AND day = ?", (game_id, day)
        )
        return _choice(rows[0]) if rows else None

    async def store_choice(self, choice: DailyChoice, chosen_at: str) -> None:
        """Keep the first stored choice of a day: another process may have stored it already."""
        async with self._transaction() as tx:
            await tx.execute(
                f"INSERT INTO daily ({_CHOICE_COLUMNS}, chosen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, day) DO NOTHING",
                (
                    choice.game_id,
                    choice.day,
                    choice.deal,
                    choice.candidate,
                    choice.best,
                    json.dumps(choice.line),
                    choice.nodes,
                    choice.seconds,
                    chosen_at,
                ),
            )

    async def days_of_deal(self, game_id: str, deal: int) -> list[str]:
        """The days whose daily challenge of ``game_id`` was deal ``deal``."""
        rows = await self._fetch(
            "SELECT day FROM daily WHERE game_id = ? AND deal = ?", (game_id, deal)
        )
        return [str(r[0]) for r in rows]

    async def attempt(
        self, platform: str, player_id: str, game_id: str, day: str
    ) -> DailyAttempt | None:
        """The player's ranked attempt at ``day``'s challenge of ``game_id``, if any."""
        rows = await self._fetch(
            f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts "
            "WHERE platform = ? AND player_id = ? AND game_id = ? AND day = ?",
            (platform, player_id, game_id, day),
        )
        return _attempt(rows[0]) if rows else None

    async def prune_ranked(self, today: str) -> int:
        """Delete the keyed hashes of dailies that can no longer be started (before
        yesterday); returns how many went."""
        async with self._transaction() as tx:
            return await tx.execute(
                "DELETE FROM daily_ranked WHERE day < ?", (ranked_days_kept(today),)
            )

    async def attempt_of_session(self, session_id: str) -> DailyAttempt | None:
        rows = await self._fetch(
            f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts WHERE session_id = ?", (session_id,)
        )
        return _attempt(rows[0]) if rows else None

    async def add_attempt(self, attempt: DailyAttempt) -> None:
        """Record a ranked attempt; ``AlreadyExists`` when the player has one for that game
        and day already, or had one before ``/forgetme``."""
        player_hash = await self.ranked_hash(
            attempt.platform, attempt.player_id, attempt.game_id, attempt.day
        )
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO daily_ranked (day, game_id, player_hash) VALUES (?, ?, ?)",
                (attempt.day, attempt.game_id, player_hash),
            )
            await tx.execute(
                f"INSERT INTO daily_attempts ({_ATTEMPT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    attempt.platform,
                    attempt.player_id,
                    attempt.game_id,
                    attempt.day,
                    attempt.session_id,
                    attempt.chat_id,
                    attempt.status,
                    attempt.started_at,
                ),
            )

    async def settle(self, session_id: str, status: str, unrank: bool) -> None:
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
        rows = await self._fetch(
            "SELECT a.session_id FROM daily_attempts a JOIN sessions s ON s.id = a.session_id "
            "WHERE a.status = ? AND s.status = ?",
            (attempt_status, OVER),
        )
        return [str(r[0]) for r in rows]

    async def accepted_days(self, platform: str, player_id: str, accepted: str) -> list[str]:
        """The challenge days (ISO) on which the player's attempt was accepted."""
        rows = await self._fetch(
            "SELECT DISTINCT day FROM daily_attempts WHERE platform = ? AND player_id = ? AND status = ?",
            (platform, player_id, accepted),
        )
        return [str(row[0]) for row in rows]
