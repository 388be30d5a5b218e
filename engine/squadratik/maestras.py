"""Squadratik — Cartas Maestras (games.md §6, seed 002): game id ``"maestras"``, 2-8 players.

Set-up: 3 empty cards leave the game for 2, 3, 6, 7 players, 5 for 4, 5, 8 (43 or 41 cards
in play besides the central card); the rest is shuffled with
``DealRandom.for_deal("maestras", deal)``; four cards each, in ``players`` order (the
table's creator first, then joining order), which is also the turn order.

**Main phase.** A turn is one of: (1) a master on a free side of the central card, opening a
path; (2) a normal or master card at the end of an open path, linking, turned as the player
likes; (3) an empty card at the end of an open path; (4) only when none of 1-3 is possible,
``pass``: draw a card (if any) and pass. After placing, the player draws one card if the stock
has any. Until the first master has been placed the only legal placement is a master on the
central card. The player whose card completes a path (four non-empty cards after its last
empty card) wins every card of it, master included, and the central side is free again.
The main phase ends when all 8 masters have been won, or when the stock is empty and a full
round (one pass per player, the stock already empty) goes by without a placement.

**Final phase** (tie-break only). Every card still on the board leaves play. Then each player,
in turn order starting with the first player, has one turn to build one path from a free side
of the central card (any first card; links, turning and geometry as usual) with hand cards,
one placement per move, ``stop`` to end early. Rulings where the seed is silent: a path is not
removed when it reaches four links here (it just goes on); the turn ends by itself when the
player has no card left or no card that fits their path, and players with an empty hand are
skipped. The cards placed count as won cards (never as masters) and are then cleared.

**Result.** Most masters won; tie: most cards won; still tied: shared place
(:meth:`CartasMaestras.results`). ``returns()`` gives ``masters + cards / 100`` per player, so
sorting by it gives the places. ``score`` is the most masters any player has won.

Notation (``engine.squadratik.notation``): ``2N`` hand card 2 on path N (or opening N with a
master), ``1Se`` turn east after an empty card, ``3Wr1`` one quarter turn clockwise first,
``pass``, ``stop``. ``stop`` outside the final phase is ``bad_notation``.

>>> g = CartasMaestras(deal=1, players=["ana", "bo"])
>>> g.current_player, len(g.view("ana")["hand"]), g.view(None)["hand"], g.view("ana")["stock"]
('ana', 4, [], 35)
>>> g.legal_moves("bo")
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from engine.game import IllegalMove, Outcome
from engine.gameinfo import GameInfo
from engine.rng import DealRandom
from engine.squadratik.board import Board
from engine.squadratik.common import (
    PlacementTable,
    SquadratikGame,
    check_placement,
    placement_table,
)
from engine.squadratik.deck import DECK, DIRECTIONS, MASTER_IDS, Kind, deck_for_players
from engine.squadratik.notation import Move, Pass, Stop
from engine.views import LastBoardView, MaestrasView, PlaceView

HAND_SIZE = 4
ALL_ROTATIONS = (0, 1, 2, 3)
MAIN, FINAL, OVER = "main", "final", "over"


def _is_master(card_id: int) -> bool:
    return DECK[card_id].kind is Kind.MASTER


def _any_card(card_id: int) -> bool:
    return True


class CartasMaestras(SquadratikGame):
    """Cartas Maestras. Per seat (index in ``players``): ``hands``, ``masters_won``,
    ``won`` (ids of the cards won, tie-break cards included); shared: ``board``, ``stock``
    (top last), ``out_of_play`` (cards left on the board when the final phase began)."""

    # Ranked per table (wins, then masters won), so no per-game ranking; no daily.
    info: ClassVar[GameInfo] = GameInfo(
        id="maestras",
        names={"en": "Cartas Maestras", "es": "Cartas Maestras", "it": "Cartas Maestras"},
        table=True,
        faces=("squadratik_cards",),  # Squadratik cards, drawn by their own drawing
        min_players=2,
        max_players=8,
        hint_scorer="cartas_maestras",
        notation_examples=("2N", "1Se", "3Wr1", "pass", "stop"),
    )

    def _setup(self) -> None:
        shuffled = [i for i in deck_for_players(len(self.players)) if i != 0]
        DealRandom.for_deal("maestras", self.deal).shuffle(shuffled)
        self.board = Board()
        self.stock: list[int] = shuffled[::-1]  # top last: drawing is a pop()
        self.hands: list[list[int]] = [[] for _ in self.players]
        for _ in range(HAND_SIZE):
            for hand in self.hands:
                hand.append(self.stock.pop())
        self.masters_won: list[int] = [0] * len(self.players)
        self.won: list[list[int]] = [[] for _ in self.players]
        self.out_of_play: list[int] = []
        # the board as the main phase left it, the path that ended it still on it (shown once
        # the game is over: how it ended), and that path's cells and winner's seat
        self.last_main_board: Board | None = None
        self.last_won: tuple[int, list[tuple[int, int]]] | None = None
        self.turn = 0
        self.phase = MAIN
        self.first_master_placed = False
        self.idle_passes = 0  # passes in a row made with the stock already empty
        self.final_path: str | None = None  # the side the final-phase player is building
        self.last_cells: list[tuple[int, int]] = []
        self._table = None

    @classmethod
    def from_position(
        cls,
        players: Sequence[str],
        board: Board,
        hands: Sequence[Sequence[int]],
        stock: Sequence[int] = (),
        *,
        turn: int = 0,
        first_master_placed: bool | None = None,
        masters_won: Sequence[int] | None = None,
        won: Sequence[Sequence[int]] | None = None,
        final_phase: bool = False,
    ) -> CartasMaestras:
        """A hand-built position for tests (``stock`` listed top first); with
        ``final_phase=True`` the final phase begins at once (the board leaves play).

        >>> g = CartasMaestras.from_position(["a", "b"], Board(), [[20, 7], [21]])
        >>> [str(m) for m in g.legal_moves()][:4]
        ['2N', '2Nr1', '2Nr2', '2Nr3']
        """
        game = cls(deal=0, players=players)
        game.board = board
        game.hands = [list(hand) for hand in hands]
        game.stock = list(stock)[::-1]
        game.turn = turn
        on_board = set(board.card_ids())
        game.first_master_placed = (
            any(_is_master(i) for i in on_board)
            if first_master_placed is None
            else first_master_placed
        )
        game.masters_won = list(masters_won) if masters_won else [0] * len(players)
        game.won = [list(w) for w in won] if won else [[] for _ in players]
        if final_phase:
            game._start_final()
        game._forget_placements()
        return game

    # ----- whose turn -----------------------------------------------------------------------
    @property
    def current_player(self) -> str:
        return self.players[self.turn]

    def _next_seat(self) -> None:
        self.turn = (self.turn + 1) % len(self.players)

    # ----- rules ----------------------------------------------------------------------------
    def _list_table(self) -> PlacementTable:
        """The current player's placements (none once the game is over)."""
        if self.phase == OVER:
            return {}
        hand = self.hands[self.turn]
        if self.phase == MAIN:
            return placement_table(self.board, hand, ALL_ROTATIONS, _is_master)
        sides = DIRECTIONS if self.final_path is None else (self.final_path,)
        return placement_table(self.board, hand, ALL_ROTATIONS, _any_card, sides)

    def _legal(self, player: str) -> list[Move]:
        if player != self.current_player:
            return []
        moves: list[Move] = list(self._placement_table())
        if self.phase == MAIN and not moves:
            moves.append(Pass())
        if self.phase == FINAL:
            moves.append(Stop())
        return moves

    def _apply(self, move: Move, player: str) -> None:
        if player != self.current_player:
            raise IllegalMove("not_your_turn")
        # The placements of the position before the move; a listed one needs no more checks.
        table = self._placement_table()
        self._forget_placements()
        if self.phase == MAIN:
            self._apply_main(move, table)
        else:
            self._apply_final(move, table)
        # a final-phase move may look at the next position's placements and then end the turn
        self._forget_placements()

    def _apply_main(self, move: Move, table: PlacementTable) -> None:
        seat = self.turn
        if isinstance(move, Stop):
            raise IllegalMove("bad_notation")
        if isinstance(move, Pass):
            if table:
                raise IllegalMove("must_place")
            if self.stock:
                self.hands[seat].append(self.stock.pop())
            else:
                self.idle_passes += 1
            self.last_cells = []
            self._next_seat()
            if self.idle_passes >= len(self.players):
                self._start_final()
            return
        hand = self.hands[seat]
        listed = table.get(move)
        if listed is not None:
            card_id, target = listed
        else:
            opening = 1 <= move.slot <= len(hand) and self.board.paths[move.side] is None
            if opening and not _is_master(hand[move.slot - 1]):
                reason = (
                    "only_masters_open_paths" if self.first_master_placed else "master_needed_first"
                )
                raise IllegalMove(reason)
            card_id, target = check_placement(self.board, hand, move)
        del hand[move.slot - 1]
        path = self.board.place(target, card_id, move.rotation)
        self.last_cells = [target.cell]
        self.first_master_placed = self.first_master_placed or _is_master(card_id)
        self.idle_passes = 0
        before_removal: Board | None = None
        if path.complete:
            before_removal = self.board.copy()
            self.last_won = (seat, list(path.cells))
            cards = self.board.remove_path(path.side)
            self.won[seat] += cards
            self.masters_won[seat] += sum(1 for c in cards if _is_master(c))
        if self.stock:
            hand.append(self.stock.pop())
        self._next_seat()
        if sum(self.masters_won) == len(MASTER_IDS):
            self._start_final(before_removal)

    def _start_final(self, shown: Board | None = None) -> None:
        """Clear the board for the final phase; ``shown``: the board to remember as the main
        phase's last (the one before the last path won was taken away)."""
        self.last_main_board = shown if shown is not None else self.board.copy()
        if shown is None:
            self.last_won = None  # ended by passes: no path ended it
        self.out_of_play += self.board.clear()
        self.phase = FINAL
        self.final_path = None
        self.turn = 0
        self._seat_next_builder(first=True)

    def _seat_next_builder(self, first: bool = False) -> None:
        """Move the final phase on to the next player holding cards, or end the game."""
        seats = len(self.players)
        start = self.turn if first else self.turn + 1
        for seat in range(start, seats):
            if self.hands[seat]:
                self.turn = seat
                return
        self.phase = OVER

    def _apply_final(self, move: Move, table: PlacementTable) -> None:
        seat = self.turn
        if isinstance(move, Pass):
            raise IllegalMove("must_place")
        if isinstance(move, Stop):
            self._end_final_turn()
            return
        listed = table.get(move)
        if listed is not None:
            card_id, target = listed
        else:
            if self.final_path is not None and move.side != self.final_path:
                raise IllegalMove("path_not_open")
            card_id, target = check_placement(self.board, self.hands[seat], move)
        del self.hands[seat][move.slot - 1]
        self.board.place(target, card_id, move.rotation)
        self.final_path = move.side
        self.last_cells = [target.cell]
        if not self._placement_table():
            self._end_final_turn()

    def _end_final_turn(self) -> None:
        self.won[self.turn] += self.board.clear()
        self.final_path = None
        self._seat_next_builder()

    def _outcome(self) -> Outcome | None:
        return Outcome.FINISHED if self.phase == OVER else None

    # ----- results --------------------------------------------------------------------------
    @property
    def score(self) -> int:
        """The most masters any player has won so far."""
        return max(self.masters_won)

    def returns(self) -> list[float]:
        """``masters + cards / 100`` per player, in ``players`` order (higher is better)."""
        return [m + len(w) / 100 for m, w in zip(self.masters_won, self.won, strict=True)]

    def results(self) -> list[PlaceView] | None:
        """Places once the game is over (None before): most masters, then most cards; equal
        players share a place. Listed by place, then turn order.

        >>> g = CartasMaestras(deal=0, players=["a", "b"]); g.results() is None
        True
        """
        if self.phase != OVER:
            return None
        keys = [(m, len(w)) for m, w in zip(self.masters_won, self.won, strict=True)]
        rows: list[PlaceView] = [
            {
                "player": player,
                "place": 1 + sum(1 for other in keys if other > keys[seat]),
                "masters": keys[seat][0],
                "cards": keys[seat][1],
            }
            for seat, player in enumerate(self.players)
        ]
        return sorted(rows, key=lambda row: row["place"])

    # ----- undo -----------------------------------------------------------------------------
    def _snapshot(self) -> Any:
        return (
            self.board.copy(),
            [list(hand) for hand in self.hands],
            list(self.stock),
            list(self.masters_won),
            [list(w) for w in self.won],
            list(self.out_of_play),
            None if self.last_main_board is None else self.last_main_board.copy(),
            self.last_won,
            self.turn,
            self.phase,
            self.first_master_placed,
            self.idle_passes,
            self.final_path,
            self.last_cells,
        )

    def _restore(self, snapshot: Any) -> None:
        (board, hands, stock, masters_won, won, out_of_play, last_main, last_won, *scalars) = (
            snapshot
        )
        self.board = board.copy()
        self.hands = [list(hand) for hand in hands]
        self.stock = list(stock)
        self.masters_won = list(masters_won)
        self.won = [list(w) for w in won]
        self.out_of_play = list(out_of_play)
        self.last_main_board = None if last_main is None else last_main.copy()
        self.last_won = last_won
        (
            self.turn,
            self.phase,
            self.first_master_placed,
            self.idle_passes,
            self.final_path,
            self.last_cells,
        ) = scalars
        self._forget_placements()

    # ----- output ---------------------------------------------------------------------------
    def view(self, player: str | None = None) -> MaestrasView:
        """The public table plus ``player``'s own hand; other hands only as counts."""
        board, paths = self.board.to_view()
        own = self.hands[self.players.index(player)] if player in self.players else []
        last_board: LastBoardView | None = None
        if self.phase == OVER and self.last_main_board is not None:
            cells, last_paths = self.last_main_board.to_view()
            won_by, won_cells = self.last_won if self.last_won else (None, [])
            last_board = {
                "board": cells,
                "paths": last_paths,
                "won_cells": [list(cell) for cell in won_cells],
                "won_by": None if won_by is None else self.players[won_by],
            }
        return {
            **self._base_view(player),
            "board": board,
            "paths": paths,
            "hand": self._hand_view(own),
            "stock": len(self.stock),
            "last_move_cells": [list(cell) for cell in self.last_cells],
            "phase": self.phase,
            "seats": [
                {
                    "player": name,
                    "hand": len(self.hands[seat]),
                    "masters": self.masters_won[seat],
                    "cards": len(self.won[seat]),
                    "timeouts": 0,
                }
                for seat, name in enumerate(self.players)
            ],
            "results": self.results(),
            "last_board": last_board,
        }

    def __str__(self) -> str:
        seats = "  ".join(
            f"{name}: hand {len(self.hands[s])} masters {self.masters_won[s]} cards {len(self.won[s])}"
            for s, name in enumerate(self.players)
        )
        return self._text_board(
            [seats, f"stock {len(self.stock)}  phase {self.phase}  to move {self.current_player}"]
        )
