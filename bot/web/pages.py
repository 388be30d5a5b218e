"""What each page shows, read from storage: plain data for the templates, no HTML here.

Every function takes the core's :class:`~bot.core.service.Service`, the reader's language and
what the address named; an address that names nothing (an unknown game, day, player, game id or
link) raises :class:`NotFound`. The privacy rules live here, in one place:

* the global pages (home, daily, player, replay) name a player only when
  :meth:`~bot.storage.Storage.public_players` says so (an accepted daily, not hidden), link a
  player page only for them, and drop the rows of players who are not;
* a chat's own page names everyone who played in that chat (``/web hide`` keeps them there);
* a deal (its number, its first board, a replay of it) is shown only once every day whose
  daily challenge it is, is over, and a race board's replay once its round is over;
* no page holds a platform user id, a chat id or name, or a hand: players are named by their
  random public id, and a replay draws only the public view.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

import engine
from bot import i18n
from bot.core.commands import ALL_GAMES
from bot.core.names import seat_names
from bot.core.web_reads import GameNumbers, WebReads
from bot.storage import ACCEPTED, ACTIVE, Entry, PlayerKey, SessionRecord, StorageBusy
from bot.storage.web import FORMER_PREFIX

if TYPE_CHECKING:
    from bot.core.service import Service

log = logging.getLogger("tavolo.web")

#: rows of each game on the home page
HOME_TOP = 5
#: results listed on a player page
RECENT = 15
#: how far back a daily page may go (older addresses answer 404)
OLDEST_DAY = date(2024, 1, 1)
#: the seat the engine rebuilds a solo game with (the deal does not depend on it; the page
#: never passes a platform user id to the renderer)
SOLO_SEAT = "player"


class NotFound(Exception):
    """The address names no page."""


@dataclass(slots=True)
class Row:
    """One line of a ranking."""

    place: int
    name: str
    cells: list[str]
    player: str | None = None  # the public id, when the player's page may be linked
    replay: str | None = None  # the session id, when its replay may be linked


@dataclass(slots=True)
class Board:
    """A ranking of one game."""

    game_id: str
    title: str
    columns: list[str]
    rows: list[Row] = field(default_factory=list)
    count: int = 0
    link: str | None = None


def game_name(lang: str, game_id: str) -> str:
    return i18n.game_name(lang, game_id)


def outcome_word(lang: str, outcome: str) -> str:
    key = f"daily.outcome.{outcome}"
    return i18n.t(lang, key) if i18n.has_key(key) else outcome


def columns(lang: str, game_id: str) -> list[str]:
    return [
        i18n.t(lang, "web.col.place"),
        i18n.t(lang, "lb.col.player"),
        *i18n.t(lang, f"lb.cols.{game_id}").split("|"),
    ]


def reads_of(core: Service) -> WebReads:
    """What the pages read of the features (handed over by ``bot.app`` in the registry)."""
    reads = core.registry.web_reads
    if reads is None:
        raise RuntimeError("no web reads: the core was built without bot.app's features")
    return reads


def player_key(entry_player: str) -> PlayerKey:
    """``platform:user`` (a leaderboard entry's player) as a player key."""
    platform, _, user = entry_player.partition(":")
    return PlayerKey(platform, user)


async def settle(core: Service) -> None:
    """Settle finished daily attempts before reading rankings (as ``/leaderboard`` does); a
    database busy with another process's write leaves them to the next page: reading goes on."""
    try:
        await reads_of(core).settle_daily()
    except StorageBusy:
        log.info("database busy: daily attempts settled on a later page")


def parse_day(text: str, today: date) -> date:
    """A daily page's day: ``YYYY-MM-DD``, not after today, not before ``OLDEST_DAY``.

    >>> parse_day("2026-11-24", date(2026, 11, 25))
    datetime.date(2026, 11, 24)
    >>> parse_day("2026-11-26", date(2026, 11, 25))
    Traceback (most recent call last):
    bot.web.pages.NotFound: 2026-11-26
    """
    if len(text) != 10 or not text.isascii():
        raise NotFound(text)
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise NotFound(text) from None
    if day > today or day < OLDEST_DAY:
        raise NotFound(text)
    return day


async def deal_is_secret(core: Service, game_id: str, deal: int, today: date) -> bool:
    """Whether ``deal`` is the daily challenge of a day not over yet (today), so showing it
    (its number, its board, a replay) would spoil the challenge."""
    days = await core.store.daily.days_of_deal(game_id, deal)
    return any(date.fromisoformat(day) >= today for day in days)


async def held_back(core: Service, record: SessionRecord, today: date) -> bool:
    """Whether a finished game's replay must wait: its deal is a challenge still running
    (today's daily), or it is a race board whose round others are still playing."""
    if await deal_is_secret(core, record.game_id, record.deal, today):
        return True
    entry = await core.store.play.race_entry(record.id)
    if entry is None:
        return False
    return await core.store.play.active_boards(entry.race_id, entry.round, ACTIVE) > 0


# ----- home and daily pages ----------------------------------------------------------------------
async def day_board(
    core: Service, lang: str, game_id: str, day: date, today: date, limit: int | None = None
) -> Board:
    """The ranking of one day's challenge, in the game's own order (the leaderboards' ``rank``)."""
    reads = reads_of(core)
    entries = await core.store.results.day_entries(game_id, day.isoformat(), ACCEPTED)
    placed = reads.rank(game_id, entries)
    keys = [player_key(e.player) for _, e in placed]
    public = await core.store.web.public_players(keys, ACCEPTED)
    shown = [(p, e) for p, e in placed if player_key(e.player) in public]
    if limit is not None:
        shown = shown[:limit]
    ids = await core.store.web.public_ids(player_key(e.player) for _, e in shown)
    over = day < today
    board = Board(game_id, game_name(lang, game_id), columns(lang, game_id), count=len(placed))
    for place, entry in shown:
        board.rows.append(
            Row(
                place,
                entry.name,
                reads.score_cells(lang, game_id, entry),
                ids.get(player_key(entry.player)),
                entry.session_id if over else None,
            )
        )
    return board


async def home(core: Service, lang: str, today: date) -> dict[str, Any]:
    await settle(core)
    reads = reads_of(core)
    boards = []
    yesterday = today - timedelta(days=1)
    had_yesterday = set()  # games whose yesterday's page exists (a challenge was chosen)
    for game_id in reads.daily_games:
        board = await day_board(core, lang, game_id, today, today, limit=HOME_TOP)
        board.link = reads.daily_path(game_id, today.isoformat())
        boards.append(board)
        if await core.store.daily.choice(game_id, yesterday.isoformat()) is not None:
            had_yesterday.add(game_id)
    return {
        "boards": boards,
        "today": today,
        "yesterday": yesterday,
        "had_yesterday": had_yesterday,
    }


async def daily(
    core: Service, lang: str, game_id: str, day_text: str, today: date
) -> dict[str, Any]:
    if game_id not in reads_of(core).daily_games:
        raise NotFound(game_id)
    day = parse_day(day_text, today)
    choice = await core.store.daily.choice(game_id, day.isoformat())
    if choice is None and day != today:
        raise NotFound(day_text)  # no challenge was ever chosen that day
    await settle(core)
    board = await day_board(core, lang, game_id, day, today)
    over = day < today
    deal = choice.deal if choice is not None and over else None
    return {
        "game_id": game_id,
        "game": game_name(lang, game_id),
        "day": day,
        "board": board,
        "deal": deal,
        "over": over,
        "previous": day - timedelta(days=1) if day > OLDEST_DAY else None,
        "next": day + timedelta(days=1) if day < today else None,
    }


# ----- player page ---------------------------------------------------------------------------
def best_text(reads: WebReads, lang: str, stats: GameNumbers) -> str:
    best = stats.best
    if best is None:  # a table game, or only resigned games (never a best)
        return i18n.t(lang, "stats.masters", masters=stats.masters) if stats.table else "-"
    cells = reads.score_cells(lang, stats.game_id, best)
    headers = i18n.t(lang, f"lb.cols.{stats.game_id}").split("|")
    return " · ".join(f"{h} {c}" for h, c in zip(headers, cells, strict=False))


async def player(core: Service, lang: str, public_id: str, today: date) -> dict[str, Any]:
    key = await core.store.web.player_of(public_id)
    if key is None or key not in await core.store.web.public_players([key], ACCEPTED):
        raise NotFound(public_id)
    platform, user = key.platform, key.user_id
    await settle(core)
    reads = reads_of(core)
    per_game = await reads.game_numbers(platform, user)
    streak = await reads.streak(platform, user, today)
    name = await player_name(core, platform, user)
    recent = []
    latest = await core.store.results.recent(platform, user, RECENT)
    races = await core.store.results.race_places([r.session_id for r in latest])
    for result in latest:
        record = await core.store.sessions.get(result.session_id)
        held = record is None or await held_back(core, record, today)
        recent.append(
            {
                "game": game_name(lang, result.game_id),
                "outcome": outcome_word(lang, result.outcome),
                "score": result.score,
                "moves": result.move_count,
                "daily": result.ranked,
                "won": result.won,
                "day": date.fromisoformat(result.finished_at[:10]),
                "replay": None if held else result.session_id,
                "race": races.get(result.session_id),  # a ranked race board's place
            }
        )
    shown_ratings = []
    for game_id in ALL_GAMES:
        rating = await reads.rating(platform, user, game_id)
        if rating is not None:  # the number /stats shows, everywhere (not one chat's)
            shown_ratings.append(
                {"game": game_name(lang, game_id), "rating": rating.shown, "tables": rating.games}
            )
    games = [
        {
            "game": game_name(lang, s.game_id),
            "games": s.games,
            "wins": s.wins,
            "best": best_text(reads, lang, s),
        }
        for s in per_game
    ]
    return {
        "name": name,
        "games": games,
        "streak": streak,
        "recent": recent,
        "ratings": shown_ratings,
    }


async def player_name(core: Service, platform: str, user: str) -> str:
    """The name the player was last seen with (their latest result's name if none)."""
    return await core.store.players.name(platform, user) or ""


# ----- replay page ---------------------------------------------------------------------------
@dataclass(slots=True)
class Replay:
    """A finished game as the replay page shows it."""

    session_id: str
    game_id: str
    deal: int
    faces: str
    options: dict[str, Any]
    seats: list[str]  # what the frames name each seat (never a platform user id)
    names: list[dict[str, Any]]  # the players as the page lists them
    moves: list[str]
    held: bool


async def replay(core: Service, lang: str, session_id: str, today: date) -> Replay:
    """A finished game with at least one player who may be named publicly."""
    if not (0 < len(session_id) <= 32 and session_id.isascii() and session_id.isalnum()):
        raise NotFound(session_id)
    record = await core.store.sessions.get(session_id)
    if record is None or record.status != "over":
        raise NotFound(session_id)
    results = await core.store.results.of_session(session_id)
    if not results:
        raise NotFound(session_id)
    keys = [PlayerKey(record.platform, p) for p in record.players]
    public = await core.store.web.public_players(keys, ACCEPTED)
    if not public:
        raise NotFound(session_id)
    ids = await core.store.web.public_ids(public)
    reads = reads_of(core)
    shown: list[str] = []
    links: list[str | None] = []
    for user in record.players:
        key = PlayerKey(record.platform, user)
        if key in public:
            shown.append(record.names.get(user) or i18n.t(lang, "web.anonymous"))
            links.append(ids.get(key))
        elif (number := reads.computer_number(user)) is not None:
            # a computer seat is nobody's to hide: its name, in the page's language
            shown.append(i18n.t(lang, "tables.computer_name", number=number))
            links.append(None)
        else:
            former = user.startswith(FORMER_PREFIX)
            shown.append(i18n.t(lang, "web.former" if former else "web.anonymous"))
            links.append(None)
    # seats sharing a name are numbered as the chat numbers them (and the engine needs
    # distinct seats); a solo seat is never drawn
    listed = seat_names(shown)
    names = [{"name": name, "player": link} for name, link in zip(listed, links, strict=True)]
    seats = listed if len(listed) > 1 else [SOLO_SEAT]
    moves = await core.store.sessions.moves(session_id)
    held = await held_back(core, record, today)
    return Replay(
        session_id,
        record.game_id,
        record.deal,
        record.faces,
        dict(record.options),
        seats,
        names,
        moves,
        held,
    )


def step_png(game: Replay, step: int, lang: str) -> bytes:
    """The board after ``step`` moves (0: the start), drawn by ``renderer.render`` from the
    public view. Pure and synchronous: the page calls it in an executor."""
    import renderer

    position = engine.replay(game.game_id, game.deal, game.seats, game.options, game.moves[:step])
    view = position.view(None)
    # the web page has the room: the whole board, never the phone's cut of it
    return renderer.render(
        game.game_id, view, faces=game.faces, lang=lang, words=i18n.board_words(lang), full=True
    )


def animation(game: Replay, lang: str) -> bytes:
    """The animated replay (``renderer.replay``)."""
    import renderer

    data: bytes = renderer.replay(
        game.game_id,
        game.deal,
        game.seats,
        game.options,
        game.moves,
        faces=game.faces,
        lang=lang,
        words=i18n.board_words(lang),
    )
    return data


def start_png(game_id: str, deal: int, lang: str) -> bytes:
    """A deal's first board (the daily page, once its day is over)."""
    import renderer

    faces = engine.game_info(game_id).default_faces
    view = engine.new_game(game_id, deal, None, {}).view(None)
    return renderer.render(game_id, view, faces=faces, lang=lang, words=i18n.board_words(lang))


#: the web page draws on a thread of its own: readers' images queue behind each other and
#: never take the threads that draw the boards of games being played (the default executor)
_drawing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tavolo-web")


async def in_executor(func: Any, *args: Any) -> Any:
    """``func(*args)`` on the web page's drawing thread."""
    return await asyncio.get_running_loop().run_in_executor(
        _drawing, functools.partial(func, *args)
    )


# ----- a chat's own page ---------------------------------------------------------------------
async def chat(core: Service, lang: str, token: str, period: str, today: date) -> dict[str, Any]:
    """A chat's leaderboards: everyone who played there, by the same rules as the chat's
    ``/leaderboard``; player pages linked for players who have one."""
    if not (0 < len(token) <= 64 and token.isascii() and token.isalnum()):
        raise NotFound(token)
    where = await core.store.web.chat_of_link(token)
    if where is None:
        raise NotFound(token)
    reads = reads_of(core)
    if period not in reads.periods:
        raise NotFound(period)
    platform, chat_id = where.platform, where.chat_id
    await settle(core)
    since = reads.since_day(period, today)
    boards: list[Board] = []
    for game_id in ALL_GAMES:
        if engine.game_info(game_id).table:  # ranked per table: wins and masters
            table = await core.store.results.table_tallies(game_id, platform, chat_id, since)
            if table:
                board = Board(game_id, game_name(lang, game_id), columns(lang, game_id))
                board.rows = [
                    Row(i + 1, t.name, [str(t.wins), str(t.masters)]) for i, t in enumerate(table)
                ]
                boards.append(board)
            continue
        kinds: list[tuple[str, Sequence[Entry]]] = []
        if game_id in reads.daily_games:
            kinds.append(
                (
                    "lb.daily",
                    await core.store.results.daily_entries(
                        game_id, since, ACCEPTED, platform, chat_id
                    ),
                )
            )
        kinds.append(
            (
                "lb.casual",
                await core.store.results.casual_entries(game_id, since, platform, chat_id),
            )
        )
        for title_key, entries in kinds:
            placed = reads.rank(game_id, entries)
            if not placed:
                continue
            keys = [player_key(e.player) for _, e in placed]
            public = await core.store.web.public_players(keys, ACCEPTED)
            ids = await core.store.web.public_ids(public)
            board = Board(
                game_id,
                i18n.t(lang, title_key, game=game_name(lang, game_id)),
                columns(lang, game_id),
            )
            for place, entry in placed:
                key = player_key(entry.player)
                board.rows.append(
                    Row(
                        place,
                        entry.name,
                        reads.score_cells(lang, game_id, entry),
                        ids.get(key),
                    )
                )
            boards.append(board)
    return {"boards": boards, "period": period, "periods": reads.periods, "token": token}
