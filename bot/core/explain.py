"""What a Cartas Maestras player reads to understand the table: why only Pass is offered, what
the final phase is, and the standings at the end, by place with the seed's tie rule.

Everything here reads a public view, or the player's own view (their hand), never another
player's hand: a reason given to one player reveals nothing of anyone else's cards.

>>> only_pass_key({"paths": {"N": None, "E": None, "S": None, "W": None}, "hand": [], "phase": "main"})
'hand.only_pass.no_path'
>>> standings_lines("en", [{"player": "b", "place": 1, "masters": 2, "cards": 9},
...                        {"player": "a", "place": 2, "masters": 2, "cards": 7}], str.upper)[1:]
['1. B — 2 masters, 9 cards', '2. A — 2 masters, 7 cards']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import i18n
from bot.core.names import short_name

#: how many characters of a name a standings line keeps (a line must stay one line on a phone)
NAME_ROOM = 24


def only_pass_key(view: Mapping[str, Any]) -> str:
    """The key of the sentence that says why Pass is the only move of ``view``'s viewer (a
    Cartas Maestras view of their own: ``hand``, ``paths``)."""
    paths = view.get("paths") or {}
    hand = view.get("hand") or []
    open_paths = [side for side, path in paths.items() if path]
    holds_master = any(card.get("kind") == "master" for card in hand)
    if not open_paths:
        # nothing is on the table yet (or every path was won): only a master opens one
        return "hand.only_pass.no_path"
    if len(open_paths) < len(paths) and not holds_master:
        return "hand.only_pass.no_link_no_master"
    return "hand.only_pass.no_link"


def only_pass_text(lang: str, view: Mapping[str, Any]) -> str:
    """Why Pass is the only move, and what it does (draws a card while the stock has one)."""
    what = "hand.only_pass.draws" if int(view.get("stock") or 0) else "hand.only_pass.empty_stock"
    return i18n.t(lang, only_pass_key(view)) + " " + i18n.t(lang, what)


def standings_lines(
    lang: str, results: Sequence[dict[str, Any]], name_of: Callable[[str], str]
) -> list[str]:
    """The standings of a finished table, by place: the rule first (most masters; a tie on
    masters goes to more cards won; still tied, a shared place), then one line per player."""
    lines = [i18n.t(lang, "table.standings_rule")]
    for row in sorted(results, key=lambda r: int(r.get("place", 0))):
        masters = i18n.t(lang, "tables.masters_count", count=int(row.get("masters", 0)))
        cards = i18n.t(lang, "count.cards", count=int(row.get("cards", 0)))
        name = short_name(name_of(str(row.get("player"))), NAME_ROOM)
        lines.append(
            i18n.t(
                lang,
                "table.standings_line",
                place=row.get("place"),
                name=name,
                masters=masters,
                cards=cards,
            )
        )
    return lines


def final_phase_key(before: Mapping[str, Any], after: Mapping[str, Any]) -> str | None:
    """The key announcing that the main phase ended between two public views, or None: the
    final phase starts (or, when nobody holds a card, the game ends at once)."""
    if before.get("phase") != "main" or after.get("phase") == "main":
        return None
    if after.get("phase") == "final":
        return "tables.final_phase"
    return "tables.final_phase_skipped"


def masters_of(view: Mapping[str, Any], player: str) -> int:
    """The masters ``player`` has won, from a view's public seats."""
    seats = view.get("seats") or []
    return next((int(s.get("masters", 0)) for s in seats if s.get("player") == player), 0)


def tie_break_matters(view: Mapping[str, Any], player: str) -> bool:
    """Whether the cards ``player`` wins in the final phase can still change a place: some
    other seat has as many masters (cards break ties on masters only)."""
    seats = view.get("seats") or []
    mine = masters_of(view, player)
    return any(int(s.get("masters", 0)) == mine for s in seats if s.get("player") != player)
