"""The typefaces boards are drawn with: a chain of shipped, open-licensed fonts, so a name in
any script people use in chats is drawn readable, never as a box or a "�".

The chain, first font that has a character wins (all under ``renderer/fonts/``, licences
beside them, built by ``tools.fontbuild``; nothing comes from the operating system):

1. DejaVu Sans (regular, bold): Latin with its extensions, Greek, Cyrillic, Hebrew, Arabic,
   many symbols.
2. Noto Sans Devanagari, Noto Sans Thai (regular, bold).
3. Noto Sans CJK SC, a subset of about 10,000 common Chinese (simplified and traditional),
   Japanese and Korean characters (regular only: bold CJK is drawn regular).
4. Emoji from Noto Color Emoji, as 40-px colour images (``emoji40.png``): single emoji,
   flags and the font's zero-width-joiner sequences (👩‍👩‍👧, 🏳️‍🌈: one image each, as a phone
   shows them); a skin-tone modifier is dropped (the base emoji is drawn), and a joined
   sequence the font does not know is drawn as its parts.

Each run of characters in one font is laid out by Pillow with Raqm (``PIL.features.check
("raqm")``: FriBiDi and HarfBuzz), so Hebrew and Arabic read right to left and Arabic letters
join, Devanagari conjuncts and Thai marks are shaped. A text whose first strong character is
right-to-left puts its runs right to left too. A character no font of the chain has (a rare
script, a CJK character outside the subset) is left out rather than drawn as a box.

>>> [run.font for run in runs("Zoë 王🎲")]
['dejavu', 'cjk', 'emoji']
>>> drawable("王") and not drawable("\\U0010fffd")
True
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
CHAIN: dict[str, tuple[Path, Path]] = {
    "dejavu": (REGULAR, BOLD),
    "devanagari": (
        FONT_DIR / "NotoSansDevanagari-Regular.ttf",
        FONT_DIR / "NotoSansDevanagari-Bold.ttf",
    ),
    "thai": (FONT_DIR / "NotoSansThai-Regular.ttf", FONT_DIR / "NotoSansThai-Bold.ttf"),
    "cjk": (FONT_DIR / "NotoSansCJKsc-Subset.otf", FONT_DIR / "NotoSansCJKsc-Subset.otf"),
}
EMOJI_ATLAS = FONT_DIR / "emoji40.png"
EMOJI_INDEX = FONT_DIR / "emoji40.json"
EMOJI_ADVANCE = 1.2  # an emoji's advance in ems
EMOJI_SIDE = 1.05  # its drawn side in ems
LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC

# A code point no font maps (the last private-use one): drawing it gives the .notdef box.
_NEVER_MAPPED = "\U0010fffd"
_PROBE_SIZE = 24


def font_files() -> tuple[Path, ...]:
    """Every file the boards' text is drawn from: the chain's fonts and the emoji atlas."""
    fonts = {path for pair in CHAIN.values() for path in pair}
    return (*sorted(fonts), EMOJI_ATLAS, EMOJI_INDEX)


def load_check(path: Path) -> None:
    """Load ``path`` as the boards would (a font, the atlas or its index); ``OSError`` when it
    cannot be (missing, unreadable, not a font)."""
    if path.suffix in (".ttf", ".otf"):
        ImageFont.truetype(str(path), _PROBE_SIZE, layout_engine=LAYOUT)
    elif path.suffix == ".png":
        with Image.open(path) as atlas:
            atlas.verify()
    else:
        path.read_bytes()


@lru_cache(maxsize=128)
def chain_font(name: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Font ``name`` of the chain at ``size`` px, loaded once per size."""
    return ImageFont.truetype(str(CHAIN[name][1 if bold else 0]), size, layout_engine=LAYOUT)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (``bold``: DejaVu Sans Bold) at ``size`` pixels: the chain's first font,
    the one card digits and labels in Latin are drawn with."""
    return chain_font("dejavu", size, bold)


@lru_cache(maxsize=8)
def _notdef(name: str) -> tuple[tuple[int, int], bytes]:
    mask = chain_font(name, _PROBE_SIZE).getmask(_NEVER_MAPPED)
    return mask.size, bytes(mask)


@lru_cache(maxsize=16384)
def covers(name: str, char: str) -> bool:
    """Whether font ``name`` of the chain draws ``char`` (one code point) with a glyph of its
    own rather than its .notdef box."""
    if unicodedata.category(char) in ("Cc", "Cs"):
        return False  # control characters (a line break in a name) draw nothing
    try:
        mask = chain_font(name, _PROBE_SIZE).getmask(char)
    except (RuntimeError, ValueError, OSError):  # a character the layout engine refuses
        return False
    return (mask.size, bytes(mask)) != _notdef(name)


@lru_cache(maxsize=1)
def _emoji_index() -> dict[str, int]:
    index: dict[str, int] = json.loads(EMOJI_INDEX.read_text())["index"]
    return index


@lru_cache(maxsize=1)
def _emoji_atlas() -> tuple[Image.Image, int, int]:
    meta = json.loads(EMOJI_INDEX.read_text())
    atlas = Image.open(EMOJI_ATLAS)  # kept as its palette (a quarter of RGBA's memory)
    atlas.load()
    return atlas, int(meta["px"]), int(meta["columns"])


def emoji_key(text: str) -> str:
    return "-".join(f"{ord(c):x}" for c in text)


def is_emoji(text: str) -> bool:
    """Whether ``text`` (one emoji: a code point or a flag's two) is in the emoji images."""
    return emoji_key(text) in _emoji_index()


@lru_cache(maxsize=512)
def emoji_image(text: str, side: int) -> Image.Image:
    """The colour image of the emoji ``text``, ``side`` px square."""
    atlas, px, columns = _emoji_atlas()
    k = _emoji_index()[emoji_key(text)]
    left, top = (k % columns) * px, (k // columns) * px
    cell = atlas.crop((left, top, left + px, top + px)).convert("RGBA")
    return cell.resize((side, side), Image.Resampling.LANCZOS) if side != px else cell


def _is_modifier(char: str) -> bool:
    """Invisible helpers of emoji: variation selectors, skin-tone modifiers, tag characters,
    the zero-width joiner. Without their emoji they mean nothing."""
    code = ord(char)
    return (
        0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0000 <= code <= 0xE007F
        or 0xE0100 <= code <= 0xE01EF
        or code == 0x20E3
        or code == 0x200D
    )


def _is_mark(char: str) -> bool:
    """A character shaped with the one before it (combining marks, vowel signs, the Indic
    joiners): it stays in its neighbour's run."""
    return unicodedata.category(char) in ("Mn", "Mc", "Me") or char in "\u200c\u200d"


@lru_cache(maxsize=16384)
def font_for(char: str) -> str | None:
    """The first font of the chain that draws ``char``, or None."""
    for name in CHAIN:
        if covers(name, char):
            return name
    return None


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of text drawn in one font (``"emoji"``: one emoji image)."""

    font: str
    text: str


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` cut into runs by the font of the chain that draws them, in logical order;
    characters nothing draws are left out."""
    out: list[Run] = []
    k = 0

    def add(name: str, piece: str) -> None:
        if out and out[-1].font == name and name != "emoji":
            out[-1] = Run(name, out[-1].text + piece)
        else:
            out.append(Run(name, piece))

    while k < len(text):
        char = text[k]
        joined, end = _joined_emoji(text, k)
        if joined:
            add("emoji", joined)
            k = end
            continue
        pair = text[k : k + 2]
        if len(pair) == 2 and 0x1F1E6 <= ord(char) <= 0x1F1FF and is_emoji(pair):
            add("emoji", pair)  # a flag
            k += 2
            continue
        presented = k + 1 < len(text) and text[k + 1] == "\ufe0f"
        # past U+1F000 an emoji is shown as one by default (DejaVu's plain smileys would win
        # otherwise); below, a symbol such as ♥ stays text unless U+FE0F asks for the emoji
        if (presented or ord(char) >= 0x1F000) and is_emoji(char):
            add("emoji", char)
            k += 2 if presented else 1
            continue
        if _is_mark(char) and out and out[-1].font != "emoji":
            add(out[-1].font, char)
        elif _is_modifier(char):
            pass
        else:
            name = font_for(char)
            if name is not None:
                add(name, char)
            elif is_emoji(char):
                add("emoji", char)
        k += 1
    return tuple(out)


def _joined_emoji(text: str, start: int) -> tuple[str, int]:
    """The longest zero-width-joiner sequence with an image that starts at ``start`` (its
    parts without presentation selectors or skin tones, as the images are keyed) and where it
    ends in ``text``; ``("", start)`` when there is none."""
    if ord(text[start]) < 0x2000 or text[start] == "\u200d":
        return "", start
    parts: list[str] = []
    ends: list[int] = []
    k = start
    while k < len(text):
        parts.append(text[k])
        k += 1
        while k < len(text) and (
            0xFE00 <= ord(text[k]) <= 0xFE0F or 0x1F3FB <= ord(text[k]) <= 0x1F3FF
        ):
            k += 1  # presentation selectors and skin tones: dropped
        ends.append(k)
        if k + 1 < len(text) and text[k] == "\u200d":
            parts.append("\u200d")
            k += 1
            continue
        break
    # longest first: 👨‍👩‍👧‍👦 before 👨‍👩‍👧 before 👨‍👩
    for count in range(len(ends), 1, -1):
        candidate = "\u200d".join(parts[0 : 2 * count : 2])
        if is_emoji(candidate):
            return candidate, ends[count - 1]
    return "", start


def drawable(char: str) -> bool:
    """Whether the chain draws ``char`` (a font has it, or it is an emoji image)."""
    return font_for(char) is not None or is_emoji(char)


def is_rtl(text: str) -> bool:
    """Whether the first strong character of ``text`` reads right to left."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


@dataclass(frozen=True, slots=True)
class Placed:
    """A run placed on the line: its pen position from the line's start, on the baseline."""

    run: Run
    x: float
    advance: float


@lru_cache(maxsize=4096)
def line(text: str, size: int, bold: bool) -> tuple[tuple[Placed, ...], float]:
    """The runs of ``text`` placed left to right in visual order, and the line's advance."""
    pieces = list(runs(text))
    if is_rtl(text):
        pieces.reverse()
    placed, x = [], 0.0
    for run in pieces:
        if run.font == "emoji":
            advance = size * EMOJI_ADVANCE
        else:
            advance = chain_font(run.font, size, bold and run.font != "cjk").getlength(run.text)
        placed.append(Placed(run, x, advance))
        x += advance
    return tuple(placed), x


def _one_dejavu_run(text: str) -> str | None:
    """The text DejaVu draws when ``text`` is one DejaVu run (a board's numbers and words),
    else None. Only the runs: laying the line out (``line``) costs a call of the font."""
    pieces = runs(text)
    if len(pieces) == 1 and pieces[0].font == "dejavu":
        return pieces[0].text
    return None


def ink_width(text: str, size: int, bold: bool) -> int:
    """The width of ``render(text, size, bold, "la", None)``'s picture, measured without
    drawing it when the text is one DejaVu run (a board's numbers and words): the same box
    ``render`` cuts its picture to."""
    shown = _one_dejavu_run(text)
    if shown is not None:
        left, _, right, _ = font(size, bold).getbbox(shown, anchor="la")
        return max(1, int(right - left))
    return render(text, size, bold, "la", None)[0].width


def coverage(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int] | None:
    """``render(text, size, bold, anchor, None)`` for a text that is one DejaVu run, from one
    call of the font instead of three (its box, then drawing into a mask of that box): the
    font's own mask at a whole-pixel point is that very box, and ``ImageDraw.text`` with ink
    255 on a black mask puts the font's coverage down unchanged (tests/renderer/
    test_text_pieces.py compares the two). None for any other text."""
    shown = _one_dejavu_run(text)
    if shown is None:
        return None
    core, (left, top) = font(size, bold).getmask2(shown, "L", anchor=anchor)
    width, height = core.size
    if width < 1 or height < 1:  # nothing drawn (a space): render makes its 1-px picture
        return None
    mask = Image.new("L", (width, height))
    mask.im = core  # the font's mask as it is: a new image, owned by nobody else
    return mask, int(left), int(top)


def render(
    text: str, size: int, bold: bool, anchor: str, fill: tuple[int, ...] | None
) -> tuple[Image.Image, int, int]:
    """``text`` drawn at ``size``: with ``fill`` an RGBA image (emoji in colour), without it
    an "L" coverage mask (emoji as their shape); and the offset of its ink box from the anchor
    point (Pillow anchors: ``la``, ``lm``, ``mm``, ``rm``, ``ls``, ``rs``, ``ma``)."""
    found = coverage(text, size, bold, anchor)
    if found is not None:  # one DejaVu run: exactly Pillow's own layout and anchors
        return _coloured(found[0], fill), found[1], found[2]
    placed, advance = line(text, size, bold)
    primary = font(size, bold)
    if len(placed) == 1 and placed[0].run.font == "dejavu":
        # one DejaVu run that draws nothing (a space): a 1-px picture at Pillow's anchor
        shown = placed[0].run.text
        x0, y0, x1, y1 = primary.getbbox(shown, anchor=anchor)
        mask = Image.new("L", (max(1, int(x1 - x0)), max(1, int(y1 - y0))), 0)
        ImageDraw.Draw(mask).text((-x0, -y0), shown, font=primary, fill=255, anchor=anchor)
        return _coloured(mask, fill), int(x0), int(y0)
    ascent, descent = primary.getmetrics()
    # the line's box around its baseline: ink of every run, emoji sitting on the baseline
    boxes = []
    for piece in placed:
        if piece.run.font == "emoji":
            side = round(size * EMOJI_SIDE)
            x0 = piece.x + (piece.advance - side) / 2
            boxes.append((x0, -side + size * 0.18, x0 + side, size * 0.18))
        else:
            face = chain_font(piece.run.font, size, bold and piece.run.font != "cjk")
            x0, y0, x1, y1 = face.getbbox(
                piece.run.text, anchor="ls", stroke_width=_stroke(piece.run.font, size, bold)
            )
            boxes.append((piece.x + x0, y0, piece.x + x1, y1))
    if not boxes:
        return _coloured(Image.new("L", (1, 1), 0), fill), 0, 0
    left = int(min(b[0] for b in boxes) // 1)
    top = int(min(b[1] for b in boxes) // 1)
    right = int(-(-max(b[2] for b in boxes) // 1))
    bottom = int(-(-max(b[3] for b in boxes) // 1))
    width, height = max(1, right - left), max(1, bottom - top)
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    colour: list[tuple[Image.Image, tuple[int, int]]] = []
    for piece, box in zip(placed, boxes, strict=True):
        if piece.run.font == "emoji":
            image = emoji_image(piece.run.text, round(size * EMOJI_SIDE))
            at = (round(box[0]) - left, round(box[1]) - top)
            mask.paste(255, at, image.getchannel("A"))
            colour.append((image, at))
        else:
            face = chain_font(piece.run.font, size, bold and piece.run.font != "cjk")
            stroke = _stroke(piece.run.font, size, bold)
            draw.text(
                (piece.x - left, -top),
                piece.run.text,
                font=face,
                fill=255,
                anchor="ls",
                stroke_width=stroke,
                stroke_fill=255,
            )
    sprite = _coloured(mask, fill)
    if fill is not None:
        for image, at in colour:
            sprite.alpha_composite(image, at)
    # the anchor point relative to the line's start on the baseline
    horizontal = {"l": 0.0, "m": advance / 2, "r": advance}[anchor[0]]
    vertical = {
        "a": -ascent,
        "t": float(top),
        "m": (descent - ascent) / 2,
        "s": 0.0,
        "d": float(descent),
        "b": float(bottom),
    }[anchor[1]]
    return sprite, round(left - horizontal), round(top - vertical)


def _stroke(name: str, size: int, bold: bool) -> int:
    """CJK has no bold face shipped: bold CJK text gets a thin outline of its own colour."""
    return max(1, size // 28) if bold and name == "cjk" else 0


def _coloured(mask: Image.Image, fill: tuple[int, ...] | None) -> Image.Image:
    if fill is None:
        return mask
    sprite = Image.new("RGBA", mask.size, (*fill[:3], 255))
    sprite.putalpha(mask)
    return sprite
