"""Telegram's side of a reply: keyboards, callback and board ids, HTML text, callback answers,
commands and mentions read from a message, and what one queued message carries
(``Outgoing``)."""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import i18n
from bot.platforms.telegram.config import LANGUAGES
from bot.replies import Button, Mention, Reply

log = logging.getLogger(__name__)

CALLBACK_DATA_MAX = 64
CALLBACK_ANSWER_MAX = 200
CAPTION_MAX = 1024
TEXT_MAX = 4096
BUTTONS_PER_ROW = 8
#: callback answers longer than this open as an alert the player must dismiss
ALERT_FROM = 60
#: Bot API descriptions that mean "this message cannot be edited any more: post a new one"
EDIT_IMPOSSIBLE = (
    "message to edit not found",
    "message can't be edited",
    "message_id_invalid",
    "message identifier is not specified",
    "there is no media in the message to edit",
)


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
        if button.opens_hand:
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


def caption_html(reply: Reply) -> str:
    """A picture's caption: the reply's text, then its words (``reply.alt_text``) in a quote
    that stays folded until opened (a screen reader reads it; a glance sees one line). Telegram
    counts a caption's characters after reading its HTML: at most ``CAPTION_MAX`` of them.

    >>> caption_html(Reply("board.caption", "Canfield · move 3", alt_text="Waste: 7♣ & 8♦."))
    'Canfield · move 3\\n<blockquote expandable>Waste: 7♣ &amp; 8♦.</blockquote>'
    """
    caption = html_text(reply, CAPTION_MAX)
    if not reply.alt_text:
        return caption
    room = CAPTION_MAX - shown_length(caption) - 1
    words = reply.alt_text
    if len(words) > room:
        if room < 2:
            return caption
        words = words[: room - 1] + "…"
    quote = f"<blockquote expandable>{html.escape(words)}</blockquote>"
    return f"{caption}\n{quote}" if caption else quote


def shown_length(text_html: str) -> int:
    """How many characters Telegram counts in an HTML text: tags left out, entities as one
    character each, in UTF-16 code units (an emoji outside the basic plane counts two).

    >>> shown_length('a &amp; <a href="tg://user?id=1">🔔</a>')
    6
    """
    shown = html.unescape(_TAG.sub("", text_html))
    return len(shown.encode("utf-16-le")) // 2


_TAG = re.compile(r"<[^>]*>")


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


def with_mentions(text: str, entities: Sequence[Any]) -> tuple[str, tuple[Mention, ...]]:
    """The command line as the core reads it, and the people Telegram itself pointed at in it:
    each ``text_mention`` entity (a user picked from the members list, who has no @username;
    Telegram delivers their id with it) becomes ``<@id>`` in the text. A ``mention``
    (``@username``) carries no id and stays text: the core looks it up among the chat's
    people. An id typed by hand is no entity, so it names nobody.

    >>> from types import SimpleNamespace as O
    >>> ana = O(id=42, username=None, full_name="Ana María")
    >>> with_mentions("/stats Ana María", [O(type="text_mention", offset=7, length=9, user=ana)])
    ('/stats <@42>', (Mention(user_id='42', name='Ana María'),))
    >>> with_mentions("/kick 🎲 Bo", [O(type="text_mention", offset=9, length=2, user=O(id=7, username="bo", full_name="B"))])
    ('/kick 🎲 <@7>', (Mention(user_id='7', name='bo'),))
    """
    found = [e for e in entities if getattr(e, "type", None) == "text_mention" and e.user]
    if not found:
        return text, ()
    # entity offsets count UTF-16 code units
    units = text.encode("utf-16-le")
    mentions: list[Mention] = []
    for entity in sorted(found, key=lambda e: e.offset, reverse=True):
        start, end = 2 * entity.offset, 2 * (entity.offset + entity.length)
        if not 0 <= start < end <= len(units):
            continue
        user = entity.user
        units = units[:start] + f"<@{int(user.id)}>".encode("utf-16-le") + units[end:]
        mentions.insert(0, Mention(str(int(user.id)), user.username or user.full_name or "?"))
    return units.decode("utf-16-le"), tuple(dict.fromkeys(mentions))


def language_of(code: str | None, default: str) -> str:
    """The language of a Telegram ``language_code`` if the bot speaks it, else the bot's
    default language (``DEFAULT_LANGUAGE``).

    >>> language_of("it", "es"), language_of("es-AR", "en"), language_of("fr", "es"), language_of(None, "it")
    ('it', 'es', 'es', 'it')
    """
    base = (code or "").replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else i18n.normalise(default)


@dataclass(slots=True)
class Outgoing:
    """A reply on its way to a chat. ``origin_chat``: the chat whose request caused it (a
    private hand message remembers its table). ``notify``: for a private answer, whom to tell
    in ``origin_chat`` when the private chat is closed: (user id, name, language).
    ``reply_to``: the message this one answers (a refusal of a command, in the group)."""

    reply: Reply
    origin_chat: int
    notify: tuple[int, str, str] | None = None
    reply_to: int | None = None
