"""Board images for Tavolo: ``render(game_id, view, **style) -> PNG bytes``. No rules, no chat.

``render`` is a pure function of its arguments (same input, same bytes); card sprites and fonts
are built once and cached; images are at most 1280 px wide. ``replay`` makes an animated image
of a whole game from its log.

>>> import renderer
>>> view = {"game": "solitario", "deal": 1, "deck": "italian40", "score": 0, "move_number": 0,
...         "piles": [{"id": "1", "kind": "tableau", "down": 0, "cards": ["Kh"]}]}
>>> renderer.render("solitario", view, faces="piacentine", lang="it")[:4]
b'\\x89PNG'

Style keywords: ``faces`` (Solitario: ``napoletane`` (default), ``piacentine``, ``francesi``),
``lang`` (``en``, ``es``, ``it``), ``clock`` (text such as ``"04:12"``), ``selected`` (a pile id
or a hand slot / board cell to ring as selected) with ``targets`` (where it may go), and
``hand=True`` (Cartas Maestras: the private hand of ``view["viewer"]`` instead of the board).
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from renderer.boards import draw_pile_board, pile_layout
from renderer.encode import to_png
from renderer.palette import palette_image
from renderer.replay import replay
from renderer.squadratik_boards import draw_squadratik, squadratik_layout

MAX_WIDTH = 1280
PILE_GAMES = ("solitario", "canfield", "imaginary13")
SQUADRATIK_GAMES = ("squadratik", "maestras")


def draw(game_id: str, view: dict[str, Any], **style: Any) -> Image.Image:
    """The board as a Pillow palette image on the fixed board palette (what ``render``
    encodes); see ``render`` for ``style``."""
    if game_id in PILE_GAMES:
        allowed = ("faces", "lang", "clock", "selected", "targets")
        image = draw_pile_board(view, **{k: v for k, v in style.items() if k in allowed})
    elif game_id in SQUADRATIK_GAMES:
        allowed = ("lang", "clock", "selected", "targets", "hand")
        image = draw_squadratik(view, **{k: v for k, v in style.items() if k in allowed})
    else:
        raise ValueError(f"unknown game {game_id!r}")
    if image.width > MAX_WIDTH:  # a safety net: layouts already keep within the limit
        height = round(image.height * MAX_WIDTH / image.width)
        image = image.convert("RGB").resize((MAX_WIDTH, height), Image.Resampling.LANCZOS)
        image = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    return image


def render(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
    """PNG bytes of ``view`` (``game.view(player)``) for ``game_id``; see the module docstring."""
    return to_png(draw(game_id, view, **style))


def layout(game_id: str, view: dict[str, Any], **style: Any) -> Any:
    """Where ``render`` puts every pile/card/cell (for tests and tap-to-pile mapping)."""
    if game_id in PILE_GAMES:
        return pile_layout(view)
    return squadratik_layout(view, hand=bool(style.get("hand")))


__all__ = ["MAX_WIDTH", "draw", "layout", "render", "replay"]
