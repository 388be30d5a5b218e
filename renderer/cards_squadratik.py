"""Squadratik cards: square cards with 0-4 red or black balls on each side.

Drawn as printed (the summary grid of side counts in the top-left corner, red and black totals
in the bottom-right, the points in the centre of normal cards), then turned by quarter turns
clockwise as placed: after ``r`` turns the printed side ``(0 - r) % 4`` is on top, exactly as
``docs/views.md`` describes. Masters are gold with a crown, empty cards grey and hatched, the
central card dark blue with a compass star, so the kinds differ at a glance.

>>> squadratik_card("normal", ("R2", "B1", "0", "R3"), 6, 1, 96).size
(96, 96)
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from renderer.fonts import font
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
    """A card ``size`` px square: ``kind`` normal/master/empty/central, printed ``sides`` N E S W."""
    printed = _printed_card(kind, tuple(sides), points, size)
    turns = rotation % 4
    # Image.rotate turns counter-clockwise; placed rotation is clockwise.
    return printed.rotate(-90 * turns, expand=False) if turns else printed


@lru_cache(maxsize=1024)
def _printed_card(kind: str, sides: tuple[str, ...], points: int, size: int) -> Image.Image:
    big = size * SS
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(3, size // 12) * SS
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=radius, fill=STOCK[kind],
                           outline=EDGE[kind], width=max(1, round(size / 40)) * SS)
    if kind == "empty":
        _draw_empty(draw, big)
        # the hatching ran over the rounded corners: cut it back to the card and redraw the edge
        shape = Image.new("L", (big, big), 0)
        ImageDraw.Draw(shape).rounded_rectangle((0, 0, big - 1, big - 1), radius=radius, fill=255)
        image.putalpha(ImageChops.darker(image.getchannel("A"), shape))
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=radius, outline=EDGE[kind],
                               width=max(1, round(size / 40)) * SS)
    elif kind == "central":
        _draw_central(draw, big)
    else:
        if kind == "master":
            _draw_crown(draw, big)
        else:
            draw.text((big / 2, big / 2), str(points), font=font(round(size * 0.3) * SS),
                      fill=(40, 40, 40), anchor="mm", stroke_width=SS, stroke_fill=(40, 40, 40))
        for index, side in enumerate(sides):
            _draw_side(draw, big, index, side)
        _draw_summary(draw, big, sides)
        _draw_totals(draw, big, sides)
    return shrink(image, size, size)


# Sizes as shares of the card side. The balls keep to the middle 42 % of each edge so the
# corners stay free for the summary grid and the totals, whose digits never drop below
# ``MIN_DIGIT_CELL`` px: at 64 px a card would otherwise print them 4 px tall.
BALL = 0.085
BALL_GAP = 0.025
BALL_DEPTH = 0.095
DIGIT_CELL = 0.1
MIN_DIGIT_CELL = 8


def _digit_cell(big: int) -> float:
    """The side of one summary-grid cell on the supersampled canvas ``big`` px wide."""
    return max(big * DIGIT_CELL, MIN_DIGIT_CELL * SS)


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
        cx, cy = {0: (along, depth), 1: (big - depth, along), 2: (along, big - depth),
                  3: (depth, along)}[index]
        draw.ellipse((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), fill=fill)
        h = d * 0.2  # a highlight so black balls read as balls on any screen
        draw.ellipse((cx - d * 0.28, cy - d * 0.3, cx - d * 0.28 + h, cy - d * 0.3 + h),
                     fill=(255, 255, 255, 200))


def _draw_summary(draw: ImageDraw.ImageDraw, big: int, sides: tuple[str, ...]) -> None:
    """A 3x3 cross in the top-left corner: the count of N, E, S, W in their places, bold, in
    the colour of the balls (grey for a blank side). Its digits sit diagonally inside the first
    balls of the N and W edges, so they can be large without touching them."""
    cell = _digit_cell(big)
    x0 = y0 = big * 0.03
    where = {0: (1, 0), 1: (2, 1), 2: (1, 2), 3: (0, 1)}
    draw.rounded_rectangle((x0 + cell * 1.2, y0 + cell * 1.2, x0 + cell * 1.8, y0 + cell * 1.8),
                           radius=cell * 0.1, fill=(150, 150, 150))
    size = round(cell * 1.12)
    stroke = max(1, round(cell * 0.06))
    for index, side in enumerate(sides):
        colour, count = side_balls(side)
        col, row = where[index]
        cx, cy = x0 + (col + 0.5) * cell, y0 + (row + 0.5) * cell
        fill = ball_colour(colour) if count else (130, 130, 130)
        draw.text((cx, cy), str(count), font=font(size), fill=fill, anchor="mm",
                  stroke_width=stroke, stroke_fill=fill)


def _draw_totals(draw: ImageDraw.ImageDraw, big: int, sides: tuple[str, ...]) -> None:
    """Red total above black total in the bottom-right corner, as large as the grid's digits."""
    reds = sum(n for c, n in map(side_balls, sides) if c == "R")
    blacks = sum(n for c, n in map(side_balls, sides) if c == "B")
    cell = _digit_cell(big)
    size = round(cell * 1.12)
    stroke = max(1, round(cell * 0.06))
    x = big * 0.965
    for value, fill, y in ((reds, BALL_RED, big * 0.965 - cell * 1.05),
                           (blacks, BALL_BLACK, big * 0.965)):
        draw.text((x, y), str(value), font=font(size), fill=fill, anchor="rd",
                  stroke_width=stroke, stroke_fill=fill)


def _draw_crown(draw: ImageDraw.ImageDraw, big: int) -> None:
    c, w = big / 2, big * 0.34
    top, base = big * 0.36, big * 0.62
    pts = [(c - w / 2, base), (c - w / 2, top + w * 0.2), (c - w / 4, top + w * 0.45),
           (c, top), (c + w / 4, top + w * 0.45), (c + w / 2, top + w * 0.2), (c + w / 2, base)]
    draw.polygon(pts, fill=(176, 40, 40), outline=(90, 40, 0), width=max(1, big // 100))


def _draw_empty(draw: ImageDraw.ImageDraw, big: int) -> None:
    step = big // 8
    for k in range(-big, big, step):
        draw.line([(k, big), (k + big, 0)], fill=(186, 190, 198), width=max(1, big // 60))
    draw.rounded_rectangle((big * 0.06, big * 0.06, big * 0.94, big * 0.94),
                           radius=big // 12, outline=EDGE["empty"], width=max(1, big // 60))
    r = big * 0.16  # the empty-set mark: a ring with a slash
    c = big / 2
    draw.ellipse((c - r, c - r, c + r, c + r), outline=(80, 86, 96), width=max(2, big // 30))
    draw.line([(c - r * 1.3, c + r * 1.3), (c + r * 1.3, c - r * 1.3)], fill=(80, 86, 96),
              width=max(2, big // 30))


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


def card_sprite(card: dict, size: int) -> Image.Image:
    """The sprite of a view's card dict (``kind``, ``sides``, ``rotation``, ``points``)."""
    return squadratik_card(
        card.get("kind", "normal"), tuple(card.get("sides") or ("0", "0", "0", "0")),
        int(card.get("points") or 0), int(card.get("rotation") or 0), size,
    )
