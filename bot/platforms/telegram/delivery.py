"""Sending and editing: how a queued reply reaches Telegram (a board edited in place or
posted anew, a private answer, the notice for a player who never opened a private chat)."""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaAnimation,
    InputMediaPhoto,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden
from telegram.ext import Application

from bot import i18n
from bot.platforms.outbox import Outbox, OutItem
from bot.platforms.telegram.config import PLATFORM
from bot.platforms.telegram.format import (
    EDIT_IMPOSSIBLE,
    TEXT_MAX,
    Outgoing,
    board_message_id,
    caption_html,
    html_text,
    is_animation,
    keyboard,
    parse_board_message_id,
)
from bot.replies import Reply

if TYPE_CHECKING:
    from bot.core import Core


log = logging.getLogger(__name__)


class Delivery:
    """The adapter's sending half (a mixin of ``TelegramAdapter``, which owns the state)."""

    core: Core
    outbox: Outbox
    application: Application[Any, Any, Any, Any, Any, Any]
    username: str
    _hand_tables: dict[tuple[int, int], int]
    _boards: dict[tuple[int, str], tuple[int, int]]
    _moved: dict[tuple[int, int], int]

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
        answering: dict[str, Any] = {}
        message: Message
        if outgoing.reply_to is not None:
            # still sent when the command was deleted meanwhile
            answering["reply_parameters"] = ReplyParameters(
                outgoing.reply_to, allow_sending_without_reply=True
            )
        if reply.image is not None:
            # A GIF replay goes out as an animation (it would not move as a photo).
            send, media = (
                (bot.send_animation, "animation")
                if is_animation(reply)
                else (bot.send_photo, "photo")
            )
            message = await send(
                chat_id,
                **{media: reply.image},
                filename=reply.image_name,
                caption=caption_html(reply) or None,
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
                **answering,
            )
        if markup is not None and chat_id != outgoing.origin_chat:
            self._hand_tables[(chat_id, message.message_id)] = outgoing.origin_chat
            # stored too: any webhook worker, and this one after a restart, finds the table
            await self.core.remember_private_message(
                PLATFORM, str(chat_id), str(message.message_id), str(outgoing.origin_chat)
            )
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
                caption=caption_html(reply) or None,
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


@dataclass(frozen=True, slots=True)
class _PrivateNotice:
    """Told in the group when a private answer could not be delivered: who, and a link to open
    the private chat. It reveals nothing of the answer."""

    user_id: int
    name: str
    lang: str

    async def send(self, bot: Any, chat_id: int, username: str) -> Message:
        name = f'<a href="tg://user?id={self.user_id}">{html.escape(self.name)}</a>'
        text = i18n.t(self.lang, "telegram.open_private_chat", name=name)
        link = InlineKeyboardButton(
            i18n.t(self.lang, "telegram.open_private_button"), url=f"https://t.me/{username}"
        )
        sent: Message = await bot.send_message(
            chat_id, text, parse_mode=ParseMode.HTML, reply_markup=InlineKeyboardMarkup([[link]])
        )
        return sent
