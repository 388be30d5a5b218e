"""The bot core: requests in, replies out, the same on every platform.

Adapters turn a platform update into a ``Request`` and call ``handle_text`` (a chat line) or
``handle_button`` (a pressed button id); they turn each returned ``Reply`` into platform calls.
The core finds the command or button verb in the registry the features filled, checks a
button's session (chat, kind, revision) before its handler runs, and wraps every entry in one
safety net (``bot.core.guard``), measured (``bot.core.measuring``); the idle sweep and the
timers' tick run in the background (``bot.core.background``). Every text goes through
``bot.i18n`` in the chat's language; every change to a game is stored before the replies are
returned.

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

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot import i18n, logs
from bot.core import buttons as button_ids
from bot.core.background import SWEEP_INTERVAL_SECONDS, Background
from bot.core.commands import COMMANDS, MAX_LINE, ParsedLine, read_line
from bot.core.context import Ctx, utc_now
from bot.core.guard import BOARD_COMMANDS, BOARD_VERBS, Guard, well_formed
from bot.core.limits import Limits, RateLimiter
from bot.core.measuring import Measure, command_label
from bot.core.messages import game_name
from bot.core.play import SoloPlay
from bot.core.presentation import Presenter, RenderFn
from bot.core.registry import Refusal, Registry
from bot.core.service import Push, Service
from bot.health import Health
from bot.metrics import Metrics
from bot.replies import Reply, Request
from bot.storage import (
    DEFAULT_DATABASE_URL,
    LOBBY,
    PoolSettings,
    Storage,
    StorageBusy,
    StorageError,
)

log = logging.getLogger("tavolo.core")

#: how long ``close`` waits for the requests in hand
SHUTDOWN_SECONDS = 10.0
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
        self.measure = Measure(self.metrics)
        presenter = Presenter(self.registry, self.measure.renderer(renderer))
        self.service = Service(store, default_language, clock, self.registry, presenter)
        self.store = store
        self.sessions = self.service.sessions
        self.default_language = self.service.default_language
        self.clock = clock
        self.measure.watch(store, self.sessions)
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
        self.background = Background(self.service)
        self.guard = Guard(self.service, self.metrics)

    @property
    def limiter(self) -> RateLimiter | None:
        """The per-user and per-chat rate limits (None: unlimited)."""
        return self.guard.limiter

    @limiter.setter
    def limiter(self, limiter: RateLimiter | None) -> None:
        self.guard.limiter = limiter

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
            core.background.start(sweep_interval)
        return core

    async def close(self, timeout: float = SHUTDOWN_SECONDS) -> None:
        """Stop: wait (at most ``timeout`` seconds) for the requests being handled, so a move
        in flight is stored and answered, then stop the background work and the database."""
        await self.measure.settled(timeout)
        await self.background.stop()
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
        return await self.measure.request(
            command_label(line, self.registry.commands),
            req.platform,
            self.guard.run(
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
        return await self.measure.request(
            "button",
            req.platform,
            self.guard.run(
                req,
                "a button",
                lambda ctx: self._handle_button(ctx, button_id),
                None if action is None else action.session_id,
                board_action=action is not None and action.verb in BOARD_VERBS,
                pressed=True,
            ),
        )

    async def hand_buttons(self, req: Request, flat: bool = True) -> Reply | None:
        """The requester's private Cartas Maestras hand (image + one button per playable move),
        or None when they sit at no started table in this chat; a busy database gets the busy
        answer. ``flat=False``: the hand's buttons in steps as ``/hand`` shows them (card and
        place, then rotation), for platforms whose button lists are short (Discord: 25)."""
        listing = self._own_hand_list if flat else self._own_hand_steps
        replies = await self.guard.run(req, "a hand request", listing)
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
        return await self.background.tick()

    async def sweep(self) -> int:
        """End every solo game idle for 24 h as resigned; returns how many were ended."""
        return await self.background.sweep()

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
