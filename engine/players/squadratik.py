"""Computer players for El Solitario and Cartas Maestras: the greedy player (both games,
below) and the careful player (El Solitario, :class:`CarefulPlayer` at the end).

It reads only ``game.view(player)`` and ``game.legal_moves(player)`` and scores every legal
move one move deep, taking the best (ties: the first listed, so play is deterministic).

Strategy, in order of weight:

1. **Complete a path** whenever possible: El Solitario scores the points removed; Cartas
   Maestras scores the masters won (heavily) and the cards won.
2. **Do not set up the next player** (Cartas Maestras): a path left one card short of
   completion (three non-empty cards after its last empty card) is a gift worth its masters
   times the chance that a random card links to its open side. The player scores the risk over
   all paths after the move, so putting an empty card on such a path (which "resumes" it and
   needs four new links) counts as defence.
3. **Keep future links**: the open side a move leaves behind is worth more when many cards of
   the player's own hand (and of the deck in general) can link to it.
4. **Keep the flexible cards**: an empty card links with anything, so spending one costs a
   little unless it defends; El Solitario also prefers extending paths to opening new ones,
   keeping free central sides as a safety valve (any card may open one there).

Final phase of Cartas Maestras: the placement that leaves the most hand cards able to follow;
``stop`` only when nothing fits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from engine.game import Game
from engine.squadratik.board import Board, Path, Placed
from engine.squadratik.common import placement_table
from engine.squadratik.deck import DECK, OPPOSITE, STEP, Kind
from engine.views import SquadratikCardView, SquadratikView

_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
_EMPTIES = sum(1 for c in DECK if c.kind is Kind.EMPTY)


def _link_chances() -> dict[str, float]:
    """For each side code: the share of the deck's cards that could link to it (any rotation)."""
    having: Counter[str] = Counter()
    for card in DECK:
        if card.kind in (Kind.NORMAL, Kind.MASTER):
            for code in set(card.sides):
                having[code] += 1
    return {code: (n + _EMPTIES) / len(DECK) for code, n in having.items()}


LINK_CHANCE = _link_chances()

# weights (points of "value" a move is worth)
COMPLETE = 1000
PER_MASTER_WON = 400
PER_CARD_WON = 10
GIFT_PER_MASTER = 350
OWN_FOLLOWERS = 8
GENERAL_FOLLOWERS = 30
SPEND_EMPTY = 25
OPEN_NEW_PATH = 15
PROGRESS = 6


def _placed(card: SquadratikCardView, rotation: int) -> list[str]:
    sides = card["sides"]
    return [sides[(k - rotation) % 4] for k in range(4)]


class _Table:
    """What the view says about the board, in a handy form."""

    def __init__(self, view: SquadratikView) -> None:
        self.view = view
        self.cards = {(cell["x"], cell["y"]): cell["card"] for cell in view["board"]}
        self.hand = view["hand"]
        self.paths = view["paths"]
        self.maestras = "seats" in view  # a table's view (Cartas Maestras) has seats
        self.final = view.get("phase") == "final"
        self._directions: dict[str, str] = {}
        # per path: (after_empty, masters in it, open side code or None = anything links)
        self.state = {side: self._path_state(side) for side in "NESW"}
        # what each path offers the next player now, N E S W, and their sum: a move changes
        # one of them (summed in this order, as always, so equal values stay equal)
        self.gifts = [_gift(state) for state in self.state.values()]
        self.gift_before = sum(self.gifts)
        #: (hand slot, open side, facing side) -> followers (many moves share them)
        self.followers: dict[tuple[int, str | None, int], int] = {}

    def direction(self, side: str) -> str:
        """The way the path on ``side`` (one that exists) grows at its end."""
        known = self._directions.get(side)
        if known is None:
            known = self._directions[side] = self._direction(side)
        return known

    def _direction(self, side: str) -> str:
        path = self.paths[side]
        assert path is not None, side
        cells = path["cells"]
        last = cells[-1]
        prev = cells[-2] if len(cells) > 1 else [0, 0]
        step = (last[0] - prev[0], last[1] - prev[1])
        return next(d for d, s in STEP.items() if s == step)

    def _path_state(self, side: str) -> tuple[int, int, str | None] | None:
        path = self.paths[side]
        if path is None:
            return None
        cards = [self.cards[(x, y)] for x, y in path["cells"]]
        masters = sum(1 for c in cards if c["kind"] == "master")
        last = cards[-1]
        if last["kind"] in ("empty", "central") or not path["open"]:
            open_side = None
        else:
            open_side = _placed(last, last["rotation"])[_INDEX[self.direction(side)]]
        return (path["after_empty"], masters, open_side) if path["open"] else (0, masters, None)


def _gift(state: tuple[int, int, str | None] | None) -> float:
    """How much a path offers the next player: masters at stake times the chance to complete."""
    if state is None:
        return 0.0
    after, masters, open_side = state
    if after != 3:
        return 0.0
    chance = 1.0 if open_side is None else LINK_CHANCE.get(open_side, 0.0)
    return GIFT_PER_MASTER * (masters + 0.1) * chance


class GreedyPlayer:
    """Scores each legal move (see the module docstring) and plays the best.

    >>> import engine
    >>> g = engine.new_game("squadratik", deal=4)
    >>> GreedyPlayer().choose(g) in g.legal_moves()
    True
    """

    def choose(
        self, game: Game, player: str | None = None, view: Mapping[str, Any] | None = None
    ) -> Any:
        """The best legal move for ``player`` (default: whoever is to move). ``view``: that
        seat's ``game.view(player)`` of this position, when the caller has it already (it is
        only read)."""
        legal = game.legal_moves(player)
        if not legal:
            raise ValueError("no legal move: the game is over or it is not this player's turn")
        if len(legal) == 1:
            return legal[0]
        if view is None:
            view = game.view(player if player is not None else game.current_player)
        # the greedy player plays only Squadratik games: their views are Squadratik views
        table = _Table(cast(SquadratikView, view))
        best, best_value = legal[0], float("-inf")
        for move in legal:
            value = self._value(table, move)
            if value > best_value:
                best, best_value = move, value
        return best

    def _value(self, table: _Table, move: Any) -> float:
        slot: int | None = getattr(move, "slot", None)
        if slot is None:  # pass, stop
            return -1e6  # only when nothing else is legal
        card = table.hand[slot - 1]
        empty = card["kind"] == "empty"
        state = table.state[move.side]
        if state is None:
            direction, after, masters = move.side, 0, 0
        else:
            direction = move.turn if move.turn else table.direction(move.side)
            after, masters, _ = state
        new_after = 0 if empty else after + 1
        new_masters = masters + (card["kind"] == "master")
        # the side the card shows where the path goes on (``_placed``, one side of it)
        open_side = None if empty else card["sides"][(_INDEX[direction] - move.rotation) % 4]
        value = 0.0

        if table.final:
            # as many cards as possible: keep the path followable by the rest of the hand
            return self._followers(table, move, open_side, direction) * OWN_FOLLOWERS - (
                SPEND_EMPTY if empty else 0
            )

        if new_after >= 4:
            if table.maestras:
                path_cards = self._path_cards(table, move.side) + [card]
                won_masters = sum(1 for c in path_cards if c["kind"] == "master")
                return COMPLETE + PER_MASTER_WON * won_masters + PER_CARD_WON * len(path_cards)
            path_cards = self._path_cards(table, move.side) + [card]
            return COMPLETE + sum(c["points"] for c in path_cards)

        value += PROGRESS * new_after
        value += OWN_FOLLOWERS * self._followers(table, move, open_side, direction)
        chance = 1.0 if open_side is None else LINK_CHANCE.get(open_side, 0.0)
        value += GENERAL_FOLLOWERS * chance
        if empty:
            value -= SPEND_EMPTY
        if state is None and not table.maestras:
            value -= OPEN_NEW_PATH
        if table.maestras:
            gifts = list(table.gifts)
            gifts[_INDEX[move.side]] = _gift((new_after, new_masters, open_side))
            value -= sum(gifts) - table.gift_before
        return value

    @staticmethod
    def _path_cards(table: _Table, side: str) -> list[SquadratikCardView]:
        path = table.paths[side]
        return [] if path is None else [table.cards[(x, y)] for x, y in path["cells"]]

    @staticmethod
    def _followers(table: _Table, move: Any, open_side: str | None, direction: str) -> int:
        """Other hand cards that could be placed next on this path's new open side."""
        back = _INDEX[OPPOSITE[direction]]
        key = (move.slot, open_side, back)
        known = table.followers.get(key)
        if known is None:
            known = table.followers[key] = GreedyPlayer._count_followers(
                table, move.slot, open_side, back
            )
        return known

    @staticmethod
    def _count_followers(table: _Table, slot: int, open_side: str | None, back: int) -> int:
        count = 0
        for index, card in enumerate(table.hand):
            if index == slot - 1:
                continue
            if open_side is None or card["kind"] == "empty":
                count += 1
            elif table.maestras:
                count += open_side in card["sides"]
            else:
                count += card["sides"][back] == open_side
        return count


@dataclass(frozen=True, slots=True)
class Judgement:
    """What a Cartas Maestras placement does, as a hint explains it, read from the player's
    own view only: ``value`` (the greedy player's score), ``completes`` (it completes its path,
    winning ``masters`` and ``cards``), ``blocks`` (an empty card on a path one card short of
    completion: the next player cannot complete it with one card), ``opens`` (a master on a
    free side of the central card), ``gift`` (it leaves its path one card short of completion
    for the next player), ``followers`` (other cards of the hand that could go next on it)."""

    value: float
    completes: bool = False
    masters: int = 0
    cards: int = 0
    blocks: bool = False
    opens: bool = False
    gift: bool = False
    followers: int = 0


def judge(view: SquadratikView, move: Any) -> Judgement:
    """The greedy player's judgement of ``move`` for the viewer of ``view`` (their own view:
    their hand, the public board; never anyone else's cards).

    >>> import engine
    >>> game = engine.new_game("maestras", 3, ["a", "b"])
    >>> view = game.view("a")
    >>> judge(view, game.legal_moves("a")[0]).value != 0
    True
    """
    table = _Table(view)
    value = GreedyPlayer()._value(table, move)
    slot: int | None = getattr(move, "slot", None)
    if slot is None:  # pass, stop
        return Judgement(value)
    card = table.hand[slot - 1]
    empty = card["kind"] == "empty"
    state = table.state[move.side]
    after = 0 if state is None else state[0]
    direction = move.side if state is None else (move.turn or table.direction(move.side))
    open_side = None if empty else _placed(card, move.rotation)[_INDEX[direction]]
    followers = GreedyPlayer._followers(table, move, open_side, direction)
    if not empty and after + 1 >= 4:
        path = GreedyPlayer._path_cards(table, move.side) + [card]
        masters = sum(1 for c in path if c["kind"] == "master")
        return Judgement(value, completes=True, masters=masters, cards=len(path))
    return Judgement(
        value,
        blocks=empty and after == 3,
        opens=state is None,
        gift=not empty and after + 1 == 3,
        followers=followers,
    )


# ----- El Solitario: the careful player ----------------------------------------------------------
# weights of the careful player's position value (tuned on many deals, see docs/squadratik-deck.md)
CAREFUL_PLACEABLE = 10  # per hand card that could be placed somewhere
CAREFUL_UNSEEN = 20  # times the share of unseen cards that could be placed somewhere
CAREFUL_COVERED = 3  # per free place at least one hand card fits
CAREFUL_EMPTY_KEPT = 6  # per empty card kept in hand (it fits anywhere)
CAREFUL_FREE_SIDE = 8  # per free side of the central card (any card opens a path there)
CAREFUL_PROGRESS = 1  # per non-empty card on a path towards its completion
CAREFUL_PLACES = 1  # per free place on the table
CAREFUL_COMPLETE = 50  # completing a path (it clears the table and frees a central side)

_RESULT_RANK = {"completo": 2, "played_out": 1, "lost": 0}


class _Solo:
    """El Solitario as one seat sees it: the table (an engine ``Board`` rebuilt from the
    view), the hand, the stock's size, and the cards not in sight (the stock's contents
    plus the cards already removed: the view does not list those, so the player counts them
    as possible draws, a small error that costs nothing measurable)."""

    __slots__ = ("board", "hand", "stock", "unseen")

    def __init__(self, board: Board, hand: list[int], stock: int, unseen: list[int]) -> None:
        self.board, self.hand, self.stock, self.unseen = board, hand, stock, unseen

    @classmethod
    def from_view(cls, view: SquadratikView) -> _Solo:
        board = Board()
        cells = {(cell["x"], cell["y"]): cell for cell in view["board"]}
        for (x, y), cell in cells.items():
            board.cells[(x, y)] = Placed(cell["card"]["id"], cell["card"]["rotation"], cell["path"])
        for side, path in view["paths"].items():
            if path is None:
                continue
            steps = [(x, y) for x, y in path["cells"]]
            last, prev = steps[-1], steps[-2] if len(steps) > 1 else (0, 0)
            step = (last[0] - prev[0], last[1] - prev[1])
            direction = next(d for d, s in STEP.items() if s == step)
            board.paths[side] = Path(side, tuple(steps), direction, path["after_empty"])
        hand = [card["id"] for card in view["hand"]]
        in_sight = set(board.card_ids()) | set(hand)
        unseen = [i for i in range(1, len(DECK)) if i not in in_sight]
        return cls(board, hand, view["stock"], unseen)

    def copy(self) -> _Solo:
        return _Solo(self.board.copy(), list(self.hand), self.stock, self.unseen)

    def placements(self) -> dict[Any, tuple[int, Any]]:
        return placement_table(self.board, self.hand, (0,), _any)

    def play(self, move: Any, target: Any) -> bool:
        """Place without drawing; True when the move completed a path."""
        card_id = self.hand.pop(move.slot - 1)
        path = self.board.place(target, card_id, 0)
        if path.complete:
            self.board.remove_path(path.side)
            return True
        return False


def _any(card_id: int) -> bool:
    return True


def _fits_anywhere(card_id: int, places: list[tuple[str | None, int]]) -> bool:
    if DECK[card_id].is_empty:
        return bool(places)
    sides = DECK[card_id].sides
    return any(need is None or sides[facing] == need for need, facing in places)


class CarefulPlayer:
    """The strongest El Solitario player that sees only its seat (the table, its hand, the
    stock's size); Cartas Maestras is left to :class:`GreedyPlayer`.

    Each move is valued by the position it leaves before the draw: how many hand cards can
    still be placed, the share of the unseen cards that could be, how many free places the
    hand covers, empty cards kept, free central sides, progress of the paths, plus a bonus
    for completing a path. Once the stock is empty the hand is all there is, and the player
    searches it exactly for the best ending (completo, else played out).

    >>> import engine
    >>> g = engine.new_game("squadratik", deal=4)
    >>> CarefulPlayer().choose(g) in g.legal_moves()
    True
    """

    def __init__(self) -> None:
        self._greedy = GreedyPlayer()

    def choose(self, game: Game, player: str | None = None) -> Any:
        view = game.view(player if player is not None else game.current_player)
        if "seats" in view:  # a table's view: the exact search is for the solo game
            return self._greedy.choose(game, player)
        legal = game.legal_moves(player)
        if not legal:
            raise ValueError("no legal move: the game is over or it is not this player's turn")
        if len(legal) == 1:
            return legal[0]
        solo = _Solo.from_view(cast(SquadratikView, view))
        table = solo.placements()
        if solo.stock == 0:
            return max(legal, key=lambda move: self._ending_after(solo, move, table[move]))
        best, best_value = legal[0], float("-inf")
        for move in legal:
            after = solo.copy()
            value = CAREFUL_COMPLETE if after.play(move, table[move][1]) else 0.0
            value += self._position_value(after)
            if value > best_value:
                best, best_value = move, value
        return best

    @staticmethod
    def _position_value(solo: _Solo) -> float:
        board = solo.board
        places: list[tuple[str | None, int]] = []
        for side in "NESW":
            for target in board.targets(side):
                places.append((board.facing_side(target), _INDEX[OPPOSITE[target.direction]]))
        hand = solo.hand
        placeable = sum(1 for card_id in hand if _fits_anywhere(card_id, places))
        unseen = solo.unseen
        share = sum(1 for c in unseen if _fits_anywhere(c, places)) / len(unseen) if unseen else 1.0
        covered = sum(
            1
            for need, facing in places
            if any(DECK[c].is_empty or need is None or DECK[c].sides[facing] == need for c in hand)
        )
        empties = sum(1 for c in hand if DECK[c].is_empty)
        free_sides = sum(1 for path in board.paths.values() if path is None)
        progress = sum(path.after_empty for path in board.paths.values() if path is not None)
        return (
            CAREFUL_PLACEABLE * placeable
            + CAREFUL_UNSEEN * share
            + CAREFUL_COVERED * covered
            + CAREFUL_EMPTY_KEPT * empties
            + CAREFUL_FREE_SIDE * free_sides
            + CAREFUL_PROGRESS * progress
            + CAREFUL_PLACES * len(places)
        )

    def _ending_after(self, solo: _Solo, move: Any, listed: tuple[int, Any]) -> int:
        after = solo.copy()
        after.play(move, listed[1])
        return self._best_ending(after)

    def _best_ending(self, solo: _Solo) -> int:
        """2 completo, 1 played out, 0 lost: the best the known hand can still reach."""
        if not solo.hand:
            return 2 if len(solo.board.cells) == 1 else 1
        table = solo.placements()
        best = 0
        tried: set[tuple[Any, ...]] = set()
        for move, (card_id, target) in table.items():
            key = (
                DECK[card_id].sides if not DECK[card_id].is_empty else None,
                target.side,
                target.cell,
            )
            if key in tried:
                continue  # the same card face on the same place: the same position
            tried.add(key)
            after = solo.copy()
            after.play(move, target)
            best = max(best, self._best_ending(after))
            if best == 2:
                break
        return best
