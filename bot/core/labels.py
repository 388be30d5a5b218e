"""Button labels: what a player reads on the buttons of a board or a private hand.

Labels come from the game's public view (``docs/views.md``) and the chat's language; the
button ids never depend on them. Piles of the card games show their id and top card, Squadratik
hand cards show their number in the hand and their balls, Squadratik destinations name the
path (and the turn after an empty card), as ``/help`` words them.

>>> view = {"piles": [{"id": "3", "cards": ["Kh"]}], "deck": "french52"}
>>> source_label("en", view, "francesi", "3")
'3 · K♥'
>>> hand = {"hand": [{"kind": "normal", "sides": ["R2", "B1", "0", "0"]}], "paths": {}}
>>> source_label("en", hand, "squadratik", "h1"), target_label("it", hand, "squadratik", "S>e")
('Card 1 · R2 B1', 'percorso S, svoltando a est')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot import i18n
from engine import Move

_HAND_SLOT = re.compile(r"^h(\d{1,2})$")
_PATH_END = re.compile(r"^([NESW])(?:>([nesw]))?$")


def pile_label(lang: str, view: Mapping[str, Any], faces: str, pile_id: str) -> str:
    """A card pile: its id and its top card (``3 · K♥``), or that it is empty.

    >>> pile_label("es", {"piles": [{"id": "w", "cards": []}]}, "francesi", "w")
    'w · vacío'
    """
    for pile in view.get("piles") or []:
        if pile.get("id") == pile_id:
            if pile.get("cards"):
                card = i18n.card_label(pile["cards"][-1], view.get("deck"), faces, lang)
                return i18n.t(lang, "button.pile_card", pile=pile_id, card=card)
            return i18n.t(lang, "button.pile_empty", pile=pile_id)
    return pile_id


def hand_card_label(lang: str, card: dict[str, Any], slot: int) -> str:
    """A Squadratik hand card: its number in the hand (as the notation counts it) and the
    balls on its printed sides, blank sides left out.

    >>> hand_card_label("en", {"kind": "normal", "sides": ["B4", "0", "R3", "R3"]}, 1)
    'Card 1 · B4 R3 R3'
    >>> hand_card_label("es", {"kind": "empty", "sides": ["0", "0", "0", "0"]}, 4)
    'Carta 4 · vacía'
    >>> hand_card_label("it", {"kind": "master", "sides": ["B3", "B4", "B1", "B2"]}, 2)
    'Carta 2 · maestra B3 B4 B1 B2'
    """
    sides = " ".join(str(side) for side in card.get("sides") or [] if str(side) != "0")
    if card.get("kind") == "empty" or not sides:
        return i18n.t(lang, "button.hand_card_empty", slot=slot)
    if card.get("kind") == "master":
        return i18n.t(lang, "button.hand_card_master", slot=slot, sides=sides)
    return i18n.t(lang, "button.hand_card", slot=slot, sides=sides)


def path_label(lang: str, destination: str) -> str:
    """A Squadratik destination (``N``, ``S>e``) as words; anything else as it is.

    >>> path_label("en", "N"), path_label("es", "S>w"), path_label("en", "x")
    ('path N', 'camino S, girando al oeste', 'x')
    """
    found = _PATH_END.match(destination)
    if found is None:
        return destination
    side, turn = found.groups()
    if turn is None:
        return i18n.t(lang, "button.path", side=side)
    return i18n.t(lang, "button.path_turn", side=side, direction=i18n.t(lang, f"direction.{turn}"))


def source_label(lang: str, view: Mapping[str, Any], faces: str, source: str) -> str:
    """What a first tap selects: a hand card (Squadratik) or a pile."""
    slot = _HAND_SLOT.match(source)
    hand = view.get("hand")
    if slot is not None and isinstance(hand, list) and 1 <= int(slot.group(1)) <= len(hand):
        return hand_card_label(lang, hand[int(slot.group(1)) - 1], int(slot.group(1)))
    return pile_label(lang, view, faces, source)


def target_label(lang: str, view: Mapping[str, Any], faces: str, destination: str) -> str:
    """Where the selected card goes: a Squadratik path or a pile."""
    if "paths" in view:
        return path_label(lang, destination)
    return pile_label(lang, view, faces, destination)


def hand_move_label(lang: str, move: Move) -> str:
    """A Cartas Maestras hand button: ``Card 1 → path N``, with the quarter turns before
    placing when there are any; pass and stop by name.

    >>> from engine.squadratik.notation import parse_notation
    >>> [hand_move_label("en", parse_notation(m)) for m in ("2N", "1Ser1", "pass")]
    ['Card 2 → path N', 'Card 1 (¼ turn) → path S, turning east', 'Pass']
    """
    text = str(move)
    if text in ("pass", "stop"):
        return i18n.t(lang, f"button.{text}")
    slot, destination = getattr(move, "slot", None), move.dst
    if slot is None or destination is None:
        return text
    path = path_label(lang, str(destination))
    rotation = int(getattr(move, "rotation", 0) or 0)
    if rotation:
        turns = i18n.t(lang, f"button.rotation.{rotation}")
        return i18n.t(lang, "button.place_turned", slot=slot, turns=turns, path=path)
    return i18n.t(lang, "button.place", slot=slot, path=path)


def hand_group_label(lang: str, move: Move) -> str:
    """The first step of placing a card that fits one place in several rotations:
    ``Card 2 → path N …`` (the rotations come next).

    >>> from engine.squadratik.notation import parse_notation
    >>> hand_group_label("en", parse_notation("2Nr3"))
    'Card 2 → path N …'
    """
    slot, destination = getattr(move, "slot", None), move.dst
    if slot is None or destination is None:
        return str(move)
    return i18n.t(lang, "button.place_choose", slot=slot, path=path_label(lang, str(destination)))


def rotation_label(lang: str, move: Move) -> str:
    """The second step: how the card is turned before placing (``No turn``, ``¼ turn``).

    >>> from engine.squadratik.notation import parse_notation
    >>> rotation_label("en", parse_notation("2N")), rotation_label("it", parse_notation("2Nr1"))
    ('No turn', '¼ di giro')
    """
    rotation = int(getattr(move, "rotation", 0) or 0)
    return i18n.t(lang, f"button.rotation.{rotation}")
