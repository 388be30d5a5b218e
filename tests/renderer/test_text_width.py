"""A text's width is measured without drawing it when it is one DejaVu run (issue 27: a new
header number such as "Moves 113" was drawn twice, once only to measure it). The measure must
be exactly the width of the drawn text, or headers, labels and shortened names would move."""

from __future__ import annotations

import pytest

from renderer import typeface

TEXTS = [
    "Score 35",
    "Moves 112",
    "-$15",
    "$0",
    "Stock 23",
    "Jugadas 104",
    "Mosse 1",
    "Mano",
    "Fase final",
    "Solitario completo!",
    "Trece Imaginario  ·  Deal 4",
    "next 10",
    "→ 10",
    "r1",
    "#3",
    "88",
    "Wj",
    "Stalled: no more progress",
    "Жора",
    "Ελένη",
    "張偉",
    "👩‍👩‍👧 Ana",
    "שלום",
    "مرحبا",
    "नमस्ते",
    "สวัสดี",
    "Ana…",
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_texts_measured_width_is_its_drawn_width(text: str) -> None:
    for size in (24, 26, 29, 36, 40):
        for bold in (False, True):
            drawn = typeface.render(text, size, bold, "la", None)[0].width
            assert typeface.ink_width(text, size, bold) == drawn, (text, size, bold)
