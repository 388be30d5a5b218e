"""Fonts and the few words drawn on boards.

Text is drawn with the shipped DejaVu Sans (``renderer.typeface``: regular, and its bold face
for ``bold=True``), never with a font of the operating system, so every machine draws the same
pixels; characters the font lacks become a visible substitute, never an empty box.

>>> word("score")
'Score'
>>> token = use_words({"score": "Punti"}); word("score"), word("moves"); reset_words(token)
('Punti', 'Moves')
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar, Token
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from renderer import theme, typeface
from renderer.palette import paletted

# The only words the renderer draws. Their translations live in the bot's catalogues
# (``board.word.<key>``): the bot passes them in ``render(..., words={...})``, which
# ``use_words`` makes current while a board is drawn. English stays here as the default for
# callers that pass none (the gallery, the renderer's own tests).
WORDS: dict[str, str] = {
    "score": "Score", "moves": "Moves", "stock": "Stock", "waste": "Waste",
    "reserve": "Reserve", "turned": "Turned", "next": "next", "deal": "Deal",
    "won": "Won!", "lost": "Lost", "stalled": "Stalled: no more progress",
    "resigned": "Resigned", "completo": "Solitario completo!", "solitario": "Solitario!",
    "finished": "Game over", "hand": "Hand", "masters": "Masters", "cards": "Cards",
    "turn": "to play", "points": "Points", "your_hand": "Hand of", "place": "Place",
    "done": "done", "redeals": "Redeals", "final": "Final phase",
    "empty_hand": "No cards in hand",
    "title_solitario": "Solitario", "title_canfield": "Canfield",
    "title_imaginary13": "Imaginary Thirteen", "title_squadratik": "El Solitario",
    "title_maestras": "Cartas Maestras",
}  # fmt: skip

_words: ContextVar[Mapping[str, str] | None] = ContextVar("board_words", default=None)


def use_words(words: Mapping[str, str] | None) -> Token[Mapping[str, str] | None]:
    """Make ``words`` (translated labels) the ones :func:`word` returns in this thread's
    context until ``reset_words``."""
    return _words.set(words)


def reset_words(token: Token[Mapping[str, str] | None]) -> None:
    _words.reset(token)


def word(key: str, lang: str = "en") -> str:
    """The board word ``key``: the translated label the caller passed (see ``use_words``),
    else English. ``lang`` is kept for the callers' signature; the words carry the language."""
    given = _words.get()
    return (given or {}).get(key) or WORDS.get(key, key)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The board font at ``size`` pixels (``renderer.typeface``), loaded once per size."""
    return typeface.font(size, bold)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` drawn at ``size``."""
    left, _, right, _ = font(size, bold).getbbox(typeface.printable(text))
    return int(right - left)


@lru_cache(maxsize=4096)
def text_mask(
    text: str, size: int, bold: bool = False, anchor: str = "la"
) -> tuple[Image.Image, int, int]:
    """The coverage mask ("L") of ``text`` drawn at ``size``, with the offset of its ink box
    from the anchor point."""
    text = typeface.printable(text)
    left, top, right, bottom = font(size, bold).getbbox(text, anchor=anchor)
    width, height = max(1, int(right - left)), max(1, int(bottom - top))
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font(size, bold), fill=255, anchor=anchor)
    return mask, int(left), int(top)


@lru_cache(maxsize=4096)
def text_sprite(
    text: str, size: int, fill: tuple[int, ...], bold: bool = False, anchor: str = "la"
) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as an RGBA sprite, with the offset of its ink box from the anchor
    point (boards redraw the same labels on every move: pasting is faster than drawing)."""
    mask, left, top = text_mask(text, size, bold, anchor)
    sprite = Image.new("RGBA", mask.size, (*fill[:3], 255))
    sprite.putalpha(mask)
    return sprite, left, top


def paste_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...],
    *,
    anchor: str = "la",
    bold: bool = False,
    under: tuple[int, ...] = theme.TABLE,
) -> None:
    """Same result as ``draw_text`` (Pillow anchors), pasted from a cached sprite. On a palette
    board the glyph edges are blended over ``under``, the colour the text is drawn on."""
    sprite, left, top = text_sprite(text, size, tuple(fill), bold, anchor)
    at = (round(xy[0]) + left, round(xy[1]) + top)
    if image.mode == "P":
        converted, mask = paletted(sprite, under)
        image.paste(converted, at, mask)
    else:
        image.paste(sprite, at, sprite)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...] | str,
    *,
    anchor: str = "la",
    bold: bool = False,
) -> None:
    """Draw ``text`` with its ``anchor`` point (Pillow anchors, e.g. ``"mm"`` = centre) at ``xy``."""
    draw.text(xy, typeface.printable(text), font=font(size, bold), fill=fill, anchor=anchor)
