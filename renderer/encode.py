"""PNG encoding tuned for boards: a fixed 256-colour palette and a fast zlib level.

Boards are flat colours plus anti-aliased edges, so mapping them onto one fixed palette loses
nothing a player can see, makes the PNG about a third of the size and encodes several times
faster than RGB (measured in ``bench/bench_render.py``). The palette is built once from a sheet
of every sprite kind, so it is the same on every run (same input, same bytes).
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from renderer import theme

# zlib dominates the time of a render. Measured on a 930x738 board (2-core CI machine): level 1
# 6.6 ms / 44 KB, level 3 6.8 ms / 39 KB, level 6 9.7 ms / 31 KB, level 9 66 ms / 29 KB; RGB
# instead of the palette: 10 ms at level 1. Every size is far below the 300 KB budget, so speed wins.
PNG_LEVEL = 1

# Colours that must come out exact (flat areas): they head the palette.
EXACT = [
    theme.TABLE, theme.TABLE_DARK, theme.HEADER, theme.INK, theme.WHITE, theme.CARD_WHITE,
    theme.CREAM, theme.RED, theme.BLACK, theme.GOLD, theme.LABEL_BG, theme.LABEL_TEXT,
    theme.MUTED, theme.SLOT_LINE, theme.LAST_MOVE, theme.SELECTED, theme.TARGET,
    theme.BACK_MAIN, theme.BACK_ALT, (0, 0, 0),
]


def _sample_sheet() -> Image.Image:
    """A sheet holding every kind of sprite, on the table: what the palette is fitted to."""
    from renderer.cards_french import card_back, empty_slot, french_card
    from renderer.cards_italian import italian_card
    from renderer.cards_squadratik import squadratik_card

    sprites = [french_card(c) for c in ("Ah", "Ts", "Qd", "Kc", "Jh", "7s")]
    sprites += [italian_card(c, s) for s in ("napoletane", "piacentine")
                for c in ("Ad", "3h", "5c", "7s", "Jd", "Qc", "Kh")]
    sprites += [card_back(), empty_slot("d"), empty_slot("+3")]
    sprites += [squadratik_card(k, sides, p, 0, 96) for k, sides, p in (
        ("normal", ("R4", "B3", "0", "R1"), 8), ("master", ("B1", "B2", "B3", "B4"), 0),
        ("empty", ("0",) * 4, 0), ("central", ("0",) * 4, 0))]
    sheet = Image.new("RGB", (110 * 8, 160 * 4), theme.TABLE)
    for k, sprite in enumerate(sprites):
        sheet.paste(sprite, (5 + (k % 8) * 110, 5 + (k // 8) * 155), sprite)
    sheet.paste(theme.HEADER, (0, 620, 880, 640))
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


def to_png(image: Image.Image) -> bytes:
    """``image`` (RGB) as PNG bytes on the fixed palette."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    indexed = rgb.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()
