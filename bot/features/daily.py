"""Daily challenges: one proven deal per game and UTC day, one ranked attempt per player.

**Choosing the deal.** Candidates come from the project's own generator,
``DealRandom.for_deal(f"daily:{game}", yyyymmdd)``; the first candidate the solver proves
within a **node** budget (never seconds, so the verdict is the same on a slow and a fast
machine) is the day's deal: a win for Solitario, Canfield and Imaginary Thirteen, a
*played out* (or *completo*) line for El Solitario. The choice runs in an executor (it takes
seconds), once per game and day per process, and is stored in the ``daily`` table, so every
chat on every platform plays the same deal.

>>> from datetime import date
>>> first = next(candidates("imaginary13", date(2025, 3, 14)))
>>> first == next(candidates("imaginary13", date(2025, 3, 14)))   # same on every machine
True

**Ranked attempts.** ``/daily <game>`` starts the player's one ranked attempt of the day (a row
of ``daily_attempts``, whose primary key forbids a second, and a keyed hash of the player in
``daily_ranked``, which outlives ``/forgetme``: forgetting never buys a second attempt, the
player gets a casual game and is told why); no undo, no hints. Once it is over
``/daily`` starts an unranked replay of the same deal. When a ranked game ends, its stored
result is checked by replaying the stored move list on the engine (:func:`verify`); a result
that does not replay to what it claims is refused and loses its ranked mark.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import engine
from bot.core.commands import game_id_of
from bot.core.session import iso
from bot.features import web
from bot.features.daily_share import share_text
from bot.replies import Reply
from bot.storage import (
    ACCEPTED,
    OVER,
    PLAYING,
    REFUSED,
    AlreadyExists,
    DailyAttempt,
    DailyChoice,
    Storage,
)
from engine import BadSetup, IllegalMove
from engine.rng import DealRandom

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service

log = logging.getLogger("tavolo.daily")

#: the games with a daily challenge (``GameInfo.daily``; Cartas Maestras is played at tables)
DAILY_GAMES: tuple[str, ...] = tuple(g for g, cls in engine.GAMES.items() if cls.info.daily)
#: solver positions allowed per candidate (``GameInfo.daily.node_budget``). A node budget,
#: never a clock, so every machine picks the same deal. Sized so a day's four choices take at
#: most 5 CPU seconds together (issue 18): over 10 days (2026-11-24 to 12-03) the four took
#: 1.6 s at most and 1.0 s on average with 20k/20k/50k/10k, against 3.2 s at most with
#: 40k/40k/100k/20k, leaving room for a solver that spends more per node. A candidate the
#: budget cannot prove is skipped for the next one (each day still found its deal within 5
#: candidates).
NODE_BUDGETS: dict[str, int] = {
    game_id: daily.node_budget
    for game_id, cls in engine.GAMES.items()
    if (daily := cls.info.daily) is not None
}
#: candidates tried before a game is declared to have no daily deal that day
MAX_CANDIDATES = 40
#: candidates are among the first this many deal numbers of the game's own (``GameInfo.deals``:
#: 0-999,999,999 for most games, Microsoft's 1-1,000,000 for FreeCell)
DAILY_DEALS = 1_000_000_000


class DailyUnavailable(Exception):
    """The game has no engine or no solver yet, so no deal can be proven."""


def day_number(day: date) -> int:
    """The day as the candidates' stream number.

    >>> day_number(date(2025, 3, 14))
    20250314
    """
    return day.year * 10_000 + day.month * 100 + day.day


def candidates(game_id: str, day: date) -> Iterator[int]:
    """The day's candidate deal numbers, in the order they are tried (endless)."""
    rng = DealRandom.for_deal(f"daily:{game_id}", day_number(day))
    deals = engine.game_info(game_id).deals
    while True:
        yield deals.first + rng.below(deals.count(at_most=DAILY_DEALS))


def proves(game_id: str, best: str) -> bool:
    """Whether a solver verdict makes a deal good enough for the daily challenge.

    >>> proves("squadratik", "played_out"), proves("canfield", "won"), proves("canfield", "unknown")
    (True, True, False)
    """
    daily = engine.game_info(game_id).daily
    return daily is not None and best in daily.proofs


def choose(
    game_id: str,
    day: date,
    node_budget: int | None = None,
    max_candidates: int = MAX_CANDIDATES,
) -> DailyChoice | None:
    """The day's deal: the first candidate the solver proves (None: none of ``max_candidates``).

    Pure and synchronous (call it in an executor); raises :class:`DailyUnavailable` when the
    game or its solver is not installed.

    >>> choice = choose("imaginary13", date(2025, 3, 14), node_budget=100_000)
    >>> choice.best
    'won'
    """
    if game_id not in engine.GAMES:
        raise DailyUnavailable(game_id)
    from engine.solvers import Budget, solve

    budget = Budget(nodes=node_budget or NODE_BUDGETS.get(game_id, 100_000), seconds=None)
    nodes, seconds = 0, 0.0
    for index, deal in zip(range(max_candidates), candidates(game_id, day), strict=False):
        try:
            result = solve(game_id, deal, budget=budget)
        except (ImportError, ValueError) as missing:  # no solver module for this game yet
            raise DailyUnavailable(game_id) from missing
        except BadSetup:
            continue  # a deal number the game refuses is simply not a candidate
        nodes += result.nodes
        seconds += result.seconds
        if proves(game_id, result.best) and result.moves:
            return DailyChoice(
                game_id,
                day.isoformat(),
                deal,
                index,
                result.best,
                list(result.moves),
                nodes,
                round(seconds, 3),
            )
    return None


#: how often a process waiting for another's choice of the day's deal looks for it
CHOICE_POLL_SECONDS = 0.5

#: choices computed in this process: a pure function of (game, day, budget), so shared by
#: every core of the process
_computed: dict[tuple[str, str, int], DailyChoice | None] = {}
#: choices being computed, per event loop, so concurrent requests wait for one computation
_inflight: dict[tuple[int, str, str, int], asyncio.Future[DailyChoice | None]] = {}


async def _compute(game_id: str, day: date) -> DailyChoice | None:
    budget = NODE_BUDGETS.get(game_id, 100_000)
    key = (game_id, day.isoformat(), budget)
    if key in _computed:
        return _computed[key]
    loop = asyncio.get_running_loop()
    flight_key = (id(loop), *key)
    pending = _inflight.get(flight_key)
    if pending is None:
        pending = loop.run_in_executor(None, choose, game_id, day, budget)
        _inflight[flight_key] = pending
        try:
            found = await pending
        finally:
            _inflight.pop(flight_key, None)
        _computed[key] = found
        return found
    return await pending


async def daily_choice(
    store: Storage, game_id: str, day: date, now: datetime
) -> DailyChoice | None:
    """The day's deal of ``game_id``: the stored one, else chosen now (off the event loop)
    and stored. None when no candidate was proven; :class:`DailyUnavailable` without solver."""
    while True:
        stored = await store.daily.choice(game_id, day.isoformat())
        if stored is not None:
            return stored
        # One process computes a day's deal (seconds of solver time); the others wait for
        # the stored choice, and take over if the computing process dies (its lease ends).
        async with store.claims.hold(f"daily:{game_id}:{day.isoformat()}") as mine:
            if mine:
                found = await _compute(game_id, day)
                if found is None:
                    return None
                await store.daily.store_choice(found, iso(now))
                return await store.daily.choice(game_id, day.isoformat())
        await asyncio.sleep(CHOICE_POLL_SECONDS)


async def add_attempt(store: Storage, attempt: DailyAttempt) -> bool:
    """Record a ranked attempt; False when the player already has one for that game and day."""
    try:
        await store.daily.add_attempt(attempt)
    except AlreadyExists:
        return False
    return True


# ----- verification ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ClaimedResult:
    """What a stored result says about a finished game."""

    game_id: str
    deal: int
    options: dict[str, Any]
    players: list[str]
    moves: list[str]
    score: int
    outcome: str
    move_count: int
    tiebreak_move: int


def verify(claim: ClaimedResult, stored_moves: Sequence[str], daily_deal: int) -> str | None:
    """Why the claimed result is refused, or None when it is exactly what the stored move list
    gives on the engine, on the day's deal.

    >>> g = engine.new_game("imaginary13", 5)
    >>> _ = g.play(g.legal_moves()[0])
    >>> claim = ClaimedResult("imaginary13", 5, {}, ["p"], list(g.moves), g.score, "resigned", 1, 1)
    >>> verify(claim, g.moves, 5) is None
    True
    >>> inflated = ClaimedResult("imaginary13", 5, {}, ["p"], list(g.moves), 88, "resigned", 1, 1)
    >>> verify(inflated, g.moves, 5)
    'score'
    >>> won = ClaimedResult("imaginary13", 5, {}, ["p"], list(g.moves), 88, "won", 1, 1)
    >>> verify(won, g.moves, 5)  # a win the moves do not reach
    'outcome'
    """
    if claim.deal != daily_deal:
        return "deal"
    if list(claim.moves) != list(stored_moves):
        return "moves"
    try:
        game = engine.replay(
            claim.game_id, claim.deal, claim.players or None, claim.options, stored_moves
        )
    except (IllegalMove, BadSetup):
        return "replay"
    if game.outcome is None and claim.outcome == "resigned":
        game.resign()
    if game.outcome is None or str(game.outcome) != claim.outcome:
        return "outcome"
    if int(game.score) != claim.score:
        return "score"
    if game.move_number != claim.move_count:
        return "move_count"
    view: Mapping[str, Any] = game.view(None)
    score_move = view.get("score_move")
    if int(score_move if score_move is not None else game.move_number) != claim.tiebreak_move:
        return "tiebreak"
    return None


async def settle(store: Storage, session_id: str) -> str | None:
    """Check the ranked result of a finished daily attempt and mark the attempt accepted or
    refused (a refused result stays stored, unranked). Returns the new status, or None when
    there is nothing to settle (no attempt, still playing, already settled)."""
    attempt = await store.daily.attempt_of_session(session_id)
    if attempt is None or attempt.status != PLAYING:
        return None
    session = await store.sessions.get(session_id)
    if session is None or session.status != OVER:
        return None
    ranked = await store.results.ranked(session_id)
    choice = await store.daily.choice(attempt.game_id, attempt.day)
    reason: str | None = "missing"
    if len(ranked) == 1 and choice is not None:
        r = ranked[0]
        claim = ClaimedResult(
            r.game_id,
            r.deal,
            r.options,
            list(session.players),
            r.moves,
            r.score,
            r.outcome,
            r.move_count,
            r.tiebreak_move,
        )
        reason = await asyncio.get_running_loop().run_in_executor(
            None, verify, claim, await store.sessions.moves(session_id), choice.deal
        )
    status = ACCEPTED if reason is None else REFUSED
    if reason is not None:
        log.warning("daily result of session %s refused: %s", session_id, reason)
    await store.daily.settle(session_id, status, unrank=reason is not None)
    return status


async def settle_pending(store: Storage) -> int:
    """Settle every ranked attempt whose game is over (ended by a move, a resignation or the
    idle sweep); returns how many were settled."""
    settled = 0
    for session_id in await store.daily.finished_attempt_sessions(PLAYING):
        if await settle(store, session_id) is not None:
            settled += 1
    return settled


# ----- the /daily command ------------------------------------------------------------------------
async def command(core: Service, ctx: Ctx, args: list[str]) -> list[Reply]:
    """``/daily <game> [faces]``: start today's ranked attempt, or a casual replay once the
    ranked one is over."""
    games = core.games_list(ctx.lang, DAILY_GAMES)
    if not args:
        return [core.refuse(ctx, "daily.usage", games=games)]
    game_id = game_id_of(args[0])
    if game_id not in DAILY_GAMES:
        return [core.refuse(ctx, "daily.unknown_game", game=args[0][:32], games=games)]
    faces = None
    info = engine.game_info(game_id)
    for word in args[1:]:
        if word.lower() in info.faces and faces is None:  # the game's own face styles
            faces = word.lower()
        else:
            return [core.refuse(ctx, "daily.bad_argument", arg=word[:32])]
    await settle_pending(core.store)
    today = ctx.now.date()
    try:
        choice = await daily_choice(core.store, game_id, today, ctx.now)
    except DailyUnavailable:
        return [core.refuse(ctx, "daily.unavailable", game=core.game_name(ctx.lang, game_id))]
    if choice is None:
        return [core.refuse(ctx, "daily.no_deal", game=core.game_name(ctx.lang, game_id))]
    platform, user = ctx.req.platform, ctx.user
    attempt = await core.store.daily.attempt(platform, user, game_id, choice.day)
    if attempt is not None and attempt.status == PLAYING:
        # Its game is still going: here, it is shown again (and is now the game in focus);
        # in another chat it stays there (a replay here would show the deal).
        going = await core.sessions.get(attempt.session_id)
        if going is not None and going.is_active and attempt.chat_id == ctx.req.chat_id:
            shown = core.say(
                ctx,
                "focus.daily_again",
                name=ctx.req.user_name,
                game=core.game_name(ctx.lang, game_id),
            )
            board = await core.board(ctx, going, fresh=True)
            await core.focus_on(ctx, going)
            return [shown, board]
        return [core.refuse(ctx, "daily.in_progress", game=core.game_name(ctx.lang, game_id))]
    # A player who played it ranked and then asked to be forgotten keeps no attempt, only a
    # keyed hash of it: they get a casual game, never a second ranked one.
    forgotten = attempt is None and await core.store.daily.ranked_before(
        platform, user, game_id, choice.day
    )
    # The ranked attempt is its own session beside a casual game of the same game (the
    # database allows one casual and one ranked per game); a casual replay is a casual game.
    wanted_ranked = attempt is None and not forgotten
    refusal = core.refuse(
        ctx, "play.already_playing", game=core.game_name(ctx.lang, game_id), word=game_id
    )
    if any(
        s.record.game_id == game_id and s.record.ranked == wanted_ranked
        for s in await core.solos(ctx)
    ):
        return [refusal]
    faces = faces or info.default_faces
    try:
        session = await core.sessions.new_solo(
            platform,
            ctx.req.chat_id,
            user,
            ctx.req.user_name,
            game_id,
            {},
            choice.deal,
            faces,
            iso(ctx.now),
            ranked=wanted_ranked,
        )
    except AlreadyExists:  # the same request, served a moment ago by another process
        return [refusal]
    name = core.game_name(ctx.lang, game_id)
    ranked = wanted_ranked and await add_attempt(
        core.store,
        DailyAttempt(
            platform, user, game_id, choice.day, session.id, ctx.req.chat_id, PLAYING, iso(ctx.now)
        ),
    )
    if wanted_ranked and not ranked:
        # Another process recorded this player's attempt first: this session is not it.
        await core.sessions.end_without_result(session, iso(ctx.now))
        return [core.refuse(ctx, "daily.in_progress", game=name)]
    if ranked:
        started = core.say(ctx, "daily.started", name=ctx.req.user_name, game=name, day=choice.day)
    elif forgotten:
        started = core.say(
            ctx, "daily.forgotten_practice", name=ctx.req.user_name, game=name, day=choice.day
        )
    else:
        started = core.say(
            ctx, "daily.casual_started", name=ctx.req.user_name, game=name, day=choice.day
        )
    started.params["ranked"] = ranked
    board = await core.board(ctx, session, fresh=True)
    await core.focus_on(ctx, session)  # after /daily, a bare move plays on the daily
    return [started, board]


async def play_refusal(
    core: Service, ctx: Ctx, game_id: str, deal: int, options: dict[str, Any]
) -> Reply | None:
    """A private refusal when ``/play`` names today's daily deal before the player's ranked
    attempt at it is over: otherwise anyone could rehearse the challenge first."""
    if options:
        return None
    today = ctx.now.date().isoformat()
    choice = await core.store.daily.choice(game_id, today)
    if choice is None or choice.deal != deal:
        return None
    attempt = await core.store.daily.attempt(ctx.req.platform, ctx.user, game_id, today)
    if attempt is not None and attempt.status != PLAYING:
        return None
    if attempt is None and await core.store.daily.ranked_before(
        ctx.req.platform, ctx.user, game_id, today
    ):
        return None  # played ranked, then forgotten: the deal is theirs to practise
    return core.refuse(ctx, "daily.deal_reserved", game=core.game_name(ctx.lang, game_id))


async def game_ended(core: Service, ctx: Ctx, session_id: str) -> list[Reply]:
    """After a game ends: settle it if it was a ranked daily attempt, and answer with the
    verdict (and, when accepted, the shareable summary). Nothing for other games."""
    status = await settle(core.store, session_id)
    if status is None:
        return []
    if status == REFUSED:
        return [core.say(ctx, "daily.refused")]
    attempt = await core.store.daily.attempt_of_session(session_id)
    result = await core.store.results.first(session_id)
    if attempt is None or result is None:
        return []
    game_id = result.game_id
    text = share_text(
        ctx.lang,
        game_id,
        attempt.day,
        result.outcome,
        result.score,
        result.moves,
        result.deal,
        result.options,
    )
    reply = core.say(ctx, "daily.accepted")
    reply.text = reply.text + "\n\n" + text
    reply.params["share"] = text
    link = web.daily_link(core, ctx.lang, game_id, attempt.day)
    if link is not None:
        reply.text += "\n\n" + link
        reply.params["link"] = link
    return [reply]
