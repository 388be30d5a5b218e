"""``python -m tools.fontbuild``: rebuild the fonts ``renderer.typeface`` chains after DejaVu
Sans, from the Noto fonts a Debian system installs (fonts-noto-core, fonts-noto-cjk,
fonts-noto-color-emoji). Not used at run time: its output is committed under
``renderer/fonts/`` (nothing is downloaded or read from the system when a board is drawn).

What it writes, and why so small:

* ``NotoSansCJKsc-Subset.otf``: Noto Sans CJK SC cut to the characters names actually use:
  GB 2312 level 1 (the 3,755 most frequent simplified hanzi), Big5 level 1 (5,401 frequent
  traditional ones), JIS X 0208 level 1 kanji, the 2,350 Hangul syllables of KS X 1001, kana,
  CJK punctuation and full-width forms: about 10,000 characters in 2 MB (the whole font: 19 MB
  per weight). One weight: bold CJK text is drawn with the regular face.
* ``NotoSansDevanagari-*.ttf``, ``NotoSansThai-*.ttf``: the Devanagari and Thai blocks with
  their shaping tables (conjuncts and vowel signs need them).
* ``emoji40.png`` + ``emoji40.json``: Noto Color Emoji's single-code-point emoji and the
  country flags, each drawn once at the font's only size and shrunk to 40 px, in one palette
  PNG (the colour font itself is 11 MB of 136-px bitmaps). Skin-tone variants and
  zero-width-joiner sequences are drawn as their parts.
* ``LICENSE-Noto.txt``: the SIL Open Font License 1.1 that all of them are under.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).parent / "fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK_TTC = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_SC = 2  # the face index of Noto Sans CJK SC in the collection
EMOJI_TTF = NOTO / "NotoColorEmoji.ttf"
EMOJI_PX = 40
EMOJI_COLUMNS = 40
LICENCE_SOURCE = Path("/usr/share/doc/fonts-noto-cjk/copyright")


def _codec_chars(codec: str, leads: range, trails: list[int]) -> set[str]:
    out = set()
    for lead in leads:
        for trail in trails:
            with contextlib.suppress(UnicodeDecodeError):
                out.add(bytes([lead, trail]).decode(codec))
    return {c for c in out if len(c) == 1}


def cjk_characters() -> str:
    """The characters kept in the CJK subset (see the module docstring)."""
    high = list(range(0xA1, 0xFF))
    chars = _codec_chars("gb2312", range(0xB0, 0xD8), high)  # level 1 hanzi
    chars |= _codec_chars("euc_jp", range(0xB0, 0xD0), high)  # JIS level 1 kanji
    chars |= _codec_chars("euc_kr", range(0xB0, 0xC9), high)  # Hangul syllables
    chars |= _codec_chars("big5", range(0xA4, 0xC7), list(range(0x40, 0x7F)) + high)
    for low, high_end in (
        (0x3000, 0x3100),  # CJK punctuation, hiragana, katakana
        (0x3130, 0x3190),  # Hangul compatibility jamo
        (0x31F0, 0x3200),  # katakana extensions
        (0xFF00, 0xFFF0),  # full- and half-width forms
    ):
        chars |= {chr(c) for c in range(low, high_end)}
    return "".join(sorted(chars))


def _subset(source: Path, target: Path, *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "fontTools.subset", str(source), f"--output-file={target}"]
        + ["--no-hinting", "--name-IDs=*", *args],
        check=True,
    )


def build_cjk() -> Path:
    target = OUT / "NotoSansCJKsc-Subset.otf"
    text = OUT / "cjk-characters.txt"
    text.write_text(cjk_characters(), encoding="utf-8")
    try:
        # no layout tables: CJK needs no shaping, and they are 1.7 MB of it
        _subset(
            CJK_TTC,
            target,
            f"--font-number={CJK_SC}",
            f"--text-file={text}",
            "--layout-features=",
        )
    finally:
        text.unlink()
    return target


def build_indic() -> list[Path]:
    written = []
    for script, blocks in (
        ("Devanagari", "U+0900-097F,U+A8E0-A8FF,U+1CD0-1CFF,U+0020-007E,U+200B-200D,U+25CC"),
        ("Thai", "U+0E00-0E7F,U+0020-007E,U+200B-200D,U+25CC"),
    ):
        for weight in ("Regular", "Bold"):
            target = OUT / f"NotoSans{script}-{weight}.ttf"
            _subset(
                NOTO / f"NotoSans{script}-{weight}.ttf",
                target,
                f"--unicodes={blocks}",
                "--layout-features=*",
            )
            written.append(target)
    return written


def emoji_sequences() -> list[str]:
    """Every single-code-point emoji of the colour font that DejaVu does not draw as text
    anyway, and the country flags (pairs of regional indicators)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    cmap = TTFont(str(EMOJI_TTF), lazy=True).getBestCmap()
    singles = [
        chr(c)
        for c in sorted(cmap)
        if c >= 0xA9
        and not 0x1F3FB <= c <= 0x1F3FF  # skin tones: dropped, the base emoji is drawn
        and not 0x1F1E6 <= c <= 0x1F1FF  # regional indicators: only as flags
        and not 0xFE00 <= c <= 0xFE0F
        and not 0xE0000 <= c <= 0xE007F
        and c not in (0x200D, 0x20E3)
    ]
    font = ImageFont.truetype(str(EMOJI_TTF), 109)
    flags = []
    for a in range(26):
        for b in range(26):
            pair = chr(0x1F1E6 + a) + chr(0x1F1E6 + b)
            # a flag the font knows is one glyph (one advance); an unknown pair is two letters
            if font.getlength(pair) < 1.5 * font.getlength(chr(0x1F1E6)):
                flags.append(pair)
    return singles + flags + zwj_sequences()


def zwj_sequences() -> list[str]:
    """The colour font's zero-width-joiner sequences (families, the rainbow and pirate flags,
    people at work), as one glyph each: read from its ligatures (GSUB), without skin tones
    (those are dropped when drawing), each written so the font draws it as one glyph (an
    emoji presentation selector after a text-style part where the font needs it)."""
    from fontTools.ttLib import TTFont

    font_file = TTFont(str(EMOJI_TTF))
    glyph_code: dict[str, int] = {}
    for code, glyph in font_file.getBestCmap().items():
        glyph_code.setdefault(glyph, code)
    found: set[str] = set()
    for lookup in font_file["GSUB"].table.LookupList.Lookup:
        for table in lookup.SubTable:
            table = getattr(table, "ExtSubTable", table)
            for first, ligatures in getattr(table, "ligatures", {}).items():
                for ligature in ligatures:
                    glyphs = [first, *ligature.Component]
                    if not all(g in glyph_code for g in glyphs):
                        continue
                    text = "".join(chr(glyph_code[g]) for g in glyphs).replace("\ufe0f", "")
                    if "\u200d" in text and not any(0x1F3FB <= ord(c) <= 0x1F3FF for c in text):
                        found.add(text)
    font = ImageFont.truetype(str(EMOJI_TTF), 109)
    one = font.getlength("\U0001f600")

    def qualified(text: str) -> str:
        return "".join(c + ("\ufe0f" if ord(c) < 0x1F000 and c != "\u200d" else "") for c in text)

    sequences = []
    for text in sorted(found):
        # the ligature tables list some sequences last part first: keep the order the font
        # joins into one glyph (one advance), bare or with presentation selectors
        for order in (text, text[::-1]):
            drawn = next(
                (q for q in (order, qualified(order)) if font.getlength(q) < 1.5 * one), None
            )
            if drawn is not None:
                sequences.append(drawn)
                break
    return sequences


def build_emoji() -> Path:
    font = ImageFont.truetype(str(EMOJI_TTF), 109)
    sequences = emoji_sequences()
    rows = (len(sequences) + EMOJI_COLUMNS - 1) // EMOJI_COLUMNS
    atlas = Image.new("RGBA", (EMOJI_COLUMNS * EMOJI_PX, rows * EMOJI_PX), (0, 0, 0, 0))
    index: dict[str, int] = {}
    for text in sequences:
        glyph = Image.new("RGBA", (160, 160), (0, 0, 0, 0))
        ImageDraw.Draw(glyph).text((0, 0), text, font=font, embedded_color=True)
        box = glyph.getbbox()
        if box is None:
            continue
        # square cell, the glyph centred in it (emoji are about square)
        side = max(box[2] - box[0], box[3] - box[1])
        square = Image.new("RGBA", (side, side), (0, 0, 0, 0))
        square.paste(
            glyph.crop(box), ((side - box[2] + box[0]) // 2, (side - box[3] + box[1]) // 2)
        )
        k = len(index)
        small = square.resize((EMOJI_PX, EMOJI_PX), Image.Resampling.LANCZOS)
        atlas.paste(small, ((k % EMOJI_COLUMNS) * EMOJI_PX, (k // EMOJI_COLUMNS) * EMOJI_PX))
        # keyed without presentation selectors: the text looked up has them dropped
        index["-".join(f"{ord(c):x}" for c in text if c != "\ufe0f")] = k
    target = OUT / "emoji40.png"
    atlas.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        target, optimize=True
    )
    (OUT / "emoji40.json").write_text(
        json.dumps({"px": EMOJI_PX, "columns": EMOJI_COLUMNS, "index": index}, sort_keys=True)
    )
    return target


def write_licence() -> Path:
    lines = LICENCE_SOURCE.read_text().splitlines()
    start = next(k for k, line in enumerate(lines) if "SIL OPEN FONT LICENSE Version 1.1" in line)
    end = next(k for k in range(start, len(lines)) if lines[k].startswith("License:"))
    body = [line[1:] if line.startswith(" ") else line for line in lines[start:end]]
    body = ["" if line == "." else line for line in body]
    head = [
        "Noto Sans CJK SC (subset), Noto Sans Devanagari, Noto Sans Thai (subsets) and the",
        "emoji images in emoji40.png (drawn from Noto Color Emoji) are",
        "Copyright 2010-2023 Google LLC / Google Inc. and the Noto project authors,",
        "licensed under the SIL Open Font License, Version 1.1 (below).",
        "Subset and rebuilt by tools/fontbuild.py.",
        "",
    ]
    target = OUT / "LICENSE-Noto.txt"
    target.write_text("\n".join(head + body).rstrip() + "\n")
    return target


def main() -> int:
    for path in [build_cjk(), *build_indic(), build_emoji(), write_licence()]:
        print(f"{path} {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
