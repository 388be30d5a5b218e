"""``/replay``: an animated image (GIF) of the sender's most recent finished game in a chat.

The game is found through its stored results (every finished game, solo or table, keeps one
result row per player), rebuilt from its stored move list and drawn by
``renderer.replay(game_id, deal, players, options, moves, **style)``: the start position, then
one frame per move. The renderer draws each frame from the public view (``view(None)``), so a
Cartas Maestras replay never shows anyone's hand.

``/replay`` takes optional words that name a game as everywhere: a game (``/replay canfield``),
a kind (``/replay table``, ``daily``, ``race``, ``casual``, in the chat's language too) or
both (``/replay daily canfield``): the most recent finished game they name; or ``solution``
(``/replay solution``): the solver's winning line of the sender's last Solitario, Canfield or
Imaginary Thirteen game, drawn the same way (see :mod:`bot.features.solutions`). Two replays are held back because they would spoil a competition that is
still going on: today's daily challenge deal (until the next UTC day) and a race round while any
of its boards is still being played.

Drawing takes a second or more for a long game, so it runs on its own worker thread (never on
the event loop, and never holding up the board pictures of other games, which use the default
executor); the last few replays are kept, so a second ``/replay`` of the same game is instant.

>>> IMAGE_NAME   # adapters send a ``.gif`` image as an animation, not as a still photo
'replay.gif'
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from babel.lists import format_list

from bot import i18n
from bot.core import focus
from bot.core.commands import ALL_GAMES, game_id_of
from bot.core.names import seat_names
from bot.features import solutions as solutions_module
from bot.replies import Reply
from bot.storage import ACTIVE, SOLO, SessionRecord
from engine.solvers import LOST

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service
    from bot.features.races import Races
    from bot.features.solutions import Solutions

log = logging.getLogger("tavolo.replays")

#: the file name adapters see: ``.gif`` tells them to send an animation, not a still photo
IMAGE_NAME = "replay.gif"
#: how many finished replays are kept in memory (a GIF is at most 8 MB, usually 0.2-5 MB)
CACHE_SIZE = 4

# One worker: replays queue behind each other instead of taking every thread of the default
# executor, which draws the boards of the games being played.
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tavolo-replay")
_cache: OrderedDict[tuple[str, str, str, int, str, tuple[str, ...]], bytes] = OrderedDict()


def draw_replay(
    game_id: str,
    deal: int,
    players: list[str],
    options: dict[str, Any],
    moves: list[str],
    **style: Any,
) -> bytes:
    """The GIF of a game, by ``renderer.replay`` (looked up at call time, so tests can watch it).

    >>> draw_replay("canfield", 3, ["you"], {}, [], faces="francesi", lang="en")[:6]
    b'GIF89a'
    """
    import renderer

    data: bytes = renderer.replay(game_id, deal, players, options, moves, **style)
    return data


async def latest_finished(core: Service, ctx: Ctx, game_id: str | None = None) -> str | None:
    """The id of the sender's most recently finished game in this chat (of ``game_id`` when
    given), or None."""
    return await core.store.results.latest_finished(
        ctx.req.platform, ctx.req.chat_id, ctx.user, game_id
    )


#: how far back ``/replay <kind>`` looks for a finished game of that kind
KIND_LOOKBACK = 200


async def _kind_of(races: Races, rec: SessionRecord) -> str:
    """What a finished game was to its players: a table, a race board, a daily or casual."""
    if rec.kind != SOLO:
        return focus.TABLE
    if await races.entry_of(rec.id) is not None:
        return focus.RACE
    return focus.DAILY if rec.ranked else focus.CASUAL


async def latest_named(
    core: Service, races: Races, ctx: Ctx, words: list[str]
) -> str | Reply | None:
    """The sender's latest finished game here that ``words`` name, as games and kinds do
    everywhere (``canfield``, ``table``, ``daily canfield``; README "Which game a command
    means"): its session id, None when there is none, or the refusal of a word that names
    neither a game nor a kind."""
    kinds: set[str] = set()
    game_ids: set[str] = set()
    for word in words:
        kind = focus.word_kind(ctx.lang, word)
        game_id = game_id_of(word) if kind is None else None
        if kind is None and game_id is None:
            kind_words = ", ".join(focus.kind_word(ctx.lang, k) for k in focus.KINDS)
            return core.refuse(
                ctx,
                "focus.unknown",
                word=word[:32],
                kinds=kind_words,
                games=core.games_list(ctx.lang, ALL_GAMES),
            )
        if kind is not None:
            kinds.add(kind)
        if game_id is not None:
            game_ids.add(game_id)
    if len(kinds) > 1 or len(game_ids) > 1:
        return None  # "daily table": no game is both
    if not kinds:
        return await latest_finished(core, ctx, next(iter(game_ids)))
    finished = await core.store.results.finished_in_chat(
        ctx.req.platform, ctx.req.chat_id, ctx.user, KIND_LOOKBACK
    )
    for session_id in dict.fromkeys(finished):
        rec = await core.store.sessions.get(session_id)
        if rec is None or (game_ids and rec.game_id not in game_ids):
            continue
        if await _kind_of(races, rec) in kinds:
            return session_id
    return None


async def _spoiler_key(core: Service, ctx: Ctx, rec: SessionRecord, races: Races) -> str | None:
    """Why this replay must wait (an i18n key), or None when it may be shown now."""
    if rec.kind == SOLO:
        today = ctx.now.date().isoformat()
        choice = await core.store.daily.choice(rec.game_id, today)
        if choice is not None and choice.deal == rec.deal:
            return "replay.daily_today"
        entry = await races.entry_of(rec.id)
        if entry is not None and await core.store.play.active_boards(
            entry.race_id, entry.round, ACTIVE
        ):
            return "replay.race_running"
    return None


def _caption(core: Service, ctx: Ctx, rec: SessionRecord, moves: list[str]) -> Reply:
    game = core.game_name(ctx.lang, rec.game_id)
    if rec.kind == SOLO:
        name = rec.names.get(rec.players[0]) or "?"
        return core.say(ctx, "replay.solo", name=name, game=game, deal=rec.deal, moves=len(moves))
    players = ", ".join(seat_names([rec.names.get(p) or "?" for p in rec.players]))
    return core.say(ctx, "replay.table", game=game, players=players, moves=len(moves))


async def _gif(rec: SessionRecord, moves: list[str], lang: str, what: str = "game") -> bytes:
    # The frames name each seat as the chat does ("Computer 1", "Ana 1" and "Ana 2" for two
    # Anas; never a platform id): the engine only needs the seats to be different, and the
    # deal does not depend on them.
    seats = seat_names([rec.names.get(p) or "?" for p in rec.players])
    # keyed on the seats as stored: once a player is forgotten (in any process) the image
    # that named them is never served again
    key = (rec.id, lang, rec.faces, len(moves), what, tuple(seats))
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached
    call = functools.partial(
        draw_replay,
        rec.game_id,
        rec.deal,
        seats,
        dict(rec.options),
        list(moves),
        faces=rec.faces,
        lang=lang,
        words=i18n.board_words(lang),
    )
    data = await asyncio.get_running_loop().run_in_executor(_executor, call)
    _cache[key] = data
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return data


def forget_sessions(session_ids: list[str]) -> None:
    """Drop this process's images of these games (``/forgetme``: another process's are keyed
    on the stored seats, so they are never served either)."""
    gone = set(session_ids)
    for key in [k for k in _cache if k[0] in gone]:
        del _cache[key]


def solvable_games(lang: str) -> str:
    """The games ``/replay solution`` knows, in the chat's language: "Solitario, Canfield,
    Trece Imaginario o FreeCell" (from the games' facts, so a new solvable game is named)."""
    ids = [g for g in ALL_GAMES if g in solutions_module.GAMES]
    return format_list([i18n.game_name(lang, g) for g in ids], style="or", locale=lang)


async def solution_command(
    core: Service, races: Races, solutions: Solutions, ctx: Ctx
) -> list[Reply]:
    """``/replay solution``: the solver's winning line of the sender's most recent finished
    game among :data:`solutions.GAMES`, as an animation whose last frame is the won deal."""
    latest: SessionRecord | None = None
    for game_id in sorted(solutions_module.GAMES):
        session_id = await latest_finished(core, ctx, game_id)
        rec = None if session_id is None else await core.store.sessions.get(session_id)
        if rec is not None and (
            latest is None or (rec.last_active_at or "") > (latest.last_active_at or "")
        ):
            latest = rec
    if latest is None:
        return [core.refuse(ctx, "replay.solution_none", games=solvable_games(ctx.lang))]
    waiting = await _spoiler_key(core, ctx, latest, races)
    if waiting is None and (
        await races.entry_of(latest.id) is not None
        or await solutions.spoiler(latest, ctx.now.date().isoformat())
    ):
        waiting = "replay.solution_wait"
    if waiting is not None:
        return [core.private(ctx, waiting)]
    game = core.game_name(ctx.lang, latest.game_id)
    if latest.outcome == "won":
        return [core.private(ctx, "replay.solution_won", game=game)]
    played = await core.store.sessions.moves(latest.id)
    try:
        found = await solutions.analysis_of(latest, played)
    except solutions_module.SolverBusy:  # its queue is full: bounded, the player asks again
        return [core.private(ctx, "replay.solution_busy")]
    line = found.solution(played)
    if not line:
        key = "replay.solution_lost" if found.start == LOST else "replay.solution_unknown"
        return [core.private(ctx, key, game=game, deal=latest.deal)]
    try:
        image = await _gif(latest, line, ctx.lang, what="solution")
    except Exception:
        log.exception("solution replay of %s (%s) failed", latest.id, latest.game_id)
        return [core.private(ctx, "replay.failed")]
    reply = core.say(ctx, "replay.solution", game=game, deal=latest.deal, moves=len(line))
    reply.image = image
    reply.image_name = IMAGE_NAME
    reply.params["session"] = latest.id
    reply.params["line"] = line
    return [reply]


async def command(
    core: Service, races: Races, ctx: Ctx, args: list[str], solutions: Solutions | None = None
) -> list[Reply]:
    """``/replay [game]``: the animated replay of the sender's last finished game here.

    The answer is a channel message whose image is the GIF (``image_name="replay.gif"``), or a
    private explanation: no finished game yet, a replay that would spoil a running
    competition, or a drawing failure."""
    names = [focus.word_kind(ctx.lang, w) or game_id_of(w) for w in args]
    if len(args) > 2 or (len(args) == 2 and None in names):  # "canfield 2": say what it takes
        return [core.refuse(ctx, "replay.usage", games=solvable_games(ctx.lang))]
    if len(args) == 1 and solutions is not None and solutions_module.is_solution_word(args[0]):
        return await solution_command(core, races, solutions, ctx)
    if args:
        named = await latest_named(core, races, ctx, args)
        if isinstance(named, Reply):
            return [named]
        session_id = named
    else:
        session_id = await latest_finished(core, ctx)
    if session_id is None:
        if not args:
            return [core.refuse(ctx, "replay.none")]
        game_id = game_id_of(args[0])
        if len(args) == 1 and game_id is not None:
            return [core.refuse(ctx, "replay.none_of_game", game=core.game_name(ctx.lang, game_id))]
        return [core.refuse(ctx, "replay.none_named", words=" ".join(args)[:40])]
    rec = await core.store.sessions.get(session_id)
    if rec is None:
        return [core.refuse(ctx, "replay.none")]
    waiting = await _spoiler_key(core, ctx, rec, races)
    if waiting is not None:
        return [core.private(ctx, waiting)]
    moves = await core.store.sessions.moves(session_id)
    try:
        image = await _gif(rec, moves, ctx.lang)
    except Exception:
        log.exception("replay of %s (%s) failed", session_id, rec.game_id)
        return [core.private(ctx, "replay.failed")]
    reply = _caption(core, ctx, rec, moves)
    reply.image = image
    reply.image_name = IMAGE_NAME
    reply.params["session"] = session_id
    return [reply]
