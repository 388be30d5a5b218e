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
    # placed rotation is clockwise; a transpose is an exact pixel copy (no resampling)
    return printed.transpose(_TURNS[turns]) if turns else printed


_TURNS = {
    1: Image.Transpose.ROTATE_270,
    2: Image.Transpose.ROTATE_180,
    3: Image.Transpose.ROTATE_90,
}


@lru_cache(maxsize=1024)
def _printed_card(kind: str, sides: tuple[str, ...], points: int, size: int) -> Image.Image:
    """The card as printed, put together from cached pieces: the blank card of its kind, the
    crown, one ball strip per side (supersampled once per count, colour and size), and the
    numbers drawn straight at the final size (FreeType anti-aliases them)."""
    card = _blank(kind, size).copy()
    if kind in ("empty", "central"):
        return card
    if kind == "master":
        card.alpha_composite(_crown(size))
    draw = ImageDraw.Draw(card)
    if kind != "master":
        draw.text(
            (size / 2, size / 2),
            str(points),
            font=font(round(size * 0.3), bold=True),
            fill=(40, 40, 40),
            anchor="mm",
        )
    for index, side in enumerate(sides):
        strip, at = _ball_strip(side, index, size)
        if strip is not None:
            card.alpha_composite(strip, at)
    _draw_summary(draw, size, sides)
    _draw_totals(draw, size, sides)
    return card


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
    of every side and edge): a few milliseconds per size. Returns how many pieces."""
    built = 0
    for size in sizes:
        for kind in STOCK:
            _blank(kind, size)
        _crown(size)
        for side in ["0"] + [f"{c}{n}" for c in "RB" for n in range(1, 5)]:
            for index in range(4):
                _ball_strip(side, index, size)
        built += len(STOCK) + 1 + 36
    return built


def clear_cache() -> None:
    """Forget every built card and piece (benchmarks measure cold starts with it)."""
    for cached in (squadratik_card, _printed_card, _blank, _crown, _ball_strip):
        cached.cache_clear()


# Sizes as shares of the card side. The balls keep to the middle 30 % of each edge so the
# corners stay free for the summary cross (top left) and the totals (bottom right), whose
# digits are drawn at ``DIGIT_PX`` px (about 14.5 px of ink for a digit) on any card of 88 px
# or more: readable on a phone. Smaller cards (a very long path) scale them with the card.
# The cross is packed as tightly as digits allow: its N digit stays left of the N balls, its
# W digit above the W balls.
BALL = 0.065
BALL_GAP = 0.015
BALL_DEPTH = 0.095
DIGIT_PX = 20
DIGIT_SHARE = 0.15
DIGIT_MAX_SHARE = 0.23


def digit_font_px(size: int) -> float:
    """Font size in final pixels of the corner digits on a card ``size`` px square."""
    return max(size * DIGIT_SHARE, min(DIGIT_PX, size * DIGIT_MAX_SHARE))


def _digit_pitch(size: int) -> tuple[int, float, float]:
    """Font size, column and row pitch of the corner digits on a card ``size`` px wide."""
    px = round(digit_font_px(size))
    return px, px * 0.7, px * 0.8


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


def _draw_summary(draw: ImageDraw.ImageDraw, big: int, sides: tuple[str, ...]) -> None:
    """A cross in the top-left corner: the ball count of N, E, S, W in their places around a
    grey square, bold, in the colour of the balls (grey for a blank side)."""
    size, pitch_x, pitch_y = _digit_pitch(big)
    x0 = y0 = big * 0.03
    where = {0: (1, 0), 1: (2, 1), 2: (1, 2), 3: (0, 1)}
    square = size * 0.18
    cx, cy = x0 + 1.5 * pitch_x, y0 + 1.5 * pitch_y
    draw.rounded_rectangle(
        (cx - square, cy - square, cx + square, cy + square),
        radius=square * 0.3,
        fill=(150, 150, 150),
    )
    for index, side in enumerate(sides):
        colour, count = side_balls(side)
        col, row = where[index]
        fill = ball_colour(colour) if count else (130, 130, 130)
        draw.text(
            (x0 + (col + 0.5) * pitch_x, y0 + (row + 0.5) * pitch_y),
            str(count),
            font=font(size, bold=True),
            fill=fill,
            anchor="mm",
        )


def _draw_totals(draw: ImageDraw.ImageDraw, big: int, sides: tuple[str, ...]) -> None:
    """Red total above black total in the bottom-right corner, as large as the cross's digits."""
    reds = sum(n for c, n in map(side_balls, sides) if c == "R")
    blacks = sum(n for c, n in map(side_balls, sides) if c == "B")
    size, _, pitch_y = _digit_pitch(big)
    x = big * 0.97
    for value, fill, y in (
        (reds, BALL_RED, big * 0.972 - pitch_y * 0.95),
        (blacks, BALL_BLACK, big * 0.972),
    ):  # baselines
        draw.text((x, y), str(value), font=font(size, bold=True), fill=fill, anchor="rs")


def _draw_crown(draw: ImageDraw.ImageDraw, big: int) -> None:
    c, w = big / 2, big * 0.34
    top, base = big * 0.36, big * 0.62
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


def card_sprite(card: dict, size: int) -> Image.Image:
    """The sprite of a view's card dict (``kind``, ``sides``, ``rotation``, ``points``)."""
    return squadratik_card(
        card.get("kind", "normal"),
        tuple(card.get("sides") or ("0", "0", "0", "0")),
        int(card.get("points") or 0),
        int(card.get("rotation") or 0),
        size,
    )
