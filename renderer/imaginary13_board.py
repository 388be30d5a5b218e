"""Imaginary Thirteen's board: the eight foundations on the top row, each with its step
badge and its "next" line (read from the view's piles); the stock, the turned card and the
wastes on the second row, the wastes fanned down to the right. Drawn by
``renderer.boards.draw_pile_board``; ``BOARD`` is what it needs beyond the view.

>>> import engine
>>> from renderer.boards import pile_layout
>>> spots = pile_layout(engine.new_game("imaginary13", 1).view()).piles
>>> spots["s"].slot.x == spots["1"].slot.x, spots["t"].slot.y > spots["1"].slot.y
(True, True)
"""

from __future__ import annotations

from renderer.boards import PileBoard, Places

COLUMNS = 8


def arrange(by_kind: dict[str, list[str]]) -> tuple[int, Places]:
    """Foundations on row 0; stock and turned card left on row 1, the wastes to the right."""
    places: Places = {}
    for k, pile in enumerate(by_kind.get("foundation", [])):
        places[pile] = (0, k)
    for k, pile in enumerate(by_kind.get("stock", [])):
        places[pile] = (1, k)
    for k, pile in enumerate(by_kind.get("turned", [])):
        places[pile] = (1, 1 + k)
    wastes = by_kind.get("waste", [])
    for k, pile in enumerate(wastes):
        places[pile] = (1, COLUMNS - len(wastes) + k)
    return COLUMNS, places


#: its arrangement; no backs on the second row, fans of about four cards
BOARD = PileBoard(arrange, steady_fan=(0, 4))
