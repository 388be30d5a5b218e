"""The typed shape of every game's ``view()``: the contract between engine, renderer and bot.

A view is a plain JSON-serialisable dict (a ``TypedDict`` is a dict at run time); these
classes only let mypy check that the engine builds, and the renderer reads, the keys
``docs/views.md`` documents. One class per game, built on the fields every view has.

>>> from engine.solitario import Solitario
>>> view: SolitarioView = Solitario(deal=1).view()
>>> sorted(set(view) - set(BaseView.__annotations__))
['deck', 'last_move_piles', 'piles', 'score_move', 'stalled', 'stock_recycles']
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class BaseView(TypedDict):
    """The fields every view has (``Game._base_view``)."""

    game: str
    deal: int
    options: dict[str, Any]
    players: list[str]
    viewer: str | None
    current_player: str | None
    move_number: int
    score: int
    is_over: bool
    outcome: str | None
    last_move: str | None


# ----- the pile games (engine.pilegame): Solitario, Canfield, FreeCell, Imaginary Thirteen -------
class PileView(TypedDict):
    """One pile: ``down`` face-down cards (a count only), then ``cards`` face up, bottom to top."""

    id: str
    kind: str
    down: int
    cards: list[str]
    show: NotRequired[int]  # a waste: how many top cards are fanned
    suit: NotRequired[str]  # Solitario and Canfield foundations
    marker: NotRequired[int]  # Imaginary Thirteen foundations: their marker, 1-8
    next: NotRequired[int | None]  # ... and the value they need next (None: finished)


class PilesView(BaseView):
    """A game laid out in piles (``docs/views.md``): what the pile drawing reads."""

    deck: str
    piles: list[PileView]
    last_move_piles: list[str]


class PileGameView(PilesView):
    """Solitario, Canfield and Imaginary Thirteen: piles with a stock, so a stall."""

    stalled: bool


class SolitarioView(PileGameView):
    stock_recycles: int
    score_move: int


class CanfieldView(PileGameView):
    base_rank: int
    dollars: int
    redeals: int


class Imaginary13View(PileGameView):
    markers: list[int]
    marker_cards: list[str]


class FreeCellView(PilesView):
    """FreeCell's piles (every card face up; no stock, so no ``stalled``)."""

    auto_home: list[str]  # the cards the last move sent home by themselves, in order
    max_run: int  # the most cards one move may carry now


# ----- Squadratik: El Solitario and Cartas Maestras -------------------------------------------------
class SquadratikCardView(TypedDict):
    id: int
    kind: str
    sides: list[str]
    rotation: int
    points: int


class CellView(TypedDict):
    x: int
    y: int
    card: SquadratikCardView
    path: str | None


class PathView(TypedDict):
    open: bool
    cells: list[list[int]]
    ends: list[str]
    after_empty: int


class SquadratikView(BaseView):
    """What both Squadratik games show: the board, its paths, a hand, the stock's size."""

    board: list[CellView]
    paths: dict[str, PathView | None]
    hand: list[SquadratikCardView]
    stock: int
    last_move_cells: list[list[int]]


class ElSolitarioView(SquadratikView):
    removed_points: int


class SeatView(TypedDict):
    player: str
    hand: int
    masters: int
    cards: int
    timeouts: int


class PlaceView(TypedDict):
    player: str
    place: int
    masters: int
    cards: int


class LastBoardView(TypedDict):
    """The board as Cartas Maestras' main phase left it (``board`` and ``paths`` as a view's)."""

    board: list[CellView]
    paths: dict[str, PathView | None]
    won_cells: list[list[int]]  # the path whose winning ended the main phase ([]: passes did)
    won_by: str | None  # who won it


class MaestrasView(SquadratikView):
    phase: str
    seats: list[SeatView]
    results: list[PlaceView] | None
    last_board: LastBoardView | None


__all__ = [
    "BaseView",
    "CanfieldView",
    "CellView",
    "ElSolitarioView",
    "FreeCellView",
    "Imaginary13View",
    "LastBoardView",
    "MaestrasView",
    "PathView",
    "PileGameView",
    "PileView",
    "PilesView",
    "PlaceView",
    "SeatView",
    "SolitarioView",
    "SquadratikCardView",
    "SquadratikView",
]
