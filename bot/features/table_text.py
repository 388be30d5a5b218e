"""What a Cartas Maestras table says in the chat: a play and what it won, the turn timer,
and the names players read for each seat (on boards too).

>>> timer_text("en", None)
'none (untimed table)'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from bot import i18n
from bot.core import labels
from bot.core.explain import NAME_ROOM, final_phase_key
from bot.core.names import short_name
from bot.core.session import Session


def card_words(lang: str, card: dict[str, Any]) -> str:
    """A Squadratik card as a line in chat names it: its balls, blank sides left out.

    >>> card_words("en", {"kind": "master", "sides": ["B3", "B4", "B1", "B2"]})
    'master B3 B4 B1 B2'
    >>> card_words("es", {"kind": "empty", "sides": ["0", "0", "0", "0"]})
    'una carta vacía'
    """
    sides = " ".join(str(side) for side in card.get("sides") or [] if str(side) != "0")
    if card.get("kind") == "empty" or not sides:
        return i18n.t(lang, "tables.card_empty")
    if card.get("kind") == "master":
        return i18n.t(lang, "tables.card_master", sides=sides)
    return i18n.t(lang, "tables.card_normal", sides=sides)


def _seat(view: Mapping[str, Any], player: str) -> dict[str, Any]:
    return next((s for s in view.get("seats") or [] if s.get("player") == player), {})


def play_lines(
    lang: str,
    game: engine.Game,
    name: str,
    player: str,
    notation: str,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None = None,
) -> list[str]:
    """One short line for a play (who, which card, where) and, when it completed a path, one
    for what it won. ``before`` is the mover's view just before the move (their hand);
    ``after`` the public view after it (read from ``game`` when not given).

    >>> g = engine.new_game("maestras", deal=1, players=["ana", "bo"])
    >>> before = g.view("ana"); move = str(g.legal_moves()[0]); _ = g.play(move)
    >>> play_lines("en", g, "Ana", "ana", move, before)
    ['Ana plays master R4 B2 B4 R2 on path N.']

    A play that ends the main phase is followed by what the final phase is (or that there is
    none), so nobody meets it as a mere change of the board's header.
    """
    # a long name would push the card and the path off a phone's line; the public view after
    # the play is built once for both (a table's view is the costly part of these lines)
    if after is None:
        after = game.view(None)
    lines = _play_lines(lang, game, short_name(name), player, notation, before, after)
    phase_key = final_phase_key(before or {}, after)
    if phase_key is not None:
        lines.append(i18n.t(lang, phase_key))
    return lines


def _play_lines(
    lang: str,
    game: engine.Game,
    name: str,
    player: str,
    notation: str,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any],
) -> list[str]:
    if notation == "pass":
        return [i18n.t(lang, "tables.played_pass", player=name)]
    if notation == "stop":
        return [i18n.t(lang, "tables.played_stop", player=name)]
    move = game.parse_move(notation)
    slot, destination = getattr(move, "slot", None), move.dst
    hand = (before or {}).get("hand") or []
    if slot is None or destination is None or not 1 <= slot <= len(hand):
        return [i18n.t(lang, "tables.auto_move", player=name, move=notation)]
    lines = [
        i18n.t(
            lang,
            "tables.played",
            player=name,
            card=card_words(lang, hand[slot - 1]),
            path=labels.path_label(lang, str(destination)),
        )
    ]
    if before is not None and before.get("phase") == "main":
        cards = int(_seat(after, player).get("cards", 0)) - int(
            _seat(before, player).get("cards", 0)
        )
        masters = int(_seat(after, player).get("masters", 0)) - int(
            _seat(before, player).get("masters", 0)
        )
        if cards > 0:
            lines.append(
                i18n.t(
                    lang,
                    "tables.path_won",
                    player=name,
                    side=str(destination)[0],
                    cards=i18n.t(lang, "count.cards", count=cards),
                    masters=i18n.t(lang, "tables.masters_count", count=masters),
                )
            )
    return lines


def timer_text(lang: str, seconds: int | None) -> str:
    """The turn timer as people read it (``3 min`` / ``untimed``)."""
    if seconds is None:
        return i18n.t(lang, "tables.untimed")
    return i18n.t(lang, "tables.minutes", minutes=seconds // 60)


def named_view(session: Session, view: Mapping[str, Any]) -> dict[str, Any]:
    """The view with each seat's id replaced by the name players read in the chat (the board
    draws what the view holds: "Computer 1", not the computer seat's id)."""
    name = session.name_of

    def rename(value: Any) -> Any:
        return name(value) if isinstance(value, str) else value

    named = dict(view)
    for key in ("viewer", "current_player"):
        if key in named:
            named[key] = rename(named[key])
    if isinstance(named.get("players"), list):
        named["players"] = [rename(p) for p in named["players"]]
    for key in ("seats", "results"):
        if isinstance(named.get(key), list):
            named[key] = [dict(row, player=rename(row.get("player"))) for row in named[key]]
    return named


#: the mark seats left before 2026-11 carry in stored tables ("Ana (auto)"): still read as one
LEGACY_AUTO_MARK = " (auto)"


def auto_marks() -> tuple[str, ...]:
    """Every mark of a seat the bot plays for someone who left: " (computer)", " (ordenador)"
    (each language's, as the seat was named in its chat's language), and the old one."""
    marks = {i18n.t(lang, "tables.auto_name", name="") for lang in i18n.LANGUAGES}
    return (*sorted(marks, key=len, reverse=True), LEGACY_AUTO_MARK)


def auto_name(lang: str, name: str) -> str:
    """The name of a seat the bot now plays for ``name``: "Ana (computer)", "Ana (ordenador)".
    A long name is cut before the mark, so the mark always shows; a seat marked already keeps
    its name.

    >>> auto_name("es", "Ana"), auto_name("en", "Ana (ordenador)")
    ('Ana (ordenador)', 'Ana (ordenador)')
    >>> auto_name("en", "Bartholomew Fitzgerald-Montgomery")
    'Bartholomew… (computer)'
    """
    if own_name(name) != name:
        return name
    mark = i18n.t(lang, "tables.auto_name", name="")
    return i18n.t(lang, "tables.auto_name", name=short_name(name, NAME_ROOM - len(mark)))


def own_name(name: str) -> str:
    """A player's own name, without the mark of a seat they left (ratings keep it).

    >>> own_name("Ana (computer)"), own_name("Bea (auto)"), own_name("Computer 2")
    ('Ana', 'Bea', 'Computer 2')
    """
    for mark in auto_marks():
        if name.endswith(mark) and len(name) > len(mark):
            return name.removesuffix(mark)
    return name
