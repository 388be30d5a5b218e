"""Platform-neutral requests and replies: what adapters hand the core and get back.

Adapters (Discord, Telegram, console) turn a platform update into a ``Request`` and call
``Core.handle_text`` or ``Core.handle_button``; they turn each ``Reply`` into that platform's
calls. Adapters hold no game logic: which text, image and buttons to show is the core's choice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Visibility = Literal["channel", "private"]


@dataclass(frozen=True, slots=True)
class Mention:
    """Someone the platform itself pointed at in the request (a Discord user option, a
    Telegram ``text_mention``): the adapter writes them as ``<@user_id>`` in the text and lists
    them here. Only a token listed here stands for a user; typed ids name nobody."""

    user_id: str
    name: str


@dataclass(frozen=True, slots=True)
class Request:
    """Who asked, and where. Ids are strings, unique within ``platform``."""

    platform: str  # "discord" | "telegram" | "console" | "fake"
    chat_id: str  # channel / group / thread id
    user_id: str
    user_name: str
    is_group: bool = True
    is_admin: bool = False  # a chat admin (may change /lang, /end, /kick)
    mentions: tuple[Mention, ...] = ()  # people the platform pointed at (see Mention)


@dataclass(frozen=True, slots=True)
class Button:
    """A button. ``id`` is the encoded action (ASCII, at most 64 bytes): opaque to adapters,
    which send it back as it is; ``label`` is already in the chat's language. ``row`` groups
    buttons into keyboard rows.

    What an adapter may need to know besides is filled in by the core as plain fields
    (``bot.core.buttons.described``), so no adapter decodes an id: ``opens_hand`` (it shows
    the presser's private hand: Telegram opens its inline hand list instead of a callback),
    ``move`` (the move in notation it plays, when a typed ``/move <move>`` does the same) and
    ``key`` (what the button does, the same from one board to the next: ``pile:3`` picks or
    targets column 3, ``undo``; the console numbers buttons by it, so a number keeps its
    action)."""

    id: str
    label: str
    row: int = 0
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"
    opens_hand: bool = False
    move: str | None = None
    key: str | None = None


@dataclass(frozen=True, slots=True)
class BoardRef:
    """This reply is the board of ``session_id``: edit ``message_id`` in place when given,
    else post a new message and tell the core its id with ``Core.board_posted``."""

    session_id: str
    message_id: str | None = None


@dataclass(slots=True)
class Reply:
    """One message. ``text`` is already translated; ``key``/``params`` say what it means, for
    tests and for adapters that format some keys natively."""

    key: str
    text: str
    params: dict[str, Any] = field(default_factory=dict)
    image: bytes | None = None
    image_name: str = "board.png"
    buttons: list[Button] = field(default_factory=list)
    visibility: Visibility = "channel"
    to_user: str | None = None  # with visibility "private": the only user who may see it
    board: BoardRef | None = None
    mentions: list[str] = field(default_factory=list)  # user ids to notify (turn announcements)
    #: a private refusal that reveals nothing private (a bad command or argument, an illegal
    #: move, not your turn): an adapter may answer it in the chat instead, where its platform
    #: expects that (Telegram: as a reply to the command); hands and answers stay private
    refusal: bool = False
    #: the image in words, for players who cannot see it (``bot.core.board_words``): Discord's
    #: attachment description, a Telegram caption's quote; with ``text``, at most 1,024
    #: characters together (both platforms' limit); None: no words for it
    alt_text: str | None = None

    @property
    def is_private(self) -> bool:
        return self.visibility == "private"
