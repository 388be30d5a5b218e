"""Leaderboards: ``/leaderboard [game] [today|week|all] [here|global]``.

Each solo game has two boards: the **daily challenge** (accepted ranked attempts, by the day of
the challenge) and **free games** (unranked results, by the day they finished). Each player
appears once, with their best result in the window; the order is the game's own (bot.md),
``GameInfo.ranking`` on its engine class:

* Solitario: higher score, then the earlier move at which that score was reached (seed 001);
* Canfield: more dollars, then fewer moves;
* Imaginary Thirteen: more cards played, then fewer moves;
* Squadratik (El Solitario): better result (completo > played out > lost), then more points;
* Cartas Maestras (a table game): most wins, then most masters won, over the window.

Players equal on every criterion share a place (1, 1, 3). ``here`` counts games played in this
chat; ``global`` every chat on every platform. Today's daily board of a chat also names the
players known there who have not played today's challenge yet.

>>> sort_key("solitario", Entry("p", "P", 185, 40, 97, "stalled"))
(-185, 40)
>>> sort_key("squadratik", Entry("p", "P", 12, 46, 46, "played_out"))
(-1, -12)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING

import engine
from bot import i18n
from bot.core import focus
from bot.core.commands import ALL_GAMES, game_id_of
from bot.features import web
from bot.features.daily import DAILY_GAMES, settle_pending
from bot.replies import Reply
from bot.storage import ACCEPTED, Entry
from engine.gameinfo import Column, Result

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service

PERIODS = ("today", "week", "all")
SCOPES = ("here", "global")
#: rows shown per board
LIMIT = 10


def sort_key(game_id: str, entry: Entry) -> tuple[int, ...]:
    """Smaller is better: the game's leaderboard order (see the module doc)."""
    ranking = engine.game_info(game_id).ranking
    if ranking is None:  # a table game: ranked per table, not per result
        raise ValueError(f"{game_id} results are not ranked one by one")
    # the result as the engine's ranking keys read it
    return ranking.key(Result(entry.outcome, entry.score, entry.move_count, entry.tiebreak_move))


def rank(game_id: str, entries: Sequence[Entry]) -> list[tuple[int, Entry]]:
    """Each player's best entry, ordered, with shared places for exact ties.

    >>> a, b, c = (Entry(p, p, 10, m, m, "lost") for p, m in (("a", 9), ("b", 5), ("c", 5)))
    >>> [(place, e.name) for place, e in rank("canfield", [a, b, c])]
    [(1, 'b'), (1, 'c'), (3, 'a')]
    """
    best: dict[str, Entry] = {}
    for entry in entries:
        kept = best.get(entry.player)
        if kept is None or sort_key(game_id, entry) < sort_key(game_id, kept):
            best[entry.player] = entry
    ordered = sorted(best.values(), key=lambda e: (sort_key(game_id, e), e.name.lower()))
    placed: list[tuple[int, Entry]] = []
    for index, entry in enumerate(ordered):
        if placed and sort_key(game_id, placed[-1][1]) == sort_key(game_id, entry):
            placed.append((placed[-1][0], entry))
        else:
            placed.append((index + 1, entry))
    return placed


def choice_word(lang: str, word: str) -> str | None:
    """The period or scope a lower-case word names, in English or the chat's language.

    >>> choice_word("it", "settimana"), choice_word("es", "aquí"), choice_word("es", "week")
    ('week', 'here', 'week')
    >>> choice_word("en", "settimana") is None
    True
    """
    for choice in (*PERIODS, *SCOPES):
        spellings = {choice, *(w.strip() for w in i18n.t(lang, f"lb.words.{choice}").split(","))}
        if word in spellings:
            return choice
    return None


def since_day(period: str, today: date) -> str:
    """The first UTC day of a window ("" = from the beginning).

    >>> since_day("week", date(2025, 3, 14)), since_day("all", date(2025, 3, 14))
    ('2025-03-08', '')
    """
    if period == "all":
        return ""
    return (today if period == "today" else today - timedelta(days=6)).isoformat()


# ----- text tables -------------------------------------------------------------------------------
def text_table(
    header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool]
) -> list[str]:
    """Columns padded for a monospace block (numbers right-aligned).

    >>> print("\\n".join(text_table(["#", "name", "score"], [["1", "Ana", "185"]], [True, False, True])))
    #  name  score
    1  Ana     185
    """
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=False)]
    lines = []
    for row in [header, *rows]:
        cells = [
            str(c).rjust(w) if r else str(c).ljust(w)
            for c, w, r in zip(row, widths, right, strict=False)
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def cell(lang: str, column: Column, entry: Entry) -> str:
    """One leaderboard cell of ``entry``.

    >>> entry = Entry("p", "P", -15, 3, 40, "completo")
    >>> [cell("es", c, entry) for c in Column]
    ['-15', '-$15', 'Completo', '40', '3']
    """
    if column is Column.DOLLARS:
        return i18n.t(lang, "lb.dollars", dollars=entry.score)
    if column is Column.OUTCOME:
        return i18n.t(lang, f"daily.outcome.{entry.outcome}")
    if column is Column.MOVES:
        return str(entry.move_count)
    if column is Column.SCORE_MOVE:
        return str(entry.tiebreak_move)
    return str(entry.score)


def score_cells(lang: str, game_id: str, entry: Entry) -> list[str]:
    """The cells after the player's name: the game's ranking columns (``lb.cols.<game>``)."""
    ranking = engine.game_info(game_id).ranking
    assert ranking is not None, "cells of single results are for games that rank them"
    return [cell(lang, column, entry) for column in ranking.columns]


def _board_lines(lang: str, game_id: str, title: str, placed: list[tuple[int, Entry]]) -> list[str]:
    ranking = engine.game_info(game_id).ranking
    assert ranking is not None, "boards of single results are for games that rank them"
    columns = ranking.columns
    header = ["#", i18n.t(lang, "lb.col.player"), *i18n.t(lang, f"lb.cols.{game_id}").split("|")]
    rows = [
        [str(place), entry.name[:16], *(cell(lang, c, entry) for c in columns)]
        for place, entry in placed[:LIMIT]
    ]
    # numbers right-aligned, words (an outcome) left-aligned
    right = [True, False, *(c is not Column.OUTCOME for c in columns)]
    return [title, *text_table(header, rows, right)]


async def command(core: Service, ctx: Ctx, args: list[str]) -> list[Reply]:
    """``/leaderboard [game] [today|week|all] [here|global]`` as a text table (and the
    matching web page's link when the web page is on); ``/leaderboard web [new]`` gives the
    chat's private leaderboards link."""
    if args and args[0].lower() == "web":
        return await web.leaderboard_web(core, ctx, args[1:])
    games: list[str] = list(ALL_GAMES)
    period, scope = "today", "here"
    boards = {focus.DAILY, focus.CASUAL}  # a kind word keeps one of them
    for word in args:
        lowered = word.lower()
        meant = choice_word(ctx.lang, lowered)
        kind = focus.word_kind(ctx.lang, lowered)
        if meant in PERIODS:
            period = meant
        elif meant in SCOPES:
            scope = meant
        elif game_id_of(lowered) is not None:
            games = [game_id_of(lowered)]  # type: ignore[list-item]
        elif kind == focus.TABLE:  # words name a game as everywhere: the table game
            games = [g for g in ALL_GAMES if engine.game_info(g).table]
        elif kind in (focus.DAILY, focus.CASUAL):
            boards = {kind}
        elif kind == focus.RACE:  # a race ranks its racers when it ends, in the chat
            return [core.refuse(ctx, "leaderboard.race")]
        else:
            usage = i18n.t(ctx.lang, "leaderboard.usage")
            return [core.refuse(ctx, "leaderboard.unknown_word", word=word[:32], usage=usage)]
    await settle_pending(core.store)
    lang, platform = ctx.lang, ctx.req.platform
    today = ctx.now.date()
    since = since_day(period, today)
    chat = ctx.req.chat_id if scope == "here" else None
    blocks: list[list[str]] = []
    for game_id in games:
        name = core.game_name(lang, game_id)
        if engine.game_info(game_id).table:
            rows = await core.store.results.table_tallies(game_id, platform, chat, since)
            if rows:
                header = [
                    "#",
                    i18n.t(lang, "lb.col.player"),
                    *i18n.t(lang, f"lb.cols.{game_id}").split("|"),
                ]
                cells = [
                    [str(i + 1), t.name[:16], str(t.wins), str(t.masters)]
                    for i, t in enumerate(rows[:LIMIT])
                ]
                blocks.append([name, *text_table(header, cells, [True, False, True, True])])
            continue
        lines: list[str] = []
        if game_id in DAILY_GAMES and focus.DAILY in boards:
            placed = rank(
                game_id,
                await core.store.results.daily_entries(game_id, since, ACCEPTED, platform, chat),
            )
            if placed:
                lines += _board_lines(lang, game_id, i18n.t(lang, "lb.daily", game=name), placed)
            if period == "today" and chat is not None and (placed or len(games) == 1):
                missing = await core.store.results.names_without_attempt(
                    platform, chat, game_id, today.isoformat()
                )
                if missing:
                    if not placed:
                        lines.append(i18n.t(lang, "lb.daily", game=name))
                    lines.append(i18n.t(lang, "lb.not_played", names=", ".join(missing[:LIMIT])))
        placed = []
        if focus.CASUAL in boards:
            placed = rank(
                game_id, await core.store.results.casual_entries(game_id, since, platform, chat)
            )
        if placed:
            lines += _board_lines(lang, game_id, i18n.t(lang, "lb.casual", game=name), placed)
        if lines:
            blocks.append(lines)
    # The link is its own message: inside the table's fixed-width block it could not be tapped.
    link = await web.leaderboard_link(core, ctx, games, scope, period)
    links = [link] if link is not None else []
    if not blocks:
        return [core.say(ctx, "leaderboard.empty"), *links]
    title = i18n.t(lang, f"leaderboard.header_{period}") + " · " + i18n.t(lang, f"lb.scope.{scope}")
    text = "\n\n".join(["\n".join(b) for b in [[title], *blocks]])
    return [
        Reply(
            key="leaderboard.text",
            text=text,
            params={"period": period, "scope": scope, "preformatted": True},
        ),
        *links,
    ]
