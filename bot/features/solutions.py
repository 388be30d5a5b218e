""" "Could it have been won?": after a Solitario, Canfield or Imaginary Thirteen solo game ends
lost, stalled or resigned, the bot asks the solver (``engine.solvers.decide``) whether the deal
could have been won from the start and from where the player stopped, and offers
``/replay solution``: the solver's winning line as an animation.

The search takes up to a few seconds, so it never runs on the event loop nor holds up the game's
end reply: the end hook only schedules it; the solver runs on its own worker thread with a node
budget (the same answer on every machine and at every load, so ``/replay solution`` asked of
another process, or after a restart, finds the same line again), and the verdict arrives as a
follow-up message through the core's push, never before the game-over reply: it waits until
the chat's requests are answered and sent (``Service.after_answers``).

The work waiting for the solver is bounded (issue 39): at most :data:`WAITING_LIMIT` games
wait or run, and at most one of each player. Past that the game-over reply says the solver is
busy and that ``/replay solution`` asks again (which is bounded the same way: "busy, ask again
in a while"). A ``/replay solution`` of a game whose answer is on its way waits for that one
search, never starts a second.

Nothing is said (and ``/replay solution`` waits) while a competition on that deal still runs in
the chat: a race round dealt it, a daily attempt at it is still being played, or it is today's
daily deal (anyone in the chat may still start it today). Race boards never get an answer: the
deal was everyone's.

>>> "canfield" in GAMES, "maestras" in GAMES   # could_have_won: a solo game with a solver
(True, False)
>>> is_solution_word("Soluzione"), is_solution_word("canfield")
(True, False)
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import engine
from bot.replies import Reply
from bot.storage import PLAYING, SOLO, SessionRecord
from engine.solvers import LOST, UNKNOWN, WON, Budget, Position, decide

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service
    from bot.core.session import Session
    from bot.features.races import Races

log = logging.getLogger("tavolo.solutions")

#: the games whose lost games get the solver's answer (``GameInfo.could_have_won``; El
#: Solitario's "could it have been a completo?" and Cartas Maestras, a table game, are other
#: questions)
GAMES = frozenset(g for g, cls in engine.GAMES.items() if cls.info.could_have_won)
#: the endings that raise the question (a won game needs no solver)
ENDINGS = frozenset({"lost", "stalled", "resigned"})
#: positions per search: about 1.5 CPU seconds, so the two searches answer within a few
#: seconds; a node budget, not a clock, so every process finds the same line
BUDGET = Budget(nodes=150_000, seconds=None)
#: ``/replay solution`` in the three languages (accents optional)
SOLUTION_WORDS = frozenset({"solution", "solucion", "solución", "soluzione", "sol"})
#: verdicts kept in memory (a second ``/replay solution`` of the same game is not searched again)
CACHE_SIZE = 32
#: games whose answer may wait for (or run on) the solver's worker at once; one worker answers
#: about 26 a second, so the last waits a few seconds at most, and memory stays flat however
#: fast games end
WAITING_LIMIT = 32

# One worker: searches queue behind each other instead of taking the threads that draw boards.
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tavolo-solver")


class SolverBusy(Exception):
    """The solver's queue is full, or the player already has a game waiting in it."""


def is_solution_word(word: str) -> bool:
    """Whether ``/replay``'s argument asks for the solution (``/replay solution``)."""
    return word.lower() in SOLUTION_WORDS


@dataclass(frozen=True, slots=True)
class Analysis:
    """The solver's two answers for one finished game: from the deal's start and from where
    the player stopped (``line`` continues from there), each ``won``, ``lost`` or ``unknown``.

    >>> Analysis("won", ["d", "1f"], "lost", []).solution([])
    ['d', '1f']
    >>> Analysis("unknown", [], "won", ["2f"]).solution(["d"])
    ['d', '2f']
    """

    start: str
    start_line: list[str] = field(default_factory=list)
    stopped: str = UNKNOWN
    stopped_line: list[str] = field(default_factory=list)

    def solution(self, played: list[str]) -> list[str]:
        """A winning line from the deal's start (the start's own, else the player's moves
        followed by the line from where they stopped); empty when none was found."""
        if self.start == WON:
            return list(self.start_line)
        if self.stopped == WON:
            return [*played, *self.stopped_line]
        return []


def analyse(game_id: str, deal: int, options: dict[str, Any], played: list[str]) -> Analysis:
    """Both searches, synchronously (call it in an executor). A deal that cannot be won from
    its start cannot be won from any later position: the second search is skipped then, and
    when the player made no move the two questions are one.

    >>> analyse("solitario", 29, {}, []).start
    'won'
    """
    start = decide(Position(game_id, deal, options, []), BUDGET)
    if start.result == LOST or not played:
        return Analysis(start.result, start.line, start.result, start.line)
    stopped = decide(Position(game_id, deal, options, played), BUDGET)
    return Analysis(start.result, start.line, stopped.result, stopped.line)


class Solutions:
    """The end-of-game answer and ``/replay solution`` (see module doc)."""

    def __init__(self, core: Service, races: Races) -> None:
        self.core = core
        self.races = races
        #: searches scheduled and not yet answered (tests and shutdown wait for them)
        self.pending: set[asyncio.Task[None]] = set()
        self._cache: OrderedDict[str, Analysis] = OrderedDict()
        #: the searches waiting for the worker or running on it, by session id, and the
        #: player each is for (one each): at most WAITING_LIMIT
        self._searching: dict[str, asyncio.Future[Analysis]] = {}
        self._searching_for: dict[tuple[str, str], str] = {}

    async def spoiler(self, rec: SessionRecord, today: str) -> bool:
        """Would an answer about this game spoil a competition still running in its chat?
        (Compared by game and deal number only: a Solitario of 52 cards on the daily deal's
        number waits too, which costs little and needs no knowledge of default options.)"""
        from bot.features.race_rules import RACING

        running = await self.core.store.play.deals_in_competition(
            rec.platform, rec.chat_id, rec.game_id, RACING, PLAYING, today
        )
        return rec.deal in running

    async def game_ended(self, ctx: Ctx, session: Session, how: str) -> list[Reply]:
        """The solo end hook: schedule the question when the game qualifies. Answers nothing
        itself (the verdict is pushed when the solver is done)."""
        game = session.game
        rec = session.record
        if (
            game is None
            or rec.kind != SOLO
            or rec.game_id not in GAMES
            or str(game.outcome) not in ENDINGS
        ):
            return []
        if await self.races.entry_of(session.id) is not None:
            return []
        if await self.spoiler(rec, ctx.now.date().isoformat()):
            return []
        played = list(game.moves)
        try:
            self._search(rec, played)  # queued now: the answer below waits for it
        except SolverBusy:
            name = rec.names.get(rec.players[0], rec.players[0])
            return [
                self.core.say(
                    ctx,
                    "solution.busy",
                    name=name,
                    deal=rec.deal,
                    game=self.core.game_name(ctx.lang, rec.game_id),
                )
            ]
        task = asyncio.create_task(self._answer(ctx, rec, played))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)
        return []

    def _search(self, rec: SessionRecord, played: list[str]) -> asyncio.Future[Analysis]:
        """The search of the game's answer: the one already on its way, or a new one queued
        for the worker (``SolverBusy`` when the queue is full or the player already has a
        game in it)."""
        running = self._searching.get(rec.id)
        if running is not None:
            return running
        player = (rec.platform, rec.players[0])
        if len(self._searching) >= WAITING_LIMIT or player in self._searching_for:
            raise SolverBusy
        call = functools.partial(analyse, rec.game_id, rec.deal, dict(rec.options), list(played))
        running = asyncio.get_running_loop().run_in_executor(_executor, call)
        self._searching[rec.id] = running
        self._searching_for[player] = rec.id

        def done(search: asyncio.Future[Analysis]) -> None:
            self._searching.pop(rec.id, None)
            if self._searching_for.get(player) == rec.id:
                del self._searching_for[player]
            if not search.cancelled() and search.exception() is None:
                self._keep(rec.id, search.result())

        running.add_done_callback(done)
        return running

    async def close(self) -> None:
        """Shutting down: drop the answers not yet given (a search already running on the
        worker finishes there; the ones queued behind it never start)."""
        for search in list(self._searching.values()):
            search.cancel()
        for task in list(self.pending):
            task.cancel()
        await asyncio.gather(*list(self.pending), return_exceptions=True)

    async def wait(self) -> None:
        """Wait until every scheduled answer was pushed."""
        while self.pending:
            await asyncio.gather(*list(self.pending), return_exceptions=True)

    async def analysis_of(self, rec: SessionRecord, played: list[str]) -> Analysis:
        """The game's analysis, from memory or searched on the solver's worker thread (the
        search already on its way, else a new one: ``SolverBusy`` when none may be queued)."""
        cached = self._cache.get(rec.id)
        if cached is not None:
            self._cache.move_to_end(rec.id)
            return cached
        # shielded: one asker giving up (a cancelled request) leaves the search to the others
        return await asyncio.shield(self._search(rec, played))

    def _keep(self, session_id: str, found: Analysis) -> None:
        self._cache[session_id] = found
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    async def _answer(self, ctx: Ctx, rec: SessionRecord, played: list[str]) -> None:
        try:
            found = await self.analysis_of(rec, played)
            # the game-over reply first: the request that ended the game may still be answered
            await self.core.after_answers(rec.platform, rec.chat_id)
            await self.core.push(
                rec.platform, rec.chat_id, self.verdict_reply(ctx, rec, played, found)
            )
        except Exception:
            log.exception("could-it-have-been-won of %s (%s) failed", rec.id, rec.game_id)

    def verdict_reply(
        self, ctx: Ctx, rec: SessionRecord, played: list[str], found: Analysis
    ) -> Reply:
        """The follow-up message: the answer from the start, from where the player stopped
        (when they moved and it tells more), and the offer of ``/replay solution``."""
        core = self.core
        name = rec.names.get(rec.players[0]) or "?"
        game = core.game_name(ctx.lang, rec.game_id)
        reply = core.say(
            ctx,
            f"solution.start_{found.start}",
            name=name,
            game=game,
            deal=rec.deal,
            moves=len(found.start_line),
        )
        lines = [reply.text]
        if played and found.start != LOST:
            lines.append(
                core.say(
                    ctx, f"solution.stopped_{found.stopped}", moves=len(found.stopped_line)
                ).text
            )
        solution = found.solution(played)
        if solution:
            lines.append(core.say(ctx, "solution.offer").text)
        reply.key = "solution.verdict"
        reply.text = "\n".join(lines)
        reply.params.update(
            start=found.start, stopped=found.stopped, session=rec.id, solution=len(solution)
        )
        return reply
