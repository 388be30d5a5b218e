"""Daily streaks and ``/stats [@player]``.

A **streak** is a run of consecutive UTC days on each of which the player finished at least one
daily challenge (an accepted ranked attempt, counted on the challenge's day). The current streak
is still alive on the day after its last day: it survives until the end of the next UTC day,
and breaks only when a whole UTC day passes without a finished daily.

>>> d = date.fromisoformat
>>> streaks([d("2025-03-12"), d("2025-03-13")], today=d("2025-03-14"))
Streaks(current=2, best=2)
>>> streaks([d("2025-03-12"), d("2025-03-13")], today=d("2025-03-15"))
Streaks(current=0, best=2)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from statistics import median
from typing import TYPE_CHECKING

from bot import i18n
from bot.core.commands import ALL_GAMES, mention_name
from bot.features.daily import ACCEPTED, settle_pending
from bot.features.leaderboards import Entry, sort_key
from bot.replies import Reply
from bot.storage import Storage

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service
    from bot.features.tables import Tables


@dataclass(frozen=True, slots=True)
class Streaks:
    """Current and best run of consecutive days."""

    current: int
    best: int


def streaks(days: Iterable[date], today: date) -> Streaks:
    """The current and best streak of a set of days with a finished daily challenge.

    >>> d = date.fromisoformat
    >>> streaks([d("2025-03-01"), d("2025-03-02"), d("2025-03-03"), d("2025-03-14")], today=d("2025-03-14"))
    Streaks(current=1, best=3)
    >>> streaks([], today=d("2025-03-14"))
    Streaks(current=0, best=0)
    """
    ordered = sorted(set(days))
    best = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and (today - previous) <= timedelta(days=1)
    return Streaks(run if alive else 0, best)


async def daily_days(store: Storage, platform: str, player_id: str) -> list[date]:
    """The challenge days on which the player finished a daily (accepted attempts)."""
    return [
        date.fromisoformat(day)
        for day in await store.accepted_daily_days(platform, player_id, ACCEPTED)
    ]


@dataclass(frozen=True, slots=True)
class GameStats:
    """One game's numbers for one player."""

    game_id: str
    games: int
    wins: int
    best: Entry | None  # the best result by the game's leaderboard order (solo games)
    masters: int = 0


async def game_stats(store: Storage, platform: str, player_id: str) -> list[GameStats]:
    """Games, wins and best result per game (every finished game, ranked or not)."""
    rows = await store.player_result_rows(platform, player_id)
    per_game: dict[str, list[tuple]] = {}
    for row in rows:
        per_game.setdefault(row[0], []).append(row)
    found = []
    for game_id in sorted(
        per_game, key=lambda g: ALL_GAMES.index(g) if g in ALL_GAMES else len(ALL_GAMES)
    ):
        results = per_game[game_id]
        entries = [Entry(*r[1:7]) for r in results]
        best = None if game_id == "maestras" else min(entries, key=lambda e: sort_key(game_id, e))
        found.append(GameStats(game_id, len(results), sum(int(r[7]) for r in results), best,
                               sum(int(r[8]) for r in results)))  # fmt: skip
    return found


async def median_win_times(store: Storage, platform: str, player_id: str) -> dict[str, timedelta]:
    """Per game, the median time of the player's won solo games: from the deal to the winning
    move (resigned and expired games left out: their time says nothing about play)."""
    per_game: dict[str, list[timedelta]] = {}
    for game_id, started, finished in await store.won_solo_times(platform, player_id):
        spent = datetime.fromisoformat(finished) - datetime.fromisoformat(started)
        per_game.setdefault(game_id, []).append(max(spent, timedelta(0)))
    # median only sorts, adds and halves: timedeltas do all three (typeshed asks for numbers)
    return {game_id: median(times) for game_id, times in per_game.items()}  # type: ignore[type-var]


def clock_text(spent: timedelta) -> str:
    """``m:ss`` or ``h:mm:ss``.

    >>> clock_text(timedelta(seconds=75)), clock_text(timedelta(hours=1, seconds=5))
    ('1:15', '1:00:05')
    """
    seconds = int(spent.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def _best_text(lang: str, stats: GameStats) -> str:
    best = stats.best
    if best is None:
        return i18n.t(lang, "stats.masters", masters=stats.masters)
    if stats.game_id == "squadratik":
        return i18n.t(lang, "stats.best.squadratik", result=i18n.t(lang, f"daily.outcome.{best.outcome}"),
                      points=best.score)  # fmt: skip
    if stats.game_id == "canfield":
        return i18n.t(lang, "stats.best.canfield", dollars=best.score, moves=best.move_count)
    if stats.game_id == "solitario":
        return i18n.t(lang, "stats.best.solitario", score=best.score, move=best.tiebreak_move)
    return i18n.t(lang, "stats.best.moves", score=best.score, moves=best.move_count)


async def command(core: Service, tables: Tables, ctx: Ctx, args: list[str]) -> list[Reply]:
    """``/stats [@player]``: games, wins and best result per game, current and best streak."""
    player_id, name = ctx.user, ctx.req.user_name
    if args:
        found = await core.store.find_player(ctx.req.platform, mention_name(args[0]))
        if found is None:
            return [core.refuse(ctx, "stats.unknown_player", name=args[0][:64])]
        player_id, name = found
    await settle_pending(core.store)
    per_game = await game_stats(core.store, ctx.req.platform, player_id)
    streak = streaks(await daily_days(core.store, ctx.req.platform, player_id), ctx.now.date())
    if not per_game:
        return [core.say(ctx, "stats.none", name=name)]
    lang = ctx.lang
    lines = [i18n.t(lang, "stats.header", name=name)]
    times = await median_win_times(core.store, ctx.req.platform, player_id)
    for stats in per_game:
        lines.append(i18n.t(lang, "stats.game_line", game=core.game_name(lang, stats.game_id),
                            games=stats.games, wins=stats.wins, best=_best_text(lang, stats)))  # fmt: skip
        rate = round(100 * stats.wins / stats.games)
        if stats.game_id in times:
            lines.append(
                i18n.t(lang, "stats.rate_time", rate=rate, time=clock_text(times[stats.game_id]))
            )
        else:
            lines.append(i18n.t(lang, "stats.rate", rate=rate))
    lines.append(i18n.t(lang, "stats.streak", current=streak.current, best=streak.best))
    # Ratings and table numbers come from the tables feature.
    lines += await tables.stats_lines(lang, ctx.req.platform, ctx.req.chat_id, player_id)
    params = {"player": player_id, "streak": streak.current, "best_streak": streak.best,
              "games": {s.game_id: s.games for s in per_game}, "wins": {s.game_id: s.wins for s in per_game},
              "median_win_seconds": {g: t.total_seconds() for g, t in times.items()}}  # fmt: skip
    return [Reply(key="stats.text", text="\n".join(lines), params=params)]
