"""Squadratik boards: El Solitario (board + hand), Cartas Maestras (public board with the seats,
or one player's private hand).

The board is a fixed window centred on the central card (the image keeps its size for the
whole game; cards shrink only when a path reaches past the window), showing every card on the
table plus the places where the next card of each path may go (dashed outlines labelled with the notation: ``N`` for a free side or a
path end, ``Ne`` for turning east after an empty card). Hand cards are numbered 1-4 as in the notation (``2N``).

>>> view = {"game": "squadratik", "board": [{"x": 0, "y": 0, "path": None,
...          "card": {"id": 0, "kind": "central", "sides": ["0"] * 4, "rotation": 0, "points": 0}}],
...         "paths": {"N": None, "E": None, "S": None, "W": None}, "hand": [], "stock": 42}
>>> squadratik_layout(view).cell_size
132
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from renderer import theme
from renderer.boards import MARGIN, draw_header, outline, short_name
from renderer.cards_squadratik import card_sprite, squadratik_card
from renderer.fonts import paste_text, text_width, word
from renderer.layout import Rect
from renderer.palette import ink, new_board
from renderer.sprites import paste_sprite

HEADER_H = 52
# The board is a fixed window centred on the central card: REACH cells each way at CELL px, so
# the image keeps one size for a whole game (a board edited in place never jumps). Random
# playouts stay within 4 cells of the centre about 90 % of the time (5: 96 %, up to 13 seen in
# Cartas Maestras); a path reaching further shrinks the cards, never the image.
REACH = 4
CELL = 136
GAP = 4
CELL_STEP = 4
BOARD_SIDE = (2 * REACH + 1) * CELL
MIN_CARD = 24
HAND_CARD = 128
PREVIEW = 64  # rotated previews in the private hand
SEAT_ROW = 44
STATUS_H = 56  # the band saying how the game ended, kept free until then
EMPTY_HAND_H = 64
MIN_WIDTH = 640
DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


@dataclass(slots=True)
class SquadratikLayout:
    """Where everything goes. ``cells`` maps board coordinates to card rectangles, ``slots`` maps
    a path-end notation (``"N"``, ``"N>e"``) to the place the next card would take, ``hand`` holds
    the hand card rectangles (slot 1 first; empty on a public Cartas Maestras board)."""

    width: int
    height: int
    cell_size: int
    cells: dict[tuple[int, int], Rect] = field(default_factory=dict)
    slots: dict[str, Rect] = field(default_factory=dict)
    hand: list[Rect] = field(default_factory=list)
    previews: list[list[Rect]] = field(default_factory=list)
    seats: list[Rect] = field(default_factory=list)
    board_area: Rect = Rect(0, 0, 0, 0)
    status: Rect = Rect(0, 0, 0, 0)


def path_targets(view: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """The notation of every place a next card may go (free central sides and path ends) and
    its board coordinates."""
    targets: dict[str, tuple[int, int]] = {}
    for side, path in (view.get("paths") or {}).items():
        if path is None:
            targets[side] = DIRS[side]
            continue
        cells = [tuple(c) for c in path.get("cells") or []]
        if not cells or not path.get("open"):
            continue
        last = cells[-1]
        before = cells[-2] if len(cells) > 1 else (0, 0)
        straight = (last[0] - before[0], last[1] - before[1])
        for end in path.get("ends") or []:
            step = DIRS[end.split(">")[1].upper()] if ">" in end else straight
            targets[end] = (last[0] + step[0], last[1] + step[1])
    return targets


def board_reach(view: dict[str, Any]) -> int:
    """How many cells from the centre the window must show: ``REACH``, or more when a card or
    a place for the next card lies further out."""
    cells = {(int(c["x"]), int(c["y"])) for c in view.get("board") or []}
    if not view.get("is_over"):
        cells |= set(path_targets(view).values())
    return max([REACH] + [max(abs(x), abs(y)) for x, y in cells])


def squadratik_layout(view: dict[str, Any], hand: bool = False) -> SquadratikLayout:
    """Geometry of the board image (or, with ``hand``, of the private Cartas Maestras hand).

    The size depends only on the game and its seats, never on the position."""
    if hand:
        return _hand_layout(view)
    cells = {(int(c["x"]), int(c["y"])) for c in view.get("board") or []} | {(0, 0)}
    # once the game is over no slot is drawn
    targets = {} if view.get("is_over") else path_targets(view)
    reach = board_reach(view)
    cell = CELL
    centre = (0, 0)
    if reach > REACH:
        # past the window: frame the cards' bounding box instead of the centre (a path that
        # went far one way keeps cards as large as possible), in whole steps of CELL_STEP px
        everything = cells | set(targets.values())
        xs, ys = [x for x, _ in everything], [y for _, y in everything]
        span = max(2 * REACH + 1, max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        cell = max(MIN_CARD + GAP, BOARD_SIDE // span // CELL_STEP * CELL_STEP)
        centre = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
    card = cell - GAP
    is_solo = view.get("game") != "maestras"
    width = BOARD_SIDE + 2 * MARGIN
    centre_x = width // 2
    centre_y = HEADER_H + MARGIN + BOARD_SIDE // 2
    layout = SquadratikLayout(width=width, height=0, cell_size=card)
    layout.board_area = Rect(MARGIN, HEADER_H + MARGIN, BOARD_SIDE, BOARD_SIDE)

    def at(x: int, y: int) -> Rect:
        return Rect(
            round(centre_x + (x - centre[0]) * cell) - card // 2,
            round(centre_y + (y - centre[1]) * cell) - card // 2,
            card,
            card,
        )

    for x, y in sorted(cells, key=lambda c: (c[1], c[0])):
        layout.cells[(x, y)] = at(x, y)
    for end, (x, y) in targets.items():
        if (x, y) not in cells:
            layout.slots[end] = at(x, y)
    y = layout.board_area.bottom + STATUS_H
    layout.status = Rect(0, layout.board_area.bottom + 4, width, STATUS_H - 8)
    if is_solo:
        y += 30  # the hand title
        n = max(4, len(view.get("hand") or []))
        size = min(HAND_CARD, (width - 2 * MARGIN + 24) // n - 24)
        hand_w = n * (size + 24) - 24
        hx = (width - hand_w) // 2
        for k in range(len(view.get("hand") or [])):
            layout.hand.append(Rect(hx + k * (size + 24), y + 28, size, size))
        y += 28 + HAND_CARD + MARGIN
    else:
        for _ in view.get("seats") or []:
            layout.seats.append(Rect(MARGIN, y, width - 2 * MARGIN, SEAT_ROW))
            y += SEAT_ROW + 4
        y += MARGIN
    layout.height = y
    return layout


def _hand_layout(view: dict[str, Any]) -> SquadratikLayout:
    cards = view.get("hand") or []
    n = max(4, len(cards))
    column = HAND_CARD + 32
    width = max(MIN_WIDTH, n * column - 32 + 2 * MARGIN)
    layout = SquadratikLayout(width=width, height=0, cell_size=HAND_CARD)
    if not cards:  # one line saying so, not a big empty table
        layout.height = HEADER_H + 2 * MARGIN + EMPTY_HAND_H
        return layout
    x0 = (width - (n * column - 32)) // 2
    y = HEADER_H + MARGIN + 30
    for k in range(len(cards)):
        x = x0 + k * column
        layout.hand.append(Rect(x, y, HAND_CARD, HAND_CARD))
        # the three other rotations, small, so a player can pick r1-r3 at a glance
        layout.previews.append(
            [
                Rect(
                    x + (HAND_CARD - 2 * PREVIEW - 8) // 2 + (r - 1) % 2 * (PREVIEW + 8),
                    y + HAND_CARD + 30 + (r - 1) // 2 * (PREVIEW + 26),
                    PREVIEW,
                    PREVIEW,
                )
                for r in (1, 2, 3)
            ]
        )
    layout.height = y + HAND_CARD + 30 + 2 * (PREVIEW + 26) + MARGIN
    return layout


def _dashed_slot(image: Image.Image, draw: ImageDraw.ImageDraw, rect: Rect, text: str) -> None:
    """Where a card may go next: a dashed outline and the notation of the place."""
    x0, y0, x1, y1 = rect.box()
    dash = max(6, rect.w // 10)
    line = ink(draw, theme.SLOT_LINE)
    for start in range(x0, x1, 2 * dash):
        draw.line([(start, y0), (min(start + dash, x1), y0)], fill=line, width=2)
        draw.line([(start, y1), (min(start + dash, x1), y1)], fill=line, width=2)
    for start in range(y0, y1, 2 * dash):
        draw.line([(x0, start), (x0, min(start + dash, y1))], fill=line, width=2)
        draw.line([(x1, start), (x1, min(start + dash, y1))], fill=line, width=2)
    paste_text(
        image, rect.centre, text, max(16, rect.w // 3), theme.LABEL_TEXT, anchor="mm", bold=True
    )


def _slot_text(end: str) -> str:
    return end.replace(">", "").upper()[:1] + end.replace(">", "")[1:].lower()


def _header(
    view: dict[str, Any], lang: str, clock: str | None, hand: bool, player: str | None = None
) -> tuple[str, str]:
    if view.get("game") == "maestras":
        left = word("title_maestras", lang)
        if hand:
            left = f"{word('your_hand', lang)} {view.get('viewer') or ''}"
        elif view.get("phase") == "final":
            left += f"  ·  {word('final', lang)}"
        right = f"{word('moves', lang)} {view.get('move_number', 0)}    {word('stock', lang)} {view.get('stock', 0)}"
    else:
        left = f"{word('title_squadratik', lang)}  ·  {word('deal', lang)} {view.get('deal', 0)}"
        if player:
            left += f"  ·  {short_name(player)}"
        right = (
            f"{word('points', lang)} {view.get('removed_points', view.get('score', 0))}    "
            f"{word('moves', lang)} {view.get('move_number', 0)}    "
            f"{word('stock', lang)} {view.get('stock', 0)}"
        )
    if clock:
        right += f"    {clock}"
    return left, right


def draw_squadratik(
    view: dict[str, Any],
    *,
    lang: str = "en",
    clock: str | None = None,
    selected: str | None = None,
    targets: list[str] | tuple = (),
    hand: bool = False,
    player: str | None = None,
) -> Image.Image:
    """The Squadratik image: the board (El Solitario with its hand; Cartas Maestras with seats)
    or, with ``hand=True``, the private hand of ``view["viewer"]``."""
    layout = squadratik_layout(view, hand=hand)
    image = new_board(layout.width, layout.height)
    draw = ImageDraw.Draw(image)
    draw_header(image, layout.width, *_header(view, lang, clock, hand, player), height=HEADER_H)
    if hand:
        _draw_private_hand(image, draw, view, layout, lang, selected)
        return image
    for entry in view.get("board") or []:
        rect = layout.cells[(int(entry["x"]), int(entry["y"]))]
        sprite = card_sprite(entry["card"], rect.w)
        paste_sprite(image, sprite, rect.x, rect.y)
    if not view.get("is_over"):
        for end, rect in layout.slots.items():
            _dashed_slot(image, draw, rect, _slot_text(end))
    for x, y in view.get("last_move_cells") or []:
        if (x, y) in layout.cells:
            outline(draw, layout.cells[(x, y)], theme.LAST_MOVE, 4)
    for end in targets or ():
        if end in layout.slots:
            outline(draw, layout.slots[end], theme.TARGET, 5)
    if view.get("game") == "maestras":
        _draw_seats(image, draw, view, layout, lang)
    else:
        _draw_solo_hand(image, draw, view, layout, lang, selected)
    status = view.get("outcome")
    if status:  # in the band kept for it, so the image keeps its size
        _draw_status(image, layout.status, word(status, lang))
    return image


def _draw_status(image: Image.Image, rect: Rect, text: str) -> None:
    image.paste(ink(image, theme.HEADER), rect.box())
    size = 36
    while size > 18 and text_width(text, size, True) > rect.w - 2 * MARGIN:
        size -= 4
    paste_text(
        image, rect.centre, text, size, theme.LAST_MOVE, anchor="mm", bold=True, under=theme.HEADER
    )


def _slot_number(image: Image.Image, draw: ImageDraw.ImageDraw, rect: Rect, number: int) -> None:
    draw.rounded_rectangle(
        (rect.x, rect.y - 28, rect.x + 34, rect.y - 4), radius=6, fill=ink(draw, theme.LABEL_BG)
    )
    paste_text(
        image,
        (rect.x + 17, rect.y - 16),
        str(number),
        20,
        theme.WHITE,
        anchor="mm",
        bold=True,
        under=theme.LABEL_BG,
    )


def _draw_solo_hand(image, draw, view, layout: SquadratikLayout, lang: str, selected) -> None:
    if layout.hand:
        first = layout.hand[0]
        paste_text(image, (MARGIN, first.y - 44), word("hand", lang), 22, theme.MUTED, anchor="lm")
    for k, (card, rect) in enumerate(zip(view.get("hand") or [], layout.hand, strict=False), 1):
        _slot_number(image, draw, rect, k)
        sprite = card_sprite(card, rect.w)
        paste_sprite(image, sprite, rect.x, rect.y)
        if selected in (f"h{k}", str(k)):
            outline(draw, rect, theme.SELECTED, 5)


def _draw_private_hand(image, draw, view, layout: SquadratikLayout, lang: str, selected) -> None:
    if not view.get("hand"):
        paste_text(
            image,
            (layout.width // 2, HEADER_H + MARGIN + EMPTY_HAND_H // 2),
            word("empty_hand", lang),
            26,
            theme.MUTED,
            anchor="mm",
        )
    for k, (card, rect) in enumerate(zip(view.get("hand") or [], layout.hand, strict=False), 1):
        _slot_number(image, draw, rect, k)
        sprite = card_sprite(card, rect.w)
        paste_sprite(image, sprite, rect.x, rect.y)
        if selected in (f"h{k}", str(k)):
            outline(draw, rect, theme.SELECTED, 5)
        if card.get("kind") in ("empty", "central"):
            continue  # an empty card looks the same at any rotation
        for r, small in zip((1, 2, 3), layout.previews[k - 1], strict=True):
            base = int(card.get("rotation") or 0)
            sprite = squadratik_card(
                card.get("kind", "normal"),
                tuple(card["sides"]),
                int(card.get("points") or 0),
                (base + r) % 4,
                small.w,
            )
            paste_sprite(image, sprite, small.x, small.y)
            paste_text(
                image,
                (small.centre[0], small.bottom + 12),
                f"r{r}",
                18,
                theme.LABEL_TEXT,
                anchor="mm",
                bold=True,
            )


def _draw_seats(
    image: Image.Image, draw: ImageDraw.ImageDraw, view, layout: SquadratikLayout, lang: str
) -> None:
    results = {r["player"]: r for r in view.get("results") or []}
    current = view.get("current_player")
    for seat, rect in zip(view.get("seats") or [], layout.seats, strict=False):
        name = str(seat.get("player", ""))
        is_turn = name == current and not view.get("is_over")
        background = theme.TURN_BG if is_turn else theme.LABEL_BG
        draw.rounded_rectangle(
            rect.box(),
            radius=8,
            fill=ink(draw, background),
            outline=ink(draw, theme.LAST_MOVE) if is_turn else None,
            width=3,
        )
        cy = rect.y + rect.h // 2
        x = rect.x + 14
        if name in results:
            paste_text(
                image,
                (x, cy),
                f"#{results[name].get('place', '')}",
                22,
                theme.LAST_MOVE,
                anchor="lm",
                bold=True,
                under=background,
            )
            x += 44
        elif is_turn:
            draw.polygon(
                [(x, cy - 10), (x + 16, cy), (x, cy + 10)], fill=ink(draw, theme.LAST_MOVE)
            )
            x += 28
        shown = short_name(name)
        paste_text(image, (x, cy), shown, 22, theme.WHITE, anchor="lm", bold=True, under=background)
        # right side: hand count (backs), masters (crown), won cards
        right = rect.right - 14
        parts = [
            (f"{word('cards', lang)} {seat.get('cards', 0)}", theme.WHITE),
            (f"{word('masters', lang)} {seat.get('masters', 0)}", theme.GOLD),
            (f"{word('hand', lang)} {seat.get('hand', 0)}", theme.MUTED),
        ]
        for text, colour in parts:
            paste_text(
                image,
                (right, cy),
                text,
                20,
                colour,
                anchor="rm",
                bold=colour == theme.GOLD,
                under=background,
            )
            right -= text_width(text, 20, True) + 26
