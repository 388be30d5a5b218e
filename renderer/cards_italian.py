"""Italian 40-card faces in two regional styles: ``napoletane`` and ``piacentine``.

Suits are drawn as shapes: denari (coins), coppe (cups), bastoni (clubs), spade (swords). The
corner shows the card's number 1-10 as on printed Italian decks (Fante 8, Cavallo 9, Re 10) in
red for denari/coppe and black for bastoni/spade, because Solitario builds in alternating
colours and printed Italian cards do not show colour. Figures have distinct silhouettes (a
page, a rider on a horse, a crowned king) and a big letter F / C / R.

>>> italian_card("Jc", "napoletane").size
(100, 144)
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from renderer import theme
from renderer.fonts import font
from renderer.palette import Colour
from renderer.shapes import ITALIAN_COLOURS, figure, italian_pip
from renderer.sprites import SS, canvas, card_body, shrink

W, H = theme.CARD_W, theme.CARD_H

STYLES = ("napoletane", "piacentine")
NUMBER = {"A": 1, "J": 8, "Q": 9, "K": 10}
FIGURE_LETTER = {8: "F", 9: "C", 10: "R"}
FIGURE_KIND = {8: "page", 9: "knight", 10: "king"}

# Card stock and frame per style: napoletane cream with a red frame, piacentine white with blue.
CARD_STOCK = {"napoletane": theme.CREAM, "piacentine": theme.CARD_WHITE}
FRAME = {"napoletane": (180, 40, 40), "piacentine": (40, 70, 150)}

# Pip positions in a unit box, arranged the way Italian decks show them (columns of pips).
PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)],
    5: [(0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 1.0)],
    6: [(0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)],
    7: [(0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)],
}


def card_number(symbol: str) -> int:
    """The number printed on an Italian card (``A`` 1 .. ``7``, Fante 8, Cavallo 9, Re 10)."""
    return NUMBER.get(symbol) or int(symbol)


@lru_cache(maxsize=128)
def italian_card(code: str, style: str = "napoletane") -> Image.Image:
    """The face of an Italian card from its code (``"Jc"`` = Fante di bastoni)."""
    if style not in STYLES:
        raise ValueError(f"unknown Italian style {style!r}")
    symbol, suit = code[0].upper(), code[1].lower()
    number = card_number(symbol)
    colour = theme.RED if suit in "dh" else theme.BLACK
    image = canvas(W, H)
    draw = ImageDraw.Draw(image)
    card_body(draw, W, H, CARD_STOCK[style])
    inset = 3 * SS
    draw.rounded_rectangle(
        (inset, inset, W * SS - inset, H * SS - inset),
        radius=6 * SS,
        outline=FRAME[style],
        width=SS,
    )
    label = str(number)
    draw.text(
        (7 * SS, 3 * SS),
        label,
        font=font(28 * SS),  # "10" as tall as the other numbers, 9 px at 400
        fill=colour,
        anchor="la",
        stroke_width=SS,
        stroke_fill=colour,
    )
    italian_pip(draw, suit, (W - 17) * SS, 16 * SS, 24 * SS, style)
    if number <= 7:
        _draw_pips(draw, suit, number, style)
    else:
        _draw_figure(draw, suit, number, style, colour)
    return shrink(image, W, H)


def _draw_pips(draw: ImageDraw.ImageDraw, suit: str, number: int, style: str) -> None:
    if number == 1:
        italian_pip(draw, suit, W / 2 * SS, (H / 2 + 12) * SS, 70 * SS, style)
        return
    left, right, top, bottom = 30, W - 30, 50, H - 24
    size = 34 if number <= 3 else 30
    for u, v in PIPS[number]:
        tilt = 0 if u == 0.5 else (-1 if u < 0.5 else 1)
        if style == "piacentine":
            tilt = 0  # piacentine clubs and swords stand straight
        italian_pip(
            draw,
            suit,
            (left + u * (right - left)) * SS,
            (top + v * (bottom - top)) * SS,
            size * SS,
            style,
            tilt=tilt,
        )


def _draw_figure(
    draw: ImageDraw.ImageDraw, suit: str, number: int, style: str, colour: Colour
) -> None:
    palette = ITALIAN_COLOURS[style]
    x0, y0, x1, y1 = 10 * SS, 32 * SS, (W - 10) * SS, (H - 8) * SS
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius=5 * SS, fill=(255, 250, 236), outline=FRAME[style], width=SS
    )
    body = palette["red"] if style == "napoletane" else palette["steel"]
    figure(
        draw,
        FIGURE_KIND[number],
        (x0 + 6 * SS, y0 + 8 * SS, x1 - 22 * SS, y1 - 6 * SS),
        body,
        palette["gold"] if number != 9 else palette["wood"],
    )
    # the figure holds its suit, and a big letter names it (Fante, Cavallo, Re)
    italian_pip(draw, suit, x1 - 13 * SS, y1 - 22 * SS, 26 * SS, style)
    draw.text(
        (x1 - 12 * SS, y0 + 4 * SS),
        FIGURE_LETTER[number],
        font=font(26 * SS),
        fill=colour,
        anchor="ma",
        stroke_width=SS,
        stroke_fill=colour,
    )


@lru_cache(maxsize=16)
def italian_slot(suit: str, style: str = "napoletane") -> Image.Image:
    """The outline of an empty foundation with its Italian suit (``d`` denari, ``h`` coppe,
    ``c`` bastoni, ``s`` spade) drawn faintly in ``style``, so the slot matches the cards."""
    from renderer.cards_french import empty_slot

    slot = empty_slot("")
    symbol = canvas(W, H)
    italian_pip(ImageDraw.Draw(symbol), suit, W * SS / 2, H * SS / 2, 54 * SS, style)
    symbol = shrink(symbol, W, H)
    # faint: the suit says what goes here without looking like a card
    symbol.putalpha(symbol.getchannel("A").point(lambda a: a * 45 // 100))
    return Image.alpha_composite(slot, symbol)
