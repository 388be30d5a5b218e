"""The typeface boards are drawn with, and what happens to characters it lacks.

Tavolo ships DejaVu Sans (regular and bold, ``renderer/fonts/``, licence in
``LICENSE-DejaVu.txt``): Latin with its extensions, Greek, Cyrillic, Hebrew, Arabic and many
symbols, about 1.5 MB for both faces. No font comes from the operating system. Pillow lays text
out with Raqm when it finds the system's FriBiDi library (right-to-left names, joined Arabic);
without it Hebrew and Arabic letters are still drawn, one by one from left to right.

A character the font lacks (Chinese, Japanese, Korean, emoji, ...) would come out as an empty
box. ``printable`` replaces each such character with ``SUBSTITUTE`` (U+FFFD, a black diamond
with a question mark, drawn by DejaVu), and drops the invisible joiners and modifiers that only
shape an emoji (so a family emoji is not a string of marks). A second font for CJK and emoji
would add 10-20 MB; names in those scripts still show where they are and how long they are.

>>> printable("Zoë")
'Zoë'
>>> printable("王") == SUBSTITUTE
True
>>> printable("👍🏽") == SUBSTITUTE   # the skin-tone modifier is dropped, not substituted
True
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
SUBSTITUTE = "\ufffd"

# A code point no font maps (the last private-use one): drawing it gives the .notdef box.
_NEVER_MAPPED = "\U0010fffd"
_PROBE_SIZE = 24


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (``bold``: DejaVu Sans Bold) at ``size`` pixels, loaded once per size."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@lru_cache(maxsize=1)
def _notdef() -> tuple[tuple[int, int], bytes]:
    mask = font(_PROBE_SIZE).getmask(_NEVER_MAPPED)
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def has_glyph(char: str) -> bool:
    """Whether the shipped font draws ``char`` (one code point) with a glyph of its own rather
    than the .notdef box. Both faces cover the same characters.

    >>> has_glyph("ж"), has_glyph("Ω"), has_glyph("字")
    (True, True, False)
    """
    if unicodedata.category(char) == "Cc":
        return False  # control characters (a line break in a name) draw nothing
    try:
        mask = font(_PROBE_SIZE).getmask(char)
    except (RuntimeError, ValueError):  # a character the layout engine refuses on its own
        return False
    return (mask.size, bytes(mask)) != _notdef()


def _is_modifier(char: str) -> bool:
    """Invisible helpers of emoji and other scripts: variation selectors, the zero-width
    joiner, skin-tone modifiers, tag characters, control characters. Without their base glyph
    they mean nothing."""
    code = ord(char)
    return (
        0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0000 <= code <= 0xE007F
        or 0xE0100 <= code <= 0xE01EF
        or unicodedata.category(char) in ("Cf", "Cc")
    )


@lru_cache(maxsize=4096)
def printable(text: str) -> str:
    """``text`` with every character the font lacks replaced by ``SUBSTITUTE`` (emoji
    modifiers and joiners the font lacks are dropped), so no empty box is ever drawn."""
    if text.isascii() and text.isprintable():
        return text
    out = []
    for char in text:
        if has_glyph(char):
            out.append(char)
        elif not _is_modifier(char):
            out.append(SUBSTITUTE)
    return "".join(out)
