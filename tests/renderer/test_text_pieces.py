"""A board's texts are put on the palette straight from the font's coverage (issue 27: a new
score or move count was drawn three times over and converted through a colour sprite, about
0.6 ms a text). The short way must give the very pixels of the long one, or every header and
label would move or change colour."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from renderer import fonts, theme, typeface
from renderer.palette import paletted

TEXTS = [
    "Score 35",
    "Moves 112",
    "-$15",
    "$0",
    "Punti 1987",
    "Jugadas 104",
    "Mosse 1",
    "Points 152",
    "Fase final",
    "Solitario completo!",
    "Trece Imaginario  ·  Deal 4",
    "next 10",
    "→ 10",
    "r1",
    "#3",
    "88",
    "Wj",
    "Se",
    "Stalled: no more progress",
    "Жора",
    "Ελένη",
    "fi ff ffl",
    "Ana…",
    "שלום",
    "مرحبا",
]
# texts the font chain draws in other fonts or several runs: they keep the colour sprite
OTHER_TEXTS = ["張偉", "👩‍👩‍👧 Ana", "नमस्ते", "Ana 🎲 3", "Zoë 王"]
ANCHORS = ("la", "lm", "mm", "rm", "ls", "rs", "ma")
# (fill, under) pairs the boards use, and a few others
COLOURS = [
    (theme.WHITE, theme.HEADER),
    (theme.MUTED, theme.HEADER),
    (theme.WHITE, theme.LABEL_BG),
    (theme.MUTED, theme.TABLE),
    (theme.GOLD, theme.TABLE),
    (theme.WHITE, theme.TABLE),
    (theme.LAST_MOVE, theme.HEADER),
    ((200, 30, 30), (250, 250, 245)),
    ((12, 200, 90), (0, 0, 0)),
]


def _drawn_the_long_way(
    text: str, size: int, bold: bool, anchor: str
) -> tuple[tuple[int, int], bytes, int, int]:
    """The text's coverage as ``typeface.render`` drew one DejaVu run before: its box from the
    font, then the text drawn into a black mask of that box."""
    face = typeface.font(size, bold)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask.size, mask.tobytes(), int(left), int(top)


@pytest.mark.parametrize("text", TEXTS)
def test_a_texts_coverage_from_one_call_is_what_drawing_it_gives(text: str) -> None:
    for size in (23, 26, 29, 40):
        for bold in (False, True):
            for anchor in ANCHORS:
                found = typeface.coverage(text, size, bold, anchor)
                assert found is not None, text
                mask, left, top = found
                got = (mask.size, mask.tobytes(), left, top)
                assert got == _drawn_the_long_way(text, size, bold, anchor), (size, bold, anchor)


@pytest.mark.parametrize("text", OTHER_TEXTS + [" ", ""])
def test_a_text_the_font_chain_lays_out_keeps_the_long_way(text: str) -> None:
    assert typeface.coverage(text, 26, True, "lm") is None
    # and what a board pastes for it is still the palette version of its colour sprite
    sprite, left, top = fonts.text_sprite(text, 26, theme.WHITE, True, "lm")
    (core, extent), mask, x, y, kept = fonts.text_core(
        text, 26, theme.WHITE, True, "lm", theme.HEADER
    )
    converted, bits = paletted(sprite, theme.HEADER)
    assert (x, y, extent, kept) == (left, top, converted.size, sprite)
    assert _pixels(core) == converted.tobytes()
    assert _pixels(mask, "1") == bits.tobytes()


def _pixels(core: object, mode: str = "P") -> bytes:
    image = Image.new(mode, core.size)  # type: ignore[attr-defined]
    image.im = core  # type: ignore[assignment]
    return image.tobytes()


@pytest.mark.parametrize("text", TEXTS)
def test_a_boards_text_has_the_colours_and_mask_of_its_colour_sprite(text: str) -> None:
    """``text_core`` against the long way: the RGBA sprite blended over the colour under it
    and matched to the palette (``paletted``), pixel for pixel, with the same mask."""
    for size in (26, 29):
        for bold in (False, True):
            for fill, under in COLOURS:
                for anchor in ("lm", "rm", "mm"):
                    sprite, left, top = typeface.render(text, size, bold, anchor, fill)
                    converted, bits = paletted(sprite, under)
                    (core, extent), mask, x, y, _ = fonts.text_core(
                        text, size, fill, bold, anchor, under
                    )
                    assert (x, y, extent) == (left, top, converted.size)
                    assert _pixels(core) == converted.tobytes(), (size, bold, fill, under)
                    assert _pixels(mask, "1") == bits.tobytes(), (size, bold, fill, under)


def test_a_text_pasted_on_a_board_is_the_colour_sprite_pasted_through_its_mask() -> None:
    board = Image.new("P", (300, 60), 2)
    fonts.paste_text(
        board, (150, 30), "Moves 113", 26, theme.WHITE, anchor="mm", bold=True, under=theme.HEADER
    )
    sprite, left, top = fonts.text_sprite("Moves 113", 26, theme.WHITE, True, "mm")
    converted, bits = paletted(sprite, theme.HEADER)
    expected = Image.new("P", (300, 60), 2)
    expected.paste(converted, (150 + left, 30 + top), bits)
    assert board.tobytes() == expected.tobytes()
