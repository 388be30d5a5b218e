"""Boards of the pile games (any game whose view has ``piles``, ``engine.views.PilesView``).

``pile_layout(view)`` says where every pile and card goes; ``draw_pile_board`` pastes the cached
sprites there. Every pile is labelled with its notation id (the view's ``id``) so a player can
type a move from the picture; the header carries the score, the move counter and the clock.

Nothing here knows a game: what differs between pile games comes from the view (a pile's
``marker`` and ``next`` give a foundation its step badge and its "next" line, a pile's kind and
row say whether it fans), from ``GameInfo`` (a score ranked as ``Column.DOLLARS`` reads
``$40``) or from the game's :class:`PileBoard`, given where its drawing is registered
(``renderer.registry.register(..., board=PileBoard(...))``): where its piles go and the fan
its board keeps room for.

>>> view = {"game": "solitario", "deck": "italian40", "move_number": 0, "score": 0,
...         "piles": [{"id": "1", "kind": "tableau", "down": 0, "cards": ["Kh"]}]}
>>> pile_layout(view).piles["1"].top.w
100
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from renderer import registry, theme
from renderer.cards_french import card_back, empty_slot, french_card
from renderer.cards_italian import italian_card, italian_slot
from renderer.display import Display
from renderer.fonts import font, paste_text, text_width, word
from renderer.layout import CardSpot, PileSpot, Rect
from renderer.palette import ink, new_board
from renderer.sprites import paste_sprite

if TYPE_CHECKING:  # the views' shapes only: drawing needs no engine code
    from engine.views import PilesView

W, H = theme.CARD_W, theme.CARD_H
MARGIN = 16
GAP = 14
PITCH = W + GAP
HEADER_H = 52
# Most players see a board about 400 px wide on a phone: every digit and word is drawn so that
# its digits are at least PHONE_PX tall there. DejaVu's digits are DIGIT_INK of the font size.
PHONE_WIDTH = 400
PHONE_PX = 9
DIGIT_INK = 0.729
TEXT_PX = 26  # the smallest text on a 816-px board (Solitario, Canfield): 9.3 px at 400
ROW_GAP = 16
DOWN_STEP = 14  # vertical offset of face-down cards in a fan
UP_STEP = 32  # vertical offset of face-up cards: leaves the rank and suit strip visible
MIN_UP_STEP = 28
WASTE_STEP = 28  # horizontal fan of the waste ("show" cards)
MAX_FAN = 760  # longest column before the fan is squeezed

VALUE_SYMBOL = {1: "A", 11: "J", 12: "Q", 13: "K"}
SUITS = ("d", "h", "c", "s")


def text_px(width: int) -> int:
    """The smallest font size whose digits stay ``PHONE_PX`` tall once an image ``width`` px
    wide is shown ``PHONE_WIDTH`` px wide."""
    return max(TEXT_PX, math.ceil(PHONE_PX * width / PHONE_WIDTH / DIGIT_INK))


@dataclass(slots=True)
class PileBoardLayout:
    """Where everything of a pile game goes; ``piles`` maps notation ids to spots; ``text``
    is the font size of every label and count."""

    width: int
    height: int
    piles: dict[str, PileSpot] = field(default_factory=dict)
    header: Rect = Rect(0, 0, 0, 0)
    text: int = TEXT_PX

    @property
    def label_h(self) -> int:
        return self.text + 8


Places = dict[str, tuple[int, int]]
#: a game's arrangement: ``(piles of the view by kind) -> (column count, pile id -> (row,
#: column))``
Arrange = Callable[[dict[str, list[str]]], tuple[int, Places]]


def arrange_in_two_rows(by_kind: dict[str, list[str]]) -> tuple[int, Places]:
    """Stock, waste and foundations on row 0 (foundations to the right); the reserve and the
    tableau on row 1 (the tableau to the right): Solitario's and Canfield's board."""
    places: Places = {}

    def put(ids: list[str], row: int, first: int) -> None:
        for k, pid in enumerate(ids):
            places[pid] = (row, first + k)

    tableau = by_kind.get("tableau", [])
    ncols = max(7, len(tableau) + (2 if "reserve" in by_kind else 0))
    put(by_kind.get("stock", []), 0, 0)
    put(by_kind.get("waste", []), 0, 1)
    foundations = by_kind.get("foundation", [])
    put(foundations, 0, ncols - len(foundations))
    put(by_kind.get("reserve", []), 1, 0)
    put(tableau, 1, ncols - len(tableau))
    return ncols, places


@dataclass(frozen=True, slots=True)
class PileBoard:
    """What a pile game's board needs beyond its view: ``arrange`` puts its piles on the rows
    and columns; ``steady_fan`` is the fan of face-down and face-up cards the second row
    always keeps room for, so the image keeps its size through most of a game without a band
    of empty cloth (Solitario: up to 6 backs and a few faces; games that deal no backs
    there: none)."""

    arrange: Arrange = arrange_in_two_rows
    steady_fan: tuple[int, int] = (7, 5)


def pile_board(view: Mapping[str, Any]) -> PileBoard:
    """The :class:`PileBoard` registered with the drawing of ``view``'s game (the default
    board for a game drawn without one)."""
    game = str(view.get("game"))
    board = registry.drawing(game).board if game in registry.drawn_games() else None
    return board if isinstance(board, PileBoard) else PileBoard()


def has_next_lines(view: Mapping[str, Any]) -> bool:
    """Whether the board writes a "next" line under its foundations (their piles say which
    value they need ``next``: Imaginary Thirteen)."""
    return any("next" in pile for pile in view.get("piles", []) if pile["kind"] == "foundation")


def _columns(view: PilesView) -> tuple[int, dict[str, tuple[int, int]]]:
    """Column count and ``pile id -> (row, column)`` for the game in ``view``."""
    piles = view.get("piles", [])
    by_kind: dict[str, list[str]] = {}
    for pile in piles:
        by_kind.setdefault(pile["kind"], []).append(pile["id"])
    ncols, places = pile_board(view).arrange(by_kind)
    places = dict(places)
    # anything a future view adds still gets drawn, in a free column of the second row
    used = {rc for rc in places.values()}
    for pile in piles:
        if pile["id"] not in places:
            col = next(c for c in range(ncols + len(piles)) if (1, c) not in used)
            places[pile["id"]] = (1, col)
            used.add((1, col))
            ncols = max(ncols, col + 1)
    return ncols, places


def _fan_steps(down: int, up: int, room: int) -> tuple[int, int]:
    """Offsets for a downward fan of ``down`` backs then ``up`` faces that fits in ``room`` px."""
    down_step, up_step = DOWN_STEP, UP_STEP
    need = down * down_step + max(0, up - 1) * up_step + H
    if need > room:
        # squeeze the backs first (nothing to read on them), then the faces down to a minimum
        spare = room - H - max(0, up - 1) * up_step
        down_step = max(4, spare // down) if down else down_step
        need = down * down_step + max(0, up - 1) * up_step + H
        if need > room and up > 1:
            up_step = max(MIN_UP_STEP, (room - H - down * down_step) // (up - 1))
    return down_step, up_step


def header_height(width: int, left: str, right: str, size: int) -> int:
    """One header row when ``left`` and ``right`` fit side by side at ``size``, else two (a
    race's player name, a long translation: nothing is cut while a row has room for it)."""
    if text_width(left, size) + right_width(right, size) + 3 * MARGIN <= width:
        return HEADER_H
    return HEADER_H + size + 12


# The header's numbers ("Score 35    Moves 12") change on every move. Drawn as one text, each
# board would render a new text (most of a board's cost once its cards are cached); drawn as
# parts split where three or more spaces are, "Moves 12" is the same cached text on every
# board that reaches move 12, and the spaces between the parts keep their width.
_SPACES = re.compile(r" {3,}")


@lru_cache(maxsize=1024)
def right_parts(right: str, size: int) -> tuple[tuple[str, int], ...]:
    """``right`` as (part, room before it in px) from left to right (bold, at ``size``)."""
    parts: list[tuple[str, int]] = []
    start, room = 0, 0
    for spaces in _SPACES.finditer(right):
        parts.append((right[start : spaces.start()], room))
        room = _spaces_width(spaces.group(), size)
        start = spaces.end()
    parts.append((right[start:], room))
    return tuple(parts)


@lru_cache(maxsize=64)
def _spaces_width(spaces: str, size: int) -> int:
    return round(font(size, True).getlength(spaces))


def right_width(right: str, size: int) -> int:
    """The width the header's right side takes, drawn in parts (``right_parts``)."""
    return sum(text_width(part, size, True) + room for part, room in right_parts(right, size))


def pile_layout(
    view: PilesView,
    lang: str = "en",
    clock: str | None = None,
    player: str | None = None,
) -> PileBoardLayout:
    """Every pile's slot, label and card rectangles for a pile game's view
    (``clock`` and ``player`` lengthen the header, which may then take two rows)."""
    header = _header_texts(view, lang, clock, player)
    result, row_y, places, bottom = _frame(view, header)
    for pile in view.get("piles", []):
        row, col = places[pile["id"]]
        spot = _spot(pile, MARGIN + col * PITCH, row_y[row], row, result.label_h)
        result.piles[pile["id"]] = spot
        bottom = max(bottom, _bottom(spot))
    result.height = bottom + MARGIN + (result.label_h if has_next_lines(view) else 0)
    return result


def _frame(
    view: PilesView, header: tuple[str, str]
) -> tuple[PileBoardLayout, list[int], Places, int]:
    """The layout without its piles: width, header, text size; the rows' tops, each pile's
    (row, column), and the least height of the board's content."""
    ncols, places = _columns(view)
    width = 2 * MARGIN + ncols * PITCH - GAP
    text = text_px(width)
    header_h = header_height(width, *header, text)
    label_h = text + 8
    next_h = label_h if has_next_lines(view) else 0  # "next 4" under each foundation
    row_y = [header_h + label_h + 8]
    row_y.append(row_y[0] + H + next_h + ROW_GAP + label_h)
    result = PileBoardLayout(width=width, height=0, header=Rect(0, 0, width, header_h), text=text)
    # a steady minimum height: room for the second row's usual fan (``PileBoard.steady_fan``)
    backs, faces = pile_board(view).steady_fan
    bottom = row_y[1] + H + backs * DOWN_STEP + faces * UP_STEP
    return result, row_y, places, bottom


def _bottom(spot: PileSpot) -> int:
    """The bottom of ``spot.area``, without building the union of every card's rectangle."""
    return max([spot.slot.bottom, *(card.rect.bottom for card in spot.cards)])


def fans_down(kind: str, row: int) -> bool:
    """Whether a pile's cards fan down its column: a tableau or a waste on the second row
    (a waste on the first row fans sideways)."""
    return row == 1 and kind in ("tableau", "waste")


def _spot(pile: Mapping[str, Any], x: int, y: int, row: int, label_h: int) -> PileSpot:
    """Where one pile's slot, label and cards go, its slot's corner at ``(x, y)``."""
    slot = Rect(x, y, W, H)
    spot = PileSpot(pile["id"], pile["kind"], slot, Rect(x, y - label_h - 2, W, label_h))
    cards: list[str] = list(pile.get("cards", []))
    down = int(pile.get("down", 0))
    kind = pile["kind"]
    if fans_down(kind, row):
        d_step, u_step = _fan_steps(down, len(cards), MAX_FAN)
        for k in range(down):
            spot.cards.append(CardSpot(Rect(x, y + k * d_step, W, H), "down"))
        base = y + down * d_step
        for k, code in enumerate(cards):
            spot.cards.append(CardSpot(Rect(x, base + k * u_step, W, H), code))
    elif kind == "waste":
        shown = cards[-max(1, int(pile.get("show", 1))) :] if cards else []
        if len(cards) > len(shown):
            # the card under the fan, so a waste never looks emptier than it is
            spot.cards.append(CardSpot(Rect(x, y, W, H), cards[-len(shown) - 1]))
        for k, code in enumerate(shown):
            spot.cards.append(CardSpot(Rect(x + k * WASTE_STEP, y, W, H), code))
    elif kind in ("stock", "reserve"):
        # a thin stack edge per few cards, capped, then the top (a back or the face)
        stack = min(3, (down + 3) // 4)
        for k in range(stack):
            spot.cards.append(CardSpot(Rect(x + 2 * k, y + 2 * k, W, H), "down"))
        if cards:
            off = 2 * stack
            spot.cards.append(CardSpot(Rect(x + off, y + off, W, H), cards[-1]))
    elif cards:
        spot.cards.append(CardSpot(slot, cards[-1]))
    return spot


def face_sprite(code: str, deck: str, faces: str) -> Image.Image:
    """The sprite for a card code in the chosen face style (Italian decks only use ``faces``)."""
    if deck == "italian40" and faces in ("napoletane", "piacentine"):
        return italian_card(code, faces)
    return french_card(code)


ELLIPSIS = "…"


def _cuttable(char: str) -> bool:
    """Whether a text may be cut just before ``char`` (not before a combining mark, a joiner or
    a variation selector: they belong to the character before them)."""
    import unicodedata

    code = ord(char)
    return not (
        unicodedata.category(char) in ("Mn", "Mc", "Me", "Cf", "Sk")
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0000 <= code <= 0xE01EF
    )


def fit_text(text: str, size: int, bold: bool, room: int) -> str:
    """``text`` as it fits in ``room`` px at ``size``: whole, or cut by drawn width with an
    ellipsis (never inside a character built of several code points)."""
    if text_width(text, size, bold) <= room:
        return text
    cuts = [k for k in range(1, len(text)) if _cuttable(text[k])]
    low, high = 0, len(cuts) - 1  # the longest prefix (cut at cuts[k]) that still fits
    best = ELLIPSIS
    while low <= high:
        mid = (low + high) // 2
        candidate = text[: cuts[mid]].rstrip() + ELLIPSIS
        if text_width(candidate, size, bold) <= room:
            best, low = candidate, mid + 1
        else:
            high = mid - 1
    return best


def _in_dollars(game_id: str) -> bool:
    """Whether the game's score reads as dollars (its leaderboard shows ``Column.DOLLARS``)."""
    import engine  # the games' facts (never the bot)
    from engine.gameinfo import Column

    cls = engine.GAMES.get(game_id)
    ranking = cls.info.ranking if cls is not None else None
    return ranking is not None and Column.DOLLARS in ranking.columns


def _header_texts(
    view: PilesView, lang: str, clock: str | None, player: str | None = None
) -> tuple[str, str]:
    game = str(view.get("game", ""))
    # the game's name in the chat's language (board words), e.g. "Trece Imaginario"
    title = word(f"title_{game}", lang)
    left = f"{title}  ·  {word('deal', lang)} {view.get('deal', 0)}"
    if player:  # a race board says whose it is
        left += f"  ·  {player}"
    score = view.get("score", 0)
    if _in_dollars(game):  # -$15, $40
        score_text = f"-${-int(score)}" if int(score) < 0 else f"${score}"
    else:
        score_text = str(score)
    right = (
        f"{word('score', lang)} {score_text}    {word('moves', lang)} {view.get('move_number', 0)}"
    )
    if clock:
        right += f"    {clock}"
    return left, right


def draw_header(
    image: Image.Image,
    width: int,
    left: str,
    right: str,
    height: int = HEADER_H,
    min_size: int = TEXT_PX,
) -> None:
    """The dark band on top: title on the left, score/moves/clock on the right, at ``min_size``
    px or a little more. A band of two rows (see ``header_height``) puts the numbers on the
    second row; a title still too long for its row is shortened with an ellipsis."""
    display = Display(image.width, image.height)
    header_ops(display, width, left, right, height, min_size)
    display.paint(image)


def header_ops(
    display: Display,
    width: int,
    left: str,
    right: str,
    height: int = HEADER_H,
    min_size: int = TEXT_PX,
) -> None:
    """``draw_header``'s band added to a display list."""
    display.fill(theme.HEADER, (0, 0, width, height))
    size = min_size
    two_rows = height > HEADER_H
    if two_rows:
        first, second = HEADER_H // 2, HEADER_H + (height - HEADER_H) // 2 - 6
        left = fit_text(left, size, False, width - 2 * MARGIN)
    else:
        first = second = height // 2
        left = fit_text(left, size, False, width - right_width(right, size) - 3 * MARGIN)
    display.text((MARGIN, first), left, size, theme.MUTED, anchor="lm", under=theme.HEADER)
    x = width - MARGIN
    for part, room in reversed(right_parts(right, size)):
        display.text(
            (x, second), part, size, theme.WHITE, anchor="rm", bold=True, under=theme.HEADER
        )
        x -= text_width(part, size, True) + room


@lru_cache(maxsize=256)
def pill(width: int, height: int) -> Image.Image:
    """A label's dark rounded pill, drawn once per size (pasting it is far cheaper than
    drawing a rounded rectangle on every board)."""
    sprite = Image.new("RGBA", (width + 1, height), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).rounded_rectangle(
        (0, 0, width, height - 1), radius=6, fill=(*theme.LABEL_BG, 255)
    )
    return sprite


def label_ops(
    display: Display,
    rect: Rect,
    text: str,
    extra: str = "",
    size: int = TEXT_PX,
    extra_colour: tuple[int, int, int] = theme.MUTED,
) -> None:
    """A pile label: the id in a dark pill, bold; ``extra`` (a count, a marker) after it."""
    pill_w = text_width(text, size, True) + 14
    display.sprite(pill(pill_w, rect.h - 3), rect.x, rect.y + 2)
    display.text(
        (rect.x + 7, rect.y + rect.h // 2 + 1),
        text,
        size,
        theme.WHITE,
        anchor="lm",
        bold=True,
        under=theme.LABEL_BG,
    )
    if extra:
        display.text(
            (rect.x + pill_w + 5, rect.y + rect.h // 2 + 1),
            extra,
            size,
            extra_colour,
            anchor="lm",
            bold=True,
        )


def outline(
    draw: ImageDraw.ImageDraw, rect: Rect, colour: tuple[int, int, int], width: int = 4
) -> None:
    """A highlight ring just outside a card rectangle."""
    draw.rounded_rectangle(
        rect.inflate(width - 1).box(),
        radius=theme.CARD_RADIUS + width,
        outline=ink(draw, colour),
        width=width,
    )


BANNER_H = 72


def draw_banner(image: Image.Image, text: str, min_size: int = TEXT_PX) -> Image.Image:
    """The board with a dark band added at the bottom saying ``text`` (game over, stalled...).

    Added below rather than drawn across the table so it never hides a card."""
    width, height = image.size
    out = new_board(width, height + BANNER_H, theme.HEADER)
    out.paste(image, (0, 0))
    size = 40
    while size > min_size and text_width(text, size, True) > width - 2 * MARGIN:
        size -= 2
    text = fit_text(text, size, True, width - 2 * MARGIN)
    paste_text(
        out,
        (width // 2, height + BANNER_H // 2),
        text,
        size,
        theme.LAST_MOVE,
        anchor="mm",
        bold=True,
        under=theme.HEADER,
    )
    return out


def _value_symbol(value: int | None) -> str:
    return "" if value is None else VALUE_SYMBOL.get(int(value), str(value))


def draw_pile_board(
    view: PilesView,
    *,
    faces: str = "napoletane",
    lang: str = "en",
    clock: str | None = None,
    selected: str | None = None,
    targets: list[str] | tuple[str, ...] = (),
    player: str | None = None,
) -> Image.Image:
    """The whole board of a pile game, drawn on the fixed palette ("P" image); ``player``
    (a race) is named in the header."""
    display, status = pile_board_display(
        view,
        faces=faces,
        lang=lang,
        clock=clock,
        selected=selected,
        targets=targets,
        player=player,
        reuse=False,
    )
    image = display.image()
    if status:
        image = draw_banner(image, status, display_text_size(display))
    return image


def display_text_size(display: Display) -> int:
    """The label size of a pile board as wide as ``display`` (the banner's smallest text)."""
    return text_px(display.width)


def pile_board_display(
    view: PilesView,
    *,
    faces: str = "napoletane",
    lang: str = "en",
    clock: str | None = None,
    selected: str | None = None,
    targets: list[str] | tuple[str, ...] = (),
    player: str | None = None,
    reuse: bool = True,
) -> tuple[Display, str | None]:
    """The board of a pile game as a display list (``renderer.display``: what
    ``draw_pile_board`` pastes, in order, one group per pile), and the words of the banner to
    add under it (game over, stalled) or None. With ``reuse``, a pile drawn before exactly as
    it is now (same cards, place, label, style) takes its ops from a small cache."""
    header = _header_texts(view, lang, clock, player)
    layout, row_y, places, bottom = _frame(view, header)
    display = Display(layout.width, 0)
    with display.group("header", None):
        header_ops(display, layout.width, *header, height=layout.header.h, min_size=layout.text)
    deck = str(view.get("deck", "french52"))
    next_lines = has_next_lines(view)
    base = view.get("base_rank")
    # "next 10" under a foundation (Imaginary Thirteen), or "→ 10" on every foundation when a
    # translation is too long for a column at this size
    words: tuple[str, str] = ("", "")
    if next_lines:
        next_word = word("next", lang)
        if text_width(f"{next_word} 10", layout.text, True) > PITCH - 6:
            next_word = "→"
        words = (next_word, word("done", lang))
    tops: dict[str, Rect] = {}
    for pile in view.get("piles", []):
        pid = str(pile["id"])
        row, col = places[pid]
        x, y = MARGIN + col * PITCH, row_y[row]
        # everything the pile's pixels depend on
        key = (
            pid,
            pile["kind"],
            x,
            y,
            row,
            tuple(pile.get("cards", ())),
            int(pile.get("down", 0)),
            pile.get("show"),
            pile.get("suit"),
            pile.get("marker"),
            pile.get("next"),
            base if isinstance(base, int) else None,
            next_lines,
            deck,
            faces,
            layout.text,
            words,
        )
        known = _known_pile(key) if reuse else None
        if known is None:
            with display.group(pid, key) as texts:
                spot = _spot(pile, x, y, row, layout.label_h)
                _pile_ops(display, spot, pile, view, deck, faces, layout.text, words, row)
            known = (display.groups[-1][2], tuple(texts), spot.top, _bottom(spot))
            if reuse:
                _remember_pile(key, known)
        else:
            display.add_group(pid, key, known[0], known[1])
        tops[pid] = known[2]
        bottom = max(bottom, known[3])
    display.height = bottom + MARGIN + (layout.label_h if next_lines else 0)
    with display.group("rings", None):
        for pid in view.get("last_move_piles") or []:
            if pid in tops:
                display.ring(tops[pid], theme.LAST_MOVE)
        for pid in targets or ():
            if pid in tops:
                display.ring(tops[pid], theme.TARGET, 5)
        if selected is not None and selected in tops:
            display.ring(tops[selected], theme.SELECTED, 5)
    status = view.get("outcome") or ("stalled" if view.get("stalled") else None)
    return display, (word(status, lang) if status else None)


def _pile_ops(
    display: Display,
    spot: PileSpot,
    pile: Mapping[str, Any],
    view: PilesView,
    deck: str,
    faces: str,
    text: int,
    words: tuple[str, str],
    row: int,
) -> None:
    """One pile's label (a stack's count, a foundation's step badge), empty outline or cards,
    and the "next" line of a foundation whose pile says what it needs next."""
    italian = deck == "italian40" and faces in ("napoletane", "piacentine")
    extra = ""
    if spot.kind in ("stock", "reserve") or (spot.kind == "waste" and not fans_down("waste", row)):
        count = int(pile.get("down", 0)) + len(pile.get("cards", []))
        extra = str(count)
    colour = theme.MUTED
    mark = str(pile.get("suit") or "") if spot.kind == "foundation" else ""
    if spot.kind == "foundation" and "marker" in pile:
        mark = f"+{pile.get('marker', '')}"
        extra, colour = mark, theme.GOLD  # the step this foundation builds by
    elif spot.kind == "foundation" and isinstance(base := view.get("base_rank"), int):
        mark = _value_symbol(base)  # Canfield: the rank every foundation starts at
    label_ops(display, spot.label, spot.id, extra, text, colour)
    if not spot.cards:  # an empty pile shows its outline (covered as soon as it holds cards)
        slot = italian_slot(mark, faces) if italian and mark in SUITS else empty_slot(mark)
        display.sprite(slot, spot.slot.x, spot.slot.y)
    back = card_back()
    for k, card in enumerate(spot.cards):
        sprite = back if card.face == "down" else face_sprite(card.face, deck, faces)
        # a card's rounded corners show what lies under them: the table, or another card
        display.sprite(
            sprite, card.rect.x, card.rect.y, theme.TABLE if k == 0 else theme.CARD_WHITE
        )
    if spot.kind == "foundation" and "next" in pile:
        next_word, done = words
        nxt = pile.get("next")
        if nxt is not None:
            line = f"{next_word} {_value_symbol(nxt)}"
        else:
            line = fit_text(done, text, True, PITCH - 6)
        display.text(
            (spot.slot.x + W // 2, spot.slot.bottom + (text + 8) // 2 + 3),
            line,
            text,
            theme.WHITE,
            anchor="mm",
            bold=True,
        )


# Piles drawn lately: (everything a pile's pixels depend on) -> (its ops, the texts they
# paste, its top card's rectangle, its bottom). A move changes two or three piles of a board:
# the others are taken from here as they are. Bounded: about 1 KB an entry.
PILE_CACHE_SIZE = 512
_piles: OrderedDict[tuple[Any, ...], tuple[Any, ...]] = OrderedDict()
_piles_lock = threading.Lock()


def _known_pile(key: tuple[Any, ...]) -> tuple[Any, ...] | None:
    with _piles_lock:
        known = _piles.get(key)
        if known is not None:
            _piles.move_to_end(key)
        return known


def _remember_pile(key: tuple[Any, ...], known: tuple[Any, ...]) -> None:
    with _piles_lock:
        _piles[key] = known
        while len(_piles) > PILE_CACHE_SIZE:
            _piles.popitem(last=False)


def clear_cache() -> None:
    """Forget the piles drawn lately (benchmarks measure cold starts with it)."""
    with _piles_lock:
        _piles.clear()


def warm_up_sprites() -> int:
    """Build every pile-game sprite and its palette versions (see ``renderer.warm_up``)."""
    scratch = new_board(W, H)
    sprites = [card_back(), empty_slot("")]
    sprites += [empty_slot(s) for s in SUITS] + [empty_slot(f"+{m}") for m in range(1, 9)]
    sprites += [french_card(r + s) for r in "A23456789TJQK" for s in SUITS]
    for style in ("napoletane", "piacentine"):
        sprites += [italian_card(r + s, style) for r in "A234567JQK" for s in SUITS]
        sprites += [italian_slot(s, style) for s in SUITS]
    for sprite in sprites:
        for under in (theme.TABLE, theme.CARD_WHITE):
            paste_sprite(scratch, sprite, 0, 0, under)
    return len(sprites)
