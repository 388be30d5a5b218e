"""The core's public service: everything a feature may ask of the core.

Features receive one :class:`Service` (their code calls it ``core``) and use only what is
here: storage and sessions, the clock, words (``say``, ``private``, ``illegal``,
``game_name``, ``label``, ``about``), boards (``board``, ``hand``), the session lifecycle
(``solo``, ``game_for_move``, ``no_game``, ``after_change``, ``end_message``,
``turn_announcement``), which game a player means (``open_games``, ``focused``, ``focus_on``,
``move_targets``: see ``bot.core.focus``), questions before what cannot be undone
(``ask_confirmation``) and ``push`` for replies nobody asked for (timers). Nothing outside
``bot.core`` reaches a private name of the core.

>>> from datetime import UTC, datetime
>>> from bot.replies import Request
>>> ctx = Ctx(Request("console", "c", "ana", "Ana"), "it", datetime(2025, 1, 1, tzinfo=UTC))
>>> Service.private(ctx, "move.no_game").visibility
'private'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot import i18n
from bot.core import buttons as button_ids
from bot.core import focus as focus_words
from bot.core import messages
from bot.core.commands import MoveText
from bot.core.context import Ctx
from bot.core.focus import CASUAL, DAILY, TABLE, OpenGame
from bot.core.presentation import Presenter
from bot.core.registry import Registry
from bot.core.session import Session, iso, new_session_id, solos_among, tables_among
from bot.core.sessions import Sessions
from bot.replies import Button, Reply
from bot.storage import Confirmation, Storage, StorageBusy
from engine import BadSetup, IllegalMove

log = logging.getLogger("tavolo.core")

Push = Callable[[str, str, Reply], Awaitable[None]]

#: a solo game with no move for this long is ended and stored as resigned
IDLE_LIMIT = timedelta(hours=24)
#: a Yes/No question before something that cannot be taken back is No after this long
CONFIRM_SECONDS = 60


def reads_as_move(session: Session, text: str) -> bool:
    """Whether the session's game reads ``text`` as a move, legal here or not: an error other
    than ``bad_notation`` (an empty source pile, say) means it parsed as one."""
    game = session.game
    if game is None:
        return False
    if text.startswith("#"):  # a move by its index in the legal list: any game reads it
        return True
    try:
        game.parse_move(text)
    except IllegalMove as error:
        return error.reason != "bad_notation"
    return True


#: at most this long a follow-up waits for the chat's requests to be answered (seconds)
FOLLOW_UP_WAIT = 30.0
#: after the last answer is returned, the time its adapter gets to send it (seconds)
DELIVERY_GRACE = 0.2


class Service:
    """What features may use of the core (see module doc)."""

    def __init__(
        self,
        store: Storage,
        default_language: str,
        clock: Callable[[], datetime],
        registry: Registry,
        presenter: Presenter,
    ) -> None:
        self.store = store
        self.sessions = Sessions(store)
        self.default_language = i18n.normalise(default_language)
        self.clock = clock
        self.registry = registry
        self.presenter = presenter
        # Every adapter's push; each gets every out-of-band reply and keeps its platform's
        # (they filter by platform), so Discord and Telegram can run side by side.
        self.pushes: list[Push] = []
        #: the web page's public address for links in replies (``WEB_BASE_URL``, or the local
        #: ``HTTP_PORT`` server); None: the web page is off and replies carry no link
        self.web_base_url: str | None = None
        #: requests being answered per chat, and a wake-up for follow-ups waiting on them
        self._answering: dict[tuple[str, str], int] = {}
        self._answered = asyncio.Condition()

    # ----- follow-ups after the answer they follow ------------------------------------------
    async def answering(self, platform: str, chat_id: str, delta: int) -> None:
        """Count a request of the chat in (``delta`` 1) or out (-1): the dispatcher's part."""
        key = (platform, chat_id)
        async with self._answered:
            self._answering[key] = self._answering.get(key, 0) + delta
            if self._answering[key] <= 0:
                del self._answering[key]
                self._answered.notify_all()

    async def after_answers(self, platform: str, chat_id: str) -> None:
        """Wait until no request of the chat is being answered, and a moment more for the
        adapter to deliver the last answer: a follow-up (the "could it have been won?"
        verdict) must never reach the chat before the game-over reply it follows. Never call
        it from inside a request of that chat (it would wait for itself); bounded anyway."""
        key = (platform, chat_id)
        deadline = asyncio.get_running_loop().time() + FOLLOW_UP_WAIT
        while asyncio.get_running_loop().time() < deadline:
            async with self._answered:
                if key in self._answering:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._answered.wait(), FOLLOW_UP_WAIT)
                    continue
            await asyncio.sleep(DELIVERY_GRACE)  # the adapter sends what was returned
            if key not in self._answering:
                return

    # ----- words ----------------------------------------------------------------------------
    reply = staticmethod(messages.reply)
    private = staticmethod(messages.private)
    refuse = staticmethod(messages.refuse)
    game_name = staticmethod(messages.game_name)

    @staticmethod
    def say(ctx: Ctx, key: str, **params: Any) -> Reply:
        """A message for everyone in the chat."""
        return messages.reply(ctx.lang, key, **params)

    @staticmethod
    def games_list(lang: str, games: Sequence[str]) -> str:
        """``solitario (Solitario), canfield (Canfield)``: ids players type, names they read."""
        return ", ".join(f"{g} ({messages.game_name(lang, g)})" for g in games)

    @staticmethod
    def illegal(ctx: Ctx, error: IllegalMove | BadSetup, session: Session | None = None) -> Reply:
        """The engine's refusal in words (cards named for the session's deck and faces)."""
        details: dict[str, Any] = dict(error.details)
        if session is not None:
            details.setdefault("game_id", session.record.game_id)
            details.setdefault("faces", session.record.faces)
            if session.game is not None and "deck" not in details:
                details["deck"] = session.game.view(None).get("deck")
        text = i18n.reason_text(ctx.lang, error.reason, details)
        params = {"reason": error.reason, **dict(error.details)}
        return Reply(
            key=f"illegal.{error.reason}",
            text=text,
            params=params,
            visibility="private",
            to_user=ctx.user,
            refusal=True,
        )

    async def chat_language(self, platform: str, chat_id: str) -> str:
        stored = await self.store.players.chat_language(platform, chat_id)
        return stored or self.default_language

    async def push(self, platform: str, chat_id: str, reply: Reply) -> None:
        """Send an out-of-band reply to every adapter's push (a failing one is logged)."""
        button_ids.describe([reply])
        for push in list(self.pushes):
            try:
                await push(platform, chat_id, reply)
            except Exception:
                log.exception("push failed")

    # ----- boards -----------------------------------------------------------------------------
    async def board(
        self,
        ctx: Ctx,
        session: Session,
        fresh: bool = False,
        selected: str | None = None,
        full: bool = False,
    ) -> Reply:
        """The session's board reply (see ``Presenter.board``)."""
        return await self.presenter.board(ctx, session, fresh, selected, full)

    async def hand(
        self, ctx: Ctx, table: Session, placing: str | None = None, flat: bool = False
    ) -> Reply:
        """The player's private hand at a started table (takes the table's lock); ``placing``
        (``2N``): the rotations of that card on that path (see ``Presenter.hand``)."""
        async with self.sessions.lock(table.id):
            answer = await self.presenter.hand(ctx, table, placing, flat)
        await self.focus_on(ctx, table)  # their hand: the table is the game they mean now
        return answer

    async def own_hand(self, ctx: Ctx, flat: bool = False) -> Reply | None:
        """The sender's hand at the started table of this chat, or None when they sit at none
        (``flat``: one button per legal move, see ``Presenter.hand``)."""
        chat = await self.sessions.in_chat(ctx.req.platform, ctx.req.chat_id)
        for table in tables_among(chat):  # a race's lobby beside it holds no game
            if table.game is not None and ctx.user in table.record.players:
                return await self.hand(ctx, table, flat=flat)
        return None

    end_message = staticmethod(messages.end_message)
    turn_announcement = staticmethod(messages.turn_announcement)

    # ----- the session lifecycle -----------------------------------------------------------
    async def solos(self, ctx: Ctx, chat: list[Session] | None = None) -> list[Session]:
        """The sender's active solo games here, the most recently touched first (those idle
        for 24 h are ended first and left out). ``chat``: the chat's open sessions, when the
        caller has just read them (one read of the chat per request)."""
        if chat is None:
            chat = await self.in_chat(ctx)
        found = []
        for session in solos_among(chat, ctx.user):
            async with self.sessions.lock(session.id):
                if await self.expire_if_idle(session, ctx.now):
                    continue
            found.append(session)
        return found

    async def solo(self, ctx: Ctx, game_id: str | None = None) -> Session | None:
        """The sender's most recently touched active solo game here (of ``game_id`` if given)."""
        for session in await self.solos(ctx):
            if game_id is None or session.record.game_id == game_id:
                return session
        return None

    async def in_chat(self, ctx: Ctx) -> list[Session]:
        """The chat's open sessions (the first time in a request, as read when it began)."""
        return await self.sessions.in_chat(ctx.req.platform, ctx.req.chat_id, ctx.take_chat_read())

    async def open_games(self, ctx: Ctx, lobby: bool = False) -> list[OpenGame]:
        """The sender's open games here (see ``bot.core.focus``): their solo games, the most
        recently touched first, then the chat's table when they play at it (``lobby``: also
        a table or race still in its lobby)."""
        games: list[OpenGame] = []
        chat = await self.in_chat(ctx)
        for session in await self.solos(ctx, chat):
            kind = await self._kind(ctx, session, DAILY if session.record.ranked else CASUAL)
            if kind:
                games.append(OpenGame(session, kind))
        for table in tables_among(chat):  # a table, and a race's lobby beside it
            seated = ctx.user in table.record.players
            if seated and (table.game is not None or lobby):
                kind = await self._kind(ctx, table, TABLE)
                if kind:
                    games.append(OpenGame(table, kind))
        return games

    async def _kind(self, ctx: Ctx, session: Session, default: str) -> str:
        for hook in self.registry.game_kind:
            said = await hook(ctx, session, ctx.user)
            if said is not None:
                return said
        return default

    async def open_game(self, ctx: Ctx, session: Session) -> OpenGame:
        """``session`` as one of the sender's games (its kind in words)."""
        default = TABLE if session.is_table else DAILY if session.record.ranked else CASUAL
        return OpenGame(session, await self._kind(ctx, session, default) or default)

    async def label(self, ctx: Ctx, session: Session) -> str:
        """The session's game in words for the sender: "Daily Canfield", "Cartas Maestras
        table"."""
        return focus_words.label(ctx.lang, await self.open_game(ctx, session))

    async def the_label(self, ctx: Ctx, session: Session) -> str:
        """The session's game in words with its article, mid-sentence: "the Cartas Maestras
        table", "la mesa de Cartas Maestras", "il tuo Solitario"."""
        return focus_words.the_label(ctx.lang, await self.open_game(ctx, session))

    async def focus_on(self, ctx: Ctx, session: Session) -> None:
        """The sender was shown this game's board, or played on it: it is now their game in
        focus here. A busy database costs only the focus (the move or board stands)."""
        if not ctx.user or ctx.user not in session.record.players:
            return
        if ctx.focus_read and ctx.focus_read[0] == session.id:
            return  # read in this request already: a write would change nothing
        try:
            await self.store.focus.set(
                ctx.req.platform, ctx.req.chat_id, ctx.user, session.id, iso(ctx.now)
            )
            ctx.focus_read = (session.id,)
        except StorageBusy as error:
            log.warning("storage busy, focus of a player not stored: %s", error)

    async def focus_players(self, ctx: Ctx, session: Session, players: Sequence[str]) -> None:
        """A new game was dealt to ``players`` (a table started, a race round): it is each
        one's game in focus here."""
        for player in players:
            try:
                await self.store.focus.set(
                    ctx.req.platform, ctx.req.chat_id, player, session.id, iso(ctx.now)
                )
                if player == ctx.user:
                    ctx.focus_read = (session.id,)
            except StorageBusy as error:
                log.warning("storage busy, focus of a player not stored: %s", error)

    async def focused(self, ctx: Ctx, games: Sequence[OpenGame]) -> OpenGame | None:
        """The one of ``games`` in the sender's focus here, if any (as this request last read
        or wrote it: the focus is read with the language when a request begins)."""
        if ctx.focus_read is None:
            wanted = await self.store.focus.get(ctx.req.platform, ctx.req.chat_id, ctx.user)
            ctx.focus_read = (wanted,)
        wanted = ctx.focus_read[0]
        return next((g for g in games if g.session.id == wanted), None)

    async def game_for_move(self, ctx: Ctx, game_id: str | None = None) -> Session | None:
        """Which game a move, a hint or a board means (of ``game_id`` if given): the game in
        focus; without one, the table when it is the sender's turn there, else the most
        recently touched solo game, else the table they sit at (which then answers "not your
        turn"). For a typed move see ``move_targets``: the games that read it."""
        games = [g for g in await self.open_games(ctx) if g.session.game is not None]
        if game_id is not None:
            games = [g for g in games if g.game_id == game_id]
        if not games:
            return None
        chosen = await self.focused(ctx, games) or self.default_game(ctx, games)
        return chosen.session

    async def move_targets(
        self, ctx: Ctx, move: MoveText, games: Sequence[OpenGame] | None = None
    ) -> list[OpenGame]:
        """The games a typed move may mean: only the game in focus when it reads ``move``;
        else every other open game that does (the table on the sender's turn first, then the
        solo games, most recently touched first). Several: the caller asks."""
        if games is None:
            games = [g for g in await self.open_games(ctx) if g.session.game is not None]
        focus = await self.focused(ctx, games)
        if focus is not None and reads_as_move(focus.session, self._notation(focus, move)):
            return [focus]
        readers = [g for g in games if reads_as_move(g.session, self._notation(g, move))]
        readers.sort(key=lambda g: not self._my_turn_at_table(ctx, g))
        return readers

    @staticmethod
    def _notation(game: OpenGame, move: MoveText) -> str:
        """``move`` as the game reads it: a table's move words in the chat's language."""
        return move.notation(game.session.is_table)

    @staticmethod
    def _my_turn_at_table(ctx: Ctx, game: OpenGame) -> bool:
        played = game.session.game
        return game.session.is_table and played is not None and played.current_player == ctx.user

    def default_game(self, ctx: Ctx, games: Sequence[OpenGame]) -> OpenGame:
        """With nothing in focus: the table on the sender's turn, else the most recent solo
        game, else the table."""
        for game in games:
            if self._my_turn_at_table(ctx, game):
                return game
        return next((g for g in games if not g.session.is_table), games[0])

    async def about(self, ctx: Ctx, session: Session, answer: Reply) -> Reply:
        """``answer`` about ``session``, its text led by the game's name ("Daily Canfield: ...")
        when the sender has more than one game open here (alone, the game goes without saying)."""
        if len(await self.open_games(ctx)) > 1:
            answer.text = i18n.t(
                ctx.lang, "move.in_game", game=await self.label(ctx, session), text=answer.text
            )
        return answer

    async def ask_confirmation(self, ctx: Ctx, session: Session, action: str) -> Reply:
        """Ask the sender Yes or No before ``action`` (``resign``, ``leave``) on ``session``;
        the question is stored (any process may get the answer) and is No after
        ``CONFIRM_SECONDS``. Nothing changes until Yes."""
        question = new_session_id()
        expires = ctx.now.timestamp() + CONFIRM_SECONDS
        await self.store.focus.ask(
            Confirmation(
                question, ctx.req.platform, ctx.req.chat_id, ctx.user, session.id, action, expires
            )
        )
        answer = self.say(
            ctx,
            f"confirm.{action}",
            name=ctx.req.user_name,
            game=await self.the_label(ctx, session),
            seconds=CONFIRM_SECONDS,
        )
        rid, rev = session.id, session.record.revision
        answer.buttons = [
            Button(
                button_ids.encode("yes", rid, rev, question),
                i18n.t(ctx.lang, "button.yes"),
                0,
                "danger",
            ),
            Button(button_ids.encode("no", rid, rev, question), i18n.t(ctx.lang, "button.no"), 0),
        ]
        answer.params["question"] = question
        return answer

    async def expire_if_idle(self, session: Session, now: datetime) -> bool:
        """Under the session's lock: end an idle solo game; True if it was ended."""
        if not session.is_active or session.is_table or session.game is None:
            return False
        if now - datetime.fromisoformat(session.record.last_active_at) < IDLE_LIMIT:
            return False
        session.record.expired_at = iso(now)
        await self.sessions.resign(session, now, touch=False)
        return True

    async def no_game(self, ctx: Ctx, game_id: str | None = None) -> Reply:
        """The answer when the sender has no game here to act on: that their last game here
        expired, when the idle limit ended it, else that they have none (of ``game_id``, when
        the command named one)."""
        if game_id is not None:
            return self.private(
                ctx, "move.no_game_named", game=self.game_name(ctx.lang, game_id), word=game_id
            )
        last = await self.store.sessions.last_solo(ctx.req.platform, ctx.req.chat_id, ctx.user)
        if last is not None and last.expired_at is not None:
            return self.refuse(ctx, "game.expired", game=self.game_name(ctx.lang, last.game_id))
        return self.refuse(ctx, "move.no_game")

    def refusal(
        self, ctx: Ctx, session: Session, revision: int | None, need_turn: bool
    ) -> Reply | None:
        """Why the sender may not act on the session now (None: they may)."""
        rec = session.record
        if ctx.user not in rec.players:
            return self.refuse(ctx, "game.not_your_game")
        if not session.is_active or session.game is None:
            if rec.expired_at is not None:
                return self.refuse(ctx, "game.expired", game=self.game_name(ctx.lang, rec.game_id))
            return self.refuse(ctx, "game.not_active")
        if revision is not None and revision != rec.revision:
            return self.refuse(ctx, "button.stale")
        if need_turn and session.game.current_player != ctx.user:
            return self.refuse(
                ctx, "game.not_your_turn", player=session.name_of(session.game.current_player)
            )
        return None

    async def after_change(self, ctx: Ctx, session: Session) -> list[Reply]:
        """The replies after a move (under the session's lock): the board, then the end or
        whose turn it is; the features' hooks add theirs (a table's computer seats before the
        board, a race's standings and a daily result after a solo game's end)."""
        game = session.game
        assert game is not None
        replies: list[Reply] = []
        if session.is_table:
            for moved in self.registry.table_moved:
                replies += await moved(ctx, session)
        replies.append(await self.board(ctx, session))
        if game.is_over:
            replies.append(self.end_message(ctx, session))
            if not session.is_table:
                replies += await self.solo_ended(ctx, session, "move")
            self.sessions.forget_finished(session)
        elif session.is_table:
            replies.append(self.turn_announcement(ctx.lang, session))
        return replies

    async def solo_ended(self, ctx: Ctx, session: Session, how: str) -> list[Reply]:
        """What the features add when a solo game ends (``how``: "move" or "resign")."""
        replies: list[Reply] = []
        for ended in self.registry.solo_ended:
            replies += await ended(ctx, session, how)
        return replies
