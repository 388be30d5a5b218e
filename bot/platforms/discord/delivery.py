"""Replies to Discord: where each of the core's replies goes and how it gets there.

A board reply edits its board message in place (image + buttons), or posts a new one and tells
the core its id; a private reply goes only to its user, ephemerally (the answer to their own
interaction, or a follow-up of their latest one), else the channel gets a nudge to use
``/hand``; any other reply is a channel message. The answer to a user's own interaction goes out
at once; the rest goes through the channel's outbox. A board is never drawn older than the one
shown: each delivery carries the order in which its reply reached the adapter.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.core.commands import ascii_number
from bot.logs import pseudonym
from bot.platforms.discord.config import DiscordConfig
from bot.platforms.discord.messages import (
    LANGUAGES,
    PLATFORM,
    _allowed,
    _Answer,
    _content,
    _edit_kwargs,
    _file,
    _Reachable,
    build_view,
    decode_board,
    encode_board,
    request_of,
    text,
)
from bot.platforms.outbox import Outbox, OutItem
from bot.replies import BoardRef, Reply, Request

if TYPE_CHECKING:
    from discord import Client as _ClientBase

    from bot.core import Core
else:
    _ClientBase = object

log = logging.getLogger(__name__)
#: interaction tokens live 15 minutes; use them for private follow-ups a little less long
TOKEN_LIFETIME = 14 * 60
#: the core's turn announcement: its ``mentions`` are the player whose turn comes
TURN_KEY = "table.turn"


class Delivery(_ClientBase):
    """The client's sending half (a mixin of ``TavoloClient``, which owns the state)."""

    core: Core
    config: DiscordConfig
    outbox: Outbox
    #: (chat, user) -> their latest interaction, for ephemeral follow-ups
    _reachable: dict[tuple[str, str], _Reachable]
    #: (channel, session) -> the order (outbox stamp) of the board showing there now
    _shown: dict[tuple[int, str], int]
    #: (channel, session) -> (message id, stamp) of the board message posted last
    _posted: dict[tuple[int, str], tuple[int, int]]
    #: (channel, message gone) -> the message posted in its place
    _moved: dict[tuple[int, int], int]

    async def deliver(
        self, replies: Iterable[Reply], req: Request, answer: _Answer | None = None
    ) -> str | None:
        """Send ``replies`` for a request in ``req.chat_id``; returns the link of the last board
        touched (for the acknowledgement of a command that only changed a board)."""
        link: str | None = None
        turn_of: list[str] = []
        stamp = self.outbox.stamp()  # the order of these replies, for their boards
        for reply in replies:
            if reply.key == TURN_KEY:
                turn_of.extend(reply.mentions)
            try:
                if reply.is_private:
                    await self._private(reply, req, answer)
                elif reply.board is not None:
                    link = await self._board(reply, reply.board, req.chat_id, answer, stamp) or link
                elif answer is not None:
                    await answer.send(reply, ephemeral=False)
                else:
                    self.outbox.put(int(req.chat_id), _Post(reply))
            except discord.HTTPException:
                log.exception("could not deliver %s in chat %s", reply.key, pseudonym(req.chat_id))
        try:
            await self._refresh_hands(req, answer, turn_of)
        except discord.HTTPException:
            log.exception("could not refresh hands in chat %s", pseudonym(req.chat_id))
        return link

    async def _refresh_hands(
        self, req: Request, answer: _Answer | None, turn_of: list[str]
    ) -> None:
        """Cartas Maestras: a pressed hand message shows the hand after the move, and the
        player whose turn comes gets their hand privately when Discord lets us reach them."""
        own = answer.interaction.message if answer is not None else None
        if answer is not None and own is not None and own.flags.ephemeral and not answer.edited_own:
            hand = await self.core.hand_buttons(req, flat=False)
            if hand is not None:
                await answer.edit_own_message(hand)
        for user_id in dict.fromkeys(turn_of):
            if user_id == req.user_id and answer is not None:
                if own is not None and own.flags.ephemeral:
                    continue  # their hand message was just refreshed in place
                who = req
            else:
                reachable = self._reachable.get((req.chat_id, user_id))
                if reachable is None or time.monotonic() - reachable.at >= TOKEN_LIFETIME:
                    continue  # the channel's turn announcement mentions them; /hand shows it
                who = request_of(reachable.interaction)
            hand = await self.core.hand_buttons(who, flat=False)
            if hand is not None:
                await self._private(hand, req, answer)

    async def push(self, platform: str, chat_id: str, reply: Reply) -> None:
        """The core's out-of-band messages (turn timers, races ending)."""
        if platform != PLATFORM:
            return
        req = Request(PLATFORM, chat_id, "", "")
        await self.deliver([reply], req, None)

    async def _private(self, reply: Reply, req: Request, answer: _Answer | None) -> None:
        user = reply.to_user or req.user_id
        if answer is not None and user == req.user_id:
            own = answer.interaction.message
            if (
                reply.board is not None
                and own is not None
                and own.flags.ephemeral
                and reply.board.message_id == encode_board(own.channel.id, own.id)
            ):
                await answer.edit_own_message(reply)
            else:
                await answer.send(reply, ephemeral=True)
            return
        reachable = self._reachable.get((req.chat_id, user))
        if reachable is not None and time.monotonic() - reachable.at < TOKEN_LIFETIME:
            # An ephemeral follow-up on their own latest interaction: only they see it.
            followup = _Answer(reachable.interaction)
            with contextlib.suppress(discord.NotFound):
                await followup.send(reply, ephemeral=True)
                return
        if ascii_number(user) is not None:
            nudge = Reply(
                "discord.nudge",
                text(self._chat_lang(reply), "nudge.hand", mention=f"<@{user}>"),
                mentions=[],
            )
            only = discord.AllowedMentions(users=[discord.Object(int(user))])
            self.outbox.put(int(req.chat_id), _Post(nudge, allowed=only))

    def _chat_lang(self, reply: Reply) -> str:
        lang = reply.params.get("lang") if isinstance(reply.params, dict) else None
        return lang if lang in LANGUAGES else self.config.default_language

    async def _board(
        self, reply: Reply, board: BoardRef, chat_id: str, answer: _Answer | None, stamp: int
    ) -> str | None:
        """A board: the pressed message edited at once as this interaction's answer; another
        board message edited through the outbox; a new board posted as the answer (or through
        the outbox for a push). Returns the link of an edited board."""
        ref = decode_board(board.message_id) if board.message_id else None
        if ref is not None:
            channel_id = ref[0] or int(chat_id)
            message_id = self._moved.get((channel_id, ref[1]), ref[1])
            own = answer.interaction.message if answer is not None else None
            key = (channel_id, board.session_id)
            queued = ("board", board.session_id)
            if (
                answer is not None
                and own is not None
                and own.id == message_id
                # an older edit of this board waiting or on its way would land after this one
                and not self.outbox.holds(channel_id, queued)
            ):
                if self._shown.get(key, 0) < stamp:
                    try:
                        await answer.edit_own_message(reply)
                        self._shown[key] = stamp
                    except discord.NotFound:  # deleted meanwhile: the outbox posts it anew
                        self.outbox.put(channel_id, _Post(reply), coalesce_key=queued, seq=stamp)
                # else: a newer board of this game is showing already; the press is answered
                # (silently) by ``_Answer.finish``
            else:
                # the press, if any, is answered silently and the board follows its elders
                self.outbox.put(channel_id, _Post(reply), coalesce_key=queued, seq=stamp)
            return self._link(answer, channel_id, message_id)
        message = await answer.send(reply, ephemeral=False) if answer is not None else None
        if message is None:
            self.outbox.put(
                int(chat_id), _Post(reply), coalesce_key=("board", board.session_id), seq=stamp
            )
            return None
        self._board_shown(message.channel.id, board.session_id, message.id, stamp)
        await self.core.board_posted(board.session_id, encode_board(message.channel.id, message.id))
        return None

    def _board_shown(self, channel_id: int, session_id: str, message_id: int, stamp: int) -> None:
        key = (channel_id, session_id)
        self._shown[key] = max(self._shown.get(key, 0), stamp)
        self._posted[key] = (message_id, self.outbox.stamp())

    async def _deliver_queued(self, channel_id: int, item: OutItem) -> None:
        """Send one item of a channel's outbox (errors are read by ``discord_outbox.classify``)."""
        post: _Post = item.payload
        reply = post.reply
        channel = self.get_partial_messageable(channel_id)
        if reply.board is None:
            await channel.send(
                _content(reply),
                file=_file(reply) or discord.utils.MISSING,
                view=build_view(reply.buttons) or discord.utils.MISSING,
                allowed_mentions=post.allowed or _allowed(reply),
            )
            return
        session = reply.board.session_id
        key = (channel_id, session)
        if self._shown.get(key, 0) > item.seq:
            return  # a newer board of this game went out meanwhile (as an interaction's answer)
        target = self._queued_target(channel_id, reply.board, item.seq)
        if target is not None:
            try:
                await channel.get_partial_message(target).edit(**_edit_kwargs(reply))
                self._shown[key] = max(self._shown.get(key, 0), item.seq)
                return
            except discord.NotFound:
                log.info("board message %s is gone; posting a new one", target)
            await self.outbox.limiter.wait_turn(channel_id)  # the new message is one more call
        message = await channel.send(
            _content(reply),
            file=_file(reply) or discord.utils.MISSING,
            view=build_view(reply.buttons) or discord.utils.MISSING,
            allowed_mentions=_allowed(reply),
        )
        if target is not None:
            self._moved[(channel_id, target)] = message.id
        self._board_shown(channel_id, session, message.id, item.seq)
        await self.core.board_posted(session, encode_board(channel_id, message.id))

    def _queued_target(self, channel_id: int, board: BoardRef, queued_seq: int) -> int | None:
        """Which message a queued board edits, None to post a new one."""
        ref = decode_board(board.message_id) if board.message_id else None
        if ref is None:
            # The core did not know the message yet; if one was posted since this reply was
            # queued, it is that one.
            posted = self._posted.get((channel_id, board.session_id))
            return posted[0] if posted is not None and posted[1] > queued_seq else None
        message_id = ref[1]
        while (channel_id, message_id) in self._moved:
            message_id = self._moved[(channel_id, message_id)]
        return message_id

    def _link(self, answer: _Answer | None, channel_id: int, message_id: int) -> str:
        guild = answer.interaction.guild_id if answer is not None else None
        return f"https://discord.com/channels/{guild or '@me'}/{channel_id}/{message_id}"


@dataclass(frozen=True, slots=True)
class _Post:
    """One item of a channel's outbox: a reply, and whom it may ping when that is not just
    the reply's own ``mentions`` (a nudge names its player in the text)."""

    reply: Reply
    allowed: discord.AllowedMentions | None = None
