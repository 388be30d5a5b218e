"""The Squadratik table: grid geometry, paths, placement checks, completion and removal.

Coordinates: x grows east, y grows south, the central card lies at (0, 0). Each of its four
sides N, E, S, W starts a path. A path is a row of cards: a new card goes next to the path's
last card in the path's direction; right after an empty card (not the central one) it may go
on any free side of that empty card, turning the path. A new card may touch (orthogonally) no
card but the one it is placed against, and the touching sides must link.

A path is complete when it holds four non-empty cards after its last empty card (the central
card counts as the first empty card); the game then removes the whole path and the central
side is free again. The board checks geometry and linking only; who may open a path (any card
in El Solitario, only masters in Cartas Maestras) is each game's rule.

Test helper: :meth:`Board.from_paths` lays out hand-built positions without link checks.

>>> board = Board()
>>> target = board.target("N", None)
>>> target.cell, target.anchor
((0, -1), (0, 0))
>>> board.place(target, 20, 0).after_empty
1
>>> board.paths["N"].cells
((0, -1),)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.game import IllegalMove
from engine.squadratik.deck import (
    DECK,
    DIRECTIONS,
    OPPOSITE,
    STEP,
    Kind,
    placed_side,
    placed_sides,
    sides_link,
)
from engine.views import CellView, PathView

Cell = tuple[int, int]
CENTRE: Cell = (0, 0)
#: non-empty cards needed after a path's last empty card to complete it
COMPLETE_AFTER_EMPTY = 4


@dataclass(frozen=True, slots=True)
class Placed:
    """A card on the table: its id, quarter turns clockwise, and its path (None: central)."""

    card: int
    rotation: int
    path: str | None


@dataclass(frozen=True, slots=True)
class Path:
    """One path from the central card's ``side``; immutable so a board copy is shallow.

    ``direction`` is the direction of its last step; ``after_empty`` counts the non-empty
    cards after its last empty card (the central card counts as the first empty)."""

    side: str
    cells: tuple[Cell, ...]
    direction: str
    after_empty: int

    @property
    def complete(self) -> bool:
        return self.after_empty >= COMPLETE_AFTER_EMPTY


@dataclass(frozen=True, slots=True)
class Target:
    """Where a card would go: on path ``side`` (turning to ``turn`` after an empty card, or
    None for straight on), into ``cell``, against the card at ``anchor``, stepping ``direction``."""

    side: str
    turn: str | None
    cell: Cell
    anchor: Cell
    direction: str

    @property
    def dst(self) -> str:
        """The notation of the place: ``"N"`` straight on, ``"N>e"`` turning east."""
        return self.side if self.turn is None else f"{self.side}>{self.turn.lower()}"


#: per card id: whether a path may turn right after it (an empty card, not the central one)
_TURNS_AFTER: tuple[bool, ...] = tuple(card.kind is Kind.EMPTY for card in DECK)
#: per direction of a new card: the steps to its neighbours other than the card it goes against
_OTHER_NEIGHBOURS: dict[str, tuple[tuple[int, int], ...]] = {
    direction: tuple(STEP[around] for around in DIRECTIONS if around != OPPOSITE[direction])
    for direction in DIRECTIONS
}
#: per path direction: the turns tried after an empty card, straight on (None) first
_TURN_CHOICES: dict[str, tuple[str | None, ...]] = {
    direction: (None, *(d for d in DIRECTIONS if d not in (direction, OPPOSITE[direction])))
    for direction in DIRECTIONS
}


class Board:
    """Cards on the grid plus the four paths. Mutable; :meth:`copy` is cheap."""

    __slots__ = ("cells", "paths")

    def __init__(self) -> None:
        self.cells: dict[Cell, Placed] = {CENTRE: Placed(0, 0, None)}
        self.paths: dict[str, Path | None] = dict.fromkeys(DIRECTIONS)

    # ----- building -------------------------------------------------------------------------
    @classmethod
    def from_paths(
        cls, layout: dict[str, Sequence[tuple[int, ...] | tuple[int, int, str]]]
    ) -> Board:
        """A hand-built board for tests and puzzles: geometry is checked, linking is not.

        ``layout`` maps a central side to its cards in order, each ``(card_id, rotation)`` or
        ``(card_id, rotation, turn)`` where ``turn`` is the direction taken after an empty card.
        Completed paths are kept (not removed), so positions one card short are easy to build.

        >>> b = Board.from_paths({"E": [(1, 0), (20, 0, "S")]})
        >>> b.paths["E"].cells
        ((1, 0), (1, 1))
        """
        board = cls()
        for side, cards in layout.items():
            for entry in cards:
                card_id, rotation = entry[0], entry[1]
                turn = entry[2] if len(entry) > 2 else None
                board.place(board.target(side, turn), int(card_id), int(rotation))  # type: ignore[arg-type]
        return board

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.cells = dict(self.cells)
        other.paths = dict(self.paths)
        return other

    # ----- geometry -------------------------------------------------------------------------
    def target(self, side: str, turn: str | None) -> Target:
        """The place for the next card of path ``side``; raises ``IllegalMove`` when the
        geometry forbids it (``not_in_line``, ``side_taken``, ``touches_two_cards``)."""
        found = self._locate(side, turn)
        if isinstance(found, str):
            raise IllegalMove(found)
        return found

    def _locate(self, side: str, turn: str | None) -> Target | str:
        """:meth:`target` without the exception: the target or the refusal code. Listing the
        free places of every path tries turns that mostly fail, and raising costs more than
        the geometry itself."""
        path = self.paths[side]
        cells = self.cells
        if path is None:
            if turn is not None and turn.upper() != side:
                return "not_in_line"
            anchor, direction = CENTRE, side
            turn = None
        else:
            anchor = path.cells[-1]
            direction = path.direction
            if turn is not None and turn.upper() != direction:
                turn = turn.upper()
                if not _TURNS_AFTER[cells[anchor].card] or turn == OPPOSITE[direction]:
                    return "not_in_line"
                direction = turn
            else:
                turn = None
        dx, dy = STEP[direction]
        x, y = anchor[0] + dx, anchor[1] + dy
        cell = (x, y)
        if cell in cells:
            return "side_taken"
        # the neighbour back towards the anchor is the anchor itself: only the other three count
        for ox, oy in _OTHER_NEIGHBOURS[direction]:
            if (x + ox, y + oy) in cells:
                return "touches_two_cards"
        return Target(side, turn, cell, anchor, direction)

    def targets(self, side: str) -> list[Target]:
        """Every geometrically free place for the next card of path ``side`` (or for the first
        card of a free side), straight on first, then the turns in N, E, S, W order."""
        path = self.paths[side]
        if path is None or not _TURNS_AFTER[self.cells[path.cells[-1]].card]:
            found = self._locate(side, None)
            return [] if isinstance(found, str) else [found]
        found_all = []
        for turn in _TURN_CHOICES[path.direction]:
            found = self._locate(side, turn)
            if not isinstance(found, str):
                found_all.append(found)
        return found_all

    def links(self, target: Target, card_id: int, rotation: int) -> bool:
        """Whether the card links with the card it would be placed against."""
        anchor = self.cells[target.anchor]
        return sides_link(
            DECK[anchor.card], anchor.rotation, target.direction, DECK[card_id], rotation
        )

    def facing_side(self, target: Target) -> str | None:
        """The side code the new card must match, or None when anything links (empty anchor)."""
        anchor = self.cells[target.anchor]
        if DECK[anchor.card].is_empty:
            return None
        return placed_side(anchor.card, anchor.rotation, target.direction)

    # ----- changes --------------------------------------------------------------------------
    def place(self, target: Target, card_id: int, rotation: int) -> Path:
        """Put a card on ``target`` (no link check: callers check :meth:`links` first)."""
        path = self.paths[target.side]
        empty = DECK[card_id].is_empty
        if path is None:
            path = Path(target.side, (target.cell,), target.direction, 0 if empty else 1)
        else:
            path = replace(
                path,
                cells=path.cells + (target.cell,),
                direction=target.direction,
                after_empty=0 if empty else path.after_empty + 1,
            )
        self.cells[target.cell] = Placed(card_id, rotation, target.side)
        self.paths[target.side] = path
        return path

    def remove_path(self, side: str) -> list[int]:
        """Take a whole path off the table; returns its card ids, central side first."""
        path = self.paths[side]
        if path is None:
            return []
        self.paths[side] = None
        return [self.cells.pop(cell).card for cell in path.cells]

    def clear(self) -> list[int]:
        """Take every path off the table (the central card stays); returns the card ids."""
        gone: list[int] = []
        for side in DIRECTIONS:
            gone += self.remove_path(side)
        return gone

    # ----- reading --------------------------------------------------------------------------
    def card_ids(self) -> list[int]:
        """Ids of the cards on the table, the central card included."""
        return [placed.card for placed in self.cells.values()]

    def path_cards(self, side: str) -> list[int]:
        path = self.paths[side]
        return [] if path is None else [self.cells[cell].card for cell in path.cells]

    def to_view(self) -> tuple[list[CellView], dict[str, PathView | None]]:
        """The ``board`` and ``paths`` entries of a view (``docs/views.md``).

        A path's ``ends`` lists the notation of every place where its next card could go by
        geometry (linking aside); ``open`` is true while it has one."""
        board: list[CellView] = [
            {
                "x": x,
                "y": y,
                "card": DECK[placed.card].to_view(placed.rotation),
                "path": placed.path,
            }
            for (x, y), placed in sorted(
                self.cells.items(), key=lambda item: (item[0][1], item[0][0])
            )
        ]
        paths: dict[str, PathView | None] = {}
        for side in DIRECTIONS:
            path = self.paths[side]
            if path is None:
                paths[side] = None
                continue
            ends = [target.dst for target in self.targets(side)]
            paths[side] = {
                "open": bool(ends),
                "cells": [list(cell) for cell in path.cells],
                "ends": ends,
                "after_empty": path.after_empty,
            }
        return board, paths

    def render(self) -> str:
        """A readable text picture: one 12-character box per cell, sides as placed N E S W
        (a star marks a master).

        >>> print(Board.from_paths({"E": [(20, 0)]}).render())
        [ centre ]   R2 R2 R4 B4
        """
        xs = [x for x, _ in self.cells]
        ys = [y for _, y in self.cells]
        rows = []
        for y in range(min(ys), max(ys) + 1):
            row = []
            for x in range(min(xs), max(xs) + 1):
                placed = self.cells.get((x, y))
                row.append(_cell_label(placed))
            rows.append(" ".join(row).rstrip())
        return "\n".join(rows)


_LABEL_WIDTH = 12


def _cell_label(placed: Placed | None) -> str:
    if placed is None:
        return " " * _LABEL_WIDTH
    card = DECK[placed.card]
    if card.kind is Kind.CENTRAL:
        label = "[ centre ]"
    elif card.kind is Kind.EMPTY:
        label = "[ empty ]"
    else:
        # sides as placed, N E S W; a star marks a master card
        label = ("*" if card.kind is Kind.MASTER else "") + " ".join(
            placed_sides(placed.card, placed.rotation)
        )
    return f"{label:<{_LABEL_WIDTH}}"
