"""Every board in words: the text alternative of a board image, for players who cannot see it
(a screen reader reads Discord's attachment description, Telegram's caption, or the text board
``/board text`` sends).

The words come from the engine's view for one viewer (``docs/views.md``), so what a view hides
the words never say: a table's board in the group is described from the public view (each
seat's hand as a count), a player's own hand only in the private answers built from their view.
Each line says one thing a move needs: whose turn it is and the last move first, then what may
be played onto or from (the piles' cards; Squadratik's hand and each path's open end with the
side the next card must match), then counts (the stock, what each seat won).

A text alternative has room for 1,024 characters (both platforms' limit). :func:`board_text`
fits its words to a ``limit``: first with cards named in full, then as symbols (``K♥``), last
cutting the least needed lines (counts) with an ellipsis; without a limit (the text board), in
full. Which parts a view gets is read from its keys (``piles``, ``paths``, ``seats``), never
from game ids; the per-game extras (Canfield's base rank, FreeCell's run size, Solitario's
turns of the waste, El Solitario's removed points) are the ``_EXTRAS`` functions, each reading
only its own view keys (Imaginary Thirteen's next values are its foundations' ``next``).

>>> import engine
>>> view = engine.new_game("freecell", 1).view(None)
>>> print(board_text("en", view, faces="francesi").splitlines()[0])
Last move: none yet.
>>> len(board_text("it", view, faces="francesi", limit=400)) <= 400
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from bot import i18n
from bot.core.explain import standings_lines
from bot.core.labels import path_label

#: Discord's attachment description and Telegram's caption both hold at most this many characters
ALT_MAX = 1024
#: the side letters in a Squadratik card's ``sides`` order, and their steps on the grid
SIDES = "NESW"
_STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
#: card naming styles, most words first: full names, the chat's usual label, bare symbols
STYLES = ("name", "label", "symbol")

NameOf = Callable[[str], str]
#: a Squadratik placement's notation: hand slot, then the path's side ("2N", "1Se", "3Wr1")
_PLACED = re.compile(r"^\d+([NESW])")


def text_words() -> frozenset[str]:
    """The words that ask ``/board`` for the board in words, in every language (``text``,
    ``texto``, ``testo``): a player may type any of them in any chat."""
    return frozenset(i18n.t(lang, "words.text_word").casefold() for lang in i18n.LANGUAGES)


def board_text(
    lang: str,
    view: Mapping[str, Any],
    *,
    faces: str,
    name_of: NameOf | None = None,
    limit: int | None = None,
) -> str:
    """The board in words, in ``lang``: the view's own lines, fitted to ``limit`` characters.

    ``name_of`` names a player id as the chat reads it (a table's seats); ``faces`` says how
    cards are named (Italian faces by name)."""
    name = name_of or str
    lines: list[str] = []
    for style in STYLES:
        lines = _lines(lang, view, faces, name, style)
        text = "\n".join(lines)
        if limit is None or len(text) <= limit:
            return text
    return _cut(lines, limit or 0)


def _cut(lines: list[str], limit: int) -> str:
    """The first lines that fit ``limit`` with an ellipsis line saying more was left out
    (lines are in order of need: turn, last move, hand and open places, then counts)."""
    kept: list[str] = []
    used = 1  # the ellipsis
    for line in lines:
        if used + len(line) + 1 > limit:
            break
        kept.append(line)
        used += len(line) + 1
    if not kept:  # one line longer than the limit: its start
        return lines[0][: max(limit - 1, 0)] + "…"
    return "\n".join([*kept, "…"])


def _lines(lang: str, view: Mapping[str, Any], faces: str, name: NameOf, style: str) -> list[str]:
    lines = [*_turn_lines(lang, view, name), _last_move_line(lang, view, faces, style)]
    if "piles" in view:
        lines += _pile_lines(lang, view, faces, style)
    if "paths" in view:
        lines += _squadratik_lines(lang, view, name)
        lines += _standings(lang, view, name)
    for extra in _EXTRAS:
        lines += extra(lang, view, faces, style)
    return [line for line in lines if line]


# ----- whose turn, the last move -----------------------------------------------------------------
def _turn_lines(lang: str, view: Mapping[str, Any], name: NameOf) -> list[str]:
    if view.get("is_over"):
        outcome = str(view.get("outcome") or "finished")
        key = f"words.over.{outcome}"
        return [i18n.t(lang, key if i18n.has_key(key) else "words.over.finished")]
    players = view.get("players") or []
    current = view.get("current_player")
    if len(players) < 2 or current is None:  # a solo game: always the player's turn
        return []
    if current == view.get("viewer"):
        return [i18n.t(lang, "words.turn_yours")]
    return [i18n.t(lang, "words.turn", player=name(str(current)))]


def _last_move_line(lang: str, view: Mapping[str, Any], faces: str, style: str) -> str:
    move = view.get("last_move")
    if not move:
        return i18n.t(lang, "words.last_move_none")
    game_id = str(view.get("game") or "")
    if "piles" in view:
        piles = [str(p) for p in view.get("last_move_piles") or []]
        if len(piles) == 2:
            kinds = {str(p.get("id")): str(p.get("kind")) for p in view.get("piles") or []}
            src, dst = (_pile_label(lang, p, kinds.get(p, ""), game_id) for p in piles)
            said = i18n.t(
                lang,
                "words.move_piles",
                src=src[:1].lower() + src[1:],
                dst=dst[:1].lower() + dst[1:],
            )
        elif len(piles) == 1 and any(
            p.get("id") == piles[0] and p.get("kind") == "stock" for p in view.get("piles") or []
        ):
            said = i18n.t(lang, "words.move_draw")
        else:
            said = str(move)
        home = [_card(lang, view, faces, style, c) for c in view.get("auto_home") or []]
        if home:
            said = i18n.t(lang, "words.move_home", move=said, cards=" ".join(home))
        return i18n.t(lang, "words.last_move", move=said, notation=move)
    cells = view.get("last_move_cells") or []
    placed = _cell_at(view, cells[-1]) if cells else None
    if placed is not None and placed.get("path"):
        said = i18n.t(
            lang,
            "words.move_placed",
            card=_squadratik_card(lang, placed["card"], True),
            path=path_label(lang, str(placed["path"])),
        )
        return i18n.t(lang, "words.last_move", move=said, notation=move)
    if move in ("pass", "stop"):
        return i18n.t(
            lang, "words.last_move", move=i18n.t(lang, f"words.move_{move}"), notation=move
        )
    side = _PLACED.match(str(move))
    if side is not None:  # its card is gone: the move completed its path, which was won
        said = i18n.t(lang, "words.move_completed", path=path_label(lang, side.group(1)))
        return i18n.t(lang, "words.last_move", move=said, notation=move)
    return i18n.t(lang, "words.last_move", move=move, notation=move)


# ----- the pile games ---------------------------------------------------------------------------
def _card(lang: str, view: Mapping[str, Any], faces: str, style: str, code: str) -> str:
    return _card_words(lang, str(view.get("deck") or "french52"), faces, style, code)


@lru_cache(maxsize=4096)
def _card_words(lang: str, deck: str, faces: str, style: str, code: str) -> str:
    """One card in one style (kept: every board names the same few hundred cards again)."""
    if style == "name":
        try:
            return i18n.card_name(code, deck, faces, lang)
        except ValueError:
            return code
    if style == "label":
        return i18n.card_label(code, deck, faces, lang)
    return i18n.card_label(code, deck)


def _cards(lang: str, view: Mapping[str, Any], faces: str, style: str, codes: Sequence[str]) -> str:
    joiner = ", " if style == "name" else " "
    return joiner.join(_card(lang, view, faces, style, c) for c in codes)


def _pile_lines(lang: str, view: Mapping[str, Any], faces: str, style: str) -> list[str]:
    """One line per pile a move may take from or put on, in the view's order: the stock as a
    count, a waste by its top card, a foundation by its top card (and what it needs next where
    the view says), a column by its face-down count and every face-up card, bottom to top."""
    game_id = str(view.get("game") or "")
    lines = []
    for pile in view.get("piles") or []:
        pile_id, kind = str(pile.get("id")), str(pile.get("kind"))
        label = _pile_label(lang, pile_id, kind, game_id)
        cards = list(pile.get("cards") or [])
        down = int(pile.get("down") or 0)
        if kind == "stock":
            what = i18n.t(lang, "count.cards", count=down + len(cards))
        elif kind in ("waste", "reserve") and len(cards) + down > 1 and cards:
            what = i18n.t(
                lang,
                "words.top_of",
                count=i18n.t(lang, "count.cards", count=len(cards) + down),
                card=_card(lang, view, faces, style, cards[-1]),
            )
        elif kind == "foundation" and cards:
            what = _card(lang, view, faces, style, cards[-1])
        elif not cards and not down:
            what = i18n.t(lang, "words.empty")
        else:
            shown = _cards(lang, view, faces, style, cards)
            what = (
                i18n.t(lang, "words.down_then", count=down, cards=shown)
                if down and cards
                else i18n.t(lang, "words.down", count=down)
                if down
                else shown
            )
        if "next" in pile:  # Imaginary Thirteen: the value this foundation needs next
            nxt = pile.get("next")
            need = (
                i18n.t(lang, "words.needs", value=_value_word(int(nxt)))
                if nxt is not None
                else i18n.t(lang, "words.finished")
            )
            what = f"{what}; {need}"
        lines.append(i18n.t(lang, "words.pile", pile=label, cards=what))
    return lines


@lru_cache(maxsize=1024)
def _pile_label(lang: str, pile_id: str, kind: str, game_id: str) -> str:
    """A pile as ``/help`` names it, its notation id after it where the name does not say it
    (``free cell a``, ``foundation h2 (h2)``: the id is what a move types)."""
    label = i18n.pile_name(lang, pile_id, game_id)
    if label == pile_id and kind == "foundation":  # FreeCell's h1-h4
        label = f"{i18n.t(lang, 'pile.foundation')} {pile_id}"
    return label[:1].upper() + label[1:]


def _value_word(value: int) -> str:
    """A rank value as the cards show it (1 = A, 11-13 = J Q K)."""
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(value, str(value))


def _standings(lang: str, view: Mapping[str, Any], name: NameOf) -> list[str]:
    """A finished table's standings (its ``results``), by place."""
    results = view.get("results")
    if not results:
        return []
    return standings_lines(lang, results, name)


# ----- the per-game extras (each reads only its own view keys) ---------------------------------
def _canfield_base(lang: str, view: Mapping[str, Any], faces: str, style: str) -> list[str]:
    if "base_rank" not in view:
        return []
    return [i18n.t(lang, "words.base_rank", rank=_value_word(int(view["base_rank"])))]


def _freecell_run(lang: str, view: Mapping[str, Any], faces: str, style: str) -> list[str]:
    if "max_run" not in view or view.get("is_over"):
        return []
    return [i18n.t(lang, "words.max_run", count=int(view["max_run"]))]


def _solitario_recycles(lang: str, view: Mapping[str, Any], faces: str, style: str) -> list[str]:
    if not view.get("stock_recycles"):
        return []
    return [i18n.t(lang, "words.recycles", count=int(view["stock_recycles"]))]


def _el_solitario_points(lang: str, view: Mapping[str, Any], faces: str, style: str) -> list[str]:
    if "removed_points" not in view:
        return []
    return [i18n.t(lang, "words.removed_points", points=int(view["removed_points"]))]


_EXTRAS: tuple[Callable[[str, Mapping[str, Any], str, str], list[str]], ...] = (
    _canfield_base,
    _freecell_run,
    _solitario_recycles,
    _el_solitario_points,
)


# ----- Squadratik: El Solitario and Cartas Maestras ---------------------------------------------
def side_words(lang: str, code: str) -> str:
    """One side of a Squadratik card: ``2 red``, ``1 black``, ``blank``.

    >>> side_words("en", "R2"), side_words("es", "B1"), side_words("it", "0")
    ('2 red', '1 negra', 'vuoto')
    """
    code = str(code)
    if code[:1] in ("R", "B") and code[1:].isdigit():
        colour = "red" if code[0] == "R" else "black"
        return i18n.t(lang, f"words.side.{colour}", count=int(code[1:]))
    return i18n.t(lang, "words.side.blank")


def _placed_sides(card: Mapping[str, Any]) -> list[str]:
    """The N, E, S, W sides a card shows as placed (``docs/views.md``: placed side k shows
    printed side (k - rotation) mod 4)."""
    printed = [str(s) for s in card.get("sides") or ["0"] * 4]
    rotation = int(card.get("rotation") or 0)
    return [printed[(k - rotation) % 4] for k in range(4)]


def _squadratik_card(lang: str, card: Mapping[str, Any], placed: bool = False) -> str:
    """A card as its sides: ``N 2 red, E blank, S 1 black, W 3 red``; an empty card by name."""
    if card.get("kind") in ("empty", "central"):
        return i18n.t(lang, "words.card_empty")
    sides = _placed_sides(card) if placed else [str(s) for s in card.get("sides") or []]
    listed = ", ".join(
        i18n.t(lang, "words.card_side", side=SIDES[k], value=side_words(lang, side))
        for k, side in enumerate(sides)
    )
    if card.get("kind") == "master":
        return i18n.t(lang, "words.card_master", sides=listed)
    return listed


def _cell_at(view: Mapping[str, Any], cell: Sequence[int]) -> dict[str, Any] | None:
    for placed in view.get("board") or []:
        if [placed.get("x"), placed.get("y")] == list(cell):
            return dict(placed)
    return None


def _squadratik_lines(lang: str, view: Mapping[str, Any], name: NameOf) -> list[str]:
    lines: list[str] = []
    hand = view.get("hand") or []
    if hand:
        own = view.get("viewer") is not None and bool(view.get("seats"))
        key = "words.hand_yours" if own else "words.hand"
        lines.append(i18n.t(lang, key, count=len(hand)))
        for slot, card in enumerate(hand, start=1):
            lines.append(
                i18n.t(lang, "words.hand_card", slot=slot, card=_squadratik_card(lang, card))
            )
    paths = view.get("paths") or {}
    for side in SIDES:
        path = paths.get(side)
        if path is None:
            lines.append(i18n.t(lang, "words.side_free", side=side))
            continue
        cells = path.get("cells") or []
        count = i18n.t(lang, "count.cards", count=len(cells))
        ends = [_end_words(lang, view, cells, str(end)) for end in path.get("ends") or []]
        if not path.get("open") or not ends:
            lines.append(i18n.t(lang, "words.path_closed", side=side, count=count))
            continue
        lines.append(
            i18n.t(
                lang,
                "words.path",
                side=side,
                count=count,
                after=int(path.get("after_empty") or 0),
                ends="; ".join(ends),
            )
        )
    lines.append(
        i18n.t(
            lang,
            "words.stock",
            count=i18n.t(lang, "count.cards", count=int(view.get("stock") or 0)),
        )
    )
    for seat in view.get("seats") or []:
        lines.append(
            i18n.t(
                lang,
                "words.seat",
                player=name(str(seat.get("player"))),
                hand=i18n.t(lang, "words.in_hand", count=int(seat.get("hand") or 0)),
                masters=i18n.t(lang, "tables.masters_count", count=int(seat.get("masters") or 0)),
                cards=i18n.t(lang, "count.cards", count=int(seat.get("cards") or 0)),
            )
        )
    return lines


def _end_words(lang: str, view: Mapping[str, Any], cells: Sequence[Sequence[int]], end: str) -> str:
    """Where a path's next card may go and what it must match: ``at N: its S side 2 red``;
    after an empty card any card links."""
    where = path_label(lang, end)
    last = _cell_at(view, cells[-1]) if cells else None
    if last is None or last["card"].get("kind") in ("empty", "central"):
        return i18n.t(lang, "words.end_any", where=where)
    if ">" in end:
        direction = end.split(">")[1].upper()
    else:
        before = cells[-2] if len(cells) > 1 else (0, 0)
        step = (cells[-1][0] - before[0], cells[-1][1] - before[1])
        direction = next((d for d, s in _STEP.items() if s == step), end[:1])
    facing = _placed_sides(last["card"])[SIDES.index(direction)]
    return i18n.t(
        lang,
        "words.end_match",
        where=where,
        side=_OPPOSITE[direction],
        value=side_words(lang, facing),
    )
