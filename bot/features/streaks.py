"""Daily streaks and ``/stats [@player]``.

A **streak** is a run of consecutive UTC days on each of which the player finished at least one
daily challenge (an accepted ranked attempt, counted on the challenge's day). The current streak
is still alive on the day after its last day: it survives until the end of the next UTC day,
and breaks only when a whole UTC day passes without a finished daily.

>>> d = date.fromisoformat
>>> streaks([d("2025-03-12"), d("2025-03-13")], today=d("2025-03-14"))
Streak(current=2, best=2)
>>> streaks([d("2025-03-12"), d("2025-03-13")], today=d("2025-03-15"))
Streak(current=0, best=2)
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta
from statistics import median
from typing import TYPE_CHECKING

import engine
from bot import i18n
from bot.core.commands import ALL_GAMES
from bot.core.names import player_query, short_name
from bot.core.people import named_person
from bot.core.web_reads import GameNumbers, Streak
from bot.features import web
from bot.features.daily import settle_pending
from bot.features.leaderboards import sort_key
from bot.features.table_rules import names_a_computer
from bot.replies import Reply
from bot.storage import ACCEPTED, PlayerResult, Storage

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service
    from bot.features.tables import Tables


def streaks(days: Iterable[date], today: date) -> Streak:
    """The current and best streak of a set of days with a finished daily challenge.

    >>> d = date.fromisoformat
    >>> streaks([d("2025-03-01"), d("2025-03-02"), d("2025-03-03"), d("2025-03-14")], today=d("2025-03-14"))
    Streak(current=1, best=3)
    >>> streaks([], today=d("2025-03-14"))
    Streak(current=0, best=0)
    """
    ordered = sorted(set(days))
    best = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and (today - previous) <= timedelta(days=1)
    return Streak(run if alive else 0, best)


async def daily_days(store: Storage, platform: str, player_id: str) -> list[date]:
    """The challenge days on which the player finished a daily (accepted attempts)."""
    return [
        date.fromisoformat(day)
        for day in await store.daily.accepted_days(platform, player_id, ACCEPTED)
    ]


#: outcomes that never count as a player's best result (the game was given up, not played out)
NOT_A_BEST = frozenset({"resigned"})


async def game_stats(store: Storage, platform: str, player_id: str) -> list[GameNumbers]:
    """Games, wins and best result per game (every finished game, ranked or not)."""
    per_game: dict[str, list[PlayerResult]] = {}
    for played in await store.results.player_results(platform, player_id):
        per_game.setdefault(played.game_id, []).append(played)
    found = []
    for game_id in sorted(
        per_game, key=lambda g: ALL_GAMES.index(g) if g in ALL_GAMES else len(ALL_GAMES)
    ):
        results = per_game[game_id]
        # A resigned game is nobody's best: "best Resigned, 0 points" told the player nothing.
        entries = [r.entry for r in results if r.entry.outcome not in NOT_A_BEST]
        # a table game's results rank per table: its line counts masters won instead
        table = engine.game_info(game_id).table
        best = None if table or not entries else min(entries, key=lambda e: sort_key(game_id, e))
        found.append(
            GameNumbers(
                game_id,
                len(results),
                sum(r.won for r in results),
                best,
                sum(r.masters for r in results),
                table,
            )
        )
    return found


async def median_win_times(store: Storage, platform: str, player_id: str) -> dict[str, timedelta]:
    """Per game, the median time of the player's won solo games: from the deal to the winning
    move (resigned and expired games left out: their time says nothing about play)."""
    per_game: dict[str, list[timedelta]] = {}
    for win in await store.results.solo_wins(platform, player_id):
        spent = datetime.fromisoformat(win.finished_at) - datetime.fromisoformat(win.started_at)
        per_game.setdefault(win.game_id, []).append(max(spent, timedelta(0)))
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


def _game_line(core: Service, lang: str, stats: GameNumbers) -> str:
    """One game's line of ``/stats``: games, wins (counted in the language's plural forms) and
    the best result, or the masters won in all for a table game."""
    params = {"game": core.game_name(lang, stats.game_id), "games": stats.games, "wins": stats.wins}
    if stats.table:
        return i18n.t(lang, "stats.game_line_masters", masters=stats.masters, **params)
    if stats.best is None:
        return i18n.t(lang, "stats.game_line_no_best", **params)
    return i18n.t(lang, "stats.game_line", best=_best_text(lang, stats), **params)


def _best_text(lang: str, stats: GameNumbers) -> str:
    best = stats.best
    assert best is not None  # _game_line asks only when there is one
    # each game's text picks what it shows: its score (as points, dollars or cards), moves,
    # the move the score was reached, the result in words
    result = i18n.t(lang, f"daily.outcome.{best.outcome}")
    return i18n.t(
        lang,
        f"stats.best.{stats.game_id}",
        score=best.score,
        points=best.score,
        dollars=best.score,
        moves=best.move_count,
        move=best.tiebreak_move,
        result=result,
    )


async def command(core: Service, tables: Tables, ctx: Ctx, args: list[str]) -> list[Reply]:
    """``/stats [@player]``: games, wins and best result per game, current and best streak."""
    player_id, name = ctx.user, ctx.req.user_name
    if args:
        # /stats Ana María, /stats "Ana María", /stats @ana_maria: the whole line names one player
        # only someone seen in this chat, or the platform's own mention (bot.core.people)
        query = player_query(args)
        found = await named_person(core.store, ctx.req, query)
        if found is None and names_a_computer(query):
            # computers are not ranked (no ratings, no leaderboard places): say so, not "unknown"
            return [core.refuse(ctx, "stats.computer", name=short_name(query))]
        if found is None:
            return [core.refuse(ctx, "stats.unknown_player", name=short_name(query))]
        if found.user_id != ctx.user and await core.store.web.hidden(
            ctx.req.platform, found.user_id
        ):
            # /web hide: their numbers are for them alone (their own /stats still shows them)
            return [core.refuse(ctx, "stats.hidden", name=short_name(found.name))]
        player_id, name = found.user_id, found.name
    await settle_pending(core.store)
    per_game = await game_stats(core.store, ctx.req.platform, player_id)
    streak = streaks(await daily_days(core.store, ctx.req.platform, player_id), ctx.now.date())
    if not per_game:
        return [core.say(ctx, "stats.none", name=name)]
    lang = ctx.lang
    lines = [i18n.t(lang, "stats.header", name=name)]
    times = await median_win_times(core.store, ctx.req.platform, player_id)
    for stats in per_game:
        lines.append(_game_line(core, lang, stats))
        rate = round(100 * stats.wins / stats.games)
        if stats.game_id in times:
            lines.append(
                i18n.t(lang, "stats.rate_time", rate=rate, time=clock_text(times[stats.game_id]))
            )
        else:
            lines.append(i18n.t(lang, "stats.rate", rate=rate))
    lines.append(i18n.t(lang, "stats.streak", current=streak.current, best=streak.best))
    raced = await core.store.results.race_results(ctx.req.platform, player_id)
    if raced:  # how the races went: a board the clock ended says so, with its place
        last = raced[-1]
        lines.append(
            i18n.t(
                lang,
                "stats.races",
                races=len(raced),
                wins=sum(r.place == 1 for r in raced),
                place=last.place,
                racers=last.racers,
                result=i18n.t(lang, f"daily.outcome.{last.outcome}"),
            )
        )
    # Ratings and table numbers come from the tables feature.
    lines += await tables.stats_lines(lang, ctx.req.platform, ctx.req.chat_id, player_id)
    page = await web.player_link(core, lang, ctx.req.platform, player_id)
    if page is not None:
        lines.append(page)
    params = {
        "player": player_id,
        "streak": streak.current,
        "best_streak": streak.best,
        "games": {s.game_id: s.games for s in per_game},
        "wins": {s.game_id: s.wins for s in per_game},
        "median_win_seconds": {g: t.total_seconds() for g, t in times.items()},
    }
    return [Reply(key="stats.text", text="\n".join(lines), params=params)]
