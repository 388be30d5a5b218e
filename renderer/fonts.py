"""Fonts and the few words drawn on boards.

Fonts come from Pillow itself (``ImageFont.load_default(size=...)``: a scalable sans-serif
bundled with Pillow >= 10.1), never from the operating system, so every machine draws the same
pixels. Pillow has no bold face: ``bold=True`` draws the glyphs with a one-pixel stroke.

>>> word("score", "it")
'Punti'
>>> word("score", "xx")   # unknown languages fall back to English
'Score'
"""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw, ImageFont

# The only words the renderer draws. The bot owns every other text; keep this table tiny.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "score": "Score", "moves": "Moves", "stock": "Stock", "waste": "Waste",
        "reserve": "Reserve", "turned": "Turned", "next": "next", "deal": "Deal",
        "won": "Won!", "lost": "Lost", "stalled": "Stalled: no more progress",
        "resigned": "Resigned", "completo": "Solitario completo!", "solitario": "Solitario!",
        "finished": "Game over", "hand": "Hand", "masters": "Masters", "cards": "Cards",
        "turn": "to play", "points": "Points", "your_hand": "Hand of", "place": "Place",
        "done": "done", "redeals": "Redeals", "final": "Final phase",
    },
    "es": {
        "score": "Puntos", "moves": "Jugadas", "stock": "Mazo", "waste": "Descarte",
        "reserve": "Reserva", "turned": "Girada", "next": "sig.", "deal": "Reparto",
        "won": "¡Ganada!", "lost": "Perdida", "stalled": "Bloqueada: sin más progreso",
        "resigned": "Abandonada", "completo": "¡Solitario completo!", "solitario": "¡Solitario!",
        "finished": "Fin de la partida", "hand": "Mano", "masters": "Maestras", "cards": "Cartas",
        "turn": "juega", "points": "Puntos", "your_hand": "Mano de", "place": "Puesto",
        "done": "hecha", "redeals": "Vueltas", "final": "Fase final",
    },
    "it": {
        "score": "Punti", "moves": "Mosse", "stock": "Tallone", "waste": "Mazzetto",
        "reserve": "Riserva", "turned": "Girata", "next": "pross.", "deal": "Smazzata",
        "won": "Vinta!", "lost": "Persa", "stalled": "Stallo: nessun progresso possibile",
        "resigned": "Abbandonata", "completo": "Solitario completo!", "solitario": "Solitario!",
        "finished": "Partita finita", "hand": "Mano", "masters": "Maestre", "cards": "Carte",
        "turn": "di turno", "points": "Punti", "your_hand": "Mano di", "place": "Posto",
        "done": "finita", "redeals": "Giri", "final": "Fase finale",
    },
}


def word(key: str, lang: str = "en") -> str:
    """The board word ``key`` in ``lang`` (English when the language or the word is unknown)."""
    return WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"].get(key, key)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels, built once per size."""
    return ImageFont.load_default(size=size)


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` drawn at ``size``."""
    left, _, right, _ = font(size).getbbox(text, stroke_width=1 if bold else 0)
    return int(right - left)


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
    draw.text(
        xy,
        text,
        font=font(size),
        fill=fill,
        anchor=anchor,
        stroke_width=1 if bold else 0,
        stroke_fill=fill if bold else None,
    )
