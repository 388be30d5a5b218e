"""The fixed 256-colour board palette, and sprites converted onto it.

Boards are drawn straight into a palette ("P") image: every sprite is converted once (when it
is first used, then cached) into palette indices plus a 1-bit mask, so drawing a board only
copies bytes and the PNG encoder needs no quantisation step. A 1-bit mask cannot blend, so the
anti-aliased edge of a sprite is blended in advance over the colour it will sit on (the table,
another card, a label's pill): callers say which with ``under``.

The palette is built once from a sheet of every sprite kind and the board's text, so it is the
same on every run (same input, same bytes).

>>> index(theme.TABLE)
0
>>> sprite, mask = paletted(Image.new("RGBA", (4, 4), theme.RED + (255,)), theme.TABLE)
>>> sprite.mode, mask.mode, sprite.getpixel((0, 0)) == index(theme.RED)
('P', '1', True)
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from renderer import theme

Colour = tuple[int, ...]

# Colours that must come out exact (flat areas): they head the palette, in this order.
EXACT: list[tuple[int, int, int]] = [
    theme.TABLE, theme.TABLE_DARK, theme.HEADER, theme.INK, theme.WHITE, theme.CARD_WHITE,
    theme.CREAM, theme.RED, theme.BLACK, theme.GOLD, theme.LABEL_BG, theme.LABEL_TEXT,
    theme.MUTED, theme.SLOT_LINE, theme.LAST_MOVE, theme.SELECTED, theme.TARGET,
    theme.BACK_MAIN, theme.BACK_ALT, (0, 0, 0), theme.TURN_BG,
]


def _sample_sheet() -> Image.Image:
    """A sheet holding every kind of sprite and text, each on the colour it is drawn on: what
    the palette is fitted to."""
    from renderer.cards_french import card_back, empty_slot, french_card
    from renderer.cards_italian import italian_card, italian_slot
    from renderer.cards_squadratik import squadratik_card
    from renderer.fonts import text_mask

    sprites = [french_card(c) for c in ("Ah", "Ts", "Qd", "Kc", "Jh", "7s")]
    sprites += [italian_card(c, s) for s in ("napoletane", "piacentine")
                for c in ("Ad", "3h", "5c", "7s", "Jd", "Qc", "Kh")]
    sprites += [card_back(), empty_slot("d"), empty_slot("+3"), italian_slot("h", "napoletane"),
                italian_slot("s", "piacentine")]
    sprites += [squadratik_card(k, sides, p, 0, 96) for k, sides, p in (
        ("normal", ("R4", "B3", "0", "R1"), 8), ("master", ("B1", "B2", "B3", "B4"), 0),
        ("empty", ("0",) * 4, 0), ("central", ("0",) * 4, 0))]
    sheet = Image.new("RGB", (110 * 8, 160 * 4 + 120), theme.TABLE)
    for k, sprite in enumerate(sprites):
        sheet.paste(sprite, (5 + (k % 8) * 110, 5 + (k // 8) * 155), sprite)
    # text as boards draw it: each text colour on each background it appears on
    y = 640
    for background, colours in ((theme.HEADER, (theme.MUTED, theme.WHITE, theme.LAST_MOVE)),
                                (theme.LABEL_BG, (theme.WHITE, theme.GOLD, theme.MUTED,
                                                  theme.LAST_MOVE)),
                                (theme.TABLE, (theme.MUTED, theme.WHITE, theme.LABEL_TEXT)),
                                (theme.TURN_BG, (theme.WHITE, theme.GOLD, theme.MUTED))):
        sheet.paste(background, (0, y, 880, y + 30))
        x = 4
        for colour in colours:
            mask = text_mask("Score 95 Moves 23 f1 w 8", 20, True)[0]
            sheet.paste(colour, (x, y + 4), mask)
            x += mask.width + 8
        y += 30
    return sheet


@lru_cache(maxsize=1)
def palette_image() -> Image.Image:
    """The fixed palette: exact theme colours first, then a median-cut fit of the sample sheet."""
    fitted = _sample_sheet().quantize(colors=256 - len(EXACT), method=Image.Quantize.MEDIANCUT,
                                      dither=Image.Dither.NONE)
    values = [v for colour in EXACT for v in colour]
    values += fitted.getpalette()[: 3 * (256 - len(EXACT))]
    values += [0] * (768 - len(values))
    holder = Image.new("P", (1, 1))
    holder.putpalette(values)
    return holder


@lru_cache(maxsize=256)
def index(colour: Colour) -> int:
    """The palette index of a flat colour (exact for the theme colours of ``EXACT``)."""
    rgb = tuple(colour[:3])
    if rgb in EXACT:
        return EXACT.index(rgb)  # type: ignore[arg-type]
    return Image.new("RGB", (1, 1), rgb).quantize(palette=palette_image(),
                                                  dither=Image.Dither.NONE).getpixel((0, 0))


def ink(target: Image.Image | ImageDraw.ImageDraw, colour: Colour) -> int | Colour:
    """What ``paste`` and ``ImageDraw`` take as ``colour`` on ``target`` (an image or its
    ``ImageDraw``): the palette index on a palette board (handing Pillow an RGB tuple there
    would add colours to the palette), the colour itself otherwise."""
    return index(tuple(colour)) if target.mode == "P" else colour


def new_board(width: int, height: int, colour: Colour = theme.TABLE) -> Image.Image:
    """An empty board: a palette image filled with ``colour``."""
    image = Image.new("P", (width, height), index(colour))
    image.putpalette(palette_image().getpalette())
    return image


# id(sprite) -> (sprite, under, result): the sprite is kept so its id stays unique.
_CACHE: dict[tuple[int, Colour], tuple[Image.Image, tuple[Image.Image, Image.Image]]] = {}


def paletted(sprite: Image.Image, under: Colour = theme.TABLE
             ) -> tuple[Image.Image, Image.Image]:
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
    mask = rgba.getchannel("A").point(lambda a: 255 if a >= 64 else 0).convert("1")
    if len(_CACHE) > 4096:
        _CACHE.clear()
    _CACHE[key] = (sprite, (converted, mask))
    return converted, mask


def clear_cache() -> None:
    """Forget the converted sprites (benchmarks use it to measure a cold start)."""
    _CACHE.clear()
