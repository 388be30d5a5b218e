"""FreeCell's board: the four free cells (``a``-``d``) and the four foundations (``h1``-``h4``)
side by side on the top row, the eight columns (``1``-``8``) under them, every pile labelled
with its notation id. Drawn by ``renderer.boards.draw_pile_board`` like the other pile games;
this module says where FreeCell's piles go (``BOARD``, given where its drawing is registered).

>>> import engine
>>> from renderer.boards import pile_layout
>>> spots = pile_layout(engine.new_game("freecell", 1).view()).piles
>>> [spots[p].slot.x < spots["h1"].slot.x for p in ("a", "d")], spots["1"].slot.x == spots["a"].slot.x
([True, True], True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image

from renderer.boards import (
    PileBoard,
    PileBoardLayout,
    Places,
    draw_pile_board,
    pile_board_display,
    pile_layout,
)
from renderer.display import Display

if TYPE_CHECKING:  # the views' shapes only: drawing needs no engine code
    from engine.views import PilesView

COLUMNS = 8


def arrange(by_kind: dict[str, list[str]]) -> tuple[int, Places]:
    """Cells left and foundations right on row 0; the columns on row 1."""
    places: Places = {}
    for k, pile in enumerate(by_kind.get("cell", [])):
        places[pile] = (0, k)
    foundations = by_kind.get("foundation", [])
    for k, pile in enumerate(foundations):
        places[pile] = (0, COLUMNS - len(foundations) + k)
    for k, pile in enumerate(by_kind.get("tableau", [])):
        places[pile] = (1, k)
    return COLUMNS, places


#: FreeCell's board: its arrangement; every card is face up
BOARD = PileBoard(arrange)


def draw_freecell(
    view: PilesView,
    *,
    lang: str = "en",
    clock: str | None = None,
    selected: str | None = None,
    targets: list[str] | tuple[str, ...] = (),
    player: str | None = None,
) -> Image.Image:
    """The board (French faces only: FreeCell has no other deck)."""
    return draw_pile_board(
        view,
        faces="francesi",
        lang=lang,
        clock=clock,
        selected=selected,
        targets=targets,
        player=player,
    )


def freecell_display(
    view: PilesView,
    *,
    lang: str = "en",
    clock: str | None = None,
    selected: str | None = None,
    targets: list[str] | tuple[str, ...] = (),
    player: str | None = None,
) -> tuple[Display, str | None]:
    """``draw_freecell``'s board as a display list (``renderer.boards.pile_board_display``)."""
    return pile_board_display(
        view,
        faces="francesi",
        lang=lang,
        clock=clock,
        selected=selected,
        targets=targets,
        player=player,
    )


def freecell_layout(
    view: PilesView,
    lang: str = "en",
    clock: str | None = None,
    player: str | None = None,
) -> PileBoardLayout:
    """Where ``draw_freecell`` puts every pile and card (``clock`` and ``player`` may give the
    header a second row, as on the drawing)."""
    return pile_layout(view, lang, clock, player)
