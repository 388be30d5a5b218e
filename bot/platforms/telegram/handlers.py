"""Updates in: each handler translates a Telegram update into a ``Request``, calls the core
and hands the replies to the outbox, in the chat's order (one lock per chat).

Commands go to ``Core.handle_text`` as typed (a ``/start`` deep link in a private chat opens a
hand); button presses to ``Core.handle_button``, answered at once with the presser's private
answer; ``@bot`` inline queries list the asking player's own hand; a chosen hand card is played.
Where each reply goes (the chat, a reply to a refused command, the private chat, the callback
answer) is decided by ``_dispatch`` from the core's ``Reply.visibility`` and ``Reply.refusal``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
import weakref
from collections.abc import Sequence
from typing import Any

from telegram import (
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Message,
    Update,
)
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.logs import pseudonym
from bot.platforms.telegram.config import PLATFORM, TelegramConfig
from bot.platforms.telegram.delivery import Delivery
from bot.platforms.telegram.format import (
    Outgoing,
    callback_answer,
    command_of,
    language_of,
    parse_hand_query,
    with_mentions,
)
from bot.replies import Button, Reply, Request

log = logging.getLogger(__name__)

#: commands whose handling depends on the sender being a chat admin (Telegram is asked only
#: for these): /lang, a table's or race's /end, /kick, /addbot, /leaderboard web new
ADMIN_COMMANDS = frozenset({"lang", "end", "kick", "addbot", "leaderboard"})
#: seconds a chat member's admin status is trusted before it is asked again
ADMIN_CACHE_SECONDS = 120.0


class Handlers(Delivery):
    """The adapter's receiving half (a mixin of ``TelegramAdapter``, which owns the state)."""

    config: TelegramConfig
    #: one lock per chat while an update of that chat holds or waits for it
    _chat_locks: weakref.WeakValueDictionary[int, asyncio.Lock]
    #: (chat, user) -> (is admin, when asked)
    _admins: dict[tuple[int, int], tuple[bool, float]]
    #: user -> the last group chat they played in (for an empty "@bot" query)
    _last_table: dict[int, int]

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
        lang = language_of(user.language_code if user else None, self.config.default_language)
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
