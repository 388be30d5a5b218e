"""The features' side of :class:`bot.core.web_reads.WebReads`: what the web page reads, by the
rules of the leaderboards, streaks, ratings, daily challenge and tables features (built once by
``bot.app`` and handed to the web page in the registry)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from bot.core.web_reads import GameNumbers, ShownRating, Streak
from bot.features import leaderboards, ratings, streaks
from bot.features import web as links
from bot.features.daily import DAILY_GAMES, settle_pending
from bot.features.table_rules import is_computer
from bot.storage import Entry, Storage
from bot.storage.records import COMPUTER_PREFIX


class FeatureReads:
    """:class:`~bot.core.web_reads.WebReads` on the features' own functions."""

    daily_games: tuple[str, ...] = DAILY_GAMES
    periods: tuple[str, ...] = leaderboards.PERIODS

    def __init__(self, store: Storage) -> None:
        self.store = store

    async def settle_daily(self) -> None:
        await settle_pending(self.store)

    def rank(self, game_id: str, entries: Sequence[Entry]) -> list[tuple[int, Entry]]:
        return leaderboards.rank(game_id, entries)

    def score_cells(self, lang: str, game_id: str, entry: Entry) -> list[str]:
        return leaderboards.score_cells(lang, game_id, entry)

    def since_day(self, period: str, today: date) -> str:
        return leaderboards.since_day(period, today)

    async def game_numbers(self, platform: str, user: str) -> list[GameNumbers]:
        return await streaks.game_stats(self.store, platform, user)

    async def streak(self, platform: str, user: str, today: date) -> Streak:
        return streaks.streaks(await streaks.daily_days(self.store, platform, user), today)

    async def rating(self, platform: str, user: str, game_id: str) -> ShownRating | None:
        rating = await ratings.rating_of(self.store, platform, ratings.GLOBAL, user, game_id)
        return None if rating is None else ShownRating(rating.shown, rating.games)

    def computer_number(self, player: str) -> str | None:
        return player.removeprefix(COMPUTER_PREFIX) if is_computer(player) else None

    def daily_path(self, game_id: str, day: str) -> str:
        return links.daily_path(game_id, day)

    def player_path(self, public_id: str) -> str:
        return links.player_path(public_id)

    def replay_path(self, session_id: str, step: int | None = None) -> str:
        return links.replay_path(session_id, step)

    def chat_path(self, token: str, period: str | None = None) -> str:
        return links.chat_path(token, period)
