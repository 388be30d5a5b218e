"""What the web page reads of the features: one narrow, typed interface (:class:`WebReads`).

The pages (``bot.web``) rank and show what the chat's ``/leaderboard``, ``/stats`` and
``/daily`` show, by the same rules; those rules are the features'. The web page imports no
feature: the composition root (``bot.app``) builds the features' implementation
(``bot.features.web_reads``) and hands it over in the registry (``Registry.web_reads``), which
the web page reaches through the :class:`~bot.core.service.Service` it is set up on. Both
sides import only this module, so neither depends on the other.

The values are the web page's own small records, not the features' classes: a page reads
numbers and words, never a feature's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from bot.storage import Entry


@dataclass(frozen=True, slots=True)
class GameNumbers:
    """One game's numbers for one player (what ``/stats`` shows per game)."""

    game_id: str
    games: int
    wins: int
    best: Entry | None  # the best result by the game's leaderboard order (solo games)
    masters: int = 0
    table: bool = False  # a table game: no best, the masters won in all instead


@dataclass(frozen=True, slots=True)
class Streak:
    """Current and best run of consecutive days with a finished daily challenge."""

    current: int
    best: int


@dataclass(frozen=True, slots=True)
class ShownRating:
    """A player's rating everywhere (not one chat's): the number shown and tables played."""

    shown: int
    games: int


class WebReads(Protocol):
    """The leaderboard, streak, rating, daily, replay and address facts a page needs."""

    @property
    def daily_games(self) -> tuple[str, ...]:
        """The games with a daily challenge, in the order pages list them."""

    @property
    def periods(self) -> tuple[str, ...]:
        """A chat page's periods (``today``, ``week``, ``all``)."""

    async def settle_daily(self) -> None:
        """Settle finished daily attempts before rankings are read (as ``/leaderboard``
        does); raises ``StorageBusy`` when another process is writing."""

    def rank(self, game_id: str, entries: Sequence[Entry]) -> list[tuple[int, Entry]]:
        """Entries in the game's leaderboard order, with their places."""

    def score_cells(self, lang: str, game_id: str, entry: Entry) -> list[str]:
        """The cells after a player's name in the game's ranking."""

    def since_day(self, period: str, today: date) -> str:
        """The first UTC day of a period ("" = from the beginning)."""

    async def game_numbers(self, platform: str, user: str) -> list[GameNumbers]:
        """A player's games, wins and best result per game."""

    async def streak(self, platform: str, user: str, today: date) -> Streak:
        """A player's daily streaks."""

    async def rating(self, platform: str, user: str, game_id: str) -> ShownRating | None:
        """A player's rating everywhere in a table game, None before their first table."""

    def computer_number(self, player: str) -> str | None:
        """The number of a seat the computer plays (``Computer 2``), None for a person."""

    def daily_path(self, game_id: str, day: str) -> str:
        """The address of a day's ranking (the same the chat's links name)."""

    def player_path(self, public_id: str) -> str:
        """The address of a player's page."""

    def replay_path(self, session_id: str, step: int | None = None) -> str:
        """The address of a finished game's replay."""

    def chat_path(self, token: str, period: str | None = None) -> str:
        """The address of a chat's own leaderboards."""
