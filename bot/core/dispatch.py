"""The bot core: requests in, replies out, the same on every platform.

Adapters turn a platform update into a ``Request`` and call ``handle_text`` (a chat line) or
``handle_button`` (a pressed button id); they turn each returned ``Reply`` into platform calls.
The core finds the command or button verb in the registry the features filled, checks a
button's session (chat, kind, revision) before its handler runs, and wraps every entry in one
safety net. Every text goes through ``bot.i18n`` in the chat's language; every change to a
game is stored before the replies are returned.

>>> import asyncio
>>> from bot.replies import Request
>>> async def demo():
...     from bot.app import open_core  # the core with the bot's features (bot/app.py)
...     core = await open_core("sqlite:///:memory:")
...     replies = await core.handle_text(Request("console", "c", "you", "you"), "/help")
...     await core.close()
...     return replies[0].key
>>> asyncio.run(demo())
'help.text'

Plain text in a chat is read as a move only when the sender has an active game there and the
text, its spaces left out, is a short word the game parses as a move (``w3``, ``3 6``); any
other chatter is ignored (no reply), so people can talk next to a game, except in the console,
where every line is meant for the bot and gets an answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from bot import i18n, logs
from bot.core import buttons as button_ids
from bot.core.commands import COMMANDS, MAX_LINE, ParsedLine, read_line
from bot.core.context import Ctx, utc_now
from bot.core.limits import Limits, RateLimiter, Refused, posted_messages
from bot.core.messages import game_name
from bot.core.play import SoloPlay
from bot.core.presentation import Presenter, RenderFn
from bot.core.registry import Refusal, Registry
from bot.core.service import IDLE_LIMIT, Push, Service
from bot.core.session import iso
from bot.health import Health
from bot.metrics import Metrics
from bot.replies import Mention, Reply, Request
from bot.storage import (
    DEFAULT_DATABASE_URL,
    LOBBY,
    PoolSettings,
    StaleRevision,
    Storage,
    StorageBusy,
    StorageError,
)
from bot.storage.postgres import PostgresBackend

log = logging.getLogger("tavolo.core")

#: how often the background sweep looks for idle games
SWEEP_INTERVAL_SECONDS = 600.0
#: how often the background task looks at the stored deadlines (turn timers, race clocks)
TICK_SECONDS = 5.0
#: how long ``close`` waits for the requests in hand
SHUTDOWN_SECONDS = 10.0
#: what a board action is, for the rate limits (``bot.core.limits``): a move typed as a
#: command or as plain text (the command None), an undo, and the buttons that act on a board
#: in place (a move, a tap that picks a pile or goes back, "to the foundation", undo, a hand
#: card's rotations)
BOARD_COMMANDS = frozenset({None, "move", "undo"})
BOARD_VERBS = frozenset({"mv", "sel", "back", "found", "undo", "turn"})
#: fills the registry from the features; returns the feature objects by name
Wiring = Callable[[Registry, Service], dict[str, Any]]

#: the features ``Core.create`` wires when given none: the bot's own, which ``bot.app`` (the
#: composition root, imported with the ``bot`` package) sets here. The core imports no feature:
#: the root hands them in, so ``Core.create(url)`` keeps working without an import circle.
_default_wiring: Wiring | None = None


def set_default_wiring(wiring: Wiring) -> None:
    """Make ``wiring`` what ``Core.create`` wires when it is given none."""
    global _default_wiring
    _default_wiring = wiring


class Core:
    """The platform-neutral bot. Build it with ``await Core.create(...)`` or
    ``await bot.app.open_core(...)`` (the bot's features wired in), or
    ``await Core.create(..., wiring=...)`` with features of one's own.
    The core imports no feature: whoever builds it says which features it has."""

    def __init__(
        self,
        store: Storage,
        default_language: str,
        clock: Callable[[], datetime],
        renderer: RenderFn | None,
        wiring: Wiring,
    ) -> None:
        self.registry = Registry()
        self.metrics = Metrics()
        timed = timed_renderer(
            renderer,
            lambda game, seconds: self.metrics.render_seconds.labels(game=game).observe(seconds),
        )
        self.service = Service(
            store, default_language, clock, self.registry, Presenter(self.registry, timed)
        )
        self.store = store
        self.sessions = self.service.sessions
        self.default_language = self.service.default_language
        self.clock = clock
        self.metrics.track_live_sessions(self.sessions.live_count)
        self.sessions.on_finished = lambda game: self.metrics.games_finished.labels(game=game).inc()
        store.backend.on_wait = self.metrics.database_wait_seconds.observe
        store.backend.on_error = lambda kind: self.metrics.database_errors.labels(kind=kind).inc()
        backend = store.backend
        if isinstance(backend, PostgresBackend):  # SQLite has no pool: two fixed connections
            self.metrics.track_pool(
                backend.pool.get_size,
                backend.pool.get_idle_size,
                backend.settings.size,
                lambda: backend.waiting,
            )
            backend.on_pool_wait = self.metrics.pool_wait_seconds.observe
        # a database file put back under a running bot: the games in memory were the old file's
        store.backend.on_reopen = self.sessions.forget_all
        #: platform name -> its health now (``bot.health.Health``; a plain string says why it
        #: is down, None that it is fine); each adapter adds its own, ``/readyz`` reads them
        self.platform_status: dict[str, Callable[[], Health | str | None]] = {}
        self.play = SoloPlay(self.service)
        self.play.register(self.registry)
        self.features = wiring(self.registry, self.service)
        missing = set(COMMANDS) - set(self.registry.commands)
        if missing:
            raise RuntimeError(f"no feature handles /{', /'.join(sorted(missing))}")
        self._sweeper: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        #: the per-user and per-chat rate limits (None: unlimited)
        self.limiter: RateLimiter | None = None
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @classmethod
    async def create(
        cls,
        database_url: str = DEFAULT_DATABASE_URL,
        default_language: str = "en",
        clock: Callable[[], datetime] | None = None,
        *,
        renderer: RenderFn | None = None,
        sweep_interval: float | None = SWEEP_INTERVAL_SECONDS,
        wiring: Wiring | None = None,
        limits: Limits | None = None,
        pool: PoolSettings | None = None,
    ) -> Core:
        """Open storage (``bot.storage.StorageError`` if it cannot be used) and start the idle
        sweep. ``renderer`` replaces ``renderer.render`` (tests); ``sweep_interval=None`` runs
        no background sweep (call ``sweep()`` yourself); ``wiring`` builds the features
        (default: the bot's own, ``bot.app.wire_features``, as ``bot.app.open_core`` does); ``limits``:
        the per-user and per-chat rate limits (none unless given: ``python -m bot`` gives the
        ``RATE_*`` settings); ``pool``: PostgreSQL's connections (``DATABASE_POOL_*``)."""
        wiring = wiring or _default_wiring
        if wiring is None:
            raise RuntimeError("no features to wire: import bot.app or pass wiring=")
        store = await Storage.open(
            database_url, create_parent=database_url == DEFAULT_DATABASE_URL, pool=pool
        )
        try:
            core = cls(store, default_language, clock or utc_now, renderer, wiring)
        except BaseException:
            # a core that cannot start closes its database: its connections' threads would
            # otherwise keep the process from ending
            await store.close()
            raise
        try:
            # log lines name chats by a keyed hash, the same in every process of this database
            logs.set_pseudonym_key(await store.pseudonyms.key())
        except StorageError as error:  # read-only or busy: this process's own key meanwhile
            log.warning("no shared key for the log's pseudonyms: %s", error)
        if limits is not None and limits.enabled:
            core.limiter = RateLimiter(store, limits)
        if sweep_interval:
            core._sweeper = asyncio.create_task(core._every(sweep_interval, core.sweep))
            # Turn timers and race clocks are stored deadlines: this resumes them after a restart.
            core._ticker = asyncio.create_task(core._every(TICK_SECONDS, core.tick))
        return core

    async def close(self, timeout: float = SHUTDOWN_SECONDS) -> None:
        """Stop: wait (at most ``timeout`` seconds) for the requests being handled, so a move
        in flight is stored and answered, then stop the background work and the database."""
        if self._in_flight:
            try:
                await asyncio.wait_for(self._idle.wait(), timeout)
            except TimeoutError:
                log.warning("closing with %d request(s) still in hand", self._in_flight)
        for task in (self._sweeper, self._ticker):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._sweeper = self._ticker = None
        for closing in self.registry.closing:
            try:
                await closing()
            except Exception:
                log.exception("a feature failed to stop")
        await self.store.close()

    def set_push(self, push: Push) -> None:
        """Add a place where replies not caused by a request go (idle endings, turn timers,
        race clocks): one per adapter. Each push receives every such reply with its platform
        and keeps only its own platform's; setting the same push twice adds it once."""
        if push not in self.service.pushes:
            self.service.pushes.append(push)

    async def push(self, platform: str, chat_id: str, reply: Reply) -> None:
        """Send an out-of-band reply to every adapter's push (a failing one is logged)."""
        await self.service.push(platform, chat_id, reply)

    def command_list(self, lang: str) -> list[tuple[str, str]]:
        """(name, one-line description) of every command, for menus."""
        return [(name, i18n.t(lang, f"cmd.{name}")) for name in COMMANDS]

    # ----- entry points (each inside the safety net) ----------------------------------------
    async def handle_text(self, req: Request, text: str) -> list[Reply]:
        """Answer one chat line (``/cmd args``, ``/cmd@bot args`` or plain text)."""
        # read once: the rate limit, the metrics label and the dispatch share this value
        line = read_line(well_formed(text))
        return await self._measured(
            self._command_label(line),
            req.platform,
            self._guarded(
                req,
                "a chat line",
                lambda ctx: self._handle_text(ctx, line),
                board_action=line is not None and line.command in BOARD_COMMANDS,
            ),
        )

    async def handle_button(self, req: Request, button_id: str) -> list[Reply]:
        """Answer one button press."""
        button_id = well_formed(button_id)
        action = button_ids.decode(button_id)
        return await self._measured(
            "button",
            req.platform,
            self._guarded(
                req,
                "a button",
                lambda ctx: self._handle_button(ctx, button_id),
                None if action is None else action.session_id,
                board_action=action is not None and action.verb in BOARD_VERBS,
                pressed=True,
            ),
        )

    def _command_label(self, line: ParsedLine | None) -> str:
        """The metrics label of a chat line: a known command's name, ``unknown`` for any other
        command (or a line too long to read), ``text`` for plain text (never what was typed:
        labels stay few and clean)."""
        if line is None:
            return "unknown"
        command = line.command
        if command is None:
            return "text"
        return command if command in self.registry.commands else "unknown"

    async def _measured(
        self, label: str, platform: str, answering: Awaitable[list[Reply]]
    ) -> list[Reply]:
        """Count the request by command and outcome and time its answer (and count it in
        hand, so ``close`` waits for it)."""
        started = time.perf_counter()
        self._in_flight += 1
        self._idle.clear()
        try:
            replies = await answering
        finally:
            self._in_flight -= 1
            if not self._in_flight:
                self._idle.set()
        self.metrics.reply(label, platform, time.perf_counter() - started)
        self.metrics.commands.labels(command=label, outcome=outcome_of(replies)).inc()
        return replies

    async def hand_buttons(self, req: Request, flat: bool = True) -> Reply | None:
        """The requester's private Cartas Maestras hand (image + one button per playable move),
        or None when they sit at no started table in this chat; a busy database gets the busy
        answer. ``flat=False``: the hand's buttons in steps as ``/hand`` shows them (card and
        place, then rotation), for platforms whose button lists are short (Discord: 25)."""
        listing = self._own_hand_list if flat else self._own_hand_steps
        replies = await self._guarded(req, "a hand request", listing)
        return replies[0] if replies else None

    @staticmethod
    def typed_move(button_id: str) -> str | None:
        """The move a button id plays when a typed ``/move`` does the same, else None: for an
        adapter that learns of a press only by its id (Telegram's chosen inline result) and
        whose moves also arrive as commands."""
        return button_ids.typed_move(button_id)

    async def board_posted(self, session_id: str, message_id: str) -> None:
        """The adapter posted a new board message for the session: remember it for edits.
        A busy database only costs the edit-in-place (the next board is posted anew)."""
        try:
            # this column only: a board posted while another process moves must not undo it
            await self.store.sessions.set_board_message(session_id, str(message_id))
            live = self.sessions.peek(session_id)
            if live is not None:
                live.record.board_message_id = str(message_id)
        except StorageBusy as error:
            log.warning("storage busy, board message of %s not remembered: %s", session_id, error)

    # ----- platform bookkeeping shared by the processes (adapters hold no SQL) -------------
    async def first_delivery(self, platform: str, update_id: int) -> bool:
        """True the first time any process sees the platform's update ``update_id`` (a
        redelivered update is dropped). A busy database lets it through: the request meets
        the busy database itself, and handling twice beats dropping."""
        try:
            return await self.store.updates.first_delivery(platform, update_id)
        except StorageBusy as error:
            log.warning("storage busy, update %s not recorded: %s", update_id, error)
            return True

    async def remember_private_message(
        self, platform: str, chat_id: str, message_id: str, origin_chat: str
    ) -> None:
        """A private message's buttons (a hand) act at the table of ``origin_chat``."""
        try:
            await self.store.updates.remember_private_message(
                platform, chat_id, message_id, origin_chat
            )
        except StorageBusy as error:
            log.warning("storage busy, private message %s not remembered: %s", message_id, error)

    async def private_message_origin(
        self, platform: str, chat_id: str, message_id: str
    ) -> str | None:
        """The table chat of a private message with buttons, None for any other message."""
        try:
            return await self.store.updates.private_message_origin(platform, chat_id, message_id)
        except StorageBusy:
            return None

    async def tick(self) -> int:
        """Act on the turn timers and race clocks that ran out by the core's clock (the
        background task calls this every few seconds; tests call it after moving the clock).
        A busy database puts them off to the next tick."""
        handled = 0
        try:
            now = self.clock()
            for ticker in self.registry.tickers:
                handled += await ticker(now)
        except StorageBusy as error:
            log.warning("storage busy, timers put off to the next tick: %s", error)
        return handled

    async def sweep(self) -> int:
        """End every solo game idle for 24 h as resigned; returns how many were ended. A busy
        database ends this round early (the next sweep takes the rest)."""
        try:
            # one process sweeps at a time; the next round (any process) reads what is left
            async with self.store.claims.hold("sweep") as mine:
                return await self._sweep() if mine else 0
        except StorageBusy as error:
            log.warning("storage busy, idle sweep put off: %s", error)
            return 0

    async def _sweep(self) -> int:
        ended = 0
        try:
            now = self.clock()
            # the keyed hashes of ranked dailies that can no longer be played go
            await self.store.daily.prune_ranked(now.date().isoformat())
            for record in await self.store.sessions.active_solo():
                if now - datetime.fromisoformat(record.last_active_at) < IDLE_LIMIT:
                    continue
                session = await self.sessions.get(record.id)
                if session is None:
                    continue
                async with self.sessions.lock(session.id):
                    if await self.service.expire_if_idle(session, now):
                        ended += 1
                        lang = await self.service.chat_language(record.platform, record.chat_id)
                        name = session.name_of(record.players[0])
                        await self.push(
                            record.platform,
                            record.chat_id,
                            self.service.reply(lang, "game.expired_notice", name=name),
                        )
        except StorageBusy as error:
            log.warning("storage busy, idle sweep put off: %s", error)
        return ended

    async def _every(self, interval: float, job: Callable[[], Awaitable[int]]) -> None:
        """A background task: ``job`` every ``interval`` seconds until cancelled."""
        while True:
            await asyncio.sleep(interval)
            try:
                await job()
            except Exception:
                log.exception("background %s failed", getattr(job, "__name__", "job"))

    # ----- the safety net ---------------------------------------------------------------------
    async def _guarded(
        self,
        req: Request,
        what: str,
        handle: Callable[[Ctx], Awaitable[list[Reply]]],
        session_id: str | None = None,
        *,
        board_action: bool = False,
        pressed: bool = False,
    ) -> list[Reply]:
        """The safety net around every request, context building included: a busy database
        (``StorageBusy``: locked beyond the bounded wait, read-only, full, connection lost)
        gets "busy, try again" in the chat's language; any other failure the internal-error
        answer. Either way the process lives on and nothing half-done is kept (storage rolls
        the request's transaction back). ``session_id``: a pressed button's session, whose
        stored revision is read with the chat's language. ``board_action``: a move or a tap on
        a board, which the rate limits charge by the messages it posts (``bot.core.limits``);
        ``pressed``: a button (its private answers go to the presser alone, posting nothing)."""
        ctx: Ctx | None = None
        req = well_formed_request(req)
        logs.begin_request(req.chat_id)
        if self.limiter is not None:
            refused = await self.limiter.check(req, board_action)
            if refused is not None:
                return await self._slow_down(req, refused)
        await self.service.answering(req.platform, req.chat_id, 1)
        try:
            ctx = await self._context(req, session_id)
            replies = button_ids.describe(await handle(ctx))
            if board_action and self.limiter is not None:
                await self._charge(req, replies, pressed)
            return replies
        except (StorageBusy, StaleRevision) as error:
            # StaleRevision: another process changed the session under this request; its copy
            # was dropped, so trying again works on the stored state
            log.warning("storage busy while handling %s: %s", what, error)
            return [self.service.private(ctx or await self._fallback_context(req), "error.busy")]
        except Exception:
            log.exception("failed to handle %s", what)
            return [
                self.service.private(ctx or await self._fallback_context(req), "error.internal")
            ]
        finally:
            await self.service.answering(req.platform, req.chat_id, -1)

    async def _charge(self, req: Request, replies: list[Reply], pressed: bool) -> None:
        """Charge a board action's posted messages to the rate limits. What was done is done:
        a failure here is logged, never answered as the request's failure."""
        assert self.limiter is not None
        try:
            await self.limiter.charge(req, posted_messages(replies, req.user_id, pressed))
        except Exception:
            log.exception("could not charge a board action to the rate limits")

    async def _slow_down(self, req: Request, refused: Refused) -> list[Reply]:
        """Over a rate limit: the notice the first time, silence after (nothing is done)."""
        self.metrics.rate_limited.labels(scope=refused.scope).inc()
        if not refused.notify:
            return Silenced()
        ctx = await self._fallback_context(req)
        # the user's own buckets (commands, moves) say so to them; the chat's to the chat
        key = "error.slow_down_chat" if refused.scope == "chat" else "error.slow_down"
        return [self.service.refuse(ctx, key, name=req.user_name)]

    async def _context(self, req: Request, session_id: str | None = None) -> Ctx:
        now = self.clock()
        try:
            # not waited for: a command that only reads must not stall behind another
            # process's write lock (a write of this request waits on its own)
            await self.store.players.touch(
                req.platform,
                req.user_id,
                req.user_name,
                iso(now),
                wait=False,
                chat_id=req.chat_id,
            )
        except StorageBusy as error:
            # a sighting is not worth refusing a request: reads (/help, boards) go on, and a
            # write of this request meets the busy database itself
            log.info("storage busy, sighting of a player not stored: %s", error)
        # the language, the chat's open sessions and the sender's focus: one read, which a
        # command about a game (a move, a board, a hint) would otherwise make as three
        view = await self.store.focus.chat_view(req.platform, req.chat_id, req.user_id, session_id)
        lang = view.language or self.service.default_language
        ctx = Ctx(
            req,
            lang,
            now,
            focus_read=(view.focus,),
            chat_read=view.open_sessions,
            departed_read=view.departed,
        )
        if session_id is not None:
            ctx.revision_read = (session_id, view.revision)
        return ctx

    async def _fallback_context(self, req: Request) -> Ctx:
        """A context when the normal one could not be built: the chat's language if storage can
        still read it (a write lock does not stop reads), else the default language."""
        try:
            lang = await self.service.chat_language(req.platform, req.chat_id)
        except Exception:
            lang = self.default_language
        return Ctx(req, lang, self.clock())

    async def _own_hand_steps(self, ctx: Ctx) -> list[Reply]:
        reply = await self.service.own_hand(ctx)
        return [] if reply is None else [reply]

    async def _own_hand_list(self, ctx: Ctx) -> list[Reply]:
        # a list to choose from (Telegram's inline hand): every legal move, no second step
        reply = await self.service.own_hand(ctx, flat=True)
        return [] if reply is None else [reply]

    # ----- dispatch ---------------------------------------------------------------------------
    async def _handle_text(self, ctx: Ctx, line: ParsedLine | None) -> list[Reply]:
        if line is None:
            return [self.service.refuse(ctx, "error.too_long", limit=MAX_LINE)]
        if line.command is None:
            return await self.play.moves.plain_text(ctx, line.args)
        command = self.registry.commands.get(line.command)
        if command is None:
            return [self.service.refuse(ctx, "error.unknown_command", command=line.command[:32])]
        if command.parse is None:
            return await command.handler(ctx, line.args)
        parsed = command.parse(line.args)
        if isinstance(parsed, Refusal):
            return [self._refusal_reply(ctx, parsed)]
        return await command.handler(ctx, parsed)

    def _refusal_reply(self, ctx: Ctx, refusal: Refusal) -> Reply:
        params = dict(refusal.params)
        if refusal.game_id is not None:
            params["game"] = game_name(ctx.lang, refusal.game_id)
        if refusal.games is not None:
            params["games"] = self.service.games_list(ctx.lang, refusal.games)
        return self.service.refuse(ctx, refusal.key, **params)

    async def _handle_button(self, ctx: Ctx, button_id: str) -> list[Reply]:
        private = self.service.private
        action = button_ids.decode(button_id)
        verb = self.registry.buttons.get(action.verb) if action is not None else None
        if action is None or verb is None:
            return [private(ctx, "button.unknown")]
        session = await self.sessions.get(
            action.session_id, ctx.take_revision_read(action.session_id)
        )
        rec = session.record if session is not None else None
        if (
            session is None
            or rec is None
            or (rec.platform, rec.chat_id) != (ctx.req.platform, ctx.req.chat_id)
        ):
            return [private(ctx, "button.unknown")]
        if not session.is_table:
            # A press on a board left for 24 h ends that game first, as a command would.
            async with self.sessions.lock(session.id):
                await self.service.expire_if_idle(session, ctx.now)
        # Every verb is checked against the kind of session it names before anything changes:
        # a forged id (a lobby verb on a solo game, a solo verb on a table, a revision the
        # session has not reached) is refused whole.
        wrong_kind = (verb.kind == "solo" and session.is_table) or (
            verb.kind == "table" and not session.is_table
        )
        too_new = action.revision > rec.revision
        stale = verb.exact_revision and action.revision != rec.revision
        if too_new or stale or wrong_kind or (verb.lobby_only and rec.status != LOBBY):
            return [private(ctx, "button.stale")]
        return await verb.handler(ctx, session, action)


def timed_renderer(render: RenderFn | None, observe: Callable[[str, float], None]) -> RenderFn:
    """``render`` (by default ``renderer.render``, imported on the first board) timed into
    ``observe``, its game and seconds per image (it runs on the render threads)."""

    def timed(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
        draw = render
        if draw is None:
            import renderer as renderer_module  # loaded on first board: start-up stays light

            draw = renderer_module.render
        started = time.perf_counter()
        try:
            return draw(game_id, view, **style)
        finally:
            observe(game_id, time.perf_counter() - started)

    return timed


#: the outcome of a request by the key of its reply, for the metrics
_OUTCOMES = {"error.busy": "busy", "error.internal": "error", "error.slow_down": "limited"}


class Silenced(list[Reply]):
    """No reply, because a rate limit silences the sender (told so once already)."""


_OUTCOMES["error.slow_down_chat"] = "limited"


def outcome_of(replies: list[Reply]) -> str:
    """``ok``, ``refused`` (a bad command, an illegal move), ``busy``, ``error`` or
    ``limited`` (a rate limit's notice, or its silence: no reply at all)."""
    if isinstance(replies, Silenced):
        return "limited"
    for reply in replies:
        if reply.key in _OUTCOMES:
            return _OUTCOMES[reply.key]
        if reply.refusal:
            return "refused"
    return "ok"


def well_formed(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD. JSON from a platform can carry
    one (``"\\ud800"``), and neither the database nor the fonts take it; a proper pair given
    as two halves becomes the one character it stands for.

    >>> well_formed("/stats \\ud800") == "/stats \\ufffd", well_formed("ok")
    (True, 'ok')
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def well_formed_request(req: Request) -> Request:
    """``req`` with :func:`well_formed` ids and names, its mentions' too (the same object
    when they already are)."""
    fields = {"chat_id": req.chat_id, "user_id": req.user_id, "user_name": req.user_name}
    cleaned = {name: well_formed(value) for name, value in fields.items()}
    mentions = tuple(Mention(well_formed(m.user_id), well_formed(m.name)) for m in req.mentions)
    if cleaned == fields and mentions == req.mentions:
        return req
    return dataclasses.replace(
        req,
        mentions=mentions,
        chat_id=cleaned["chat_id"],
        user_id=cleaned["user_id"],
        user_name=cleaned["user_name"],
    )
