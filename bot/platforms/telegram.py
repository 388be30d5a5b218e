"""Telegram adapter (python-telegram-bot 22): translates updates to core requests and replies
to Bot API calls, nothing more.

- Commands: every ``/command args`` line goes to ``Core.handle_text`` as typed; the menu is
  registered with ``setMyCommands`` in English, Spanish and Italian from ``Core.command_list``.
- Buttons: each core ``Button`` becomes an inline keyboard button whose callback data is the
  button id (at most 64 bytes); presses go to ``Core.handle_button`` and are answered at once.
  A private answer to the presser (a stranger's press, "not your turn") is the callback
  answer itself, which only they see.
- Refused commands: a refusal that reveals nothing private (``Reply.refusal``: an unknown
  game or command, bad arguments, an illegal move, not your turn) is answered in the chat
  where the command was typed, as a reply to it; other private answers go to the private chat.
- Boards: a board reply edits its message in place (``editMessageMedia``) or, when there is
  none or it is gone, posts a new photo and tells the core with ``Core.board_posted``. Board
  message ids are stored as ``"<chat_id>:<message_id>"``.
- Hidden hands (Cartas Maestras): the core's ``hand`` button becomes a button that opens an
  inline query in the current chat; ``@bot`` then lists only the asking player's cards
  (``Core.hand_buttons``) and choosing one plays it. Players who started the bot privately
  can also get their hand there (``/hand`` in the group, or the inline list's header button).
- Animated images (``/replay``: a reply whose ``image_name`` ends in ``.gif``) are sent with
  ``sendAnimation``, so they play inline; every other image is a photo.
- Everything written to a chat goes through a per-chat ``Outbox`` (flood limits, coalesced
  board edits, ``RetryAfter`` waited out, a removed bot handled quietly).

Start it from ``python -m bot`` with ``TELEGRAM_TOKEN`` set, or directly:

>>> await TelegramPlatform().run(core, settings)   # doctest: +SKIP

Settings (attributes of ``settings``, all optional but the token): ``telegram_token``,
``telegram_base_url`` (a local Bot API server), ``telegram_webhook_url`` (webhook mode instead
of long polling), ``telegram_webhook_secret``, ``telegram_webhook_port`` (default ``$PORT`` or
8443), ``telegram_webhook_listen`` (default ``0.0.0.0``), ``default_language``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import logging
import re
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from telegram import (
    BotCommand,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Message,
    Update,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import Conflict, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.health import Health, Throttle
from bot.logs import pseudonym
from bot.platforms.outbox import Bounded
from bot.platforms.telegram_delivery import Delivery
from bot.platforms.telegram_format import (  # noqa: F401 - html_text: the adapter's public name
    _OPEN_PRIVATE_BUTTON,
    _OPEN_PRIVATE_CHAT,
    ADMIN_CACHE_SECONDS,
    ADMIN_COMMANDS,
    LANGUAGES,
    NOTES_LIMIT,
    PLATFORM,
    UPDATE_TYPES,
    Outgoing,
    TelegramConfig,
    _language,
    callback_answer,
    command_of,
    html_text,
    install_token_redaction,
    parse_hand_query,
    with_mentions,
)
from bot.platforms.telegram_outbox import telegram_outbox
from bot.redact import add_secret
from bot.replies import Button, Reply, Request
from bot.startup import StartupError

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger(__name__)

#: a polling conflict (409: another process polls with this token) seen this recently keeps
#: readiness red; while it lasts the library retries at most every 30 s, so it is seen again
CONFLICT_WINDOW_SECONDS = 65.0
#: webhook deliveries refused in a row (a wrong secret) before readiness turns red: a stray
#: request without the secret is no outage, Telegram's retries of refused updates are
REFUSED_IN_A_ROW = 3


# ----- the adapter -------------------------------------------------------------------------------------
class TelegramAdapter(Delivery):
    """One bot: a python-telegram-bot ``Application`` wired to the core.

    >>> adapter = TelegramAdapter(core, TelegramConfig(token="123:abc"))   # doctest: +SKIP
    >>> await adapter.start(); ...; await adapter.stop()                    # doctest: +SKIP
    """

    def __init__(self, core: Core, config: TelegramConfig) -> None:
        self.core = core
        self.config = config
        self.outbox = telegram_outbox(self._deliver, config.limits)
        core.metrics.track_outbox(PLATFORM, self.outbox.depth)
        # before the Application is built: building it logs the Bot API URLs, token inside,
        # at DEBUG (masked only from the moment the token is known to the redaction)
        install_token_redaction(config.token)
        self.application: Application[Any, Any, Any, Any, Any, Any] = self._build()
        core.metrics.track_update_queue(PLATFORM, self.application.update_queue.qsize)
        self.username = ""
        # weak: a chat's lock lives while an update of that chat holds or waits for it
        self._chat_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._admins: dict[tuple[int, int], tuple[bool, float]] = Bounded(NOTES_LIMIT)
        # (chat, session) -> (board message id, outbox stamp when posted)
        self._boards: dict[tuple[int, str], tuple[int, int]] = Bounded(NOTES_LIMIT)
        # (chat, old message id) -> the message that replaced it after an edit failed
        self._moved: dict[tuple[int, int], int] = Bounded(NOTES_LIMIT)
        # (private chat, message id) -> the group whose table a private hand belongs to
        self._hand_tables: dict[tuple[int, int], int] = Bounded(NOTES_LIMIT)
        # user -> the last group chat they played in (for an empty "@bot" query)
        self._last_table: dict[int, int] = Bounded(NOTES_LIMIT)
        self._webhook_runner: Any = None
        #: readiness: when polling last met a 409 conflict, and the webhook's refusals in a
        #: row since its last accepted delivery (each failure logged once a minute at most)
        self.conflict_window = CONFLICT_WINDOW_SECONDS
        self._conflict_at: float | None = None
        self._conflict_log = Throttle()
        self._polling_log = Throttle()
        self._refused_in_a_row = 0
        self._accepted = 0
        self._refused_log = Throttle()
        self._stamp = 0
        self._processed_ids: deque[int] = deque(maxlen=1000)
        self._processed_changed = asyncio.Condition()

    # ----- wiring --------------------------------------------------------------------------
    def _build(self) -> Application[Any, Any, Any, Any, Any, Any]:
        builder = ApplicationBuilder().token(self.config.token).concurrent_updates(64)
        if self.config.base_url:
            base = self.config.base_url.rstrip("/")
            builder = builder.base_url(base).base_file_url(base.removesuffix("/bot") + "/file/bot")
        if self.config.webhook_url:
            builder = builder.updater(None)  # updates arrive through our own webhook server
        app = builder.build()
        # Before every handler: an update any worker has handled already is dropped.
        app.add_handler(TypeHandler(Update, self._drop_redelivered), group=-1)
        app.add_handler(
            MessageHandler(filters.COMMAND & filters.UpdateType.MESSAGE, self.on_command)
        )
        app.add_handler(CallbackQueryHandler(self.on_button))
        app.add_handler(InlineQueryHandler(self.on_inline_query))
        app.add_handler(ChosenInlineResultHandler(self.on_chosen_result))
        app.add_handler(ChatMemberHandler(self.on_membership, ChatMemberHandler.MY_CHAT_MEMBER))
        # Runs after the handlers of group 0: counts an update as processed (tests and health).
        app.add_handler(TypeHandler(Update, self._mark_processed), group=1)
        app.add_error_handler(self.on_error)
        return app

    async def _drop_redelivered(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Webhook workers behind one URL, or a retried delivery, may see an update twice:
        the database's record of update ids lets exactly one handle it."""
        if not await self.core.first_delivery(PLATFORM, update.update_id):
            log.info("update %s was handled already; dropped", update.update_id)
            await self._mark_processed(update, context)
            raise ApplicationHandlerStop

    async def _mark_processed(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        self._processed_ids.append(update.update_id)
        async with self._processed_changed:
            self._processed_changed.notify_all()

    async def processed(self, update_id: int, deliveries: int = 1) -> None:
        """Wait until the update ``update_id`` has gone through every handler ``deliveries``
        times (a redelivered copy is dropped at once, possibly before the first is done)."""
        async with self._processed_changed:
            await self._processed_changed.wait_for(
                lambda: self._processed_ids.count(update_id) >= deliveries
            )

    async def start(self) -> None:
        """Connect, register the command menus, then poll (or serve the webhook)."""
        app = self.application
        self.core.platform_status[PLATFORM] = self.connection_problem
        await app.initialize()
        self.username = app.bot.username
        await self.register_commands()
        await app.start()
        if self.config.webhook_url:
            await self._start_webhook()
        else:
            assert app.updater is not None
            await app.updater.start_polling(
                timeout=self.config.poll_timeout,
                allowed_updates=UPDATE_TYPES,
                error_callback=self._polling_failed,
            )
        log.info("telegram adapter running as @%s", self.username)

    def connection_problem(self) -> Health:
        """Whether this adapter takes updates now (``/readyz``): the webhook listening and
        its deliveries accepted, or polling without a conflict."""
        app = self.application
        if not app.running:
            return Health(False, "not connected")
        if self.config.webhook_url:
            if self._webhook_runner is None:
                return Health(False, "webhook not listening")
            if self._refused_in_a_row >= REFUSED_IN_A_ROW:
                return Health(
                    False,
                    f"webhook refuses deliveries: wrong secret ({self._refused_in_a_row} in a row)",
                )
            return Health(True, f"webhook, {self._accepted} deliveries accepted")
        if app.updater is None or not app.updater.running:
            return Health(False, "not polling")
        if (
            self._conflict_at is not None
            and time.monotonic() - self._conflict_at < self.conflict_window
        ):
            return Health(False, "polling conflict (409): another process polls with this token")
        return Health(True, "polling")

    def _polling_failed(self, error: TelegramError) -> None:
        """The library's polling met an error (it retries by itself, waiting longer each
        time): one line a minute, no traceback; a conflict turns readiness red."""
        if isinstance(error, Conflict):
            self._conflict_at = time.monotonic()
            held = self._conflict_log.due()
            if held is not None:
                log.error(
                    "telegram polling conflict (409): another process polls with this "
                    "token (only one may; use a webhook for several workers)%s",
                    f"; {held} more since the last line" if held else "",
                )
            return
        held = self._polling_log.due()
        if held is not None:
            log.warning(
                "telegram polling failed (%s), retrying%s",
                type(error).__name__,
                f"; {held} more since the last line" if held else "",
            )

    async def stop(self) -> None:
        """Stop taking updates, deliver what is queued, disconnect."""
        app = self.application
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if self._webhook_runner is not None:
            await self._webhook_runner.cleanup()
            self._webhook_runner = None
        if app.running:
            await app.stop()
        await self.outbox.close()
        await app.shutdown()

    async def sync(self) -> list[str]:
        """The deploy step (``python -m bot sync-commands``): the command menus, and in webhook
        mode the webhook with the configured secret, set whatever Telegram shows now."""
        app = self.application
        await app.initialize()
        try:
            await self.register_commands()
            done = ["telegram: command menus set"]
            url, secret = self.config.webhook_url, self.config.webhook_secret
            if url and secret:
                add_secret(secret)
                await app.bot.set_webhook(url, secret_token=secret, allowed_updates=UPDATE_TYPES)
                done.append("telegram: webhook set")
            return done
        finally:
            await app.shutdown()

    async def register_commands(self) -> None:
        """``setMyCommands`` for each language, and the default language for everyone else."""
        bot = self.application.bot
        menus: list[tuple[str, str | None]] = [(lang, lang) for lang in LANGUAGES]
        menus.append((_language(self.config.default_language, "en"), None))
        for lang, code in menus:
            try:
                listed = self.core.command_list(lang)
            except Exception:
                # A menu is a convenience: the bot must start without it (commands still work).
                log.exception("no command menu for %s", lang)
                continue
            commands = [
                BotCommand(name.lstrip("/").lower(), (description or name)[:256])
                for name, description in listed
                if re.fullmatch(r"[a-z0-9_]{1,32}", name.lstrip("/").lower())
            ]
            try:
                await bot.set_my_commands(commands, language_code=code)
            except TelegramError as error:
                log.warning("setMyCommands (%s) failed: %s", code or "default", error)

    async def push(self, platform: str, chat_id: str, reply: Reply) -> None:
        """The core's push (turn timers, timeouts): queue ``reply`` for ``chat_id``."""
        if platform != PLATFORM:
            return
        chat = int(chat_id)
        if reply.is_private and reply.to_user and reply.to_user.lstrip("-").isdigit():
            self._queue(int(reply.to_user), Outgoing(reply, chat))
        else:
            self._queue(chat, Outgoing(reply, chat))

    # ----- handlers: translate, call the core, hand the replies to the outbox ------------
    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/command args`` in any chat."""
        message = update.effective_message
        if message is None or not message.text or update.effective_user is None:
            return
        name, addressed_to = command_of(message.text)
        if addressed_to and addressed_to.lower() != self.username.lower():
            return  # meant for another bot in the group
        chat = message.chat
        async with self._chat_lock(chat.id):
            request = await self._request(update, need_admin=name in ADMIN_COMMANDS)
            if chat.type == ChatType.PRIVATE and name == "start":
                replies = await self._private_start(request, message.text)
            else:
                # a user Telegram pointed at (text_mention) reaches the core as <@id>
                line, mentions = with_mentions(message.text, message.entities or ())
                request = dataclasses.replace(request, mentions=mentions)
                replies = await self.core.handle_text(request, line)
            if chat.type != ChatType.PRIVATE:
                self._last_table[int(request.user_id)] = chat.id
            self._dispatch(request, replies, update, presser_answer=None)

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A callback button: the core decides; the presser's private answer is the callback
        answer, sent at once."""
        query = update.callback_query
        if query is None or query.data is None:
            return
        chat_id = await self._table_of(query.message)
        private: list[str] = []
        try:
            async with self._chat_lock(chat_id):
                request = await self._request(update, chat_override=chat_id)
                replies = await self.core.handle_button(request, query.data)
                if chat_id < 0:
                    self._last_table[int(request.user_id)] = chat_id
                self._dispatch(request, replies, update, presser_answer=private)
        finally:
            text, alert = callback_answer(private)
            with contextlib.suppress(TelegramError):
                await query.answer(text=text, show_alert=alert)

    async def on_inline_query(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``@bot`` typed in a chat: the asking player's own hand, nobody else's."""
        query = update.inline_query
        if query is None:
            return
        user = query.from_user
        chat_id = parse_hand_query(query.query) or self._last_table.get(user.id)
        results: list[InlineQueryResultArticle] = []
        header: InlineQueryResultsButton | None = None
        if chat_id is not None:
            request = self._request_for(chat_id, user, is_group=chat_id < 0)
            hand = await self.core.hand_buttons(request)
            if hand is not None:
                results = [self._hand_result(button) for button in hand.buttons][:50]
                header = InlineQueryResultsButton(
                    text=(hand.text or "…").splitlines()[0][:64],
                    start_parameter=f"hand_{chat_id}",
                )
        await query.answer(results, cache_time=0, is_personal=True, button=header)

    async def on_chosen_result(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A hand card chosen from the inline list. Moves arrive as ``/move`` commands (their
        message text); other actions (select a card, ...) are pressed here."""
        chosen = update.chosen_inline_result
        if chosen is None:
            return
        chat_id = parse_hand_query(chosen.query) or self._last_table.get(chosen.from_user.id)
        # A move that travels as a /move command (its message text) is played by that command.
        if chat_id is None or self.core.typed_move(chosen.result_id) is not None:
            return
        async with self._chat_lock(chat_id):
            request = self._request_for(chat_id, chosen.from_user, is_group=chat_id < 0)
            replies = await self.core.handle_button(request, chosen.result_id)
            self._dispatch(request, replies, update, presser_answer=None)

    async def on_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot was added to or removed from a chat: nothing to say, just log it."""
        change = update.my_chat_member
        if change is not None and change.new_chat_member.status in (
            ChatMemberStatus.LEFT,
            ChatMemberStatus.BANNED,
        ):
            log.info("removed from chat %s", pseudonym(change.chat.id))

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("error while handling a telegram update", exc_info=context.error)

    # ----- requests ----------------------------------------------------------------------------
    async def _request(
        self, update: Update, need_admin: bool = False, chat_override: int | None = None
    ) -> Request:
        user = update.effective_user
        chat = update.effective_chat
        assert user is not None
        chat_id = chat_override if chat_override is not None else (chat.id if chat else user.id)
        is_group = chat_id < 0
        is_admin = not is_group or (need_admin and await self._is_admin(chat_id, user.id))
        return self._request_for(chat_id, user, is_group=is_group, is_admin=is_admin)

    @staticmethod
    def _request_for(chat_id: int, user: Any, is_group: bool, is_admin: bool = False) -> Request:
        return Request(
            platform=PLATFORM,
            chat_id=str(chat_id),
            user_id=str(user.id),
            user_name=user.username or user.full_name or "?",  # never the id as a name
            is_group=is_group,
            is_admin=is_admin,
        )

    async def _is_admin(self, chat_id: int, user_id: int) -> bool:
        cached = self._admins.get((chat_id, user_id))
        if cached and time.monotonic() - cached[1] < ADMIN_CACHE_SECONDS:
            return cached[0]
        try:
            member = await self.application.bot.get_chat_member(chat_id, user_id)
            is_admin = member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
        except TelegramError:
            is_admin = False
        self._admins[(chat_id, user_id)] = (is_admin, time.monotonic())
        return is_admin

    async def _table_of(self, message: Any) -> int:
        """The chat a button belongs to: its own, or for a private hand the table's group
        (remembered here, else stored by whichever process sent the hand)."""
        if not isinstance(message, Message):
            return 0
        key = (message.chat.id, message.message_id)
        if key not in self._hand_tables and message.chat.type == ChatType.PRIVATE:
            origin = await self.core.private_message_origin(PLATFORM, str(key[0]), str(key[1]))
            if origin is not None and origin.lstrip("-").isdigit():
                self._hand_tables[key] = int(origin)
        return self._hand_tables.get(key, message.chat.id)

    def _chat_lock(self, chat_id: int) -> asyncio.Lock:
        # Updates run concurrently across chats; within a chat they keep their order.
        return self._chat_locks.setdefault(chat_id, asyncio.Lock())

    async def _private_start(self, request: Request, text: str) -> list[Reply]:
        """``/start`` in a private chat: the help text, or a deep link's hand."""
        payload = text.split(maxsplit=1)[1] if len(text.split(maxsplit=1)) > 1 else ""
        table = parse_hand_query(payload.replace("_", " ", 1))
        if table is not None:
            hand = await self.core.hand_buttons(
                Request(PLATFORM, str(table), request.user_id, request.user_name, table < 0)
            )
            if hand is not None:
                self._queue(int(request.chat_id), Outgoing(hand, table))
                return []
        return await self.core.handle_text(request, "/help")

    def _hand_result(self, button: Button) -> InlineQueryResultArticle:
        # A move in notation travels as a /move command: it then reaches the bot in the group
        # even with privacy mode on and without inline feedback.
        text = f"/move@{self.username} {button.move}" if button.move else button.label
        return InlineQueryResultArticle(
            id=button.id, title=button.label, input_message_content=InputTextMessageContent(text)
        )

    # ----- replies -------------------------------------------------------------------------------
    def _dispatch(
        self,
        request: Request,
        replies: Sequence[Reply],
        update: Update,
        presser_answer: list[str] | None,
    ) -> None:
        """Send each reply where it belongs. ``presser_answer`` collects the text of private
        replies to the presser of a button (sent as the callback answer)."""
        chat_id = int(request.chat_id)
        user = update.effective_user
        lang = _language(user.language_code if user else None, self.config.default_language)
        for reply in replies:
            if not reply.is_private:
                self._queue(chat_id, Outgoing(reply, chat_id))
                continue
            target = reply.to_user or request.user_id
            message = update.effective_message
            if (
                reply.refusal
                and presser_answer is None
                and target == request.user_id
                and message is not None
            ):
                # A refused command that reveals nothing private: answered where it was typed,
                # as a reply to it (a player who never opened a private chat still reads it).
                self._queue(chat_id, Outgoing(reply, chat_id, reply_to=message.message_id))
                continue
            if presser_answer is not None and target == request.user_id:
                presser_answer.append(reply.text)
                if reply.buttons or reply.image:
                    # A hand with buttons: in the private chat, if the player opened one.
                    self._queue(int(target), Outgoing(reply, chat_id))
                continue
            notify = None
            if target == request.user_id and chat_id < 0:
                notify = (int(target), request.user_name, lang)
            self._queue(int(target), Outgoing(reply, chat_id, notify))

    async def _start_webhook(self) -> None:
        """Serve Telegram's webhook POSTs (aiohttp) and register the URL with a secret token."""
        from aiohttp import web

        url = self.config.webhook_url
        secret = self.config.webhook_secret
        # Every worker checks deliveries against the one configured secret (the settings refuse
        # a webhook without one): a secret of its own would 403 every other worker's deliveries.
        if url is None or not secret:
            raise ValueError("webhook mode needs TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET")
        add_secret(secret)  # masked in every log line from now on (the library logs requests)
        path = urlsplit(url).path or "/"
        app = self.application

        async def receive(request: web.Request) -> web.Response:
            given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
            if not hmac.compare_digest(given.encode(), secret.encode()):
                self._refused_in_a_row += 1
                held = self._refused_log.due()
                if held is not None:
                    log.error(
                        "telegram webhook: a delivery was refused, its secret is not this "
                        "worker's (do all workers share TELEGRAM_WEBHOOK_SECRET?)%s",
                        f"; {held} more since the last line" if held else "",
                    )
                return web.Response(status=403)
            try:
                update = Update.de_json(await request.json(), app.bot)
            except ValueError:
                return web.Response(status=400)
            self._refused_in_a_row = 0
            self._accepted += 1
            await app.update_queue.put(update)
            return web.Response()

        server = web.Application()
        server.router.add_post(path, receive)
        self._webhook_runner = web.AppRunner(server, access_log=None)
        await self._webhook_runner.setup()
        site = web.TCPSite(
            self._webhook_runner, self.config.webhook_listen, self.config.webhook_port
        )
        try:
            await site.start()
        except OSError as error:
            raise StartupError(
                f"the Telegram webhook cannot listen on {self.config.webhook_listen}:"
                f"{self.config.webhook_port} ({error.strerror or error}): set "
                "TELEGRAM_WEBHOOK_PORT / TELEGRAM_WEBHOOK_LISTEN"
            ) from None
        await self._register_webhook(url, secret)

    async def _register_webhook(self, url: str, secret: str) -> None:
        """``setWebhook`` only when Telegram's webhook differs from the settings: in a rolling
        restart of several workers, none re-registers (and none could flip the others' secret).
        Telegram never shows the secret back, so a new secret is given with
        ``python -m bot sync-commands``, which registers it whatever Telegram shows."""
        bot = self.application.bot
        info = await bot.get_webhook_info()
        if info.url == url and set(info.allowed_updates or ()) == set(UPDATE_TYPES):
            log.info("telegram webhook already set to this address: left as it is")
            return
        await bot.set_webhook(url, secret_token=secret, allowed_updates=UPDATE_TYPES)
        log.info("telegram webhook set")

    @property
    def webhook_port(self) -> int | None:
        """The port the webhook server really listens on (useful with port 0)."""
        if self._webhook_runner is None:
            return None
        for site in self._webhook_runner.sites:
            server = getattr(site, "_server", None)
            if server is not None and server.sockets:
                return int(server.sockets[0].getsockname()[1])
        return None


class TelegramPlatform:
    """Telegram as an ``Adapter`` (``python -m bot`` runs it when ``TELEGRAM_TOKEN`` is set):
    polls or serves the webhook until ``stop``."""

    name = PLATFORM

    def __init__(self) -> None:
        self._stopping = asyncio.Event()

    async def run(self, core: Core, settings: Any) -> None:
        adapter = TelegramAdapter(core, TelegramConfig.from_settings(settings))
        _attach_push(core, adapter.push)
        await adapter.start()
        try:
            await self._stopping.wait()
        finally:
            await adapter.stop()

    async def stop(self) -> None:
        self._stopping.set()


def _attach_push(core: Core, push: Callable[[str, str, Reply], Awaitable[None]]) -> None:
    """Register the adapter's push with the core."""
    core.set_push(push)
