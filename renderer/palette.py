"""The fixed 256-colour board palette, and sprites converted onto it.

Boards are drawn straight into a palette ("P") image: every sprite is converted once (when it
is first used, then cached) into palette indices plus a 1-bit mask, so drawing a board only
copies bytes and the PNG encoder needs no quantisation step. A 1-bit mask cannot blend, so the
anti-aliased edge of a sprite is blended in advance over the colour it will sit on (the table,
another card, a label's pill): callers say which with ``under``.

The palette was fitted to a sheet of every sprite kind and the board's text
(``tools.gallery.sample_sheet``) and is stored in ``board_palette.json``, so it is the same on
every run (same input, same bytes) and this module imports no card module. After changing how
cards look, refit it: ``python -m tools.gallery --palette``.

>>> index(theme.TABLE)
0
>>> sprite, mask = paletted(Image.new("RGBA", (4, 4), theme.RED + (255,)), theme.TABLE)
>>> sprite.mode, mask.mode, sprite.getpixel((0, 0)) == index(theme.RED)
('P', '1', True)
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from renderer import theme

Colour = tuple[int, ...]

# Colours that must come out exact (flat areas): they head the palette, in this order.
EXACT: list[tuple[int, int, int]] = [
    theme.TABLE,
    theme.TABLE_DARK,
    theme.HEADER,
    theme.INK,
    theme.WHITE,
    theme.CARD_WHITE,
    theme.CREAM,
    theme.RED,
    theme.BLACK,
    theme.GOLD,
    theme.LABEL_BG,
    theme.LABEL_TEXT,
    theme.MUTED,
    theme.SLOT_LINE,
    theme.LAST_MOVE,
    theme.SELECTED,
    theme.TARGET,
    theme.BACK_MAIN,
    theme.BACK_ALT,
    (0, 0, 0),
    theme.TURN_BG,
]


PALETTE_FILE = Path(__file__).parent / "board_palette.json"


def fit_palette(sheet: Image.Image) -> list[int]:
    """The 768 palette values for a sample ``sheet``: exact theme colours first, then a
    median-cut fit of the sheet (``tools.gallery`` builds the sheet from every sprite kind
    and writes the result to ``PALETTE_FILE``)."""
    fitted = sheet.quantize(
        colors=256 - len(EXACT), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    values = [v for colour in EXACT for v in colour]
    values += (fitted.getpalette() or [])[: 3 * (256 - len(EXACT))]
    return values + [0] * (768 - len(values))


@lru_cache(maxsize=1)
def palette_image() -> Image.Image:
    """The fixed board palette, read from ``PALETTE_FILE`` (stored, not fitted at run time: the
    card modules draw with this palette, so it cannot depend on them)."""
    values = json.loads(PALETTE_FILE.read_text())
    holder = Image.new("P", (1, 1))
    holder.putpalette(values)
    return holder


@lru_cache(maxsize=256)
def index(colour: Colour) -> int:
    """The palette index of a flat colour (exact for the theme colours of ``EXACT``)."""
    rgb = tuple(colour[:3])
    if rgb in EXACT:
        return EXACT.index(rgb)
    pixel = (
        Image.new("RGB", (1, 1), rgb)
        .quantize(palette=palette_image(), dither=Image.Dither.NONE)
        .getpixel((0, 0))
    )
    assert isinstance(pixel, int)  # a palette image's pixel is its index
    return pixel


def ink(target: Image.Image | ImageDraw.ImageDraw, colour: Colour) -> int | Colour:
    """What ``paste`` and ``ImageDraw`` take as ``colour`` on ``target`` (an image or its
    ``ImageDraw``): the palette index on a palette board (handing Pillow an RGB tuple there
    would add colours to the palette), the colour itself otherwise."""
    return index(tuple(colour)) if target.mode == "P" else colour


def new_board(width: int, height: int, colour: Colour = theme.TABLE) -> Image.Image:
    """An empty board: a palette image filled with ``colour``."""
    image = Image.new("P", (width, height), index(colour))
    image.putpalette(palette_image().getpalette() or [])
    return image


# alpha -> mask pixel, as a lookup table: straight to a 1-bit image (a Python function would be
# called 256 times, and converting an "L" mask to "1" would dither it)
OPAQUE_ENOUGH = [255 if alpha >= 64 else 0 for alpha in range(256)]

# id(sprite) -> (sprite, under, result): the sprite is kept so its id stays unique.
_CACHE: dict[tuple[int, Colour], tuple[Image.Image, tuple[Image.Image, Image.Image]]] = {}


def paletted(sprite: Image.Image, under: Colour = theme.TABLE) -> tuple[Image.Image, Image.Image]:
    """``sprite`` (RGBA) as a palette image and a 1-bit mask of its visible pixels; its
    semi-transparent edge blended over ``under``. Cached per sprite object."""
    key = (id(sprite), tuple(under[:3]))
    known = _CACHE.get(key)
    if known is not None and known[0] is sprite:
        return known[1]
    rgba = sprite if sprite.mode == "RGBA" else sprite.convert("RGBA")
    flat = Image.new("RGB", rgba.size, tuple(under[:3]))
    flat.paste(rgba, (0, 0), rgba)
    converted = flat.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    # an edge pixel counts when it is at least a quarter opaque: fainter ones would only tint
    # whatever lies under them with the wrong colour
    mask = rgba.getchannel("A").point(OPAQUE_ENOUGH, "1")
    if len(_CACHE) > 4096:
        _CACHE.clear()
    _CACHE[key] = (sprite, (converted, mask))
    return converted, mask


def clear_cache() -> None:
    """Forget the converted sprites (benchmarks use it to measure a cold start)."""
    _CACHE.clear()
