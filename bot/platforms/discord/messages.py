"""Discord messages: board ids, requests from interactions, the persistent buttons, reply
content and files, and how one interaction gets answered (``Answer``)."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import discord

from bot import i18n
from bot.core.commands import ascii_number
from bot.replies import Button, Reply, Request

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

PLATFORM = "discord"
#: Discord's limits for classic message components
MAX_ROWS, MAX_PER_ROW, MAX_LABEL = 5, 5, 80

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

_LOCALE_LANG = {
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.italian: "it",
}


LANGUAGES = i18n.LANGUAGES


def text(lang: str, key: str, **params: Any) -> str:
    """A text only Discord shows (``discord.<key>`` in the catalogues).

    >>> text("es", "option.game"), text("it", "ack.board", link="https://x")
    ('Juego', 'Tavolo aggiornato: https://x')
    """
    return i18n.t(lang, f"discord.{key}", **params)


def game_name(lang: str, game_id: str) -> str:
    """How a game is called in ``lang``."""
    return i18n.game_name(lang, game_id)


def face_name(lang: str, faces: str) -> str:
    """How a face style is called (the same names in every language)."""
    return text(lang, f"face.{faces}")


def language_name(lang: str, in_lang: str) -> str:
    """The name of ``lang`` in ``in_lang``."""
    return i18n.language_name(lang, in_lang)


@runtime_checkable
class ButtonSink(Protocol):
    """The client side a pressed button goes to."""

    async def on_button(self, interaction: discord.Interaction, custom_id: str) -> None: ...


# ----- ids ---------------------------------------------------------------------------------------
def encode_board(channel_id: int, message_id: int) -> str:
    """The board message id the core stores.

    >>> encode_board(1, 2)
    '1:2'
    """
    return f"{channel_id}:{message_id}"


def decode_board(value: str) -> tuple[int | None, int] | None:
    """``(channel id or None, message id)`` of a stored board id; None when not ours.

    >>> decode_board("1:2"), decode_board("7"), decode_board("x")
    ((1, 2), (None, 7), None)
    """
    channel, _, message = value.rpartition(":")
    if ascii_number(message) is None or (channel and ascii_number(channel) is None):
        return None
    return (int(channel) if channel else None, int(message))


def lang_of(interaction: discord.Interaction) -> str:
    """The user's Discord language as one of ours (for autocomplete labels)."""
    return _LOCALE_LANG.get(interaction.locale, "en")


def request_of(interaction: discord.Interaction) -> Request:
    """The core's ``Request`` for an interaction: the channel (or thread) is the chat."""
    user = interaction.user
    permissions = interaction.permissions
    return Request(
        platform=PLATFORM,
        chat_id=str(interaction.channel_id),
        user_id=str(user.id),
        user_name=user.display_name,
        is_group=interaction.guild_id is not None,
        is_admin=bool(
            permissions.administrator or permissions.manage_guild or permissions.manage_channels
        ),
    )


# ----- buttons -----------------------------------------------------------------------------------
class TavoloButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"v1:[\x21-\x7e]{1,97}"
):
    """A core button. Rebuilt from its custom id on every press, so it outlives restarts."""

    def __init__(
        self,
        custom_id: str,
        label: str = "\u200b",
        style: str = "secondary",
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=custom_id,
                label=(label or "\u200b")[:MAX_LABEL],
                style=_STYLES.get(style, discord.ButtonStyle.secondary),
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # discord.py passes our own Button
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> TavoloButton:
        return cls(item.custom_id or match.group(0), item.label or "\u200b")

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        if isinstance(client, ButtonSink):
            await client.on_button(interaction, self.custom_id)


def build_view(buttons: Sequence[Button]) -> discord.ui.View | None:
    """The message components of a reply's buttons, rows kept, at most 5 rows of 5.

    A core row longer than 5 continues on the next row; what does not fit is dropped with a
    warning (the core keeps every action reachable by text commands too)."""
    if not buttons:
        return None
    rows: list[list[Button]] = []
    for row_number in sorted({b.row for b in buttons}):
        row = [b for b in buttons if b.row == row_number]
        rows.extend(row[i : i + MAX_PER_ROW] for i in range(0, len(row), MAX_PER_ROW))
    if len(rows) > MAX_ROWS:
        log.warning("dropping %d button rows that Discord cannot show", len(rows) - MAX_ROWS)
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows[:MAX_ROWS]):
        for button in row:
            view.add_item(TavoloButton(button.id, button.label, button.style, row=index))
    return view


#: Discord's longest attachment description
ALT_TEXT_MAX = 1024


def _file(reply: Reply) -> discord.File | None:
    if reply.image is None:
        return None
    # the image's words are its alt text: what a screen reader reads for the picture
    description = reply.alt_text[:ALT_TEXT_MAX] if reply.alt_text else None
    return discord.File(io.BytesIO(reply.image), filename=reply.image_name, description=description)


def _content(reply: Reply) -> str:
    text = reply.text
    if reply.params.get("preformatted") and text:
        # Tables (leaderboards) line up only in a code block's fixed-width font.
        text = f"```\n{text.replace('```', 'ˋˋˋ')}\n```"
    mentions = " ".join(
        f"<@{user_id}>" for user_id in reply.mentions if ascii_number(user_id) is not None
    )
    return f"{mentions} {text}".strip() if mentions else text


def _allowed(reply: Reply) -> discord.AllowedMentions:
    """Ping only the users the core names in ``reply.mentions`` (an invitee, whose turn it
    is), never @everyone or roles, and never a ``<@id>`` that merely appears in the text: a
    display name can read ``<@id>``, and that must not ping anybody."""
    ids = {u for u in reply.mentions if ascii_number(u) is not None}
    users = [discord.Object(int(u)) for u in sorted(ids)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


# ----- one interaction's answer ------------------------------------------------------------------
class _Answer:
    """Tracks how one interaction has been answered, so each reply takes the right road:
    the interaction response first, follow-ups after, and never a private text in a public
    "thinking" message."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.deferred_ephemeral: bool | None = None  # set by a "thinking" defer
        self.original_pending = False  # the "thinking" message still waits for its text
        self.said_something = False
        self.edited_own = False  # the pressed message was edited already

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def defer(self, ephemeral: bool) -> None:
        if self.done:
            return
        if self.interaction.type is discord.InteractionType.component:
            await self.interaction.response.defer()
        else:
            await self.interaction.response.defer(thinking=True, ephemeral=ephemeral)
            self.deferred_ephemeral = ephemeral
            self.original_pending = True

    async def send(self, reply: Reply, *, ephemeral: bool) -> discord.Message | None:
        kwargs: dict[str, Any] = {
            "content": _content(reply) or None,
            "allowed_mentions": _allowed(reply),
        }
        file = _file(reply)
        if file is not None:
            kwargs["file"] = file
        view = build_view(reply.buttons)
        if view is not None:
            kwargs["view"] = view
        self.said_something = True
        if not self.done:
            response = await self.interaction.response.send_message(ephemeral=ephemeral, **kwargs)
            resource = response.resource
            return resource if isinstance(resource, discord.Message) else None
        if self.original_pending and self.deferred_ephemeral != ephemeral:
            # The first follow-up would replace the "thinking" message and keep its visibility.
            await self.interaction.edit_original_response(content=text(self.lang, "ack.done"))
            self.original_pending = False
        self.original_pending = False
        return await self.interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)

    async def edit_own_message(self, reply: Reply) -> bool:
        """Edit the message whose button was pressed (board or ephemeral hand)."""
        kwargs = _edit_kwargs(reply)
        own = self.interaction.message
        self.edited_own = True
        if not self.done:
            await self.interaction.response.edit_message(**kwargs)
        elif own is None:
            return False
        elif own.flags.ephemeral:
            # By id, never "@original": after a reply that is the newest response message.
            await self.interaction.followup.edit_message(own.id, **kwargs)
        else:
            channel = self.interaction.client.get_partial_messageable(own.channel.id)
            await channel.get_partial_message(own.id).edit(**kwargs)
        return True

    @property
    def lang(self) -> str:
        return lang_of(self.interaction)

    async def finish(self, board_link: str | None) -> None:
        """Every interaction needs an answer: a silent one for buttons, a short one for commands."""
        if self.interaction.type is discord.InteractionType.component:
            if not self.done:
                await self.interaction.response.defer()
            return
        if self.said_something and not self.original_pending:
            return
        note = (
            text(self.lang, "ack.board", link=board_link)
            if board_link
            else text(self.lang, "ack.done")
        )
        if not self.done:
            await self.interaction.response.send_message(note, ephemeral=True)
        else:
            await self.interaction.edit_original_response(content=note)


def _edit_kwargs(reply: Reply) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "content": _content(reply) or None,
        "view": build_view(reply.buttons),
        "allowed_mentions": _allowed(reply),
    }
    file = _file(reply)
    kwargs["attachments"] = [file] if file is not None else []
    return kwargs


@dataclass(slots=True)
class _Reachable:
    """A user's latest interaction in a chat: its token sends them ephemeral follow-ups."""

    interaction: discord.Interaction
    at: float
