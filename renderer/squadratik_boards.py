"""Squadratik boards: El Solitario (board + hand), Cartas Maestras (public board with the seats,
or one player's private hand).

Most players see the image about 400 px wide on a phone, so everything is sized for that: the
image is ``WIDTH`` px wide and every number and word is drawn at least ``TEXT_PX`` px (9 px or
more at 400 px). The board is framed on the cards on the table plus the places a card may go
now (dashed outlines labelled with the notation: ``N`` for a free side or a path end, ``Ne`` for
turning east after an empty card). The cell size is one of a few fixed steps picked by the
frame's extent, so the scale stays put between moves and changes only when the paths no longer
fit (or become short again). Hand cards are numbered 1-4 as in the notation (``2N``) and drawn
at least as large as the table's cards.

Past what a phone reads whole (cards under 136 px, or a picture more than 1.4 times as tall as
wide), the board is drawn for the phone (``phone_layout``): the central card while a side of it
is free and each path's last card, at 136 px, with the places a card may go beside them as they
lie on the table and the rest of each path as a strip counting its cards; ``full=True`` draws
the whole board all the same (``/board full``, the web page). A finished Cartas Maestras table
shows the board its main phase ended on (``last_board``), the path that ended it ringed.

>>> view = {"game": "squadratik", "board": [{"x": 0, "y": 0, "path": None,
...          "card": {"id": 0, "kind": "central", "sides": ["0"] * 4, "rotation": 0, "points": 0}}],
...         "paths": {"N": None, "E": None, "S": None, "W": None}, "hand": [], "stock": 42}
>>> squadratik_layout(view).cell_size
160
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, cast

from PIL import Image, ImageDraw

from engine.views import ElSolitarioView, MaestrasView, SeatView, SquadratikView
from renderer import theme
from renderer.boards import MARGIN, fit_text, header_height, header_ops
from renderer.cards_squadratik import STOCK, paletted_card
from renderer.display import Display
from renderer.fonts import text_width, word
from renderer.layout import Rect
from renderer.palette import ink, new_board

WIDTH = 720
BOARD_W = WIDTH - 2 * MARGIN
MAX_BOARD_H = 1120  # 10 cells of 112 px: a long straight path keeps its cards large
# A board large both ways may grow to this height rather than draw unreadable cards: the
# image stays under about 2500 px (rare: one position in thousands of random playouts).
TALL_BOARD_H = 2000
# The smallest cell whose card (64 px) draws its numbers 9 px tall at 400 px wide
# (cards_squadratik.digit_font_px): a board that would need smaller cards is cut into bands.
MIN_CELL = 68
BAND_GAP = 28  # between the bands of a cut board, where the arrows that join them go
FILL_ENOUGH = 0.3  # share of the board area its cards and free places fill, drawn in one piece
HEADER_H = 52
# Every text at least this many px: digit ink 0.73 of it, 17.5 px at 720 px wide, 9.7 px at 400.
TEXT_PX = 24
GAP = 4
# Cell sizes (card + GAP) the board may use, largest first: the first step the frame fits in.
# Cards of 82 px or more (8 cells across) keep their numbers 9 px tall at 400 px wide.
CELL_STEPS = (164, 136, 112, 96, 86, 76, 68, 60, 52, 44, 38, 32, 28)
HAND_GAP = 16
HAND_CARD = (BOARD_W - 3 * HAND_GAP) // 4  # 160: four hand cards across, as large as any table card
NUMBER_H = 34  # the hand card's number pill above it
SEAT_ROW = 50
SEAT_HEAD_H = 36  # the column words above the seat rows
STATUS_H = 64  # the band saying how the game ended
EMPTY_HAND_H = 64
# "r1" under each turned copy in the private hand (four rows stay under 1.4 x 720 px)
ROTATION_LABEL_H = 28
# The phone board (``phone_layout``). A card a player plays onto or from is at least
# PHONE_CARD px: 75.5 px once the 720-px image is shown 400 px wide (its paper alone 73-74 px:
# 72 or more measured on the pixels); the picture is at most
# MAX_ASPECT times as tall as it is wide (a chat shows a taller one smaller still).
PHONE_CARD = 136
MAX_ASPECT = 1.4
SLOT_DEPTH = 64  # a free place beside a path's last card: as long as the card's edge
TRAIL_DEPTH = 52  # the strip standing for the rest of a path, on the side it comes from
TRAIL_GAP = 6
PANEL_GAP = 16
CAPTION_H = 34  # the path's letter above its panel
COLUMN_W = (BOARD_W - PANEL_GAP) // 2
COMPACT_ROW = 42  # a seat's row in the two-column standings (more than four seats)
LEGEND_H = 34
NUMBER_COL = 44  # the hand card's number beside it (a hand of five or six)
HAND_ROW_GAP = 10
DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


@dataclass(slots=True)
class SquadratikLayout:
    """Where everything goes. ``cells`` maps board coordinates to card rectangles, ``slots`` maps
    a path-end notation (``"N"``, ``"N>e"``) to the place the next card would take, ``hand`` holds
    the hand card rectangles (slot 1 first; empty on a public Cartas Maestras board),
    ``previews[k]`` the card's three other rotations r1-r3 (private hand)."""

    width: int
    height: int
    cell_size: int
    cells: dict[tuple[int, int], Rect] = field(default_factory=dict)
    slots: dict[str, Rect] = field(default_factory=dict)
    hand: list[Rect] = field(default_factory=list)
    previews: list[list[Rect]] = field(default_factory=list)
    seats: list[Rect] = field(default_factory=list)
    board_area: Rect = Rect(0, 0, 0, 0)
    status: Rect = Rect(0, 0, 0, 0)
    header_h: int = 52
    fold: Fold | None = None
    cuts: list[tuple[Rect, Rect]] = field(default_factory=list)
    seams: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=list)
    # the phone board: whether it is one, the strips standing for the rest of each path
    # (where, how many cards, which way the path comes from) and the path letters over them
    phone: bool = False
    trails: list[tuple[Rect, int, tuple[int, int]]] = field(default_factory=list)
    captions: list[tuple[tuple[int, int], str]] = field(default_factory=list)
    compact_seats: bool = False
    # the private hand: "rows" (a card and its turns a row, numbered above), "compact" (five
    # or six cards: numbered beside, turns named once above) or "grid" (more: four a row)
    hand_style: str = "rows"


def is_table(view: SquadratikView) -> bool:
    """Whether ``view`` is a table's board (its ``seats``: Cartas Maestras) rather than a solo
    game's (El Solitario: the player's hand under the board)."""
    return "seats" in view


def as_maestras_view(view: SquadratikView) -> MaestrasView:
    """The view of a table's board (:func:`is_table`: Cartas Maestras) as its own type."""
    return cast(MaestrasView, view)


def as_el_solitario_view(view: SquadratikView) -> ElSolitarioView:
    """The view of an El Solitario board as its own type."""
    return cast(ElSolitarioView, view)


def path_targets(view: SquadratikView) -> dict[str, tuple[int, int]]:
    """The notation of every place a next card may go (free central sides and path ends) and
    its board coordinates."""
    targets: dict[str, tuple[int, int]] = {}
    for side, path in (view.get("paths") or {}).items():
        if path is None:
            targets[side] = DIRS[side]
            continue
        cells = [tuple(c) for c in path.get("cells") or []]
        if not cells or not path.get("open"):
            continue
        last = cells[-1]
        before = cells[-2] if len(cells) > 1 else (0, 0)
        straight = (last[0] - before[0], last[1] - before[1])
        for end in path.get("ends") or []:
            step = DIRS[end.split(">")[1].upper()] if ">" in end else straight
            targets[end] = (last[0] + step[0], last[1] + step[1])
    return targets


def cell_for(span_x: int, span_y: int) -> int:
    """The cell size for a frame ``span_x`` by ``span_y`` cells drawn in one piece: the largest
    step it fits."""
    return _largest_step(span_x, span_y, MAX_BOARD_H)


def _largest_step(columns: int, rows: int, max_h: int, gaps_x: int = 0, gaps_y: int = 0) -> int:
    """The largest cell step at which ``columns`` by ``rows`` cells (plus gaps in px) fit."""
    for step in CELL_STEPS:
        if columns * step + gaps_x <= BOARD_W and rows * step + gaps_y <= max_h:
            return step
    return CELL_STEPS[-1]


@dataclass(frozen=True, slots=True)
class Fold:
    """How the board is cut into bands so that its cards stay readable. ``axis`` "x" cuts the
    columns into runs of ``chunk`` columns stacked top to bottom (a wide board wraps like a line
    of text), "y" cuts the rows into runs of ``chunk`` rows set side by side, left to right (a
    long narrow board is set in columns); ``None``: one piece. ``bands[k]`` is band k's first
    row and row count ("x"; its first column and column count for "y"): each band is framed
    on its own cards, so a band holding one short path is not a strip of cloth."""

    axis: str | None
    chunk: int
    cell: int
    bands: tuple[tuple[int, int], ...] = ()

    def size(self) -> tuple[int, int]:
        """Width and height in px of the board drawn so, gaps between bands included."""
        across = sum(count for _, count in self.bands) * self.cell
        across += (len(self.bands) - 1) * BAND_GAP
        if self.axis == "y":
            return across, self.chunk * self.cell
        return self.chunk * self.cell, across

    def place(self, x: int, y: int, min_x: int, min_y: int) -> tuple[int, int]:
        """Top-left px (from the board's top-left) of the cell at board ``(x, y)``."""
        col, row = x - min_x, y - min_y
        if self.axis is None:
            return col * self.cell, row * self.cell
        along = col if self.axis == "x" else row
        band, inside = divmod(along, self.chunk)
        first, _ = self.bands[band]
        before = sum(count for _, count in self.bands[:band]) * self.cell + band * BAND_GAP
        if self.axis == "x":
            return inside * self.cell, before + (y - first) * self.cell
        return before + (x - first) * self.cell, inside * self.cell


def fold_for(positions: set[tuple[int, int]], final: bool = False) -> Fold:
    """How to draw a board whose cards and free places are at ``positions``. In one piece while
    its cards are at least ``MIN_CELL`` (and, on the ``final`` board of a game, fill enough of
    it); otherwise cut into the bands (2-4, either way) that fill the board best among those
    whose cards are readable, so a phone shows every number 9 px tall at 400 px wide and the
    last board shows cards rather than cloth.

    >>> fold_for({(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)}).axis is None
    True
    >>> wide = fold_for({(x, 0) for x in range(-8, 9)} | {(0, 1), (0, -1)})
    >>> wide.axis, len(wide.bands) > 1, wide.cell >= MIN_CELL
    ('x', True, True)
    """
    xs, ys = [x for x, _ in positions], [y for _, y in positions]
    min_x, min_y = min(xs), min(ys)
    span_x, span_y = max(xs) - min_x + 1, max(ys) - min_y + 1
    # The choice reads the frame's extent only (never which cells are filled), so the scale
    # holds between moves while the frame does: cells sized as if every band held the whole
    # other span, and as many cards as the smallest cross that spans the frame.
    crossing = span_x + span_y - 1
    if final:  # the last board of a game has no next move to keep steady with: its cards
        crossing = len(positions)

    def crop(axis: str, chunk: int) -> list[tuple[int, int]]:
        """Each band's first row (column) and count, framed on its own cards."""
        bands: list[tuple[int, int]] = []
        start = min_x if axis == "x" else min_y
        for lo in range(start, start + (span_x if axis == "x" else span_y), chunk):
            other = [
                (y if axis == "x" else x)
                for x, y in positions
                if lo <= (x if axis == "x" else y) < lo + chunk
            ]
            bands.append((min(other), max(other) - min(other) + 1))
        return bands

    def plan(axis: str | None, chunk: int, max_h: int) -> tuple[str | None, int, int, int]:
        """(axis, chunk, cell, height in px) of a way to draw the frame."""
        if axis is None:
            cell = _largest_step(span_x, span_y, max_h)
            return None, span_x, cell, span_y * cell
        bands = -(-(span_x if axis == "x" else span_y) // chunk)
        gaps = (bands - 1) * BAND_GAP
        # every band as wide as the whole other span, or (final board) its own cards' extent
        across = (
            sum(n for _, n in crop(axis, chunk))
            if final
            else bands * (span_y if axis == "x" else span_x)
        )
        if axis == "x":
            cell = _largest_step(chunk, across, max_h, gaps_y=gaps)
            return axis, chunk, cell, across * cell + gaps
        cell = _largest_step(across, chunk, max_h, gaps_x=gaps)
        return axis, chunk, cell, chunk * cell

    def plans(max_h: int) -> list[tuple[str | None, int, int, int]]:
        found = [plan(None, 0, max_h)]
        for axis, span in (("x", span_x), ("y", span_y)):
            chunks = {-(-span // bands) for bands in range(2, 5)} - {span}
            found += [plan(axis, chunk, max_h) for chunk in sorted(chunks, reverse=True)]
        return found

    def fill(way: tuple[str | None, int, int, int]) -> float:
        return crossing * way[2] ** 2 / (BOARD_W * max(way[3], way[2]))

    def bands_of(way: tuple[str | None, int, int, int]) -> int:
        return 1 if way[0] is None else -(-(span_x if way[0] == "x" else span_y) // way[1])

    ways = plans(MAX_BOARD_H)
    if all(way[2] < MIN_CELL for way in ways):
        # large both ways: readable numbers come first, the board grows taller (a phone scrolls)
        ways = plans(TALL_BOARD_H)
    whole = ways[0]
    readable = [way for way in ways if way[2] >= MIN_CELL]
    if whole in readable and (fill(whole) >= FILL_ENOUGH or not final):
        # while the game goes on, one piece as long as its cards are readable: a cut would
        # change the scale between moves whenever the frame crossed a threshold
        chosen = whole
    elif not readable:
        chosen = max(ways, key=lambda w: (w[2], -bands_of(w)))
    else:
        # the largest cards among the ways that fill enough (one piece first, then fewer
        # bands); when none does, the way that fills the most
        enough = [way for way in readable if fill(way) >= FILL_ENOUGH]
        if enough:
            chosen = max(enough, key=lambda w: (w[2], w[0] is None, -bands_of(w)))
        else:
            chosen = max(readable, key=fill)
    axis, chunk, cell, _ = chosen
    # a cut never draws cards larger than one piece would (or than the smallest readable
    # size): cards only shrink as the paths grow
    cell = min(cell, max(whole[2], MIN_CELL))
    if axis is None:
        return Fold(None, span_x, cell, ((min_y, span_y),))
    # at that size, as few bands as fit across (bands of columns) or as many side by side as
    # fit (bands of rows): the least cloth
    if axis == "x":
        chunk = max(chunk, min(span_x - 1, BOARD_W // cell))
    else:
        across = max(2, (BOARD_W + BAND_GAP) // (span_x * cell + BAND_GAP))
        chunk = min(chunk, -(-span_y // across))
    # each band framed on its own cards (the cell size above fits every crop)
    bands = crop(axis, chunk)
    return Fold(axis, chunk, cell, tuple(bands))


def squadratik_layout(
    view: SquadratikView,
    hand: bool = False,
    lang: str = "en",
    clock: str | None = None,
    player: str | None = None,
    full: bool = False,
) -> SquadratikLayout:
    """Geometry of the board image (or, with ``hand``, of the private Cartas Maestras hand);
    ``clock`` and ``player`` lengthen the header, which may then take two rows.

    The board is drawn whole while that keeps it fit for a phone (``fits_phone``); past that,
    as the phone board (``phone_layout``): what a move needs at full size, the rest of each
    path as a count. ``full``: the whole board whatever its size (``/board full``, the web)."""
    header_h = header_height(WIDTH, *_header(view, lang, clock, hand, player), TEXT_PX)
    if hand:
        return _hand_layout(view, header_h)
    view = shown_board(view)
    whole = _whole_layout(view, header_h)
    if full or fits_phone(whole):
        return whole
    if view.get("is_over") and whole.height <= MAX_ASPECT * whole.width:
        # no move to make on the last board: the whole of it, cards as small as still read
        # (``fold_for``: numbers 9 px at 400), when it is not too tall
        return whole
    if whole.cell_size > PHONE_CARD and (whole.fold is None or whole.fold.axis is None):
        # too tall at its size: the whole board with the smallest cards a phone still reads
        smaller = _whole_layout(view, header_h, PHONE_CARD + GAP)
        if fits_phone(smaller):
            return smaller
    return phone_layout(view, header_h)


def shown_board(view: SquadratikView) -> SquadratikView:
    """The view whose board the picture shows: once Cartas Maestras is over, the board as its
    main phase left it (the table's last board: how the game ended) rather than the empty
    one the final phase leaves."""
    last = as_maestras_view(view).get("last_board") if view.get("is_over") else None
    if not last:
        return view
    # the path whose winning ended the game ringed as the last move is
    shown = dict(
        view, board=last["board"], paths=last["paths"], last_move_cells=last.get("won_cells", [])
    )
    return cast(SquadratikView, shown)


def fits_phone(layout: SquadratikLayout) -> bool:
    """Whether a whole board reads on a phone: every card at least ``PHONE_CARD`` px, in one
    piece, no taller than ``MAX_ASPECT`` times its width."""
    return (
        layout.cell_size >= PHONE_CARD
        and (layout.fold is None or layout.fold.axis is None)
        and layout.height <= MAX_ASPECT * layout.width
    )


def _whole_layout(
    view: SquadratikView, header_h: int, largest_cell: int | None = None
) -> SquadratikLayout:
    """The whole board in its true shape, cut into bands when it is large both ways; drawn
    in one piece, its cells at most ``largest_cell`` px when given."""
    cells = {(int(c["x"]), int(c["y"])) for c in view.get("board") or []} | {(0, 0)}
    # once the game is over no slot is drawn
    targets = {} if view.get("is_over") else path_targets(view)
    everything = cells | set(targets.values())
    min_x, min_y = min(x for x, _ in everything), min(y for _, y in everything)
    fold = fold_for(everything, final=bool(view.get("is_over")))
    if largest_cell is not None and fold.axis is None and fold.cell > largest_cell:
        fold = replace(fold, cell=largest_cell)
    cell = fold.cell
    card = cell - GAP
    layout = SquadratikLayout(width=WIDTH, height=0, cell_size=card, header_h=header_h, fold=fold)
    board_w, board_h = fold.size()
    layout.board_area = Rect(MARGIN, header_h + MARGIN, BOARD_W, board_h)
    left = MARGIN + (BOARD_W - board_w) // 2 + GAP // 2
    top = header_h + MARGIN + GAP // 2

    def at(x: int, y: int) -> Rect:
        dx, dy = fold.place(x, y, min_x, min_y)
        return Rect(left + dx, top + dy, card, card)

    if fold.axis:
        # a dashed line in the middle of each gap between bands
        edge = -BAND_GAP // 2
        for _, count in fold.bands[:-1]:
            edge += count * cell + BAND_GAP
            if fold.axis == "x":
                y = top - GAP // 2 + edge
                layout.seams.append(((left - GAP // 2, y), (left - GAP // 2 + board_w, y)))
            else:
                x = left - GAP // 2 + edge
                layout.seams.append(((x, top - GAP // 2), (x, top - GAP // 2 + board_h)))
        # neighbours the cut parts: each pair gets arrows at the band edges, so a player
        # follows the path from one band into the next
        step = (1, 0) if fold.axis == "x" else (0, 1)
        origin = min_x if fold.axis == "x" else min_y
        for x, y in sorted(everything):
            after = (x + step[0], y + step[1])
            along = (x if fold.axis == "x" else y) - origin
            if after in everything and along % fold.chunk == fold.chunk - 1:
                layout.cuts.append((at(x, y), at(*after)))

    for x, y in sorted(cells, key=lambda c: (c[1], c[0])):
        layout.cells[(x, y)] = at(x, y)
    for end, (x, y) in targets.items():
        if (x, y) not in cells:
            layout.slots[end] = at(x, y)
    layout.height = _below_board(view, layout, layout.board_area.bottom + MARGIN)
    return layout


def _below_board(view: SquadratikView, layout: SquadratikLayout, y: int) -> int:
    """Lays out what goes under the board from ``y`` down (how the game ended, El Solitario's
    hand, Cartas Maestras' seats: one row each, or two columns of them past four seats);
    returns the image's height."""
    if view.get("outcome"):
        layout.status = Rect(0, y, WIDTH, STATUS_H)
        y += STATUS_H + MARGIN
    if not is_table(view) and view.get("hand"):
        y += TEXT_PX + 12  # the hand title
        cards = view.get("hand") or []
        hx = (WIDTH - (len(cards) * (HAND_CARD + HAND_GAP) - HAND_GAP)) // 2
        for k in range(len(cards)):
            layout.hand.append(
                Rect(hx + k * (HAND_CARD + HAND_GAP), y + NUMBER_H, HAND_CARD, HAND_CARD)
            )
        y += NUMBER_H + HAND_CARD + MARGIN
    elif is_table(view):
        seats = as_maestras_view(view).get("seats") or []
        if len(seats) > 4:  # two columns of short rows, the column words once above them
            layout.compact_seats = True
            y += LEGEND_H
            rows = -(-len(seats) // 2)
            for k in range(len(seats)):
                column, row = divmod(k, rows)
                x = MARGIN + column * (COLUMN_W + PANEL_GAP)
                layout.seats.append(Rect(x, y + row * (COMPACT_ROW + 6), COLUMN_W, COMPACT_ROW))
            y += rows * (COMPACT_ROW + 6)
        else:
            y += SEAT_HEAD_H
            for _ in seats:
                layout.seats.append(Rect(MARGIN, y, BOARD_W, SEAT_ROW))
                y += SEAT_ROW + 6
        y += MARGIN
    return y


def _panel_depths(
    slots: dict[str, tuple[int, int]], back: tuple[int, int] | None
) -> dict[tuple[int, int], int]:
    """How far a panel reaches past its card on each side: a free place, the strip of the
    rest of the path, or nothing."""
    depths = dict.fromkeys(DIRS.values(), 0)
    for step in slots.values():
        depths[step] = SLOT_DEPTH + GAP
    if back is not None:
        depths[back] = TRAIL_DEPTH + TRAIL_GAP
    return depths


def phone_panels(
    view: SquadratikView,
) -> list[
    tuple[str | None, tuple[int, int], dict[str, tuple[int, int]], tuple[int, int] | None, int]
]:
    """What a move needs, one panel each: the central card while a side of it is free (with
    those places), then each path's last card with the places a card may go next beside it,
    as they lie on the table, and which way the rest of the path (how many cards) lies.
    Each as ``(side or None for the centre, board cell, {end: step to its place}, step
    back along the path or None, cards before the last)``."""
    over = bool(view.get("is_over"))
    targets = {} if over else path_targets(view)
    paths = view.get("paths") or {}
    panels: list[
        tuple[str | None, tuple[int, int], dict[str, tuple[int, int]], tuple[int, int] | None, int]
    ] = []
    free = {side: DIRS[side] for side in DIRS if paths.get(side) is None and side in targets}
    if free:
        panels.append((None, (0, 0), free, None, 0))
    for side in DIRS:
        path = paths.get(side)
        if not path or not path.get("cells"):
            continue
        cells = [(int(c[0]), int(c[1])) for c in path["cells"]]
        last = cells[-1]
        before = cells[-2] if len(cells) > 1 else (0, 0)
        back = (before[0] - last[0], before[1] - last[1])
        slots = {
            end: (x - last[0], y - last[1])
            for end, (x, y) in targets.items()
            if end.split(">")[0] == side
        }
        panels.append((side, last, slots, back, len(cells) - 1))
    return panels


def phone_layout(view: SquadratikView, header_h: int = HEADER_H) -> SquadratikLayout:
    """The board drawn for a phone once the whole board would not fit one: each card a move
    needs (``phone_panels``) at ``PHONE_CARD`` px, two panels a row, each with the free
    places beside its card as they lie on the table and a strip saying how many cards the
    rest of its path holds; then the hand or the seats as on the whole board."""
    card = PHONE_CARD
    layout = SquadratikLayout(width=WIDTH, height=0, cell_size=card, header_h=header_h, phone=True)
    panels = phone_panels(view)
    top = header_h + MARGIN
    y = top
    for first in range(0, len(panels), 2):
        # the second row right to left: four paths go round clockwise, N E above, W S below
        row = panels[first : first + 2] if first == 0 else panels[first : first + 2][::-1]
        depths = [_panel_depths(slots, back) for _, _, slots, back, _ in row]
        above = max(d[(0, -1)] for d in depths)
        below = max(d[(0, 1)] for d in depths)
        card_y = y + CAPTION_H + above
        for k, ((side, cell, slots, back, hidden), depth) in enumerate(
            zip(row, depths, strict=True)
        ):
            panel_w = depth[(-1, 0)] + card + depth[(1, 0)]
            if len(row) == 1:  # alone on its row: in the middle
                column_x, column_w = MARGIN, BOARD_W
            else:
                column_x, column_w = MARGIN + k * (COLUMN_W + PANEL_GAP), COLUMN_W
            card_x = column_x + (column_w - panel_w) // 2 + depth[(-1, 0)]
            rect = Rect(card_x, card_y, card, card)
            layout.cells[cell] = rect
            for end, step in slots.items():
                layout.slots[end] = _beside(rect, step, SLOT_DEPTH, GAP)
            if back is not None:
                layout.trails.append((_beside(rect, back, TRAIL_DEPTH, TRAIL_GAP), hidden, back))
            if side is not None and not slots:  # a closed path: its letter says which
                layout.captions.append(((rect.centre[0], y + CAPTION_H // 2), side))
        y = card_y + card + below + PANEL_GAP
    layout.board_area = Rect(MARGIN, top, BOARD_W, max(0, y - PANEL_GAP - top))
    layout.height = _below_board(view, layout, layout.board_area.bottom + MARGIN)
    return layout


def _beside(rect: Rect, step: tuple[int, int], depth: int, gap: int) -> Rect:
    """The strip ``depth`` px deep along the side of ``rect`` that ``step`` points to,
    ``gap`` px away from it."""
    dx, dy = step
    if dx:
        x = rect.right + gap if dx > 0 else rect.x - gap - depth
        return Rect(x, rect.y, depth, rect.h)
    y = rect.bottom + gap if dy > 0 else rect.y - gap - depth
    return Rect(rect.x, y, rect.w, depth)


def _hand_layout(view: SquadratikView, header_h: int = HEADER_H) -> SquadratikLayout:
    """One row per hand card: its number, the card as it is held, then its three other
    rotations r1-r3, each as large as the first (a player picks a turn by reading its numbers).
    A hand of five or six cards (a player who had to pass draws) keeps that under
    ``MAX_ASPECT`` with ``PHONE_CARD`` rows, the numbers beside the cards and r1-r3 named
    once above; a larger one shows its cards four to a row, held as they are."""
    cards = view.get("hand") or []
    size = HAND_CARD
    layout = SquadratikLayout(width=WIDTH, height=0, cell_size=size, header_h=header_h)
    if not cards:  # one line saying so, not a big empty table
        layout.height = header_h + 2 * MARGIN + EMPTY_HAND_H
        return layout
    y = header_h + MARGIN
    turns = [card.get("kind") not in ("empty", "central") for card in cards]
    compact_h = y + ROTATION_LABEL_H + len(cards) * (PHONE_CARD + HAND_ROW_GAP) + MARGIN
    if len(cards) > 4 and compact_h > MAX_ASPECT * WIDTH:
        layout.hand_style = "grid"
        for k in range(len(cards)):
            row, column = divmod(k, 4)
            top = y + row * (NUMBER_H + size + HAND_ROW_GAP) + NUMBER_H
            layout.hand.append(Rect(MARGIN + column * (size + HAND_GAP), top, size, size))
            layout.previews.append([])
        rows = -(-len(cards) // 4)
        layout.height = y + rows * (NUMBER_H + size + HAND_ROW_GAP) + MARGIN
        return layout
    if len(cards) > 4:
        layout.hand_style = "compact"
        size = layout.cell_size = PHONE_CARD
        y += ROTATION_LABEL_H
        left = MARGIN + NUMBER_COL
        for turned in turns:
            layout.hand.append(Rect(left, y, size, size))
            step = size + HAND_ROW_GAP
            layout.previews.append(
                [Rect(left + r * step, y, size, size) for r in (1, 2, 3)] if turned else []
            )
            y += size + HAND_ROW_GAP
        layout.height = y + MARGIN
        return layout
    for turned in turns:
        y += NUMBER_H
        layout.hand.append(Rect(MARGIN, y, size, size))
        if not turned:
            layout.previews.append([])  # looks the same at any rotation
        else:
            layout.previews.append(
                [Rect(MARGIN + r * (size + HAND_GAP), y, size, size) for r in (1, 2, 3)]
            )
        y += size + ROTATION_LABEL_H + 6
    layout.height = y + MARGIN
    return layout


@lru_cache(maxsize=32)
def _slot_base(width: int, height: int) -> tuple[Image.Image, Image.Image]:
    """A free place's darker square and dashed outline, drawn once per size on the palette,
    with the mask of the pixels drawn (the 2-px dashes reach one pixel outside the square):
    pasting them is much cheaper than drawing about 20 short lines each time."""
    base = new_board(width + 3, height + 3, theme.TABLE_DARK)
    mask = Image.new("1", base.size, 0)
    x0, y0, x1, y1 = 1, 1, width + 1, height + 1
    dash = max(6, width // 10)
    for target, fill, line in (
        (base, ink(base, theme.TABLE_DARK), ink(base, theme.SLOT_LINE)),
        (mask, 1, 1),
    ):
        draw = ImageDraw.Draw(target)
        draw.rectangle((x0, y0, x1, y1), fill=fill)
        for start in range(x0, x1, 2 * dash):
            draw.line([(start, y0), (min(start + dash, x1), y0)], fill=line, width=2)
            draw.line([(start, y1), (min(start + dash, x1), y1)], fill=line, width=2)
        for start in range(y0, y1, 2 * dash):
            draw.line([(x0, start), (x0, min(start + dash, y1))], fill=line, width=2)
            draw.line([(x1, start), (x1, min(start + dash, y1))], fill=line, width=2)
    base.load()
    mask.load()
    return base, mask


def _dashed_slot(display: Display, rect: Rect, text: str) -> None:
    """Where a card may go next: a darker square with a dashed outline and the notation of the
    place."""
    base, mask = _slot_base(rect.w, rect.h)
    display.paletted(base, mask, rect.x - 1, rect.y - 1)
    display.text(
        rect.centre,
        text,
        max(TEXT_PX, min(rect.w // 3, rect.h // 2)),
        theme.LABEL_TEXT,
        anchor="mm",
        bold=True,
        under=theme.TABLE_DARK,
    )


def _slot_text(end: str) -> str:
    return end.replace(">", "").upper()[:1] + end.replace(">", "")[1:].lower()


def _header(
    view: SquadratikView, lang: str, clock: str | None, hand: bool, player: str | None = None
) -> tuple[str, str]:
    if is_table(view):
        left = word(f"title_{view.get('game')}", lang)
        if hand:
            left = f"{word('your_hand', lang)} {view.get('viewer') or ''}"
        elif as_maestras_view(view).get("phase") == "final":
            left += f"  ·  {word('final', lang)}"
        right = f"{word('moves', lang)} {view.get('move_number', 0)}   {word('stock', lang)} {view.get('stock', 0)}"
    else:
        left = f"{word('title_squadratik', lang)}  ·  {word('deal', lang)} {view.get('deal', 0)}"
        if player:
            left += f"  ·  {player}"
        right = (
            f"{word('points', lang)} {as_el_solitario_view(view).get('removed_points', view.get('score', 0))}   "
            f"{word('moves', lang)} {view.get('move_number', 0)}   "
            f"{word('stock', lang)} {view.get('stock', 0)}"
        )
    if clock:
        right += f"   {clock}"
    return left, right


def draw_squadratik(
    view: SquadratikView,
    *,
    lang: str = "en",
    clock: str | None = None,
    selected: str | None = None,
    targets: list[str] | tuple[str, ...] = (),
    hand: bool = False,
    player: str | None = None,
    full: bool = False,
) -> Image.Image:
    """The Squadratik image: the board (El Solitario with its hand; Cartas Maestras with seats)
    or, with ``hand=True``, the private hand of ``view["viewer"]``."""
    display, _ = squadratik_display(
        view,
        lang=lang,
        clock=clock,
        selected=selected,
        targets=targets,
        hand=hand,
        player=player,
        full=full,
    )
    return display.image()


def squadratik_display(
    view: SquadratikView,
    *,
    lang: str = "en",
    clock: str | None = None,
    selected: str | None = None,
    targets: list[str] | tuple[str, ...] = (),
    hand: bool = False,
    player: str | None = None,
    full: bool = False,
) -> tuple[Display, None]:
    """``draw_squadratik``'s image as a display list (``renderer.display``): what it pastes,
    in order. Cards, shapes and texts are pictures drawn once and cached, so a board costs
    pastes (no ImageDraw call, no new card converted). No banner: the end is on the board."""
    header = _header(view, lang, clock, hand, player)
    layout = squadratik_layout(view, hand, lang, clock, player, full)
    display = Display(layout.width, layout.height)
    header_ops(display, layout.width, *header, height=layout.header_h, min_size=TEXT_PX)
    if hand:
        _private_hand_ops(display, view, layout, lang, selected)
        return display, None
    view = shown_board(view)
    for entry in view.get("board") or []:
        rect = layout.cells.get((int(entry["x"]), int(entry["y"])))
        if rect is not None:  # the phone board shows only the cards a move needs
            display.paletted(*paletted_card(entry["card"], rect.w), rect.x, rect.y)
    _trail_ops(display, layout)
    if not view.get("is_over"):
        for end, rect in layout.slots.items():
            _dashed_slot(display, rect, _slot_text(end))
    _cut_ops(display, layout)
    for x, y in view.get("last_move_cells") or []:
        if (x, y) in layout.cells:
            display.ring(layout.cells[(x, y)], theme.LAST_MOVE, 4)
    for end in targets or ():
        if end in layout.slots:
            display.ring(layout.slots[end], theme.TARGET, 5)
    if is_table(view):
        _seat_ops(display, as_maestras_view(view), layout, lang)
    else:
        _solo_hand_ops(display, view, layout, lang, selected)
    status = view.get("outcome")
    if status and layout.status.h:
        _status_ops(display, layout.status, word(status, lang))
    return display, None


def _trail_ops(display: Display, layout: SquadratikLayout) -> None:
    """The phone board's strips for the rest of each path: "+5" where five cards lie before
    the last one, the central card's colour where the path starts at it; and each path's
    letter above its panel."""
    for rect, hidden, _ in layout.trails:
        colour = theme.LABEL_BG if hidden else STOCK["central"]
        strip = (
            (
                "rounded_rectangle",
                (0, 0, rect.w - 1, rect.h - 1),
                (("radius", 8), ("fill", colour)),
            ),
        )
        display.shape(rect.x, rect.y, ((rect.w, rect.h), strip))
        if hidden:
            display.text(
                rect.centre,
                f"+{hidden}",
                TEXT_PX,
                theme.WHITE,
                anchor="mm",
                bold=True,
                under=colour,
            )
    for (x, y), side in layout.captions:
        display.text((x, y), side, TEXT_PX + 4, theme.GOLD, anchor="mm", bold=True)


ARROW = 12  # the arrows joining the parts of a path across a cut, px long


def _cut_ops(display: Display, layout: SquadratikLayout) -> None:
    """Where a cut board's bands meet: a dashed line between the bands, and for each path that
    goes on in the next band an arrow out of its card at the end of one band and an arrow into
    its card at the start of the next (right for bands of columns, down for bands of rows).
    Each line and arrow is a small shape drawn once (``display.drawn``) and pasted: every
    seam of a length looks alike, every arrow too."""
    fold = layout.fold
    if fold is None or not fold.axis:
        return
    line_opts: tuple[tuple[str, Any], ...] = (("fill", theme.SLOT_LINE), ("width", 2))
    for (x0, y0), (x1, y1) in layout.seams:
        length = max(x1 - x0, y1 - y0)
        dashes = []
        for start in range(0, length, 24):
            end = min(start + 12, length)
            # from the seam's start, 2 px in: the 2-px lines reach a pixel either side
            if y0 == y1:
                dashes.append(("line", ((2 + start, 2), (2 + end, 2)), line_opts))
            else:
                dashes.append(("line", ((2, 2 + start), (2, 2 + end)), line_opts))
        size = (length + 5, 5) if y0 == y1 else (5, length + 5)
        display.shape(x0 - 2, y0 - 2, (size, tuple(dashes)))
    half = ARROW * 2 // 3
    arrow_opts: tuple[tuple[str, Any], ...] = (("fill", theme.GOLD),)
    right = (("polygon", ((1, 1), (1 + ARROW, 1 + half), (1, 1 + 2 * half)), arrow_opts),)
    down = (("polygon", ((1, 1), (1 + half, 1 + ARROW), (1 + 2 * half, 1)), arrow_opts),)
    for a, b in layout.cuts:
        if fold.axis == "x":  # pointing right, just after a and just before b
            for tip in (a.right + 2 + ARROW, b.x - 2):
                cy = a.centre[1] if tip > a.right else b.centre[1]
                display.shape(tip - ARROW - 1, cy - half - 1, ((ARROW + 3, 2 * half + 3), right))
        else:  # pointing down, just below a and just above b
            for tip in (a.bottom + 2 + ARROW, b.y - 2):
                cx = a.centre[0] if tip > a.bottom else b.centre[0]
                display.shape(cx - half - 1, tip - ARROW - 1, ((2 * half + 3, ARROW + 3), down))


def _status_ops(display: Display, rect: Rect, text: str) -> None:
    display.fill(theme.HEADER, rect.box())
    size = 36
    while size > TEXT_PX and text_width(text, size, True) > rect.w - 2 * MARGIN:
        size -= 2
    text = fit_text(text, size, True, rect.w - 2 * MARGIN)
    display.text(
        rect.centre, text, size, theme.LAST_MOVE, anchor="mm", bold=True, under=theme.HEADER
    )


def _slot_number(display: Display, rect: Rect, number: int) -> None:
    top = rect.y - NUMBER_H + 2
    bottom = rect.y - 4
    pill = (
        ("rounded_rectangle", (0, 0, 40, bottom - top), (("radius", 6), ("fill", theme.LABEL_BG))),
    )
    display.shape(rect.x, top, ((41, bottom - top + 1), pill))
    display.text(
        (rect.x + 20, (top + rect.y - 4) // 2),
        str(number),
        TEXT_PX,
        theme.WHITE,
        anchor="mm",
        bold=True,
        under=theme.LABEL_BG,
    )


def _solo_hand_ops(
    display: Display,
    view: SquadratikView,
    layout: SquadratikLayout,
    lang: str,
    selected: str | None,
) -> None:
    if layout.hand:
        first = layout.hand[0]
        display.text(
            (MARGIN, first.y - NUMBER_H - TEXT_PX // 2 - 8),
            word("hand", lang),
            TEXT_PX,
            theme.MUTED,
            anchor="lm",
        )
    for k, (card, rect) in enumerate(zip(view.get("hand") or [], layout.hand, strict=False), 1):
        _slot_number(display, rect, k)
        display.paletted(*paletted_card(card, rect.w), rect.x, rect.y)
        if selected in (f"h{k}", str(k)):
            display.ring(rect, theme.SELECTED, 5)


def _private_hand_ops(
    display: Display,
    view: SquadratikView,
    layout: SquadratikLayout,
    lang: str,
    selected: str | None,
) -> None:
    if not view.get("hand"):
        display.text(
            (layout.width // 2, layout.header_h + MARGIN + EMPTY_HAND_H // 2),
            word("empty_hand", lang),
            26,
            theme.MUTED,
            anchor="mm",
        )
    compact = layout.hand_style == "compact"
    if compact and layout.hand:  # r1-r3 named once, above their columns
        first = layout.hand[0]
        for r in (1, 2, 3):
            x = first.centre[0] + r * (first.w + HAND_ROW_GAP)
            display.text(
                (x, first.y - ROTATION_LABEL_H // 2),
                f"r{r}",
                TEXT_PX,
                theme.LABEL_TEXT,
                anchor="mm",
                bold=True,
            )
    for k, (card, rect) in enumerate(zip(view.get("hand") or [], layout.hand, strict=False), 1):
        if compact:
            _side_number(display, rect, k)
        else:
            _slot_number(display, rect, k)
        display.paletted(*paletted_card(card, rect.w), rect.x, rect.y)
        if selected in (f"h{k}", str(k)):
            display.ring(rect, theme.SELECTED, 5)
        for r, small in zip((1, 2, 3), layout.previews[k - 1], strict=False):
            turned = dict(card, rotation=(int(card.get("rotation") or 0) + r) % 4)
            display.paletted(*paletted_card(turned, small.w), small.x, small.y)
            if not compact:
                display.text(
                    (small.centre[0], small.bottom + ROTATION_LABEL_H // 2 + 1),
                    f"r{r}",
                    TEXT_PX,
                    theme.LABEL_TEXT,
                    anchor="mm",
                    bold=True,
                )


def _side_number(display: Display, rect: Rect, number: int) -> None:
    """A hand card's number in a pill left of it (a hand of five or six)."""
    width, height = NUMBER_COL - 10, 34
    left, top = rect.x - NUMBER_COL + 2, rect.centre[1] - height // 2
    pill = (
        ("rounded_rectangle", (0, 0, width, height), (("radius", 6), ("fill", theme.LABEL_BG))),
    )
    display.shape(left, top, ((width + 1, height + 1), pill))
    display.text(
        (left + width // 2, top + height // 2),
        str(number),
        TEXT_PX,
        theme.WHITE,
        anchor="mm",
        bold=True,
        under=theme.LABEL_BG,
    )


def seat_order(view: MaestrasView) -> list[SeatView]:
    """The seats as the board lists them: in turn order while the game runs, by place once it
    is over (the winner first; equal places keep turn order)."""
    seats = list(view.get("seats") or [])
    places = {r["player"]: r["place"] for r in view.get("results") or []}
    if not places:
        return seats
    return sorted(seats, key=lambda s: places.get(s["player"], 99))


def _seat_columns(view: MaestrasView, lang: str, right: int) -> list[tuple[str, str, int]]:
    """The numbers' columns of the seat rows, right to left: (key, word, right edge). Won
    cards and masters; the hand count only while the game runs (the hands are gone after)."""
    keys = ["cards", "masters"] + ([] if view.get("results") else ["hand"])
    columns = []
    for key in keys:
        label = word(key, lang)
        columns.append((key, label, right))
        right -= max(text_width(label, TEXT_PX), text_width("88", TEXT_PX, True)) + 22
    return columns


def _seat_ops(
    display: Display,
    view: MaestrasView,
    layout: SquadratikLayout,
    lang: str,
) -> None:
    """One row a seat: place (once over) or the turn's arrow, the name using all the room the
    numbers leave, then hand, masters and cards in columns named once above the rows."""
    results = {r["player"]: r for r in view.get("results") or []}
    current = view.get("current_player")
    if not layout.seats:
        return
    if layout.compact_seats:
        _compact_seat_ops(display, view, layout, lang)
        return
    columns = _seat_columns(view, lang, layout.seats[0].right - 12)
    head_y = layout.seats[0].y - SEAT_HEAD_H // 2 - 2
    for key, label, right in columns:
        colour = theme.GOLD if key == "masters" else theme.MUTED
        display.text((right, head_y), label, TEXT_PX, colour, anchor="rm")
    numbers_left = min(right for _, _, right in columns) - max(
        text_width(label, TEXT_PX) for _, label, _ in columns
    )
    for seat, rect in zip(seat_order(view), layout.seats, strict=False):
        name = str(seat.get("player", ""))
        is_turn = name == current and not view.get("is_over")
        cy, x, background = _seat_row(
            display, rect, results.get(name), is_turn, pad=12, gap=12, arrow=22, advance=28
        )
        source = results.get(name) or seat
        for key, _, right in columns:
            value = str(seat.get("hand", 0) if key == "hand" else source.get(key, 0))
            colour = {"masters": theme.GOLD, "hand": theme.MUTED}.get(key, theme.WHITE)
            display.text(
                (right, cy), value, TEXT_PX, colour, anchor="rm", bold=True, under=background
            )
        shown = fit_text(name, TEXT_PX, True, numbers_left - x - 12)
        display.text((x, cy), shown, TEXT_PX, theme.WHITE, anchor="lm", bold=True, under=background)


NUMBER_W = 44  # a number's column in the two-column standings


def _seat_row(
    display: Display,
    rect: Rect,
    result: Mapping[str, Any] | None,
    is_turn: bool,
    *,
    pad: int,
    gap: int,
    arrow: int,
    advance: int,
) -> tuple[int, int, tuple[int, int, int]]:
    """A standings row's background, then the seat's place (``#1``, once the game is over) or
    the turn's arrow (``arrow`` px tall); the row's middle, where its name may start, and its
    background colour."""
    background = theme.TURN_BG if is_turn else theme.LABEL_BG
    row = (
        ("radius", 8),
        ("fill", background),
        ("outline", theme.LAST_MOVE if is_turn else None),
        ("width", 3),
    )
    display.shape(
        rect.x,
        rect.y,
        ((rect.w + 1, rect.h + 1), (("rounded_rectangle", (0, 0, rect.w, rect.h), row),)),
    )
    cy = rect.y + rect.h // 2
    x = rect.x + pad
    if result is not None:
        place = f"#{result.get('place', '')}"
        display.text(
            (x, cy), place, TEXT_PX, theme.LAST_MOVE, anchor="lm", bold=True, under=background
        )
        x += text_width(place, TEXT_PX, True) + gap
    elif is_turn:
        half = arrow // 2
        turn = (("polygon", ((0, 0), (arrow - 5, half), (0, arrow)), (("fill", theme.LAST_MOVE),)),)
        display.shape(x, cy - half, ((arrow - 4, arrow + 1), turn))
        x += advance
    return cy, x, background


def _compact_seat_ops(
    display: Display, view: MaestrasView, layout: SquadratikLayout, lang: str
) -> None:
    """The standings of more than four seats in two columns: the words once above, each in
    the colour of its numbers (hand, masters, cards), then a short row a seat."""
    results = {r["player"]: r for r in view.get("results") or []}
    current = view.get("current_player")
    keys = ([] if results else ["hand"]) + ["masters", "cards"]
    colours = {"masters": theme.GOLD, "hand": theme.MUTED, "cards": theme.WHITE}
    labels = [(word(key, lang), colours[key]) for key in keys]
    gap = 28
    total = sum(text_width(label, TEXT_PX) for label, _ in labels) + gap * (len(labels) - 1)
    x = (layout.width - total) // 2
    legend_y = layout.seats[0].y - LEGEND_H // 2 - 2
    for label, colour in labels:
        display.text((x, legend_y), label, TEXT_PX, colour, anchor="lm")
        x += text_width(label, TEXT_PX) + gap
    for seat, rect in zip(seat_order(view), layout.seats, strict=False):
        name = str(seat.get("player", ""))
        is_turn = name == current and not view.get("is_over")
        cy, x, background = _seat_row(
            display, rect, results.get(name), is_turn, pad=10, gap=8, arrow=20, advance=22
        )
        source = results.get(name) or seat
        right = rect.right - 10
        for key in reversed(keys):
            value = str(seat.get("hand", 0) if key == "hand" else source.get(key, 0))
            display.text(
                (right, cy), value, TEXT_PX, colours[key], anchor="rm", bold=True, under=background
            )
            right -= NUMBER_W
        shown = fit_text(name, TEXT_PX, True, right + NUMBER_W - 36 - x)
        display.text((x, cy), shown, TEXT_PX, theme.WHITE, anchor="lm", bold=True, under=background)
