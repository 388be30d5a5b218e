"""The buttons under a board or a hand, and their layout: a lobby's (join, leave, start), a
solo board's select-then-target buttons, a Cartas Maestras hand's in steps (card, place,
rotation), at most ``MAX_BUTTONS``, ``PER_ROW`` a row. They read the session and its view;
nothing here changes a game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot import i18n
from bot.core import buttons as button_ids
from bot.core import labels
from bot.core.session import Session
from bot.replies import Button
from engine import Move

#: Discord shows at most 25 buttons (5 rows of 5); Telegram takes more, but stays readable
MAX_BUTTONS = 25
PER_ROW = 5
#: the rotation at the end of a Cartas Maestras placement's notation ("3Wr1")
_ROTATION = re.compile(r"r\d$")


def with_row(button: Button, row: int) -> Button:
    """``button`` in keyboard row ``row`` (``dataclasses.replace`` costs several times more,
    for every button of every board)."""
    return Button(
        button.id, button.label, row, button.style, button.opens_hand, button.move, button.key
    )


def pile_ids(view: Mapping[str, Any], kind: str) -> set[str]:
    """The ids of the view's piles of one kind (``foundation``, ``stock``)."""
    return {p["id"] for p in view.get("piles") or [] if p.get("kind") == kind}


def lobby_buttons(lang: str, session: Session) -> list[Button]:
    rid, rev = session.id, session.record.revision
    return [
        Button(button_ids.encode("join", rid, rev), i18n.t(lang, "button.join"), 0, "primary"),
        Button(button_ids.encode("leave", rid, rev), i18n.t(lang, "button.leave"), 0),
        Button(button_ids.encode("start", rid, rev), i18n.t(lang, "button.start"), 0, "success"),
    ]


def move_button_id(session: Session, legal: list[Move], move: Move) -> str:
    rec = session.record
    try:
        return button_ids.encode("mv", rec.id, rec.revision, str(move))
    except button_ids.ButtonIdTooLong:
        # Long notation: the index into legal_moves() (same revision = same position).
        return button_ids.encode("mv", rec.id, rec.revision, f"#{legal.index(move)}")


def solo_buttons(
    lang: str,
    session: Session,
    view: Mapping[str, Any],
    selected: str | None,
    undo: bool = True,
) -> list[Button]:
    """Select-then-target buttons: first a source (``move.src``), then its targets
    (``move.dst``); moves without a target (turning the stock) and "to foundation" are one
    tap; undo (when ``undo`` and the game allows it) and resign close the list."""
    game = session.game
    assert game is not None
    rec = session.record
    legal = game.legal_moves()
    foundations = pile_ids(view, "foundation")
    faces = rec.faces
    found: list[Button] = []
    if selected is None:
        sources: list[str] = []
        stock = pile_ids(view, "stock")
        for move in legal:
            src = move.src
            dst = move.dst
            if dst is None:
                label = i18n.t(lang, "button.draw") if src in stock else str(move)
                key = f"pile:{src}" if src in stock else f"mv:{move}"
                found.append(
                    Button(move_button_id(session, legal, move), label, 0, "primary", key=key)
                )
            elif src is not None and src not in sources:
                sources.append(str(src))
        if any(m.dst in foundations for m in legal):
            found.append(
                Button(
                    button_ids.encode("found", rec.id, rec.revision, "*"),
                    i18n.t(lang, "button.to_foundation"),
                    0,
                    "success",
                )
            )
        for src in sources:
            found.append(
                Button(
                    button_ids.encode("sel", rec.id, rec.revision, src),
                    labels.source_label(lang, view, faces, src),
                    key=f"pile:{src}",
                )
            )
    else:
        targets = [m for m in legal if str(m.src) == selected and m.dst is not None]
        per_dst: dict[str, list[Move]] = {}
        for move in targets:
            per_dst.setdefault(str(move.dst), []).append(move)
        for dst, moves in per_dst.items():
            for move in moves:
                label = (
                    labels.target_label(lang, view, faces, dst) if len(moves) == 1 else str(move)
                )
                # a target keeps its pile's number: "#3" is column 3 as source and target
                key = f"pile:{dst}" if len(moves) == 1 else f"mv:{move}"
                found.append(
                    Button(
                        move_button_id(session, legal, move),
                        i18n.t(lang, "button.target", target=label),
                        0,
                        "primary",
                        key=key,
                    )
                )
        found.append(
            Button(
                button_ids.encode("back", rec.id, rec.revision),
                i18n.t(lang, "button.cancel"),
                0,
            )
        )
    tail = []
    if undo and game.moves and not rec.ranked:
        tail.append(
            Button(button_ids.encode("undo", rec.id, rec.revision), i18n.t(lang, "button.undo"), 0)
        )
    tail.append(
        Button(
            button_ids.encode("resign", rec.id, rec.revision),
            i18n.t(lang, "button.resign"),
            0,
            "danger",
        )
    )
    found = found[: MAX_BUTTONS - len(tail)] + tail
    return [with_row(b, i // PER_ROW) for i, b in enumerate(found)]


def hand_buttons(
    lang: str,
    table: Session,
    legal: list[Move],
    placing: str | None,
    hand: list[dict[str, Any]] | None = None,
) -> list[Button]:
    """A hand's buttons (see ``hand``), never more than fit: one per card and place
    (``Card 2 → path N``; a ``turn`` button when several rotations fit there); when those
    are too many, one per card first (``turn`` with ``c2``), its places next. ``placing``:
    the card (``c2``) or card and place (``2N``) chosen so far; a way back follows."""
    rec = table.record

    def place(move: Move) -> str:  # the notation without its rotation ("2Nr3" -> "2N")
        return (
            _ROTATION.sub("", str(move)) if getattr(move, "slot", None) is not None else str(move)
        )

    def card(move: Move) -> str:
        slot = getattr(move, "slot", None)
        return str(move) if slot is None or move.dst is None else f"c{slot}"

    back = Button(button_ids.encode("hand", rec.id, rec.revision), i18n.t(lang, "button.cancel"), 0)
    rotations = [m for m in legal if place(m) == placing]
    if placing is not None and len(rotations) > 1:
        return [
            *(
                Button(
                    move_button_id(table, legal, m),
                    labels.rotation_label(lang, m),
                    0,
                    "primary",
                )
                for m in rotations
            ),
            back,
        ]
    chosen_card = placing is not None and placing.startswith("c")
    moves = [m for m in legal if card(m) == placing] if chosen_card else legal
    groups: dict[str, list[Move]] = {}
    for move in moves:
        groups.setdefault(place(move), []).append(move)
    if not chosen_card and len(groups) > MAX_BUTTONS:
        by_card: dict[str, list[Move]] = {}
        for move in moves:
            by_card.setdefault(card(move), []).append(move)
        found = []
        for key, members in by_card.items():
            slot = getattr(members[0], "slot", None)
            if not key.startswith("c") or slot is None:
                found.append(
                    Button(
                        move_button_id(table, legal, members[0]),
                        labels.hand_move_label(lang, members[0]),
                        0,
                        "primary",
                    )
                )
                continue
            shown = hand[slot - 1] if hand and 1 <= slot <= len(hand) else {}
            label = labels.hand_card_label(lang, shown, slot) + " …" if shown else f"{slot} …"
            found.append(
                Button(button_ids.encode("turn", rec.id, rec.revision, key), label, 0, "primary")
            )
        return found
    found = []
    for key, members in groups.items():
        if len(members) == 1:
            found.append(
                Button(
                    move_button_id(table, legal, members[0]),
                    labels.hand_move_label(lang, members[0]),
                    0,
                    "primary",
                )
            )
        else:
            found.append(
                Button(
                    button_ids.encode("turn", rec.id, rec.revision, key),
                    labels.hand_group_label(lang, members[0]),
                    0,
                    "primary",
                )
            )
    return [*found, back] if chosen_card else found
