"""The Telegram adapter: a python-telegram-bot ``Application`` wired to the core, its start-up
and shutdown, the command menus, the deploy step, and the core's pushes. Updates come in
through ``Updates`` (polling or webhook), are handled by ``Handlers`` and go out through
``Delivery``."""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from collections import deque
from typing import TYPE_CHECKING, Any

from telegram import BotCommand, Update
from telegram.error import TelegramError
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

from bot.health import Throttle
from bot.platforms.outbox import Bounded
from bot.platforms.telegram.config import (
    LANGUAGES,
    PLATFORM,
    UPDATE_TYPES,
    TelegramConfig,
    install_token_redaction,
)
from bot.platforms.telegram.format import Outgoing, language_of
from bot.platforms.telegram.handlers import Handlers
from bot.platforms.telegram.outbox import telegram_outbox
from bot.platforms.telegram.updates import CONFLICT_WINDOW_SECONDS, Updates
from bot.redact import add_secret
from bot.replies import Reply

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger(__name__)

#: how many notes of each kind the Telegram adapter keeps in memory
NOTES_LIMIT = 10_000


class TelegramAdapter(Handlers, Updates):
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

    async def stop(self) -> None:
        """Stop taking updates, deliver what is queued, disconnect."""
        app = self.application
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        await self._stop_webhook()
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
        menus.append((language_of(self.config.default_language, "en"), None))
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
