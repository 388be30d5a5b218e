"""Button ids: the one place they are encoded and decoded.

A button id is ``v1:verb:session:revision:arg`` — ASCII, at most 64 bytes (Telegram's
callback-data limit; Discord allows 100). ``revision`` is the session's board revision when
the board was drawn: it counts every change to the game (moves, and undos, which would
otherwise bring an old move number back), so with no undo it equals the move number. The core
refuses a press whose revision is not the session's current one ("this board is out of date"),
which also makes a double press apply its move once; only join and leave accept an older copy
of a lobby message (same lobby, same meaning), and no verb accepts a revision the session has
not reached.

>>> bid = encode("mv", "a1b2c3d4", 7, "w3")
>>> bid
'v1:mv:a1b2c3d4:7:w3'
>>> decode(bid)
ButtonAction(verb='mv', session_id='a1b2c3d4', revision=7, arg='w3')
>>> decode("v2:mv:x:1:y") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.replies import Button, Reply

VERSION = "v1"
MAX_BYTES = 64

#: every verb the core understands; a forged id with another verb decodes to None
VERBS = frozenset(
    {
        "mv",  # play the move in arg (notation, or "#<index>" into the sorted legal moves)
        "sel",  # select a source pile / hand card: show its targets (no change to the game)
        "back",  # leave the selection: show the sources again
        "found",  # one tap: send a card to a foundation (arg: the source, "*" for any)
        "undo",
        "resign",
        "again",  # a finished solo game's "play again": a new deal of the same game and faces
        "hand",  # show my private hand (Cartas Maestras)
        "turn",  # my hand, one card on one path chosen: its rotations (arg: "2N", "1Se")
        "rematch",  # a finished table's "play again": a new lobby with the same seats
        "join",
        "leave",
        "start",
        "kick",  # the answer to "which player?" of /kick (arg: "<seat index>.<seat check>")
        "pick",  # "which game?": act on this session (arg: resign, undo, leave, board, move:<text>)
        "yes",  # a question answered Yes (arg: the stored question's id)
        "no",  # a question answered No (arg: the stored question's id)
    }
)

_SESSION_RE = re.compile(r"^[0-9a-z]{1,16}$")


@dataclass(frozen=True, slots=True)
class ButtonAction:
    """A decoded button id."""

    verb: str
    session_id: str
    revision: int
    arg: str = ""


class ButtonIdTooLong(ValueError):
    """The id would not fit a Telegram callback (the caller picks a shorter ``arg``)."""


def encode(verb: str, session_id: str, revision: int, arg: str = "") -> str:
    """The id of a button; ``ButtonIdTooLong`` when it would exceed 64 bytes.

    >>> encode("sel", "s1", 0, "7")
    'v1:sel:s1:0:7'
    """
    if verb not in VERBS:
        raise ValueError(f"unknown button verb {verb!r}")
    if not _SESSION_RE.match(session_id) or revision < 0:
        raise ValueError("bad session id or revision")
    text = f"{VERSION}:{verb}:{session_id}:{revision}:{arg}"
    if not text.isascii():
        raise ValueError(f"button ids are ASCII: {text!r}")
    if len(text.encode()) > MAX_BYTES:
        raise ButtonIdTooLong(text)
    return text


def decode(button_id: str) -> ButtonAction | None:
    """The action of a button id, or None when it is not one of ours (forged, old version,
    too long, malformed). Never raises.

    >>> decode("v1:mv:s1:x:w3") is None
    True
    """
    if not isinstance(button_id, str) or not button_id.isascii():
        return None
    if len(button_id) > MAX_BYTES:  # ASCII: one byte a character
        return None
    parts = button_id.split(":", 4)
    if len(parts) != 5:
        return None
    version, verb, session_id, revision, arg = parts
    if version != VERSION or verb not in VERBS or not _SESSION_RE.match(session_id):
        return None
    if not revision.isdigit() or len(revision) > 9:  # the id is ASCII (checked above)
        return None
    if not arg.isprintable():
        return None
    return ButtonAction(verb, session_id, int(revision), arg)


#: verbs whose action is the same whatever their argument (one key each)
_PLAIN_KEYS = {"back": "cancel", "no": "cancel", "rematch": "again"}


def key_of(button_id: str) -> str:
    """A stable name of what a button does, from its id alone: the same action on the next
    board has the same key (the session's revision and the question's id are left out).

    >>> key_of("v1:resign:s1:7:"), key_of("v1:back:s1:3:"), key_of("v1:mv:s1:3:w3")
    ('resign', 'cancel', 'mv:w3')
    """
    action = decode(button_id)
    return button_id if action is None else _key(action)


def _key(action: ButtonAction) -> str:
    if action.verb in _PLAIN_KEYS:
        return _PLAIN_KEYS[action.verb]
    if action.verb in ("mv", "sel", "found", "turn", "pick"):
        return f"{action.verb}:{action.arg}" + (
            f"@{action.session_id}" if action.verb == "pick" else ""
        )
    return action.verb


def typed_move(button_id: str) -> str | None:
    """The move in notation a button id plays, when typing ``/move <it>`` does the same (a
    move by index into the legal moves, ``#3``, is not a notation), else None.

    >>> typed_move("v1:mv:s1:4:2Nr1"), typed_move("v1:mv:s1:4:#3"), typed_move("v1:undo:s1:4:")
    ('2Nr1', None, None)
    """
    return _typed_move(decode(button_id))


def _typed_move(action: ButtonAction | None) -> str | None:
    if action is None or action.verb != "mv" or not action.arg or action.arg.startswith("#"):
        return None
    return action.arg


def described(button: Button) -> Button:
    """``button`` with the plain facts adapters read instead of its id (see ``Button``).

    >>> described(Button("v1:hand:s1:0:", "Hand")).opens_hand, described(Button("v1:mv:s1:0:w3", "W")).move
    (True, 'w3')
    """
    action = decode(button.id)  # once: every reply's every button passes here
    opens_hand = action is not None and action.verb == "hand"
    key = button.key or (button.id if action is None else _key(action))
    return Button(
        button.id, button.label, button.row, button.style, opens_hand, _typed_move(action), key
    )


def describe(replies: Sequence[Reply]) -> list[Reply]:
    """Every reply with its buttons described: the core calls it on every reply it hands an
    adapter (answers and pushes)."""
    for reply in replies:
        if reply.buttons:
            reply.buttons = [described(b) for b in reply.buttons]
    return list(replies)
