"""What El Solitario and Cartas Maestras share: parsing against the position, listing and
checking placements, the text picture."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Sequence

from engine.game import Game, IllegalMove
from engine.squadratik.board import Board, Target
from engine.squadratik.deck import DECK, DIRECTIONS, OPPOSITE, placed_side, placed_sides
from engine.squadratik.notation import Move, Place, parse_notation
from engine.views import SquadratikCardView

#: per card id: whether it is blank all round (central and empty cards link with anything)
_IS_EMPTY: tuple[bool, ...] = tuple(card.is_empty for card in DECK)
_SIDE_INDEX = {side: index for index, side in enumerate(DIRECTIONS)}
#: per card id and rotation: the placed sides N, E, S, W (a plain table: it is the hot loop)
_SIDES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(placed_sides(card.id, rotation) for rotation in range(4)) for card in DECK
)
#: one shared value per placement: moves are immutable, and building a frozen dataclass is a
#: large part of listing placements
_PLACES: dict[tuple[int, str, str | None, int], Place] = {}

#: a legal placement -> the hand card it places and where it goes
PlacementTable = dict[Place, tuple[int, Target]]


def _place(slot: int, side: str, turn: str | None, rotation: int) -> Place:
    key = (slot, side, turn, rotation)
    place = _PLACES.get(key)
    if place is None:
        place = _PLACES[key] = Place(slot, side, turn, rotation)
    return place


def placement_table(
    board: Board,
    hand: Sequence[int],
    rotations: tuple[int, ...],
    may_open: Callable[[int], bool],
    sides: Iterable[str] = DIRECTIONS,
) -> PlacementTable:
    """Every placement of a hand card that geometry and linking allow, in the order of
    :func:`list_placements`, each with its card id and :class:`Target` (so a game can apply
    a listed move without checking it again).

    >>> table = placement_table(Board(), [20], (0,), lambda card_id: True)
    >>> [str(move) for move in table], table[Place(1, "E")][1].cell
    (['1N', '1E', '1S', '1W'], (1, 0))
    """
    cells = board.cells
    # What each free place needs is worked out once, not once per hand card.
    per_side = []
    for side in sides:
        places = []
        for target in board.targets(side):
            anchor = cells[target.anchor]
            need = (
                None
                if _IS_EMPTY[anchor.card]
                else placed_side(anchor.card, anchor.rotation, target.direction)
            )
            places.append((target, need, _SIDE_INDEX[OPPOSITE[target.direction]]))
        per_side.append((side, board.paths[side] is None, places))
    table: PlacementTable = {}
    for slot, card_id in enumerate(hand, start=1):
        empty = _IS_EMPTY[card_id]
        card_rotations = (0,) if empty else rotations
        sides_by_rotation = _SIDES[card_id]
        for side, free, places in per_side:
            if free and not may_open(card_id):
                continue
            for target, need, facing in places:
                for rotation in card_rotations:
                    if need is None or empty or sides_by_rotation[rotation][facing] == need:
                        table[_place(slot, side, target.turn, rotation)] = (card_id, target)
    return table


def list_placements(
    board: Board,
    hand: Sequence[int],
    rotations: tuple[int, ...],
    may_open: Callable[[int], bool],
    sides: Iterable[str] = DIRECTIONS,
) -> list[Place]:
    """Every placement of a hand card that geometry and linking allow: hand slot by slot,
    then side by side, place by place (straight on first), rotation by rotation.

    ``may_open(card_id)`` says whether that card may start a path on a free central side;
    empty cards are only ever offered unrotated (turning them changes nothing).

    >>> [str(move) for move in list_placements(Board(), [1, 20], (0,), lambda card_id: True)][:5]
    ['1N', '1E', '1S', '1W', '2N']
    """
    return list(placement_table(board, hand, rotations, may_open, sides))


def check_placement(board: Board, hand: Sequence[int], move: Place) -> tuple[int, Target]:
    """The card and target of a placement whose geometry and links hold, else ``IllegalMove``
    (``no_such_card``, ``bad_notation`` for a turned empty card, the board's geometry codes,
    ``sides_do_not_link``)."""
    if not 1 <= move.slot <= len(hand):
        raise IllegalMove("no_such_card", slot=move.slot)
    card_id = hand[move.slot - 1]
    if move.rotation and DECK[card_id].is_empty:
        # a turned empty card looks the same: one notation per placement keeps logs canonical
        raise IllegalMove("bad_notation")
    target = board.target(move.side, move.turn)
    if not board.links(target, card_id, move.rotation):
        raise IllegalMove("sides_do_not_link")
    return card_id, target


class SquadratikGame(Game):
    """Shared parsing: notation is read against the board, so a turn letter that only says
    "straight on" is dropped (``1Ss`` on a southward path is ``1S``)."""

    board: Board
    #: the legal placements of the position, or None until asked for (see ``_placement_table``)
    _table: PlacementTable | None = None

    @abstractmethod
    def _list_table(self) -> PlacementTable:
        """Compute the placements legal now (each game's own rule for who may open a path)."""

    def _placement_table(self) -> PlacementTable:
        """The legal placements of this position, computed once: ``legal_moves``, ``play``
        and the end-of-game checks all ask for them. Every change of the position must call
        :meth:`_forget_placements` (moves, undo and restore, hand-built positions)."""
        table = self._table
        if table is None:
            table = self._table = self._list_table()
        return table

    def _forget_placements(self) -> None:
        self._table = None

    def parse_move(self, text: str) -> Move:
        move = parse_notation(text) if isinstance(text, str) else text
        if isinstance(move, Place) and move.turn is not None:
            path = self.board.paths.get(move.side)
            heading = move.side if path is None else path.direction
            if move.turn == heading:
                move = Place(move.slot, move.side, None, move.rotation)
        return move

    def _text_board(self, lines: Iterable[str]) -> str:
        return "\n".join([self.board.render(), *lines])

    @staticmethod
    def _hand_view(hand: Sequence[int]) -> list[SquadratikCardView]:
        return [DECK[card_id].to_view() for card_id in hand]
