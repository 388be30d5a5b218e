"""What El Solitario and Cartas Maestras share: parsing against the position, listing and
checking placements, the text picture."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.game import Game, IllegalMove
from engine.squadratik.board import Board, Target
from engine.squadratik.deck import DECK, DIRECTIONS, OPPOSITE, placed_side
from engine.squadratik.notation import Move, Place, parse_notation


def list_placements(
    board: Board,
    hand: Sequence[int],
    rotations: tuple[int, ...],
    may_open: Callable[[int], bool],
    sides: Iterable[str] = DIRECTIONS,
) -> list[Place]:
    """Every placement of a hand card that geometry and linking allow.

    ``may_open(card_id)`` says whether that card may start a path on a free central side;
    empty cards are only ever offered unrotated (turning them changes nothing)."""
    moves: list[Place] = []
    per_side = [(side, board.paths[side] is None, board.targets(side)) for side in sides]
    for slot, card_id in enumerate(hand, start=1):
        card = DECK[card_id]
        card_rotations = (0,) if card.is_empty else rotations
        for side, free, targets in per_side:
            if free and not may_open(card_id):
                continue
            for target in targets:
                need = board.facing_side(target)
                facing = OPPOSITE[target.direction]
                for rotation in card_rotations:
                    if need is None or card.is_empty or placed_side(card_id, rotation, facing) == need:
                        moves.append(Place(slot, side, target.turn, rotation))
    return moves


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
    def _hand_view(hand: Sequence[int]) -> list[dict[str, Any]]:
        return [DECK[card_id].to_view() for card_id in hand]
