"""Squadratik cards: square cards with 0-4 red or black balls on each side.

Drawn as placed: after ``r`` clockwise quarter turns the printed side ``(0 - r) % 4`` is on top,
exactly as ``docs/views.md`` describes, and its balls are drawn there. The numbers stay upright
whatever the rotation: each side's ball count just inside its balls, the red total in the
bottom-left corner, the black total in the bottom-right one, the points in the centre of normal
cards (the spec's summary grid, spread to the sides it counts so it can be drawn large). Masters are gold with a crown, empty cards grey and hatched, the
central card dark blue with a compass star, so the kinds differ at a glance.

>>> squadratik_card("normal", ("R2", "B1", "0", "R3"), 6, 1, 96).size
(96, 96)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from renderer import theme
from renderer.fonts import font
from renderer.palette import OPAQUE_ENOUGH, palette_image, paletted
from renderer.sprites import SS, shrink

BALL_RED = (214, 24, 34)
BALL_BLACK = (18, 18, 22)
STOCK = {
    "normal": (252, 252, 246),
    "master": (250, 214, 96),
    "empty": (208, 212, 218),
    "central": (28, 44, 110),
}
EDGE = {
    "normal": (60, 60, 60),
    "master": (150, 96, 0),
    "empty": (110, 116, 126),
    "central": (240, 240, 255),
}
SIDE_NAMES = ("N", "E", "S", "W")


def side_balls(side: str) -> tuple[str | None, int]:
    """``"R3"`` -> ``("R", 3)``; a blank side ``"0"`` -> ``(None, 0)``."""
    if not side or side == "0":
        return None, 0
    return side[0].upper(), int(side[1:])


def ball_colour(colour: str | None) -> tuple[int, int, int]:
    return BALL_RED if colour == "R" else BALL_BLACK


def placed_sides(sides: tuple[str, ...], rotation: int) -> tuple[str, ...]:
    """The sides N, E, S, W as seen on the table after ``rotation`` clockwise quarter turns.

    >>> placed_sides(("R1", "0", "0", "B2"), 1)
    ('B2', 'R1', '0', '0')
    """
    r = rotation % 4
    return tuple(sides[(k - r) % 4] for k in range(4))


@lru_cache(maxsize=2048)
def squadratik_card(
    kind: str, sides: tuple[str, ...], points: int, rotation: int, size: int
) -> Image.Image:
    """A card ``size`` px square: ``kind`` normal/master/empty/central, printed ``sides`` N E S W,
    as it lies after ``rotation`` clockwise quarter turns.

    The balls turn with the card (each placed side shows its printed side's balls), but every
    number is drawn upright: a player reads a turned card without turning the phone, and a
    "6" never reads as a "9"."""
    return _placed_card(kind, placed_sides(tuple(sides), rotation), points, size)


# the ball strip of edge k is the N strip turned so: exact pixel copies (no resampling)
_TURNS = {
    1: Image.Transpose.ROTATE_270,
    2: Image.Transpose.ROTATE_180,
    3: Image.Transpose.ROTATE_90,
}


@lru_cache(maxsize=1024)
def _placed_card(kind: str, shown: tuple[str, ...], points: int, size: int) -> Image.Image:
    """The card with ``shown`` as its placed sides N, E, S, W, put together from cached pieces:
    the blank card of its kind, the crown, one ball strip per side (supersampled once per
    count, colour and size), and the numbers drawn upright at the final size."""
    card = _blank(kind, size).copy()
    if kind in ("empty", "central"):
        return card
    if kind == "master":
        card.alpha_composite(_crown(size))
    for index, side in enumerate(shown):
        strip, at = _ball_strip(side, index, size)
        if strip is not None:
            card.alpha_composite(strip, at)
    draw = ImageDraw.Draw(card)
    for xy, text, px, fill, anchor in _numbers(kind, shown, points, size):
        draw_digits(draw, xy, text, px, fill, anchor)
    return card


Number = tuple[tuple[float, float], str, int, tuple[int, int, int], str]


def _numbers(kind: str, shown: tuple[str, ...], points: int, size: int) -> list[Number]:
    """Every number a card draws, in order, as ``draw_digits``' arguments: the points, each
    side's ball count, the red and black totals."""
    digit = digit_font_px(size)
    numbers: list[Number] = []
    if kind != "master" and not crowded(size):
        numbers.append(((size / 2, size * CENTRE_ROW), str(points), digit, (70, 70, 76), "mm"))
    numbers += _side_counts(size, shown, digit)
    numbers += _totals(size, shown, digit, kind)
    return numbers


# The board draws a card on the fixed palette (``renderer.palette``). Converting each new
# card picture (as ``paletted`` does) costs more than the rest of a move; put together on the
# palette instead from pieces converted once, it costs a few pastes. A card is drawn by a few
# steps (``_steps``: each side's balls composited, then each number drawn, as
# ``_placed_card`` does); steps that touch a pixel in common are one piece, drawn in their
# order on the blank card, so no piece touches another's pixels and each piece holds exactly
# the pixels the RGBA card has there, converted as ``paletted`` converts the whole card. The
# card is the converted blank with the pieces pasted where they touch it: pixel for pixel the
# conversion of ``_placed_card``'s picture (tests/renderer/test_squadratik_pieces.py). A step
# that would draw past the card's edge (only on the smallest cards, 24 px) sends the card the
# slow way.
Box = tuple[int, int, int, int]
Step = tuple[Any, ...]  # ("balls", side, edge) or ("number", *draw_digits' arguments)
# where its pixels are, its picture, the mask of the pixels it touches, the card's mask there
Piece = tuple[Box, Image.Image, Image.Image, Image.Image]
_NONZERO = [0] + [255] * 255


def paletted_card(
    card: Mapping[str, Any], size: int, under: tuple[int, ...] = theme.TABLE
) -> tuple[Image.Image, Image.Image]:
    """A view's card dict (``card_sprite``) on the board palette over ``under``, and its mask:
    what ``renderer.palette.paletted(card_sprite(card, size), under)`` gives."""
    sides = tuple(card.get("sides") or ("0", "0", "0", "0"))
    shown = placed_sides(sides, int(card.get("rotation") or 0))
    points = int(card.get("points") or 0)
    return _paletted_placed(card.get("kind", "normal"), shown, points, size, tuple(under))


@lru_cache(maxsize=512)
def _paletted_placed(
    kind: str, shown: tuple[str, ...], points: int, size: int, under: tuple[int, ...]
) -> tuple[Image.Image, Image.Image]:
    base, mask = paletted(_base(kind, size), under)
    if kind in ("empty", "central"):
        return base, mask
    plan = _plan(kind, shown, points, size, under)
    if plan is None:  # drawn past the card's edge: the whole card
        return paletted(_placed_card(kind, shown, points, size), under)
    card, bits = base.copy(), mask
    for (box, picture, touched, shown_bits), changes_mask in plan:
        card.im.paste(picture.im, box, touched.im)
        if changes_mask:
            if bits is mask:
                bits = mask.copy()
            bits.im.paste(shown_bits.im, box, touched.im)
    # a card whose pieces leave the blank card's mask as it is shares that mask (and the
    # parts ``renderer.display`` cuts it into: a new card costs a copy and a few pastes)
    return card, bits


#: a card's pieces (``_piece``), each with whether it changes the blank card's mask: for
#: every card of the deck at every turn at the warmed sizes (``warm_up``), a few KB each
PLAN_CACHE_SIZE = 4096


@lru_cache(maxsize=PLAN_CACHE_SIZE)
def _plan(
    kind: str, shown: tuple[str, ...], points: int, size: int, under: tuple[int, ...]
) -> tuple[tuple[Piece, bool], ...] | None:
    """The pieces ``_paletted_placed`` pastes on the blank card, in order: the card's steps
    that touch a pixel in common joined into one piece (union-find), so no piece touches
    another's pixels; None when a step draws past the card's edge. Worked out once per card,
    turn and size: on a board that reframes every card is new at its new size."""
    steps = _steps(kind, shown, points, size)
    group = list(range(len(steps)))

    def root(k: int) -> int:
        while group[k] != k:
            k = group[k]
        return k

    for k in range(len(steps)):
        for j in range(k + 1, len(steps)):
            if _steps_meet(steps[k], steps[j], size):
                group[root(j)] = root(k)
    roots = [root(k) for k in range(len(steps))]
    pieces = [
        _piece(kind, size, under, tuple(s for s, r in zip(steps, roots, strict=True) if r == k))
        for k in sorted(set(roots))
    ]
    if any(piece is None for piece in pieces):
        return None
    _, mask = paletted(_base(kind, size), under)
    plan = []
    for piece in pieces:
        assert piece is not None
        box, _, touched, shown_bits = piece
        before = mask.crop(box)
        after = before.copy()
        after.paste(shown_bits, (0, 0), touched)
        plan.append((piece, after.tobytes() != before.tobytes()))
    return tuple(plan)


@lru_cache(maxsize=8192)
def _steps_meet(step: Step, other: Step, size: int) -> bool:
    """Whether two steps touch a pixel in common (then the later one is drawn over the
    earlier one's pixels, not the blank card's): they are drawn as one piece."""
    return _meet(_touch(step, size), _touch(other, size))


def _steps(kind: str, shown: tuple[str, ...], points: int, size: int) -> list[Step]:
    """What ``_placed_card`` draws on the blank card, in its order."""
    steps: list[Step] = [("balls", side, k) for k, side in enumerate(shown) if side_balls(side)[1]]
    return steps + [("number", *number) for number in _numbers(kind, shown, points, size)]


@lru_cache(maxsize=64)
def _base(kind: str, size: int) -> Image.Image:
    """The blank card of ``kind``, with its crown on a master: what the steps draw on."""
    if kind != "master":
        return _blank(kind, size)
    card = _blank(kind, size).copy()
    card.alpha_composite(_crown(size))
    return card


def _draw_step(region: Image.Image, step: Step, size: int, origin: tuple[int, int]) -> None:
    """Draw ``step`` as ``_placed_card`` does on the card, onto ``region``, the part of the
    card whose top-left corner is at ``origin`` (it holds every pixel the step touches)."""
    left, top = origin
    if step[0] == "balls":
        strip, (x, y) = _ball_strip(step[1], step[2], size)
        if strip is None:
            return
        # the part of the strip over the region: outside it, the strip is see-through
        x0, y0 = max(x, left), max(y, top)
        x1, y1 = (
            min(x + strip.width, left + region.width),
            min(y + strip.height, top + region.height),
        )
        if x0 < x1 and y0 < y1:
            part = strip.crop((x0 - x, y0 - y, x1 - x, y1 - y))
            region.alpha_composite(part, (x0 - left, y0 - top))
    else:
        (x, y), *rest = step[1:]
        draw_digits(ImageDraw.Draw(region), (x - left, y - top), *rest)


@lru_cache(maxsize=2048)
def _touch(step: Step, size: int) -> tuple[Box, Image.Image] | None:
    """The pixels a step touches on a ``size`` px card: their box and 1-bit mask."""
    if step[0] == "balls":
        strip, (x, y) = _ball_strip(step[1], step[2], size)
        if strip is None:
            return None
        touched = strip.getchannel("A").point(_NONZERO, "1")
    else:
        _, (x0, y0), text, px, fill, anchor = step
        probe = ImageDraw.Draw(Image.new("RGBA", (1, 1)))
        ink = probe.draw.draw_ink(fill)
        start = (math.modf(x0)[0], math.modf(y0)[0])
        glyph, (dx, dy) = _glyph_mask(text, px, anchor, start, ink)
        coverage = Image.new("L", glyph.size, 0)  # the glyph's coverage: 255 blended in
        ImageDraw.Draw(coverage).draw.draw_bitmap((0, 0), glyph, 255)
        touched = coverage.point(_NONZERO, "1")
        x, y = int(x0) + dx, int(y0) + dy
    found = touched.getbbox()
    if found is None:
        return None
    box = (x + found[0], y + found[1], x + found[2], y + found[3])
    touched = touched.crop(found)
    touched.load()
    return box, touched


def _meet(touch: tuple[Box, Image.Image] | None, other: tuple[Box, Image.Image] | None) -> bool:
    """Whether two steps touch a pixel in common (then the later one is drawn over the
    earlier one's pixels, not the blank card's)."""
    if touch is None or other is None:
        return False
    (ax0, ay0, ax1, ay1), touched = touch
    (bx0, by0, bx1, by1), touched_too = other
    x0, y0, x1, y1 = max(ax0, bx0), max(ay0, by0), min(ax1, bx1), min(ay1, by1)
    if x0 >= x1 or y0 >= y1:
        return False
    mine = touched.crop((x0 - ax0, y0 - ay0, x1 - ax0, y1 - ay0))
    theirs = touched_too.crop((x0 - bx0, y0 - by0, x1 - bx0, y1 - by0))
    return ImageChops.logical_and(mine, theirs).getbbox() is not None


@lru_cache(maxsize=2048)
def _piece(kind: str, size: int, under: tuple[int, ...], steps: tuple[Step, ...]) -> Piece | None:
    """``steps`` drawn in order on the blank card, cut to the pixels they touch and converted
    as ``paletted`` converts a card over ``under``: the picture, the mask of the pixels the
    steps touch, the card's mask bits there (``paletted``'s threshold). None when a step
    draws past the card's edge (``_placed_card`` cuts it off there)."""
    touches = [touch for touch in (_touch(step, size) for step in steps) if touch is not None]
    if not touches:
        return None
    box = (
        min(t[0][0] for t in touches),
        min(t[0][1] for t in touches),
        max(t[0][2] for t in touches),
        max(t[0][3] for t in touches),
    )
    if box[0] < 0 or box[1] < 0 or box[2] > size or box[3] > size:
        return None
    region = _base(kind, size).crop(box)
    for step in steps:
        _draw_step(region, step, size, (box[0], box[1]))
    touched = Image.new("1", region.size, 0)
    for (x0, y0, _, _), mask in touches:
        touched.paste(1, (x0 - box[0], y0 - box[1]), mask)
    # a touched pixel the steps left as it was converts as the blank card's does: pasting it
    # changes nothing
    flat = Image.new("RGB", region.size, tuple(under[:3]))
    flat.paste(region, (0, 0), region)
    picture = flat.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    bits = region.getchannel("A").point(OPAQUE_ENOUGH, "1")
    for image in (picture, touched, bits):
        image.load()
    return box, picture, touched, bits


def draw_digits(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    px: int,
    fill: tuple[int, int, int],
    anchor: str,
) -> None:
    """``draw.text(xy, text, font=font(px, bold=True), fill=fill, anchor=anchor)`` on a card
    (RGBA), pixel for pixel, with the glyphs' coverage taken from a cache: a new card's six
    numbers cost six renders of the font otherwise, most of the card's cost. What Pillow's
    ``ImageDraw.text`` does for one line: the font's mask at the point's fractional part,
    blended in with the ink at its whole part plus the mask's offset
    (tests/renderer/test_squadratik_pieces.py compares the two on every card size)."""
    ink = draw.draw.draw_ink(fill)
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, (dx, dy) = _glyph_mask(text, px, anchor, start, ink)
    draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)


@lru_cache(maxsize=4096)
def _glyph_mask(
    text: str, px: int, anchor: str, start: tuple[float, float], ink: int
) -> tuple[Any, tuple[int, int]]:
    """The coverage mask of ``text`` (bold, ``px``) at the sub-pixel ``start``, and its
    offset from the anchor point (``ImageFont.FreeTypeFont.getmask2``, as ``draw.text``)."""
    mask, offset = font(px, bold=True).getmask2(
        text, "L", None, None, None, 0, anchor, ink, start, stroke_filled=True
    )
    return mask, (int(offset[0]), int(offset[1]))


@lru_cache(maxsize=256)
def _digit_extent(px: int, text: str) -> tuple[float, tuple[float, float, float, float]]:
    """``(getlength(text), getbbox(text, anchor="mm"))`` of the bold font at ``px``."""
    digit = font(px, bold=True)
    return digit.getlength(text), digit.getbbox(text, anchor="mm")


@lru_cache(maxsize=64)
def _blank(kind: str, size: int) -> Image.Image:
    """The card of ``kind`` with nothing on it (empty and central cards: complete)."""
    big = size * SS
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(3, size // 12) * SS
    draw.rounded_rectangle(
        (0, 0, big - 1, big - 1),
        radius=radius,
        fill=STOCK[kind],
        outline=EDGE[kind],
        width=max(1, round(size / 40)) * SS,
    )
    if kind == "empty":
        _draw_empty(draw, big)
        # the hatching ran over the rounded corners: cut it back to the card and redraw the edge
        shape = Image.new("L", (big, big), 0)
        ImageDraw.Draw(shape).rounded_rectangle((0, 0, big - 1, big - 1), radius=radius, fill=255)
        image.putalpha(ImageChops.darker(image.getchannel("A"), shape))
        draw.rounded_rectangle(
            (0, 0, big - 1, big - 1),
            radius=radius,
            outline=EDGE[kind],
            width=max(1, round(size / 40)) * SS,
        )
    elif kind == "central":
        _draw_central(draw, big)
    return shrink(image, size, size)


@lru_cache(maxsize=64)
def _crown(size: int) -> Image.Image:
    big = size * SS
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    _draw_crown(ImageDraw.Draw(image), big)
    return shrink(image, size, size)


@lru_cache(maxsize=512)
def _ball_strip(side: str, index: int, size: int) -> tuple[Image.Image | None, tuple[int, int]]:
    """The balls of ``side`` along edge ``index`` (0 N, 1 E, 2 S, 3 W) of a ``size`` px card,
    as a small sprite and where it goes; the N strip is drawn, the others are exact turns."""
    colour, count = side_balls(side)
    if not count:
        return None, (0, 0)
    if index:
        north, _ = _ball_strip(side, 0, size)
        assert north is not None
        turned = north.transpose(_TURNS[index])
        at = {1: (size - turned.width, 0), 2: (0, size - turned.height), 3: (0, 0)}[index]
        return turned, at
    depth = math.ceil(size * (BALL_DEPTH + BALL / 2)) + 1
    big = Image.new("RGBA", (size * SS, depth * SS), (0, 0, 0, 0))
    _draw_side(ImageDraw.Draw(big), size * SS, 0, side)
    return shrink(big, size, depth), (0, 0)


def warm_up(sizes: tuple[int, ...]) -> int:
    """Build every piece of every card at ``sizes`` now (blank cards, crowns, the ball strips
    of every side and edge, and the palette pieces of every card of the deck at every turn:
    ``paletted_card``): about 50 ms per size. Returns how many pieces and cards."""
    from engine.squadratik.deck import DECK  # the cards there are: the pieces they need

    built = 0
    for size in sizes:
        for kind in STOCK:
            _blank(kind, size)
        _crown(size)
        for side in ["0"] + [f"{c}{n}" for c in "RB" for n in range(1, 5)]:
            for index in range(4):
                _ball_strip(side, index, size)
        built += len(STOCK) + 1 + 36
    for size in sizes:
        for card in DECK:
            for rotation in range(4):
                shown = placed_sides(card.sides, rotation)
                # the plan and its pieces are kept; the card is put together when it is drawn
                _plan(str(card.kind), shown, card.points, size, theme.TABLE)
                built += 1
    return built


def clear_cache() -> None:
    """Forget every built card and piece (benchmarks measure cold starts with it)."""
    for cached in (
        squadratik_card,
        _placed_card,
        _blank,
        _crown,
        _ball_strip,
        _glyph_mask,
        _paletted_placed,
        _plan,
        _base,
        _touch,
        _piece,
        _steps_meet,
    ):
        cached.cache_clear()


# Sizes as shares of the card side. The balls keep to the middle 37 % of each edge; each
# side's ball count stands beside its balls, clockwise of them (N left of its balls, E above,
# S right, W below), so every corner holds one count and none is read as another's. The points
# (normal cards) or the crown (masters) take the upper centre, the red and black totals a row
# below. Every number is drawn at ``DIGIT_SHARE`` of the card (ink about 20 % of the card's
# height): on the smallest card of a board up to 8 cells across, 9 px or more once the image is
# shown 400 px wide.
BALL = 0.08
BALL_GAP = 0.015
BALL_DEPTH = 0.125
BALL_SPAN = 4 * BALL + 3 * BALL_GAP  # the longest row of balls
DIGIT_SHARE = 0.28
COUNT_GAP = 0.03  # between a row of balls and its count


# Digits of 23 px have 16.8 px of ink: 9.3 px once a 720-px board is shown 400 px wide. Cards
# too small for that at DIGIT_SHARE (a long path) get up to CROWDED_SHARE and drop the points
# in the centre (the sum of the two totals) to make room.
READABLE_PX = 23
CROWDED_SHARE = 0.36


def digit_font_px(size: int) -> int:
    """Font size in final pixels of every number on a card ``size`` px square."""
    return max(8, min(max(round(size * DIGIT_SHARE), READABLE_PX), round(size * CROWDED_SHARE)))


def crowded(size: int) -> bool:
    """Whether a card this small draws its numbers larger than ``DIGIT_SHARE`` (no points)."""
    return digit_font_px(size) > size * (DIGIT_SHARE + 0.01)


def _side_counts(size: int, shown: tuple[str, ...], digit: int) -> list[Number]:
    """Each placed side's ball count beside its balls, upright (a blank side: nothing);
    ``digit``: the numbers' font size."""
    counts = (_side_count(size, index, side, digit) for index, side in enumerate(shown))
    return [number for number in counts if number is not None]


def _side_count(size: int, index: int, side: str, digit: int) -> Number | None:
    """The ball count of ``side`` on edge ``index``, beside its balls (None: a blank side)."""
    colour, count = side_balls(side)
    if not count:
        return None
    box = _digit_extent(digit, "8")[1]
    half_w, half_h = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    near = size * (0.5 - BALL_SPAN / 2 - COUNT_GAP)  # just before the first ball of the longest row
    far = size * (0.5 + BALL_SPAN / 2 + COUNT_GAP)
    depth = max(size * BALL_DEPTH, half_h + size * 0.02)
    centre = {
        0: (near - half_w, depth),
        1: (size - depth, near - half_h),
        2: (far + half_w, size - depth),
        3: (depth, far + half_h),
    }[index]
    return centre, str(count), digit, ball_colour(colour), "mm"


CENTRE_ROW = 0.40  # the points, or the crown
TOTALS_ROW = 0.64  # the red and the black total


def _totals(size: int, shown: tuple[str, ...], digit: int, kind: str = "normal") -> list[Number]:
    """The red total and the black total side by side below the centre, the pair centred (a
    colour the card does not show has no total)."""
    reds = sum(n for c, n in map(side_balls, shown) if c == "R")
    blacks = sum(n for c, n in map(side_balls, shown) if c == "B")
    parts = [(str(n), colour) for n, colour in ((reds, BALL_RED), (blacks, BALL_BLACK)) if n]
    widths = [_digit_extent(digit, text)[0] for text, _ in parts]
    gap = size * 0.07
    x = size / 2 - (sum(widths) + gap * (len(parts) - 1)) / 2
    # a crowded card has no points: its totals take the centre (a master's stay below the crown)
    y = size * (0.5 if crowded(size) and kind != "master" else TOTALS_ROW)
    numbers: list[Number] = []
    for (text, colour), width in zip(parts, widths, strict=True):
        numbers.append(((x, y), text, digit, colour, "lm"))
        x += width + gap
    return numbers


def _draw_side(draw: ImageDraw.ImageDraw, big: int, index: int, side: str) -> None:
    colour, count = side_balls(side)
    if not count:
        return
    d = big * BALL  # ball diameter
    gap = big * BALL_GAP
    depth = big * BALL_DEPTH  # centre of the balls from the edge
    span = count * d + (count - 1) * gap
    fill = ball_colour(colour)
    for k in range(count):
        along = big / 2 - span / 2 + d / 2 + k * (d + gap)
        cx, cy = {
            0: (along, depth),
            1: (big - depth, along),
            2: (along, big - depth),
            3: (depth, along),
        }[index]
        draw.ellipse((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), fill=fill)
        h = d * 0.2  # a highlight so black balls read as balls on any screen
        draw.ellipse(
            (cx - d * 0.28, cy - d * 0.3, cx - d * 0.28 + h, cy - d * 0.3 + h),
            fill=(255, 255, 255, 200),
        )


def _draw_crown(draw: ImageDraw.ImageDraw, big: int) -> None:
    c, w = big / 2, big * 0.3
    top, base = big * 0.25, big * 0.5
    pts = [
        (c - w / 2, base),
        (c - w / 2, top + w * 0.2),
        (c - w / 4, top + w * 0.45),
        (c, top),
        (c + w / 4, top + w * 0.45),
        (c + w / 2, top + w * 0.2),
        (c + w / 2, base),
    ]
    draw.polygon(pts, fill=(176, 40, 40), outline=(90, 40, 0), width=max(1, big // 100))


def _draw_empty(draw: ImageDraw.ImageDraw, big: int) -> None:
    step = big // 8
    for k in range(-big, big, step):
        draw.line([(k, big), (k + big, 0)], fill=(186, 190, 198), width=max(1, big // 60))
    draw.rounded_rectangle(
        (big * 0.06, big * 0.06, big * 0.94, big * 0.94),
        radius=big // 12,
        outline=EDGE["empty"],
        width=max(1, big // 60),
    )
    r = big * 0.16  # the empty-set mark: a ring with a slash
    c = big / 2
    draw.ellipse((c - r, c - r, c + r, c + r), outline=(80, 86, 96), width=max(2, big // 30))
    draw.line(
        [(c - r * 1.3, c + r * 1.3), (c + r * 1.3, c - r * 1.3)],
        fill=(80, 86, 96),
        width=max(2, big // 30),
    )


def _draw_central(draw: ImageDraw.ImageDraw, big: int) -> None:
    c = big / 2
    for k in range(8):
        a = k * math.pi / 4
        long = big * (0.34 if k % 2 == 0 else 0.2)
        tip = (c + math.cos(a) * long, c + math.sin(a) * long)
        left = (c + math.cos(a + 0.5) * big * 0.07, c + math.sin(a + 0.5) * big * 0.07)
        right = (c + math.cos(a - 0.5) * big * 0.07, c + math.sin(a - 0.5) * big * 0.07)
        draw.polygon([left, tip, right, (c, c)], fill=(250, 210, 80))
    r = big * 0.06
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(255, 255, 255))


def card_sprite(card: Mapping[str, Any], size: int) -> Image.Image:
    """The sprite of a view's card dict (``kind``, ``sides``, ``rotation``, ``points``)."""
    return squadratik_card(
        card.get("kind", "normal"),
        tuple(card.get("sides") or ("0", "0", "0", "0")),
        int(card.get("points") or 0),
        int(card.get("rotation") or 0),
        size,
    )
