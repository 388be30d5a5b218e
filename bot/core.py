"""The bot core: commands, buttons and sessions, the same on every platform.

Adapters turn a platform update into a ``Request`` and call ``handle_text`` (a chat line) or
``handle_button`` (a pressed button id); they turn each returned ``Reply`` into platform calls.
Every text goes through ``bot.i18n`` in the chat's language; every change to a game is stored
before the replies are returned.

>>> import asyncio
>>> from bot.replies import Request
>>> async def demo():
...     core = await Core.create("sqlite:///:memory:")
...     replies = await core.handle_text(Request("console", "c", "you", "you"), "/help")
...     await core.close()
...     return replies[0].key
>>> asyncio.run(demo())
'help.text'

Plain text in a chat is read as a move only when the sender has an active game there and the
text is one short word the game parses as a move (``w3``); any other chatter is ignored (no
reply), so people can talk next to a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import engine
from bot import buttons as button_ids
from bot import daily, hints, i18n, labels, leaderboards, replays, streaks, timers
from bot.commands import (
    ALL_GAMES,
    COMMANDS,
    FACES,
    ITALIAN_FACES,
    MAX_LINE,
    SOLO_GAMES,
    ascii_number,
    game_id_of,
    parse_line,
)
from bot.races import Races
from bot.replies import BoardRef, Button, Reply, Request
from bot.sessions import Session, Sessions, iso
from bot.storage import DEFAULT_DATABASE_URL, LOBBY, Storage, StorageBusy
from bot.tables import Tables
from engine import BadSetup, IllegalMove

log = logging.getLogger("tavolo.core")

Push = Callable[[str, str, Reply], Awaitable[None]]
RenderFn = Callable[..., bytes]

#: a solo game with no move for this long is ended and stored as resigned
IDLE_LIMIT = timedelta(hours=24)
#: how often the background sweep looks for idle games
SWEEP_INTERVAL_SECONDS = 600.0
#: Discord shows at most 25 buttons (5 rows of 5); Telegram takes more, but stays readable
MAX_BUTTONS = 25
PER_ROW = 5
MAX_DEAL = 2**31 - 1
#: a plain-text chat line is tried as a move only when it is one word this short
MAX_PLAIN_MOVE = 16
#: button verbs only tables (and race lobbies) show, and those only solo boards show; ``mv``
#: is on both (a hand's moves), undo and resign refuse tables with their own answer
TABLE_VERBS = frozenset({"join", "leave", "start", "hand"})
SOLO_VERBS = frozenset({"sel", "back", "found"})


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class Ctx:
    """One request being handled: who, where, in which language, at what time."""

    req: Request
    lang: str
    now: datetime

    @property
    def user(self) -> str:
        return self.req.user_id


class Core:
    """The platform-neutral bot. Build it with ``await Core.create(...)``."""

    def __init__(
        self,
        store: Storage,
        default_language: str,
        clock: Callable[[], datetime],
        renderer: RenderFn | None,
    ) -> None:
        self.store = store
        self.sessions = Sessions(store)
        self.default_language = i18n.normalise(default_language)
        self.clock = clock
        self._renderer = renderer
        # Every adapter's push; each gets every out-of-band reply and keeps its platform's
        # (they filter by platform), so Discord and Telegram can run side by side.
        self._pushes: list[Push] = []
        self._sweeper: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self.tables = Tables(self)
        self.races = Races(self)

    @classmethod
    async def create(
        cls,
        database_url: str = DEFAULT_DATABASE_URL,
        default_language: str = "en",
        clock: Callable[[], datetime] | None = None,
        *,
        renderer: RenderFn | None = None,
        sweep_interval: float | None = SWEEP_INTERVAL_SECONDS,
    ) -> Core:
        """Open storage (``bot.storage.StorageError`` if it cannot be used) and start the idle
        sweep. ``renderer`` replaces ``renderer.render`` (tests); ``sweep_interval=None`` runs
        no background sweep (call ``sweep()`` yourself)."""
        store = await Storage.open(database_url, create_parent=database_url == DEFAULT_DATABASE_URL)
        core = cls(store, default_language, clock or _utc_now, renderer)
        if sweep_interval:
            core._sweeper = asyncio.create_task(core._sweep_forever(sweep_interval))
            # Turn timers and race clocks are stored deadlines: this resumes them after a restart.
            core._ticker = asyncio.create_task(timers.tick_forever(core))
        return core

    async def close(self) -> None:
        for task in (self._sweeper, self._ticker):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._sweeper = self._ticker = None
        await self.store.close()

    def set_push(self, push: Push) -> None:
        """Add a place where replies not caused by a request go (idle endings, turn timers,
        race clocks): one per adapter. Each push receives every such reply with its platform
        and keeps only its own platform's; setting the same push twice adds it once."""
        if push not in self._pushes:
            self._pushes.append(push)

    async def push(self, platform: str, chat_id: str, reply: Reply) -> None:
        """Send an out-of-band reply to every adapter's push (a failing one is logged)."""
        for push in list(self._pushes):
            try:
                await push(platform, chat_id, reply)
            except Exception:
                log.exception("push failed")

    async def tick(self) -> int:
        """Act on the turn timers and race clocks that ran out by the core's clock (the
        background task calls this every few seconds; tests call it after moving the clock)."""
        try:
            return await timers.tick(self)
        except StorageBusy as error:
            log.warning("storage busy, timers put off to the next tick: %s", error)
            return 0

    def command_list(self, lang: str) -> list[tuple[str, str]]:
        """(name, one-line description) of every command, for menus."""
        return [(name, i18n.t(lang, f"cmd.{name}")) for name in COMMANDS]

    # ----- entry points -----------------------------------------------------------------------
    async def handle_text(self, req: Request, text: str) -> list[Reply]:
        """Answer one chat line (``/cmd args``, ``/cmd@bot args`` or plain text)."""
        return await self._guarded(req, "a chat line", lambda ctx: self._handle_text(ctx, text))

    async def handle_button(self, req: Request, button_id: str) -> list[Reply]:
        """Answer one button press."""
        return await self._guarded(req, "a button", lambda ctx: self._handle_button(ctx, button_id))

    async def _guarded(self, req: Request, what: str, handle: Callable[[Ctx], Awaitable[list[Reply]]]) -> list[Reply]:
        """The safety net around every request, context building included: a busy database
        (``StorageBusy``: locked beyond the bounded wait, read-only, full, connection lost)
        gets "busy, try again" in the chat's language; any other failure the internal-error
        answer. Either way the process lives on and nothing half-done is kept (storage rolls
        the request's transaction back)."""
        ctx: Ctx | None = None
        try:
            ctx = await self._context(req)
            return await handle(ctx)
        except StorageBusy as error:
            log.warning("storage busy while handling %s: %s", what, error)
            return [self._private(ctx or await self._fallback_context(req), "error.busy")]
        except Exception:
            log.exception("failed to handle %s", what)
            return [self._private(ctx or await self._fallback_context(req), "error.internal")]

    async def _fallback_context(self, req: Request) -> Ctx:
        """A context when the normal one could not be built: the chat's language if storage can
        still read it (a write lock does not stop reads), else the default language."""
        try:
            lang = await self._chat_language(req.platform, req.chat_id)
        except Exception:
            lang = self.default_language
        return Ctx(req, lang, self.clock())

    async def board_posted(self, session_id: str, message_id: str) -> None:
        """The adapter posted a new board message for the session: remember it for edits.
        A busy database only costs the edit-in-place (the next board is posted anew)."""
        try:
            session = await self.sessions.get(session_id)
            if session is None:
                return
            async with self.sessions.lock(session_id):
                session.record.board_message_id = str(message_id)
                await self.sessions.save(session)
        except StorageBusy as error:
            log.warning("storage busy, board message of %s not remembered: %s", session_id, error)

    async def hand_buttons(self, req: Request) -> Reply | None:
        """The requester's private Cartas Maestras hand (image + one button per playable move),
        or None when they sit at no started table in this chat; a busy database gets the busy
        answer."""
        replies = await self._guarded(req, "a hand request", self._own_hand_list)
        return replies[0] if replies else None

    async def _own_hand_list(self, ctx: Ctx) -> list[Reply]:
        reply = await self._own_hand(ctx)
        return [] if reply is None else [reply]

    async def _own_hand(self, ctx: Ctx) -> Reply | None:
        table = await self.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
        if table is None or table.game is None or ctx.user not in table.record.players:
            return None
        return await self._hand_reply(ctx, table)

    async def sweep(self) -> int:
        """End every solo game idle for 24 h as resigned; returns how many were ended. A busy
        database ends this round early (the next sweep takes the rest)."""
        ended = 0
        try:
            ended = await self._sweep(now=self.clock())
        except StorageBusy as error:
            log.warning("storage busy, idle sweep put off: %s", error)
        return ended

    async def _sweep(self, now: datetime) -> int:
        ended = 0
        for record in await self.store.active_solo_sessions():
            if now - datetime.fromisoformat(record.last_active_at) < IDLE_LIMIT:
                continue
            session = await self.sessions.get(record.id)
            if session is None:
                continue
            async with self.sessions.lock(session.id):
                if await self._expire_if_idle(session, now):
                    ended += 1
                    lang = await self._chat_language(record.platform, record.chat_id)
                    name = session.name_of(record.players[0])
                    reply = self._reply(lang, "game.expired_notice", name=name)
                    await self.push(record.platform, record.chat_id, reply)
        return ended

    async def _sweep_forever(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("idle sweep failed")

    # ----- helpers ----------------------------------------------------------------------------
    async def _chat_language(self, platform: str, chat_id: str) -> str:
        stored = await self.store.chat_language(platform, chat_id)
        return stored or self.default_language

    async def _context(self, req: Request) -> Ctx:
        now = self.clock()
        await self.store.touch_player(req.platform, req.user_id, req.user_name, iso(now))
        return Ctx(req, await self._chat_language(req.platform, req.chat_id), now)

    def _reply(self, lang: str, key: str, **params: Any) -> Reply:
        return Reply(key=key, text=i18n.t(lang, key, **params), params=params)

    def _say(self, ctx: Ctx, key: str, **params: Any) -> Reply:
        """A message for everyone in the chat."""
        return self._reply(ctx.lang, key, **params)

    def _private(self, ctx: Ctx, key: str, **params: Any) -> Reply:
        """A refusal or answer only the sender / presser sees."""
        reply = self._reply(ctx.lang, key, **params)
        reply.visibility = "private"
        reply.to_user = ctx.user
        return reply

    def _illegal(self, ctx: Ctx, error: IllegalMove | BadSetup, session: Session | None = None) -> Reply:
        """The engine's refusal in words (cards named for the session's deck and faces)."""
        details: dict[str, Any] = dict(error.details)
        if session is not None:
            details.setdefault("game_id", session.record.game_id)
            details.setdefault("faces", session.record.faces)
            if session.game is not None and "deck" not in details:
                details["deck"] = session.game.view(None).get("deck")
        text = i18n.reason_text(ctx.lang, error.reason, details)
        params = {"reason": error.reason, **{k: v for k, v in error.details.items()}}
        return Reply(
            key=f"illegal.{error.reason}",
            text=text,
            params=params,
            visibility="private",
            to_user=ctx.user,
        )

    def _game_name(self, lang: str, game_id: str) -> str:
        return i18n.t(lang, f"game.{game_id}")

    def _games_list(self, lang: str, games: Sequence[str]) -> str:
        return ", ".join(f"{g} ({self._game_name(lang, g)})" for g in games)

    async def _render(
        self, session: Session, view: dict[str, Any], lang: str, hand: bool = False
    ) -> bytes | None:
        """The board image (or, with ``hand``, the viewer's private hand image), drawn off the
        event loop; None (text-only board) if drawing fails."""
        render = self._renderer
        if render is None:
            import renderer as renderer_module

            render = getattr(renderer_module, "render", None)
            if render is None:
                return None
        style: dict[str, Any] = {"faces": session.record.faces, "lang": lang}
        if hand:
            style["hand"] = True
        if session.is_table:
            view = await self.tables.view_extras(session, view)
        else:
            clock = await self.races.clock(session)
            if clock is not None:
                style["clock"] = clock
        call = functools.partial(render, session.record.game_id, view, **style)
        try:
            return await asyncio.get_running_loop().run_in_executor(None, call)
        except Exception:
            log.exception("rendering %s failed", session.record.game_id)
            return None

    # ----- chat lines -------------------------------------------------------------------------
    async def _handle_text(self, ctx: Ctx, text: str) -> list[Reply]:
        if len(text) > MAX_LINE:
            return [self._private(ctx, "error.too_long", limit=MAX_LINE)]
        line = parse_line(text)
        if line.command is None:
            return await self._plain_text(ctx, line.args)
        handler = getattr(self, f"_cmd_{line.command}", None) if line.command in COMMANDS else None
        if handler is None:
            return [self._private(ctx, "error.unknown_command", command=line.command[:32])]
        return await handler(ctx, line.args)

    async def _plain_text(self, ctx: Ctx, words: list[str]) -> list[Reply]:
        if len(words) != 1 or len(words[0]) > MAX_PLAIN_MOVE:
            return []
        session = await self._game_for_move(ctx)
        if session is None or session.game is None:
            return []
        try:
            session.game.parse_move(words[0])
        except IllegalMove:
            return []  # chatter, not a move
        return await self._move(ctx, session, words[0])

    async def _game_for_move(self, ctx: Ctx) -> Session | None:
        """Which game ``/move`` means: the table when it is the sender's turn there, else the
        sender's solo game, else the table they sit at (which then answers "not your turn")."""
        table = await self.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
        seated = (
            table is not None and table.game is not None and ctx.user in table.record.players
        )
        if seated and table.game.current_player == ctx.user:  # type: ignore[union-attr]
            return table
        solo = await self._solo(ctx)
        if solo is not None:
            return solo
        return table if seated else None

    async def _solo(self, ctx: Ctx) -> Session | None:
        """The sender's active solo game here (ending it first if it idled for 24 h)."""
        session = await self.sessions.solo_of(ctx.req.platform, ctx.req.chat_id, ctx.user)
        if session is None:
            return None
        async with self.sessions.lock(session.id):
            if await self._expire_if_idle(session, ctx.now):
                return None
        return session

    async def _expire_if_idle(self, session: Session, now: datetime) -> bool:
        """Under the session's lock: end an idle solo game; True if it was ended."""
        if not session.is_active or session.is_table or session.game is None:
            return False
        if now - datetime.fromisoformat(session.record.last_active_at) < IDLE_LIMIT:
            return False
        session.record.expired_at = iso(now)
        await self.sessions.resign(session, now, touch=False)
        return True

    async def _no_game(self, ctx: Ctx) -> Reply:
        """The answer when the sender has no game here to act on: that their last game here
        expired, when the idle limit ended it, else that they have none."""
        last = await self.store.last_solo_session(ctx.req.platform, ctx.req.chat_id, ctx.user)
        if last is not None and last.expired_at is not None:
            return self._private(ctx, "game.expired", game=self._game_name(ctx.lang, last.game_id))
        return self._private(ctx, "move.no_game")

    # ----- /play and solo game commands -------------------------------------------------------
    async def _cmd_play(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        if not args:
            return [self._private(ctx, "play.usage", games=self._games_list(ctx.lang, SOLO_GAMES))]
        game_id = game_id_of(args[0])
        if game_id is None:
            return [self._private(ctx, "game.unknown", game=args[0][:32],
                                  games=self._games_list(ctx.lang, SOLO_GAMES))]  # fmt: skip
        if game_id not in SOLO_GAMES:
            return [self._private(ctx, "play.use_challenge", game=self._game_name(ctx.lang, game_id))]
        if game_id not in engine.GAMES:
            return [self._private(ctx, "error.game_unavailable", game=self._game_name(ctx.lang, game_id))]
        faces: str | None = None
        deal: int | None = None
        options: dict[str, str] = {}
        for word in args[1:]:
            lowered = word.lower()
            if lowered in FACES and faces is None:
                faces = lowered
            elif ascii_number(word) is not None and deal is None:
                deal = ascii_number(word)
                assert deal is not None
                if deal > MAX_DEAL:
                    return [self._private(ctx, "play.bad_deal", deal=word[:20], max=MAX_DEAL)]
            elif "=" in word and not word.startswith("="):
                name, _, value = word.partition("=")
                options[name.lower()] = value
            else:
                return [self._private(ctx, "play.bad_argument", arg=word[:32])]
        if faces is not None and game_id != "solitario":
            return [self._private(ctx, "play.faces_solitario_only")]
        existing = await self._solo(ctx)
        if existing is not None:
            return [self._private(ctx, "play.already_playing",
                                  game=self._game_name(ctx.lang, existing.record.game_id))]  # fmt: skip
        if faces is None:
            faces = "napoletane" if game_id == "solitario" else "francesi"
        if deal is None:
            # Only the deal *number* is picked here; the shuffle itself is engine.rng's.
            deal = secrets.randbelow(1_000_000)
        else:
            refusal = await daily.play_refusal(self, ctx, game_id, deal, options)
            if refusal is not None:
                return [refusal]
        try:
            session = await self.sessions.new_solo(
                ctx.req.platform, ctx.req.chat_id, ctx.user, ctx.req.user_name,
                game_id, options, deal, faces, iso(ctx.now),
            )  # fmt: skip
        except BadSetup as error:
            return [self._illegal(ctx, error)]
        if faces in ITALIAN_FACES and session.game is not None:
            # Solitario with cards=52 is a French deck: Italian faces cannot draw it.
            deck = session.game.view(None).get("deck")
            if deck == "french52":
                session.record.faces = "francesi"
                await self.sessions.save(session)
        started = self._say(ctx, "play.started", name=ctx.req.user_name,
                            game=self._game_name(ctx.lang, game_id), deal=deal)  # fmt: skip
        replies = [started, await self._board(ctx, session, fresh=True)]
        if session.game is not None and session.game.is_over:
            # Some deals are dead from the start: say how it ended, as after a last move.
            replies.append(self._end_message(ctx, session))
        return replies

    async def _cmd_move(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        if not args:
            return [self._private(ctx, "move.usage")]
        session = await self._game_for_move(ctx)
        if session is None:
            return [await self._no_game(ctx)]
        return await self._move(ctx, session, " ".join(args))

    async def _cmd_undo(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        session = await self._solo(ctx)
        if session is None:
            return [await self._no_game(ctx)]
        return await self._undo(ctx, session, None)

    async def _cmd_hint(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        return await hints.command(self, ctx, args)

    async def _cmd_resign(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        session = await self._solo(ctx)
        if session is None:
            table = await self.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
            if table is not None and ctx.user in table.record.players:
                return [self._private(ctx, "resign.table")]
            return [await self._no_game(ctx)]
        return await self._resign(ctx, session, None)

    async def _cmd_board(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        session = await self._solo(ctx)
        if session is None:
            session = await self.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
        if session is None:
            return [await self._no_game(ctx)]
        async with self.sessions.lock(session.id):
            return [await self._board(ctx, session, fresh=True)]

    # ----- moves, undo, resign (shared by commands and buttons) -------------------------------
    def _refusal(self, ctx: Ctx, session: Session, revision: int | None, need_turn: bool) -> Reply | None:
        """Why the sender may not act on the session now (None: they may)."""
        rec = session.record
        if ctx.user not in rec.players:
            return self._private(ctx, "game.not_your_game")
        if not session.is_active or session.game is None:
            if rec.expired_at is not None:
                return self._private(ctx, "game.expired", game=self._game_name(ctx.lang, rec.game_id))
            return self._private(ctx, "game.not_active")
        if revision is not None and revision != rec.revision:
            return self._private(ctx, "button.stale")
        if need_turn and session.game.current_player != ctx.user:
            name = session.name_of(session.game.current_player)
            return self._private(ctx, "game.not_your_turn", player=name)
        return None

    async def _move(self, ctx: Ctx, session: Session, text: str, revision: int | None = None) -> list[Reply]:
        async with self.sessions.lock(session.id):
            refusal = self._refusal(ctx, session, revision, need_turn=True)
            if refusal is not None:
                return [refusal]
            game = session.game
            assert game is not None
            index = ascii_number(text[1:]) if text.startswith("#") else None
            if index is not None:
                legal = game.legal_moves(ctx.user)
                if index >= len(legal):
                    return [self._private(ctx, "button.stale")]
                text = str(legal[index])
            try:
                await self.sessions.play(session, text, ctx.user, ctx.now)
            except IllegalMove as error:
                return [self._illegal(ctx, error, session)]
            return await self._after_change(ctx, session)

    async def _after_change(self, ctx: Ctx, session: Session) -> list[Reply]:
        """The replies after a move: the board, then the end or whose turn it is."""
        game = session.game
        assert game is not None
        # Tables: computer and departed seats play now, the turn clock restarts.
        replies = await self.tables.after_change(ctx, session) if session.is_table else []
        replies.append(await self._board(ctx, session))
        if game.is_over:
            replies.append(self._end_message(ctx, session))
            if not session.is_table:
                replies += await self.races.after_move(ctx, session)
                replies += await daily.game_ended(self, ctx, session.id)
            self.sessions.forget_finished(session)
        elif session.is_table:
            replies.append(self._turn_announcement(ctx.lang, session))
        return replies

    def _end_message(self, ctx: Ctx, session: Session) -> Reply:
        game = session.game
        assert game is not None
        outcome = str(game.outcome)
        name = self._game_name(ctx.lang, session.record.game_id)
        if session.is_table:
            results = game.view(None).get("results") or []
            winners = [session.name_of(str(r["player"])) for r in results if r.get("place") == 1]
            return self._say(ctx, "table.over", game=name, winners=", ".join(winners) or "-")
        return self._say(ctx, f"outcome.{outcome}", game=name, score=game.score,
                         moves=game.move_number, name=session.name_of(session.record.players[0]))  # fmt: skip

    def _turn_announcement(self, lang: str, session: Session) -> Reply:
        game = session.game
        assert game is not None
        player = game.current_player
        reply = self._reply(lang, "table.turn", player=session.name_of(player))
        reply.mentions = [player]
        return reply

    async def _undo(self, ctx: Ctx, session: Session, revision: int | None) -> list[Reply]:
        async with self.sessions.lock(session.id):
            refusal = self._refusal(ctx, session, revision, need_turn=False)
            if refusal is not None:
                return [refusal]
            if session.is_table or session.record.ranked or await self.races.forbids_undo(session):
                return [self._private(ctx, "undo.not_allowed")]
            try:
                await self.sessions.undo(session, iso(ctx.now))
            except IllegalMove as error:
                return [self._illegal(ctx, error)]
            return [await self._board(ctx, session)]

    async def _resign(self, ctx: Ctx, session: Session, revision: int | None) -> list[Reply]:
        async with self.sessions.lock(session.id):
            refusal = self._refusal(ctx, session, revision, need_turn=False)
            if refusal is not None:
                return [refusal]
            if session.is_table:
                return [self._private(ctx, "resign.table")]
            await self.sessions.resign(session, ctx.now)
            board = await self._board(ctx, session)
            return [board, self._end_message(ctx, session), *await daily.game_ended(self, ctx, session.id)]

    # ----- boards and buttons -----------------------------------------------------------------
    async def _board(self, ctx: Ctx, session: Session, fresh: bool = False, selected: str | None = None) -> Reply:
        """The session's board: image, caption and buttons. ``fresh``: post a new message
        instead of editing the stored one; ``selected``: the source picked by a first tap."""
        rec = session.record
        ref = BoardRef(rec.id, None if fresh else rec.board_message_id)
        name = self._game_name(ctx.lang, rec.game_id)
        if session.game is None:  # a lobby
            seated = ", ".join(session.name_of(p) for p in rec.players)
            reply = self._say(ctx, "table.lobby", game=name, players=seated,
                              count=len(rec.players), creator=session.name_of(rec.creator))  # fmt: skip
            reply.buttons = self._lobby_buttons(ctx.lang, session)
            reply.board = ref
            return reply
        game = session.game
        view = game.view(None)
        if session.is_table:
            key = "board.caption_over" if game.is_over else "table.caption"
            params: dict[str, Any] = {"game": name, "move": game.move_number, "stock": view.get("stock", 0)}
            params["player"] = "" if game.is_over else session.name_of(game.current_player)
        else:
            key = "board.caption_over" if game.is_over else "board.caption"
            params = {"game": name, "deal": rec.deal, "move": game.move_number, "score": game.score}
        reply = self._say(ctx, key, **params)
        reply.image = await self._render(session, view, ctx.lang)
        reply.image_name = f"{rec.game_id}-{rec.id}-{game.move_number}.png"
        reply.board = ref
        if session.is_active and not game.is_over:
            if session.is_table:
                reply.buttons = [Button(button_ids.encode("hand", rec.id, rec.revision),
                                        i18n.t(ctx.lang, "button.hand"), 0, "primary")]  # fmt: skip
            else:
                reply.buttons = self._solo_buttons(ctx.lang, session, view, selected)
        return reply

    def _lobby_buttons(self, lang: str, session: Session) -> list[Button]:
        rid, rev = session.id, session.record.revision
        return [
            Button(button_ids.encode("join", rid, rev), i18n.t(lang, "button.join"), 0, "primary"),
            Button(button_ids.encode("leave", rid, rev), i18n.t(lang, "button.leave"), 0),
            Button(button_ids.encode("start", rid, rev), i18n.t(lang, "button.start"), 0, "success"),
        ]

    def _move_button_id(self, session: Session, legal: list[Any], move: Any) -> str:
        rec = session.record
        try:
            return button_ids.encode("mv", rec.id, rec.revision, str(move))
        except button_ids.ButtonIdTooLong:
            # Long notation: the index into legal_moves() (same revision = same position).
            return button_ids.encode("mv", rec.id, rec.revision, f"#{legal.index(move)}")

    def _pile_ids(self, view: dict[str, Any], kind: str) -> set[str]:
        """The ids of the view's piles of one kind (``foundation``, ``stock``)."""
        return {p["id"] for p in view.get("piles") or [] if p.get("kind") == kind}

    def _solo_buttons(self, lang: str, session: Session, view: dict[str, Any], selected: str | None) -> list[Button]:
        """Select-then-target buttons: first a source (``move.src``), then its targets
        (``move.dst``); moves without a target (turning the stock) and "to foundation" are one
        tap; undo and resign close the list."""
        game = session.game
        assert game is not None
        rec = session.record
        legal = game.legal_moves()
        foundations = self._pile_ids(view, "foundation")
        faces = rec.faces
        found: list[Button] = []
        if selected is None:
            sources: list[str] = []
            stock = self._pile_ids(view, "stock")
            for move in legal:
                src = getattr(move, "src", None)
                dst = getattr(move, "dst", None)
                if dst is None:
                    label = i18n.t(lang, "button.draw") if src in stock else str(move)
                    found.append(Button(self._move_button_id(session, legal, move), label, 0, "primary"))
                elif src is not None and src not in sources:
                    sources.append(str(src))
            if any(getattr(m, "dst", None) in foundations for m in legal):
                found.append(Button(button_ids.encode("found", rec.id, rec.revision, "*"),
                                    i18n.t(lang, "button.to_foundation"), 0, "success"))  # fmt: skip
            for src in sources:
                found.append(Button(button_ids.encode("sel", rec.id, rec.revision, src),
                                    labels.source_label(lang, view, faces, src)))  # fmt: skip
        else:
            targets = [m for m in legal if str(getattr(m, "src", None)) == selected and getattr(m, "dst", None) is not None]
            per_dst: dict[str, list[Any]] = {}
            for move in targets:
                per_dst.setdefault(str(move.dst), []).append(move)
            for dst, moves in per_dst.items():
                for move in moves:
                    label = labels.target_label(lang, view, faces, dst) if len(moves) == 1 else str(move)
                    found.append(Button(self._move_button_id(session, legal, move),
                                        i18n.t(lang, "button.target", target=label), 0, "primary"))  # fmt: skip
            found.append(Button(button_ids.encode("back", rec.id, rec.revision), i18n.t(lang, "button.cancel"), 0))
        tail = []
        if game.moves and not rec.ranked:
            tail.append(Button(button_ids.encode("undo", rec.id, rec.revision), i18n.t(lang, "button.undo"), 0))
        tail.append(Button(button_ids.encode("resign", rec.id, rec.revision), i18n.t(lang, "button.resign"), 0, "danger"))
        found = found[: MAX_BUTTONS - len(tail)] + tail
        return [Button(b.id, b.label, i // PER_ROW, b.style) for i, b in enumerate(found)]

    async def _handle_button(self, ctx: Ctx, button_id: str) -> list[Reply]:
        action = button_ids.decode(button_id)
        if action is None:
            return [self._private(ctx, "button.unknown")]
        session = await self.sessions.get(action.session_id)
        rec = session.record if session is not None else None
        if session is None or rec is None or (rec.platform, rec.chat_id) != (ctx.req.platform, ctx.req.chat_id):
            return [self._private(ctx, "button.unknown")]
        if not session.is_table:
            # A press on a board left for 24 h ends that game first, as a command would.
            async with self.sessions.lock(session.id):
                await self._expire_if_idle(session, ctx.now)
        verb = action.verb
        # Every verb is checked against the kind of session it names before anything changes:
        # a forged id (a lobby verb on a solo game, a solo verb on a table) is refused whole.
        wrong_kind = session.is_table if verb in SOLO_VERBS else verb in TABLE_VERBS and not session.is_table
        if action.revision > rec.revision or wrong_kind:
            return [self._private(ctx, "button.stale")]
        if verb in ("join", "leave", "start"):
            # Lobby buttons only exist while the lobby does; join/leave from an older copy of
            # the lobby message mean the same thing, start must see the roster it was shown.
            if rec.status != LOBBY or (verb == "start" and action.revision != rec.revision):
                return [self._private(ctx, "button.stale")]
            return await getattr(self, f"_table_{verb}")(ctx, session)
        if verb == "hand":
            if ctx.user not in rec.players:
                return [self._private(ctx, "game.not_your_game")]
            if session.game is None or not session.is_active:
                return [self._private(ctx, "game.not_active")]
            return [await self._hand_reply(ctx, session)]
        if verb == "mv":
            return await self._move(ctx, session, action.arg, action.revision)
        if verb == "undo":
            return await self._undo(ctx, session, action.revision)
        if verb == "resign":
            return await self._resign(ctx, session, action.revision)
        # sel / back / found: they need the current position
        async with self.sessions.lock(session.id):
            refusal = self._refusal(ctx, session, action.revision, need_turn=True)
            if refusal is not None:
                return [refusal]
            game = session.game
            assert game is not None
            if verb == "back":
                return [await self._board(ctx, session)]
            if verb == "sel":
                if not any(str(getattr(m, "src", None)) == action.arg for m in game.legal_moves()):
                    return [self._private(ctx, "button.stale")]
                return [await self._board(ctx, session, selected=action.arg)]
            foundations = self._pile_ids(game.view(None), "foundation")
            to_found = [m for m in game.legal_moves() if getattr(m, "dst", None) in foundations]
            if action.arg != "*":
                to_found = [m for m in to_found if str(getattr(m, "src", None)) == action.arg]
            if not to_found:
                return [self._private(ctx, "found.none")]
            text = str(to_found[0])
        return await self._move(ctx, session, text, action.revision)

    # ----- Cartas Maestras tables ---------------------------------------------------------------
    async def _cmd_challenge(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        return await self.tables.challenge(ctx, args)

    async def _lobby(self, ctx: Ctx) -> tuple[Session | None, Reply | None]:
        table = await self.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
        if table is None:
            return None, self._private(ctx, "table.none")
        return table, None

    async def _cmd_join(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._lobby(ctx)
        return [refusal] if table is None else await self._table_join(ctx, table)  # type: ignore[list-item]

    async def _cmd_leave(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._lobby(ctx)
        return [refusal] if table is None else await self._table_leave(ctx, table)  # type: ignore[list-item]

    async def _cmd_start(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._lobby(ctx)
        return [refusal] if table is None else await self._table_start(ctx, table)  # type: ignore[list-item]

    async def _cmd_addbot(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._lobby(ctx)
        if table is None or self.races.is_race_lobby(table):
            return [refusal or self._private(ctx, "table.none")]
        return await self.tables.add_computer(ctx, table)

    # The lobby buttons (join / leave / start) land here too, for tables and races alike.
    async def _table_join(self, ctx: Ctx, table: Session) -> list[Reply]:
        if self.races.is_race_lobby(table):
            return await self.races.join(ctx, table)
        return await self.tables.join(ctx, table)

    async def _table_leave(self, ctx: Ctx, table: Session) -> list[Reply]:
        return await self.tables.leave(ctx, table)

    async def _table_start(self, ctx: Ctx, table: Session) -> list[Reply]:
        if self.races.is_race_lobby(table):
            return await self.races.start(ctx, table)
        return await self.tables.start(ctx, table)

    async def _cmd_hand(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        reply = await self._own_hand(ctx)
        return [reply if reply is not None else self._private(ctx, "hand.no_table")]

    async def _hand_reply(self, ctx: Ctx, table: Session) -> Reply:
        """The player's own hand, privately: image of their view and one button per legal move
        (when it is their turn)."""
        async with self.sessions.lock(table.id):
            game = table.game
            assert game is not None
            rec = table.record
            view = game.view(ctx.user)
            my_turn = game.current_player == ctx.user and not game.is_over
            reply = self._private(ctx, "hand.yours" if my_turn else "hand.wait",
                                  player=table.name_of(game.current_player))  # fmt: skip
            reply.image = await self._render(table, view, ctx.lang, hand=True)
            reply.image_name = f"hand-{rec.id}-{game.move_number}.png"
            if my_turn:
                legal = game.legal_moves(ctx.user)
                shown = legal[:MAX_BUTTONS]
                reply.buttons = [
                    Button(self._move_button_id(table, legal, m), labels.hand_move_label(ctx.lang, m), i // PER_ROW,
                           "primary")
                    for i, m in enumerate(shown)
                ]  # fmt: skip
                if len(legal) > len(shown):
                    reply.params["more"] = len(legal) - len(shown)
            return reply

    async def _cmd_end(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        race = await self.races.lobby_of_chat(ctx.req.platform, ctx.req.chat_id)
        if race is not None:
            return await self.races.end(ctx, race)
        table, refusal = await self._lobby(ctx)
        if table is None:
            return [refusal]  # type: ignore[list-item]
        return await self.tables.end(ctx, table)

    async def _cmd_kick(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._lobby(ctx)
        if table is None:
            return [refusal]  # type: ignore[list-item]
        return await self.tables.kick(ctx, table, args)

    # ----- information commands ---------------------------------------------------------------
    async def _cmd_rules(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        if not args:
            return [self._private(ctx, "rules.usage", games=self._games_list(ctx.lang, ALL_GAMES))]
        game_id = game_id_of(args[0])
        if game_id is None:
            return [self._private(ctx, "game.unknown", game=args[0][:32],
                                  games=self._games_list(ctx.lang, ALL_GAMES))]  # fmt: skip
        return [Reply(key="rules.text", text=i18n.rules_text(ctx.lang, game_id), params={"game": game_id})]

    async def _cmd_help(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        game_id = None
        if args:
            game_id = game_id_of(args[0])
            if game_id is None:
                return [self._private(ctx, "game.unknown", game=args[0][:32],
                                      games=self._games_list(ctx.lang, ALL_GAMES))]  # fmt: skip
        return [Reply(key="help.text", text=i18n.help_text(ctx.lang, game_id), params={"game": game_id})]

    async def _cmd_lang(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        choices = ", ".join(i18n.LANGUAGES)
        if len(args) != 1:
            return [self._private(ctx, "lang.usage", languages=choices)]
        code = args[0].lower()
        if code not in i18n.LANGUAGES:
            return [self._private(ctx, "lang.unknown", code=args[0][:16], languages=choices)]
        if ctx.req.is_group and not ctx.req.is_admin:
            return [self._private(ctx, "lang.admins_only")]
        await self.store.set_chat_language(ctx.req.platform, ctx.req.chat_id, code)
        return [self._reply(code, "lang.set", language=i18n.language_name(code, code))]

    async def _cmd_daily(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        return await daily.command(self, ctx, args)

    async def _cmd_race(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        return await self.races.open(ctx, args)

    async def _cmd_replay(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        return await replays.command(self, ctx, args)

    async def _cmd_stats(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        return await streaks.command(self, ctx, args)

    async def _cmd_leaderboard(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        return await leaderboards.command(self, ctx, args)
