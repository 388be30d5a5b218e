"""Fonts and the few words drawn on boards.

Text is drawn through the chain of shipped fonts of ``renderer.typeface`` (DejaVu Sans first,
then Devanagari, Thai, CJK and emoji), never with a font of the operating system, so every
machine draws the same pixels and no character comes out as an empty box.

>>> word("score")
'Score'
>>> token = use_words({"score": "Punti"}); word("score"), word("moves"); reset_words(token)
('Punti', 'Moves')
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar, Token
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import engine
from renderer import theme, typeface
from renderer.palette import OPAQUE_ENOUGH, palette_image, paletted
from renderer.sprites import core_part, paste_core

# The only words the renderer draws. Their translations live in the bot's catalogues
# (``board.word.<key>``): the bot passes them in ``render(..., words={...})``, which
# ``use_words`` makes current while a board is drawn. English stays here as the default for
# callers that pass none (the gallery, the renderer's own tests).
WORDS: dict[str, str] = {
    "score": "Score",
    "moves": "Moves",
    "stock": "Stock",
    "waste": "Waste",
    "reserve": "Reserve",
    "turned": "Turned",
    "next": "next",
    "deal": "Deal",
    "won": "Won!",
    "lost": "Lost",
    "stalled": "Stalled: no more progress",
    "resigned": "Resigned",
    "completo": "Solitario completo!",
    "played_out": "Solitario!",
    "finished": "Game over",
    "hand": "Hand",
    "masters": "Masters",
    "cards": "Cards",
    "turn": "to play",
    "points": "Points",
    "your_hand": "Hand of",
    "place": "Place",
    "done": "done",
    "redeals": "Redeals",
    "final": "Final phase",
    "empty_hand": "No cards in hand",
}

#: a board word ``title_<game id>`` is the game's title (``GameInfo.title``): a fact of the
#: game, never a copy here
TITLE = "title_"

_words: ContextVar[Mapping[str, str] | None] = ContextVar("board_words", default=None)


def use_words(words: Mapping[str, str] | None) -> Token[Mapping[str, str] | None]:
    """Make ``words`` (translated labels) the ones :func:`word` returns in this thread's
    context until ``reset_words``."""
    return _words.set(words)


def reset_words(token: Token[Mapping[str, str] | None]) -> None:
    _words.reset(token)


def word(key: str, lang: str = "en") -> str:
    """The board word ``key``: the translated label the caller passed (see ``use_words``),
    else English; a game's title (``title_<game id>``) is its ``GameInfo.title`` in ``lang``.

    >>> word("title_imaginary13", "es"), word("score")
    ('Trece Imaginario', 'Score')
    """
    given = (_words.get() or {}).get(key)
    if given:
        return given
    if key.startswith(TITLE) and key[len(TITLE) :] in engine.GAMES:
        return engine.game_info(key[len(TITLE) :]).title(lang)
    return WORDS.get(key, key)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The board font at ``size`` pixels (``renderer.typeface``), loaded once per size."""
    return typeface.font(size, bold)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of the ink of ``text`` drawn at ``size`` (``text_mask``'s width,
    measured without drawing the text when it can be: a new header number is drawn once)."""
    return typeface.ink_width(text, size, bold)


@lru_cache(maxsize=4096)
def text_mask(
    text: str, size: int, bold: bool = False, anchor: str = "la"
) -> tuple[Image.Image, int, int]:
    """The coverage mask ("L") of ``text`` drawn at ``size`` through the font chain
    (``renderer.typeface``), with the offset of its ink box from the anchor point."""
    return typeface.render(text, size, bold, anchor, None)


@lru_cache(maxsize=4096)
def text_sprite(
    text: str, size: int, fill: tuple[int, ...], bold: bool = False, anchor: str = "la"
) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as an RGBA sprite (emoji in their colours), with the offset of
    its ink box from the anchor point (boards redraw the same labels on every move: pasting is
    faster than drawing)."""
    return typeface.render(text, size, bold, anchor, tuple(fill))


# What the board being drawn wrote, for tests that check every text is large enough on a
# phone: ``recording()`` collects (text, size, bold) of each text pasted while it is active.
_record: ContextVar[list[tuple[str, int, bool]] | None] = ContextVar("text_record", default=None)


def record(text: str, size: int, bold: bool) -> None:
    log = _record.get()
    if log is not None:
        log.append((text, size, bold))


class recording:  # noqa: N801 - used as a context manager, named like one
    """``with recording() as texts:`` every text a board pastes meanwhile, as (text, size,
    bold); drawing is unchanged (the sprites stay cached; the log is filled on each paste)."""

    def __enter__(self) -> list[tuple[str, int, bool]]:
        self.log: list[tuple[str, int, bool]] = []
        self.token = _record.set(self.log)
        return self.log

    def __exit__(self, *exc: object) -> None:
        _record.reset(self.token)


_CORES: dict[tuple[int, tuple[int, ...]], tuple[Image.Image, Any, Any]] = {}


def _paletted_core(sprite: Image.Image, under: tuple[int, ...]) -> tuple[Any, Any]:
    """The palette version of a text sprite as core parts for ``paste_core`` (cached per
    sprite object, which ``text_sprite`` caches in turn)."""
    key = (id(sprite), under)
    known = _CORES.get(key)
    if known is not None and known[0] is sprite:
        return known[1], known[2]
    converted, mask = paletted(sprite, under)
    _, core, mask_core = core_part(0, converted, mask)
    if len(_CORES) > 4096:
        _CORES.clear()
    _CORES[key] = (sprite, core, mask_core)
    return core, mask_core


#: what a board pastes for a text: (core image and its size, core 1-bit mask, the offset of
#: its ink box from the anchor point, the sprite it came from or None)
TextCore = tuple[tuple[Any, tuple[int, int]], Any, int, int, Image.Image | None]


@lru_cache(maxsize=4096)
def text_core(
    text: str,
    size: int,
    fill: tuple[int, ...],
    bold: bool,
    anchor: str,
    under: tuple[int, ...],
) -> TextCore:
    """``text`` on the board palette over ``under``, as ``paste_text`` pastes it: the palette
    version of ``text_sprite`` (``renderer.palette.paletted``) and its mask. A text in one
    DejaVu run (a board's words and numbers: a new score or move count on most moves) is
    made straight from the font's coverage: each pixel's colour is ``fill`` blended over
    ``under`` by its coverage, so a table of the 256 blends (``_blends``) converts it as
    ``paletted`` converts the sprite, for a fraction of the cost (tests/renderer/
    test_text_pieces.py compares the two)."""
    found = typeface.coverage(text, size, bold, anchor)
    if found is None:  # emoji, other scripts: through the colour sprite
        sprite, left, top = text_sprite(text, size, fill, bold, anchor)
        core, mask = _paletted_core(sprite, under)
        return core, mask, left, top, sprite
    cover, left, top = found
    picture = cover.im.point(_blends(fill[:3], under[:3]), "P")
    bits = cover.point(OPAQUE_ENOUGH, "1")
    bits.load()
    return (picture, cover.size), bits.im, left, top, None


@lru_cache(maxsize=256)
def _blends(fill: tuple[int, ...], under: tuple[int, ...]) -> list[int]:
    """The palette index of ``fill`` at each coverage 0-255 over ``under``: the very steps of
    ``paletted`` (the sprite pasted through its alpha over ``under``, then quantised), on a
    strip of the 256 coverages."""
    ramp = Image.new("RGBA", (256, 1), (*fill, 255))
    ramp.putalpha(Image.frombytes("L", (256, 1), bytes(range(256))))
    flat = Image.new("RGB", (256, 1), under)
    flat.paste(ramp, (0, 0), ramp)
    converted = flat.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    return list(converted.tobytes())


def clear_cache() -> None:
    """Forget the palette versions of text sprites (benchmarks measure cold starts with it)."""
    _CORES.clear()
    text_core.cache_clear()
    _blends.cache_clear()


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
    record(text, size, bold)
    if image.mode == "P":
        core, mask, left, top, _ = text_core(text, size, tuple(fill), bold, anchor, tuple(under))
        image.load()
        paste_core(image, core, round(xy[0]) + left, round(xy[1]) + top, mask)
    else:
        sprite, left, top = text_sprite(text, size, tuple(fill), bold, anchor)
        image.paste(sprite, (round(xy[0]) + left, round(xy[1]) + top), sprite)


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
    """Draw ``text`` (DejaVu only: labels and digits) with its ``anchor`` point (Pillow
    anchors, e.g. ``"mm"`` = centre) at ``xy``."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)
