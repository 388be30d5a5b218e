"""Hints: a good next move from what the player can see, never from hidden cards.

:func:`hint` reads only ``game.view(player)`` and ``game.legal_moves(player)`` (and each
move's ``src``, ``dst`` and notation), so two games that look the same to the player always
get the same hint, whatever their face-down cards or stock order. It scores every legal move
with a one-move lookahead over the visible cards and returns the best (ties: the first in the
engine's order, so hints are deterministic).

Preferences, by game:

- **Solitario / Canfield**: a card to its foundation; a move that turns up a face-down card
  (Canfield: a card out of the reserve); waste to the tableau; emptying a column only when a
  Re/King is visible that could use the space; drawing when nothing better is visible. Never
  a card back off a foundation or a pile shuffled into a space for nothing.
- **Imaginary Thirteen**: waste tops and the turned card to a foundation, else the turned
  card onto the waste pile whose top is needed later (the card then leaves first).
- **El Solitario**: a card that completes a path, then a non-empty card continuing a path,
  then opening a path, then an empty card.

>>> import engine
>>> game = engine.new_game("imaginary13", 1)
>>> hint(game) in game.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.game import Game
from engine.solvers.imaginary13 import _waste_order
from engine.views import BaseView, Imaginary13View, PileGameView, PileView, SquadratikView

_VALUES = "A23456789TJQK"


def hint(game: Game, player: str | None = None) -> Any | None:
    """The suggested move for ``player`` (default: whoever is to move), or None when there is
    no legal move (the game is over, or it is not their turn)."""
    moves = game.legal_moves(player)
    if not moves:
        return None
    view = game.view(player)
    scorer: Callable[[Any, Any], float] = _SCORERS.get(view["game"], _first)
    scores = [scorer(view, move) for move in moves]
    best = max(range(len(moves)), key=lambda i: (scores[i], -i))
    return moves[best]


def _first(view: BaseView, move: Any) -> float:
    return 0.0


# ----- pile games -----------------------------------------------------------------------------
def _piles(view: PileGameView) -> dict[str, PileView]:
    return {pile["id"]: pile for pile in view["piles"]}


def _rank(code: str, deck: str) -> int:
    symbols = "A234567JQK" if deck == "italian40" else _VALUES
    return symbols.index(code[0]) + 1


def _red(code: str) -> bool:
    return code[1] in "dh"


def _fits_on(card: str, target: str | None, deck: str, top: int, wrap: bool) -> bool:
    """Whether ``card`` may lie on ``target`` in a column (down by one, alternate colours)."""
    if target is None:
        return _rank(card, deck) == top
    below = _rank(target, deck) - 1
    if below == 0:
        if not wrap:
            return False
        below = top
    return _rank(card, deck) == below and _red(card) != _red(target)


def _king_waiting(piles: dict[str, PileView], deck: str, top: int) -> bool:
    """A visible Re/King that an empty column would help: on the waste top, or heading a run
    that lies on face-down cards."""
    waste = piles["w"]["cards"] if "w" in piles else []
    if waste and _rank(waste[-1], deck) == top:
        return True
    return any(
        pile["kind"] == "tableau"
        and pile["down"]
        and pile["cards"]
        and _rank(pile["cards"][0], deck) == top
        for pile in piles.values()
    )


def _pile_score(view: PileGameView, move: Any) -> float:
    piles = _piles(view)
    deck = view["deck"]
    top = 10 if deck == "italian40" else 13
    canfield = view["game"] == "canfield"
    src, dst = move.src, move.dst
    if dst is None:
        return 10.0  # draw when nothing better is visible
    if dst.startswith("f"):
        return 100.0
    if src.startswith("f"):
        return -50.0
    if src == "r":
        return 90.0
    target = piles[dst]["cards"][-1] if piles[dst]["cards"] else None
    if src == "w":
        return 40.0 if target is not None else 35.0
    source = piles[src]
    cards = source["cards"]
    # The cards that move: Canfield moves whole piles; Solitario the run that fits.
    start = 0
    if not canfield and not move.count:
        start = next(
            (i for i, card in enumerate(cards) if _fits_on(card, target, deck, top, wrap=False)), 0
        )
    elif move.count:
        start = len(cards) - move.count
    whole_run = start == 0
    if canfield:
        if target is None:
            return -100.0
        reserve = piles["r"]
        return 70.0 if reserve["cards"] or reserve["down"] else 20.0
    if whole_run and source["down"]:
        return 80.0  # turns up a face-down card
    if whole_run:
        if target is None:
            return -100.0  # a Re heading a bare column moves to another empty column
        return 50.0 if _king_waiting(piles, deck, top) else 0.0
    return 5.0


# ----- Imaginary Thirteen ---------------------------------------------------------------------
def _imaginary13_score(view: Imaginary13View, move: Any) -> float:
    piles = _piles(view)
    if move.dst.isdigit():
        return 100.0 if move.src != "t" else 90.0
    tops = [_VALUES.index(piles[str(k)]["cards"][-1][0]) + 1 for k in range(1, 9)]
    wastes = [[_VALUES.index(code[0]) + 1 for code in piles[w]["cards"]] for w in "abcd"]
    turned = piles["t"]["cards"][0]
    order = _waste_order(_VALUES.index(turned[0]) + 1, tops, wastes)
    pile = "abcd".index(move.dst)
    return 50.0 - order.index(pile) if pile in order else 0.0


# ----- El Solitario ---------------------------------------------------------------------------
def _squadratik_score(view: SquadratikView, move: Any) -> float:
    slot: int | None = getattr(move, "slot", None)
    if slot is None:
        return 0.0
    card = view["hand"][slot - 1]
    path = view["paths"].get(move.side)
    if card["kind"] == "empty":
        return 10.0
    if path is None:
        return 40.0
    if path["after_empty"] == 3:
        return 100.0 + card["points"]
    return 60.0 + path["after_empty"] + card["points"] / 100


# each scorer reads the view of the games it is listed for
_SCORERS: dict[str, Callable[[Any, Any], float]] = {
    "solitario": _pile_score,
    "canfield": _pile_score,
    "imaginary13": _imaginary13_score,
    "squadratik": _squadratik_score,
}
