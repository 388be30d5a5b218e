"""French card faces (A-K, and the 40-card A-7 J Q K subset), backs and empty-pile outlines.

Every sprite is an RGBA image of ``theme.CARD_W x theme.CARD_H`` built once and cached. The
top strip of a face (about 30 px) shows the rank and the suit, because that is all a fanned
tableau leaves visible.

>>> french_card("Qh").size
(100, 144)
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from renderer import theme
from renderer.fonts import font
from renderer.shapes import figure, french_pip
from renderer.sprites import SS, canvas, card_body, shrink

W, H = theme.CARD_W, theme.CARD_H

RANK_TEXT = {"A": "A", "T": "10", "J": "J", "Q": "Q", "K": "K"}
RANK_VALUE = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}

# Where the pips of a number card go, in a unit box (x 0..1, y 0..1), as on printed cards.
L, M, R = 0.0, 0.5, 1.0
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(M, 0.5)],
    2: [(M, 0), (M, 1)],
    3: [(M, 0), (M, 0.5), (M, 1)],
    4: [(L, 0), (R, 0), (L, 1), (R, 1)],
    5: [(L, 0), (R, 0), (M, 0.5), (L, 1), (R, 1)],
    6: [(L, 0), (R, 0), (L, 0.5), (R, 0.5), (L, 1), (R, 1)],
    7: [(L, 0), (R, 0), (M, 0.25), (L, 0.5), (R, 0.5), (L, 1), (R, 1)],
    8: [(L, 0), (R, 0), (M, 0.25), (L, 0.5), (R, 0.5), (M, 0.75), (L, 1), (R, 1)],
    9: [(L, 0), (R, 0), (L, 1 / 3), (R, 1 / 3), (M, 0.5), (L, 2 / 3), (R, 2 / 3), (L, 1), (R, 1)],
    10: [
        (L, 0),
        (R, 0),
        (M, 1 / 6),
        (L, 1 / 3),
        (R, 1 / 3),
        (L, 2 / 3),
        (R, 2 / 3),
        (M, 5 / 6),
        (L, 1),
        (R, 1),
    ],
}


def suit_colour(suit: str) -> tuple[int, int, int]:
    """Red for diamonds and hearts, black for clubs and spades."""
    return theme.RED if suit in "dh" else theme.BLACK


def rank_label(symbol: str) -> str:
    """What the corner of a French card prints for a rank symbol (``T`` -> ``10``)."""
    return RANK_TEXT.get(symbol, symbol)


def draw_index(
    draw: ImageDraw.ImageDraw,
    label: str,
    colour: tuple[int, int, int],
    pip: object,
    suit: str,
) -> None:
    """Rank at the top left and a suit symbol at the top right, inside the visible strip."""
    size = 28  # "10" as tall as the other ranks: 9 px at 400 px on every board (930 px: I13)
    draw.text(
        (6 * SS, 3 * SS),
        label,
        font=font(size * SS),
        fill=colour,
        anchor="la",
        stroke_width=SS,
        stroke_fill=colour,
    )
    pip(draw, suit, (W - 17) * SS, 16 * SS, 22 * SS)  # type: ignore[operator]


@lru_cache(maxsize=128)
def french_card(code: str) -> Image.Image:
    """The face of a French card from its code (``"Qh"``, ``"Ts"``, ``"7d"``)."""
    symbol, suit = code[0].upper(), code[1].lower()
    colour = suit_colour(suit)
    image = canvas(W, H)
    draw = ImageDraw.Draw(image)
    card_body(draw, W, H, theme.CARD_WHITE)
    draw_index(
        draw,
        rank_label(symbol),
        colour,
        lambda d, s, x, y, z: french_pip(d, s, x, y, z, colour),
        suit,
    )
    value = RANK_VALUE.get(symbol) or int(symbol)
    if value <= 10:
        _draw_pips(draw, suit, value, colour)
    else:
        _draw_court(draw, suit, value, colour)
    return shrink(image, W, H)


def _draw_pips(
    draw: ImageDraw.ImageDraw, suit: str, value: int, colour: tuple[int, int, int]
) -> None:
    if value == 1:
        french_pip(draw, suit, W / 2 * SS, (H / 2 + 10) * SS, 54 * SS, colour)
        return
    left, right, top, bottom = 30, W - 30, 46, H - 20
    pip_size = 22 if value <= 8 else 19
    for u, v in PIP_LAYOUT[value]:
        cx = (left + u * (right - left)) * SS
        cy = (top + v * (bottom - top)) * SS
        french_pip(draw, suit, cx, cy, pip_size * SS, colour, flip=v > 0.5)


def _draw_court(
    draw: ImageDraw.ImageDraw, suit: str, value: int, colour: tuple[int, int, int]
) -> None:
    x0, y0, x1, y1 = 14 * SS, 34 * SS, (W - 14) * SS, (H - 10) * SS
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius=5 * SS, fill=(250, 238, 200), outline=colour, width=2 * SS
    )
    kind = {11: "page", 12: "queen", 13: "king"}[value]
    body = colour if colour == theme.RED else (40, 60, 140)
    figure(
        draw,
        kind,
        (x0 + 8 * SS, y0 + 12 * SS, x1 - 8 * SS, y1 - 4 * SS),
        body,
        theme.GOLD if colour == theme.RED else (200, 40, 40),
    )
    # the suit in the frame's two top corners, beside the head: nothing of the figure is there
    for cx in (x0 + 11 * SS, x1 - 11 * SS):
        french_pip(draw, suit, cx, y0 + 12 * SS, 15 * SS, colour)


@lru_cache(maxsize=4)
def card_back(width: int = W, height: int = H) -> Image.Image:
    """The back of every card: a blue lattice in a white frame (no suit, no rank)."""
    image = canvas(width, height)
    draw = ImageDraw.Draw(image)
    card_body(draw, width, height, theme.WHITE)
    inset = 6 * SS
    inner = (inset, inset, width * SS - inset, height * SS - inset)
    draw.rounded_rectangle(inner, radius=4 * SS, fill=theme.BACK_MAIN)
    step = 12 * SS
    for k in range(-height * SS, width * SS + height * SS, step):
        draw.line(
            [(k, inset), (k + height * SS, inset + height * SS)], fill=theme.BACK_ALT, width=2 * SS
        )
        draw.line(
            [(k, inset + height * SS), (k + height * SS, inset)], fill=theme.BACK_ALT, width=2 * SS
        )
    # repaint the frame over the lattice overflow
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=4 * SS, fill=255)
    framed = canvas(width, height)
    card_draw = ImageDraw.Draw(framed)
    card_body(card_draw, width, height, theme.WHITE)
    framed.paste(image, (0, 0), mask)
    ImageDraw.Draw(framed).rounded_rectangle(
        inner, radius=4 * SS, outline=theme.WHITE, width=2 * SS
    )
    return shrink(framed, width, height)


@lru_cache(maxsize=64)
def empty_slot(mark: str = "", width: int = W, height: int = H) -> Image.Image:
    """The outline of an empty pile; ``mark`` (a suit letter or a short text) is drawn faintly."""
    image = canvas(width, height)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (SS, SS, width * SS - SS, height * SS - SS),
        radius=theme.CARD_RADIUS * SS,
        fill=theme.TABLE_DARK,
        outline=theme.SLOT_LINE,
        width=2 * SS,
    )
    if len(mark) == 1 and mark in "dhcs":
        french_pip(draw, mark, width * SS / 2, height * SS / 2, 40 * SS, theme.SLOT_LINE)
    elif mark:
        draw.text(
            (width * SS / 2, height * SS / 2),
            mark,
            font=font(30 * SS),
            fill=theme.SLOT_LINE,
            anchor="mm",
        )
    return shrink(image, width, height)
