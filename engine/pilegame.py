"""The base every pile game is built on: :class:`PileGame` (Solitario, Canfield, FreeCell,
Imaginary Thirteen; Golf in ``docs/adding-a-game.md``).

A pile game keeps its position in piles of cards held by attributes of its own (lists of
cards, lists of piles, counts), and writes only its rules:

- ``_setup``: the deal (``Game``'s hook), and ``parse_move``: its notation (read through
  ``engine.piles.compact_notation``: case-insensitive, spaces ignored);
- ``_generate()``: every legal move here, in a fixed order (fast: solvers call it too);
- ``_check(move)``: raise the most specific ``IllegalMove`` when ``move`` may not be played;
- ``_do(move)``: what a legal move does; returns the ids of the piles it changed;
- ``score``, ``_won()`` and ``_pile_views()``, the view's piles;
- ``PILE_ROWS``, ``LISTS``, ``VALUES``: the attributes a move may change, for undo.

The base does the rest the same way for every pile game:

- legal moves listed once per position (``_legal_moves_here``) and cached until the position
  changes; ``play`` applies a listed move without checking it again, any other after ``_check``;
- undo: ``_snapshot``/``_restore`` copy the declared attributes, sharing the (immutable) cards;
- copies that share the card objects (``copy.deepcopy`` of a game: ``Card`` copies are itself);
- the outcome: won when ``_won()``, lost when no legal move is left;
- ``view()``: the fields every view has, ``deck``, the game's ``piles`` and the piles the last
  move changed (``last_move_piles``); a game adds its own fields to ``super().view()``;
- ``str()``: a headline, then one line per pile (a game may write its own lines);
- hand-made layouts: ``_parse_cards`` (card codes as text) and ``_position_changed`` (call it
  after setting piles by hand).

The Klondike family (a stock turned three at a time, a waste, suit foundations, the stall
search) adds its own layer: :class:`engine.stockwaste.StockAndWasteGame`.

>>> import copy
>>> from engine.freecell import FreeCell
>>> from engine.imaginary13 import Imaginary13
>>> from engine.solitario import Solitario
>>> [isinstance(g, PileGame) for g in (Solitario(1), FreeCell(1), Imaginary13(1))]
[True, True, True]
>>> g = FreeCell(1)
>>> twin = copy.deepcopy(g)
>>> _ = twin.play(twin.legal_moves()[0])
>>> twin.move_number, g.move_number, twin.view()["piles"] != g.view()["piles"]
(1, 0, True)
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable
from typing import Any, ClassVar

from engine.cards import FRENCH_52, Card
from engine.game import Game, IllegalMove, Outcome
from engine.piles import parse_card_list
from engine.views import PilesView, PileView


class PileGame(Game):
    """Base class of the pile games; see the module docstring for what a game writes.

    The state a move may change is declared by attribute name, so undo needs no code of the
    game's: ``PILE_ROWS`` each hold a row of piles (a list of lists or tuples of cards: the
    tableau, the foundations), ``LISTS`` one list each (a pile, a row of counts or of cells),
    ``VALUES`` an immutable value each (counts, tuples, None). ``_last_piles`` is the base's.
    """

    PILE_ROWS: ClassVar[tuple[str, ...]] = ()
    LISTS: ClassVar[tuple[str, ...]] = ()
    VALUES: ClassVar[tuple[str, ...]] = ()
    #: the deck the cards are drawn from (a game with a choice sets it in ``_setup``)
    deck: str = FRENCH_52

    #: the ids of the piles the last move changed (the view's ``last_move_piles``)
    _last_piles: tuple[str, ...] = ()
    #: the legal moves of this position (a set to check moves, the list in order), or None
    _legal_cache: tuple[frozenset[Any], list[Any]] | None = None

    # ----- the rules: what a game writes ---------------------------------------------------------
    @abstractmethod
    def _generate(self) -> list[Any]:
        """Every legal move here, in the game's fixed order (also while the game is over: the
        solvers' fast path)."""

    @abstractmethod
    def _check(self, move: Any) -> None:
        """Raise the most specific ``IllegalMove`` when ``move`` may not be played here (a value
        that is not one of the game's moves included)."""

    @abstractmethod
    def _do(self, move: Any) -> tuple[str, ...]:
        """Apply ``move``, legal here; return the ids of the piles it changed."""

    @abstractmethod
    def _won(self) -> bool:
        """Whether the game is won (every card home)."""

    @abstractmethod
    def _pile_views(self) -> list[PileView]:
        """The view's ``piles``, in the order the game lists them (``engine.piles.pile_view``)."""

    # ----- legal moves, listed once per position ------------------------------------------------
    def _legal(self, player: str) -> list[Any]:
        if player not in self.players:
            return []
        return list(self._legal_moves_here()[1])

    def _legal_moves_here(self) -> tuple[frozenset[Any], list[Any]]:
        """The legal moves of this position as a set and in order, listed once per position."""
        if self._legal_cache is None:
            moves = self._generate()
            self._legal_cache = frozenset(moves), moves
        return self._legal_cache

    def _apply(self, move: Any, player: str) -> None:
        cache = self._legal_cache
        if cache is None or not isinstance(move, Hashable) or move not in cache[0]:
            self._check(move)
        # else: listed by legal_moves() for this very position, no need to check it again
        self._apply_unchecked(move)

    def _apply_unchecked(self, move: Any) -> None:
        """Apply a move taken from ``_generate()`` of this position, without any check (the
        fast path of solvers and searches)."""
        self._position_changed()
        self._last_piles = self._do(move)

    def _position_changed(self) -> None:
        """Forget what was worked out for the position (its legal moves): every change of the
        piles goes through here (moves, and hand-made layouts once laid out)."""
        self._legal_cache = None

    def _outcome(self) -> Outcome | None:
        if self._won():
            return Outcome.WON
        return Outcome.LOST if not self._legal_moves_here()[1] else None

    @staticmethod
    def _refuse(reason: str | None, card: Card, onto: Card | None) -> None:
        """Raise ``IllegalMove(reason)`` naming both cards, unless ``reason`` is None."""
        if reason is not None:
            raise IllegalMove(reason, card=card.code, onto=None if onto is None else onto.code)

    # ----- undo -----------------------------------------------------------------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        """The declared state, copied: the piles are new lists of the same cards."""
        # (list comprehensions: the stall search and the solvers take many snapshots)
        return (
            [[pile[:] for pile in getattr(self, name)] for name in self.PILE_ROWS],
            [getattr(self, name)[:] for name in self.LISTS],
            [getattr(self, name) for name in self.VALUES],
            self._last_piles,
        )

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        rows, lists, values, self._last_piles = snapshot
        # Copy again: the same snapshot may be restored many times (searches, solvers).
        for name, row in zip(self.PILE_ROWS, rows, strict=True):
            setattr(self, name, [pile[:] for pile in row])
        for name, items in zip(self.LISTS, lists, strict=True):
            setattr(self, name, items[:])
        for name, value in zip(self.VALUES, values, strict=True):
            setattr(self, name, value)
        self._legal_cache = None

    # ----- hand-made layouts ----------------------------------------------------------------------
    def _parse_cards(self, text: str) -> list[Card]:
        """Card codes separated by spaces or commas (``"Ah 2h Kc"``) as cards of ``deck``."""
        return parse_card_list(text, self.deck)

    # ----- output ---------------------------------------------------------------------------------
    def view(self, player: str | None = None) -> PilesView:
        """The board as ``docs/views.md`` describes it: every card face up is shown, a
        face-down card only as a count."""
        return {
            **self._base_view(player),
            "deck": self.deck,
            "piles": self._pile_views(),
            "last_move_piles": list(self._last_piles),
        }

    def _headline(self) -> str:
        """The first line of ``str(game)``: game, deal, move, score, status."""
        return (
            f"{self.info.names['en']} deal {self.deal}  move {self.move_number}  "
            f"score {self.score}  {self.outcome or 'playing'}"
        )

    def _board_lines(self) -> list[str]:
        """The board under the headline: one line per pile of the view, face-down cards as
        ``##``."""
        lines = []
        for pile in self._pile_views():
            codes = ["##"] * pile["down"] + pile["cards"]
            lines.append(f"{pile['id']}: {' '.join(codes) or '--'}")
        return lines

    def __str__(self) -> str:
        return "\n".join([self._headline(), *self._board_lines()])
