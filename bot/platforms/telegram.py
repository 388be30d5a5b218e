"""Telegram adapter (python-telegram-bot 22): translates updates to core requests and replies
to Bot API calls, nothing more.

- Commands: every ``/command args`` line goes to ``Core.handle_text`` as typed; the menu is
  registered with ``setMyCommands`` in English, Spanish and Italian from ``Core.command_list``.
- Buttons: each core ``Button`` becomes an inline keyboard button whose callback data is the
  button id (at most 64 bytes); presses go to ``Core.handle_button`` and are answered at once.
  A private answer to the presser (a stranger's press, "not your turn") is the callback
  answer itself, which only they see.
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

>>> await serve(core, settings)   # doctest: +SKIP

Settings (attributes of ``settings``, all optional but the token): ``telegram_token``,
``telegram_base_url`` (a local Bot API server), ``telegram_webhook_url`` (webhook mode instead
of long polling), ``telegram_webhook_secret``, ``telegram_webhook_port`` (default ``$PORT`` or
8443), ``telegram_webhook_listen`` (default ``0.0.0.0``), ``default_language``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import logging
import os
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from telegram import (
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputMediaAnimation,
    InputMediaPhoto,
    InputTextMessageContent,
    Message,
    Update,
)
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import buttons as button_ids
from bot.platforms.telegram_outbox import FloodLimits, Outbox, OutItem
from bot.replies import Button, Reply, Request

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger(__name__)

PLATFORM = "telegram"
LANGUAGES = ("en", "es", "it")
CALLBACK_DATA_MAX = 64
CALLBACK_ANSWER_MAX = 200
CAPTION_MAX = 1024
TEXT_MAX = 4096
BUTTONS_PER_ROW = 8
#: callback answers longer than this open as an alert the player must dismiss
ALERT_FROM = 60
#: commands whose handling depends on the sender being a chat admin
ADMIN_COMMANDS = frozenset({"lang", "end", "kick"})
ADMIN_CACHE_SECONDS = 120.0
#: Bot API descriptions that mean "this message cannot be edited any more: post a new one"
EDIT_IMPOSSIBLE = (
    "message to edit not found",
    "message can't be edited",
    "message_id_invalid",
    "message identifier is not specified",
    "there is no media in the message to edit",
)
UPDATE_TYPES = [
    Update.MESSAGE,
    Update.CALLBACK_QUERY,
    Update.INLINE_QUERY,
    Update.CHOSEN_INLINE_RESULT,
    Update.MY_CHAT_MEMBER,
]
# The adapter's own few words: when a private answer cannot be delivered because the player
# never opened a private chat with the bot. The group sees only this, never the answer.
_OPEN_PRIVATE_CHAT = {
    "en": "{name}, I have a private answer for you: open a chat with me, then ask again.",
    "es": "{name}, tengo una respuesta privada para ti: abre un chat conmigo y vuelve a pedirla.",
    "it": "{name}, ho una risposta privata per te: apri una chat con me e richiedila.",
}
_OPEN_PRIVATE_BUTTON = {"en": "Open chat", "es": "Abrir chat", "it": "Apri chat"}


# ----- settings ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TelegramConfig:
    """Everything the adapter reads from the settings."""

    token: str
    base_url: str | None = None
    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    default_language: str = "en"
    limits: FloodLimits = field(default_factory=FloodLimits)
    poll_timeout: int = 10

    @classmethod
    def from_settings(cls, settings: Any) -> TelegramConfig:
        """Read ``telegram_*`` attributes (missing ones take their defaults).

        >>> from types import SimpleNamespace
        >>> TelegramConfig.from_settings(SimpleNamespace(telegram_token="1:x")).webhook_url is None
        True
        """
        token = getattr(settings, "telegram_token", None) or os.environ.get("TELEGRAM_TOKEN")
        if not token:
            raise ValueError("TELEGRAM_TOKEN is not set")
        port = getattr(settings, "telegram_webhook_port", None) or os.environ.get("PORT") or 8443
        return cls(
            token=token,
            base_url=getattr(settings, "telegram_base_url", None) or None,
            webhook_url=getattr(settings, "telegram_webhook_url", None) or None,
            webhook_secret=getattr(settings, "telegram_webhook_secret", None) or None,
            webhook_listen=getattr(settings, "telegram_webhook_listen", None) or "0.0.0.0",
            webhook_port=int(port),
            default_language=getattr(settings, "default_language", None) or "en",
        )


# ----- the token never reaches a log -------------------------------------------------------------
def install_token_redaction(token: str) -> None:
    """Replace ``token`` by ``<telegram-token>`` in every log record from now on.

    httpx logs each request URL (which contains the token) at INFO, and exceptions quote URLs;
    a record factory catches every logger, whatever handlers the application configures.
    """
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    previous = logging.getLogRecordFactory()
    if getattr(previous, "redacts", None) == token:
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to logging's own error path
            return record
        if token in message:
            record.msg, record.args = message.replace(token, "<telegram-token>"), ()
        if record.exc_info and record.exc_info[1] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            if token in text:
                record.exc_text = text.replace(token, "<telegram-token>")
        return record

    factory.redacts = token  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


# ----- translation helpers -------------------------------------------------------------------------
def keyboard(buttons: Sequence[Button], chat_id: int) -> InlineKeyboardMarkup | None:
    """The inline keyboard for the core's buttons, rows in ``Button.row`` order.

    The core's ``hand`` button opens the inline query that lists the player's private hand.

    >>> kb = keyboard([Button("v1:mv:s1:0:t", "Turn"), Button("v1:undo:s1:0:", "Undo", row=1)], -1)
    >>> [[b.text for b in row] for row in kb.inline_keyboard]
    [['Turn'], ['Undo']]
    """
    rows: dict[int, list[InlineKeyboardButton]] = {}
    for button in buttons:
        action = button_ids.decode(button.id)
        if action is not None and action.verb == "hand":
            tg_button = InlineKeyboardButton(
                button.label, switch_inline_query_current_chat=hand_query(chat_id)
            )
        elif 1 <= len(button.id.encode()) <= CALLBACK_DATA_MAX:
            tg_button = InlineKeyboardButton(button.label, callback_data=button.id)
        else:
            log.error("button id over Telegram's 64 bytes left out: %r", button.id)
            continue
        rows.setdefault(button.row, []).append(tg_button)
    layout = [
        row[start : start + BUTTONS_PER_ROW]
        for _, row in sorted(rows.items())
        for start in range(0, len(row), BUTTONS_PER_ROW)
    ]
    return InlineKeyboardMarkup(layout) if layout else None


def hand_query(chat_id: int) -> str:
    """The inline query text that asks for one's hand at the table of ``chat_id``.

    >>> hand_query(-100123)
    'hand -100123'
    """
    return f"hand {chat_id}"


def parse_hand_query(query: str) -> int | None:
    """The chat id in a hand query, or None.

    >>> parse_hand_query("hand -100123"), parse_hand_query("hello")
    (-100123, None)
    """
    match = re.fullmatch(r"\s*hand\s+(-?\d{1,20})\s*", query)
    return int(match.group(1)) if match else None


def board_message_id(chat_id: int, message_id: int) -> str:
    """How a board message is stored by the core.

    >>> board_message_id(-100, 7)
    '-100:7'
    """
    return f"{chat_id}:{message_id}"


def parse_board_message_id(stored: str, default_chat: int) -> tuple[int, int] | None:
    """``(chat_id, message_id)`` from a stored board id; None when it is not one of ours.

    >>> parse_board_message_id("-100:7", 5), parse_board_message_id("7", 5)
    ((-100, 7), (5, 7))
    """
    chat, _, message = stored.rpartition(":")
    try:
        return (int(chat) if chat else default_chat), int(message)
    except ValueError:
        return None


def html_text(reply: Reply, limit: int) -> str:
    """The reply's text as Telegram HTML, with its mentions as links, cut to ``limit``."""
    text = html.escape(reply.text or "")
    # Tables (leaderboards) line up only in a fixed-width font.
    wrap = ("<pre>", "</pre>") if reply.params.get("preformatted") else ("", "")
    room = limit - len(wrap[0]) - len(wrap[1])
    if len(text) > room:
        text = text[: room - 1] + "…"
    text = wrap[0] + text + wrap[1]
    # A mention is a link to the user; the bell keeps it short (names are already in the text).
    mentions = "".join(
        f' <a href="tg://user?id={int(uid)}">🔔</a>' for uid in reply.mentions if str(uid).isdigit()
    )
    return text + mentions if len(text) + len(mentions) <= limit else text


def is_animation(reply: Reply) -> bool:
    """Whether the reply's image is an animated GIF (sent as an animation, not a photo).

    >>> is_animation(Reply("replay.solo", "", image=b"GIF89a...", image_name="replay.gif"))
    True
    >>> is_animation(Reply("board.caption", "", image=b"\\x89PNG...", image_name="board.png"))
    False
    """
    return reply.image is not None and reply.image_name.lower().endswith(".gif")


def callback_answer(texts: Sequence[str]) -> tuple[str | None, bool]:
    """Text and ``show_alert`` for a callback answer made of private replies.

    >>> callback_answer(["Not your game"])
    ('Not your game', False)
    >>> callback_answer([])
    (None, False)
    """
    text = "\n".join(t for t in texts if t).strip()
    if not text:
        return None, False
    if len(text) > CALLBACK_ANSWER_MAX:
        text = text[: CALLBACK_ANSWER_MAX - 1] + "…"
    return text, len(text) > ALERT_FROM or "\n" in text


def command_of(text: str) -> tuple[str, str | None]:
    """The command name (lower case, no slash) and the bot it is addressed to, if any.

    >>> command_of("/Move@TavoloBot w3")
    ('move', 'TavoloBot')
    >>> command_of("/play canfield")
    ('play', None)
    """
    head = text.split(maxsplit=1)[0][1:] if text.startswith("/") else ""
    name, _, bot = head.partition("@")
    return name.lower(), bot or None


def _language(code: str | None, default: str) -> str:
    code = (code or default or "en")[:2].lower()
    return code if code in LANGUAGES else "en"


@dataclass(slots=True)
class Outgoing:
    """A reply on its way to a chat. ``origin_chat``: the chat whose request caused it (a
    private hand message remembers its table). ``notify``: for a private answer, whom to tell
    in ``origin_chat`` when the private chat is closed: (user id, name, language)."""

    reply: Reply
    origin_chat: int
    notify: tuple[int, str, str] | None = None


# ----- the adapter -------------------------------------------------------------------------------------
class TelegramAdapter:
    """One bot: a python-telegram-bot ``Application`` wired to the core.

    >>> adapter = TelegramAdapter(core, TelegramConfig(token="123:abc"))   # doctest: +SKIP
    >>> await adapter.start(); ...; await adapter.stop()                    # doctest: +SKIP
    """

    def __init__(self, core: Core, config: TelegramConfig) -> None:
        self.core = core
        self.config = config
        self.outbox = Outbox(self._deliver, config.limits)
        self.application: Application[Any, Any, Any, Any, Any, Any] = self._build()
        self.username = ""
        self._chat_locks: dict[int, asyncio.Lock] = {}
        self._admins: dict[tuple[int, int], tuple[bool, float]] = {}
        # (chat, session) -> (board message id, outbox stamp when posted)
        self._boards: dict[tuple[int, str], tuple[int, int]] = {}
        # (chat, old message id) -> the message that replaced it after an edit failed
        self._moved: dict[tuple[int, int], int] = {}
        # (private chat, message id) -> the group whose table a private hand belongs to
        self._hand_tables: dict[tuple[int, int], int] = {}
        # user -> the last group chat they played in (for an empty "@bot" query)
        self._last_table: dict[int, int] = {}
        self._webhook_runner: Any = None
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
        app.add_handler(MessageHandler(filters.COMMAND & filters.UpdateType.MESSAGE, self.on_command))
        app.add_handler(CallbackQueryHandler(self.on_button))
        app.add_handler(InlineQueryHandler(self.on_inline_query))
        app.add_handler(ChosenInlineResultHandler(self.on_chosen_result))
        app.add_handler(ChatMemberHandler(self.on_membership, ChatMemberHandler.MY_CHAT_MEMBER))
        # Runs after the handlers of group 0: counts an update as processed (tests and health).
        app.add_handler(TypeHandler(Update, self._mark_processed), group=1)
        app.add_error_handler(self.on_error)
        return app

    async def _mark_processed(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        self._processed_ids.append(update.update_id)
        async with self._processed_changed:
            self._processed_changed.notify_all()

    async def processed(self, update_id: int) -> None:
        """Wait until the update ``update_id`` has gone through every handler."""
        async with self._processed_changed:
            await self._processed_changed.wait_for(lambda: update_id in self._processed_ids)

    async def start(self) -> None:
        """Connect, register the command menus, then poll (or serve the webhook)."""
        install_token_redaction(self.config.token)
        app = self.application
        await app.initialize()
        self.username = app.bot.username
        await self.register_commands()
        await app.start()
        if self.config.webhook_url:
            await self._start_webhook()
        else:
            assert app.updater is not None
            await app.updater.start_polling(
                timeout=self.config.poll_timeout, allowed_updates=UPDATE_TYPES
            )
        log.info("telegram adapter running as @%s", self.username)

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

    async def register_commands(self) -> None:
        """``setMyCommands`` for each language, and the default language for everyone else."""
        bot = self.application.bot
        menus = [(lang, lang) for lang in LANGUAGES]
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
                replies = await self.core.handle_text(request, message.text)
            if chat.type != ChatType.PRIVATE:
                self._last_table[int(request.user_id)] = chat.id
            self._dispatch(request, replies, update, presser_answer=None)

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A callback button: the core decides; the presser's private answer is the callback
        answer, sent at once."""
        query = update.callback_query
        if query is None or query.data is None:
            return
        chat_id = self._table_of(query.message)
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
        action = button_ids.decode(chosen.result_id)
        chat_id = parse_hand_query(chosen.query) or self._last_table.get(chosen.from_user.id)
        if action is None or chat_id is None or self._plays_as_command(action):
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
            log.info("removed from chat %s", change.chat.id)

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
            user_name=user.username or user.full_name or str(user.id),
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

    def _table_of(self, message: Any) -> int:
        """The chat a button belongs to: its own, or for a private hand the table's group."""
        if not isinstance(message, Message):
            return 0
        return self._hand_tables.get((message.chat.id, message.message_id), message.chat.id)

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
        action = button_ids.decode(button.id)
        if action is not None and self._plays_as_command(action):
            text = f"/move@{self.username} {action.arg}"
        else:
            text = button.label
        return InlineQueryResultArticle(
            id=button.id, title=button.label, input_message_content=InputTextMessageContent(text)
        )

    @staticmethod
    def _plays_as_command(action: button_ids.ButtonAction) -> bool:
        # A move in notation can travel as a /move command: it then reaches the bot in the
        # group even with privacy mode on and without inline feedback.
        return action.verb == "mv" and bool(action.arg) and not action.arg.startswith("#")

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

    def _queue(self, chat_id: int, outgoing: Outgoing) -> None:
        board = outgoing.reply.board
        key = ("board", board.session_id) if board is not None else None
        self.outbox.put(chat_id, outgoing, coalesce_key=key)

    async def _deliver(self, chat_id: int, item: OutItem) -> None:
        outgoing = item.payload
        if isinstance(outgoing, _PrivateNotice):
            await self._send(chat_id, outgoing)
            return
        try:
            if outgoing.reply.board is not None:
                await self._deliver_board(chat_id, outgoing, item.seq)
            else:
                await self._send(chat_id, outgoing)
        except Forbidden:
            if outgoing.notify is None or chat_id < 0:
                raise
            user_id, name, lang = outgoing.notify
            self.outbox.put(outgoing.origin_chat, _PrivateNotice(user_id, name, lang))

    async def _send(self, chat_id: int, outgoing: Outgoing | _PrivateNotice) -> Message:
        bot = self.application.bot
        if isinstance(outgoing, _PrivateNotice):
            return await outgoing.send(bot, chat_id, self.username)
        reply = outgoing.reply
        markup = keyboard(reply.buttons, outgoing.origin_chat)
        if reply.image is not None:
            # A GIF replay goes out as an animation (it would not move as a photo).
            send, media = (bot.send_animation, "animation") if is_animation(reply) else (bot.send_photo, "photo")
            message = await send(
                chat_id,
                **{media: reply.image},
                filename=reply.image_name,
                caption=html_text(reply, CAPTION_MAX) or None,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
            )
        else:
            message = await bot.send_message(
                chat_id,
                html_text(reply, TEXT_MAX) or "…",
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                disable_web_page_preview=True,
            )
        if markup is not None and chat_id != outgoing.origin_chat:
            self._hand_tables[(chat_id, message.message_id)] = outgoing.origin_chat
        return message

    async def _deliver_board(self, chat_id: int, outgoing: Outgoing, queued_seq: int) -> None:
        reply = outgoing.reply
        assert reply.board is not None
        session = reply.board.session_id
        target = self._board_target(chat_id, reply, queued_seq)
        if target is not None:
            try:
                await self._edit_board(target, outgoing)
                return
            except BadRequest as error:
                description = str(error).lower()
                if "not modified" in description:
                    return  # a double press drew the same board: nothing to change
                if not any(reason in description for reason in EDIT_IMPOSSIBLE):
                    raise
                log.info("board message %s is gone; posting a new one", target)
            await self.outbox.limiter.wait_turn(chat_id)  # the new message is one more call
        message = await self._send(chat_id, outgoing)
        self._stamp = self.outbox.stamp()
        self._boards[(chat_id, session)] = (message.message_id, self._stamp)
        if target is not None:
            self._moved[target] = message.message_id
        await self.core.board_posted(session, board_message_id(chat_id, message.message_id))

    def _board_target(self, chat_id: int, reply: Reply, queued_seq: int) -> tuple[int, int] | None:
        """Which message to edit for this board, if any."""
        assert reply.board is not None
        posted = self._boards.get((chat_id, reply.board.session_id))
        if reply.board.message_id is None:
            # The core did not know the message yet; if we posted one since this reply was
            # queued, it is that one.
            if posted is not None and posted[1] > queued_seq:
                return chat_id, posted[0]
            return None
        target = parse_board_message_id(reply.board.message_id, chat_id)
        if target is None:
            return None
        while target in self._moved:
            target = (target[0], self._moved[target])
        return target

    async def _edit_board(self, target: tuple[int, int], outgoing: Outgoing) -> None:
        bot = self.application.bot
        reply = outgoing.reply
        chat_id, message_id = target
        markup = keyboard(reply.buttons, chat_id)
        if reply.image is not None:
            kind = InputMediaAnimation if is_animation(reply) else InputMediaPhoto
            media = kind(
                reply.image,
                caption=html_text(reply, CAPTION_MAX) or None,
                parse_mode=ParseMode.HTML,
                filename=reply.image_name,
            )
            await bot.edit_message_media(
                media, chat_id=chat_id, message_id=message_id, reply_markup=markup
            )
        else:
            await bot.edit_message_text(
                html_text(reply, TEXT_MAX) or "…",
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
            )

    # ----- webhook mode --------------------------------------------------------------------------
    async def _start_webhook(self) -> None:
        """Serve Telegram's webhook POSTs (aiohttp) and register the URL with a secret token."""
        from aiohttp import web

        url = self.config.webhook_url
        assert url is not None
        secret = self.config.webhook_secret or secrets.token_urlsafe(32)
        path = urlsplit(url).path or "/"
        app = self.application

        async def receive(request: web.Request) -> web.Response:
            given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
            if not hmac.compare_digest(given.encode(), secret.encode()):
                return web.Response(status=403)
            try:
                update = Update.de_json(await request.json(), app.bot)
            except ValueError:
                return web.Response(status=400)
            await app.update_queue.put(update)
            return web.Response()

        server = web.Application()
        server.router.add_post(path, receive)
        self._webhook_runner = web.AppRunner(server, access_log=None)
        await self._webhook_runner.setup()
        site = web.TCPSite(self._webhook_runner, self.config.webhook_listen, self.config.webhook_port)
        await site.start()
        await app.bot.set_webhook(url, secret_token=secret, allowed_updates=UPDATE_TYPES)

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


@dataclass(frozen=True, slots=True)
class _PrivateNotice:
    """Told in the group when a private answer could not be delivered: who, and a link to open
    the private chat. It reveals nothing of the answer."""

    user_id: int
    name: str
    lang: str

    async def send(self, bot: Any, chat_id: int, username: str) -> Message:
        name = f'<a href="tg://user?id={self.user_id}">{html.escape(self.name)}</a>'
        text = _OPEN_PRIVATE_CHAT[self.lang].format(name=name)
        link = InlineKeyboardButton(_OPEN_PRIVATE_BUTTON[self.lang], url=f"https://t.me/{username}")
        return await bot.send_message(
            chat_id, text, parse_mode=ParseMode.HTML, reply_markup=InlineKeyboardMarkup([[link]])
        )


async def serve(core: Core, settings: Any) -> None:
    """Run the Telegram bot until cancelled (``python -m bot`` calls this)."""
    adapter = TelegramAdapter(core, TelegramConfig.from_settings(settings))
    _attach_push(core, adapter.push)
    await adapter.start()
    try:
        await asyncio.Event().wait()
    finally:
        await adapter.stop()


def _attach_push(core: Core, push: Callable[[str, str, Reply], Awaitable[None]]) -> None:
    """Register the adapter's push with the core."""
    core.set_push(push)
