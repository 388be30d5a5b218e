"""The contract every Tavolo game follows (see the project's architecture notes).

A game is built from ``(deal, players, options)`` and changed only by moves; the deal plus the
move list *is* the game, so ``engine.replay`` rebuilds any position exactly.

Moves are small immutable values whose ``str()`` is their text notation and parses back to
the same move (``game.parse_move(str(move)) == move``). Every move has ``src`` and ``dst``:
the names of the pile (or hand card / board place) it takes from and puts onto, as written in
the notation, or ``None`` where that does not apply (a stock turn has no ``dst``). The bot uses
them to offer select-then-target buttons without knowing the rules.

Errors carry stable reason codes (``IllegalMove("wrong_suit")``) that the bot translates;
the engine writes no prose.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, ClassVar, Protocol

from engine.gameinfo import GameInfo
from engine.views import BaseView


class GameError(ValueError):
    """A request the rules refuse. ``reason`` is a stable code; ``details`` fill its message."""

    def __init__(self, reason: str, **details: Any) -> None:
        super().__init__(reason if not details else f"{reason} {details}")
        self.reason = reason
        self.details = details


class IllegalMove(GameError):
    """A move that cannot be played now (``bad_notation``, ``wrong_suit``, ``game_over``, ...)."""


class BadSetup(GameError):
    """``new_game`` was asked for something that does not exist (``unknown_game``,
    ``bad_players``, ``unknown_option``, ``bad_option_value``, ``bad_deal``)."""


class Outcome(StrEnum):
    """How a game ended. A ``str``, so ``game.outcome == "won"`` reads naturally."""

    WON = "won"  # solitaires: every card home
    LOST = "lost"  # Imaginary Thirteen / El Solitario: no legal move and cards left
    STALLED = "stalled"  # Solitario / Canfield: no progress can ever be made again
    RESIGNED = "resigned"
    COMPLETO = "completo"  # El Solitario: hand, stock and board cleared but the central card
    # El Solitario: hand and stock played out, cards still on the table (the spec's
    # "Solitario"; stored as "solitario" before migration 12, which rewrote it)
    PLAYED_OUT = "played_out"
    FINISHED = "finished"  # multiplayer: the game has a result (see ``results()``)


class Move(Protocol):
    """What every game's moves have: the pile (or hand slot) a move takes from and the one it
    goes to, None where the move has none (turning the stock has no ``dst``, a pass neither),
    and its notation as ``str(move)``. The bot lays out its buttons from ``src``/``dst``."""

    @property
    def src(self) -> str | None: ...

    @property
    def dst(self) -> str | None: ...

    def __str__(self) -> str: ...


class Game(ABC):
    """Base class of the five games. Subclasses implement the underscored hooks.

    >>> import engine
    >>> g = engine.new_game("solitario", deal=1)
    >>> move = g.play(g.legal_moves()[0])
    >>> g.undo() == str(move), g.moves
    (True, [])
    """

    #: every fact other layers need (names, words, ranking, daily, solver, ...): a game class
    #: sets it, and ``game_id``, ``min_players`` and ``max_players`` are read from it
    info: ClassVar[GameInfo]
    game_id: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    #: option name -> allowed values (the first is the default)
    option_choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        info = cls.__dict__.get("info")
        if info is not None:  # a playable game (not a shared base such as PileGame)
            cls.game_id = info.id
            cls.min_players = info.min_players
            cls.max_players = info.max_players

    def __init__(
        self,
        deal: int,
        players: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        if isinstance(deal, bool) or not isinstance(deal, int) or deal < 0:
            raise BadSetup("bad_deal", deal=deal)
        players = list(players) if players else ["you"]
        if not self.min_players <= len(players) <= self.max_players or len(set(players)) != len(
            players
        ):
            raise BadSetup(
                "bad_players", count=len(players), min=self.min_players, max=self.max_players
            )
        self.deal = deal
        self.players: list[str] = [str(p) for p in players]
        self.options: dict[str, Any] = self._check_options(options or {})
        self.moves: list[str] = []
        self._undo_stack: list[Any] = []
        self._resigned: bool = False
        self._setup()

    # ----- hooks for subclasses -------------------------------------------------------------
    @abstractmethod
    def _setup(self) -> None:
        """Deal the cards from ``self.deal`` (use ``engine.rng.DealRandom``)."""

    @abstractmethod
    def _legal(self, player: str) -> list[Any]:
        """Every legal move of ``player`` now (the current player in solo games)."""

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """Parse notation; raise ``IllegalMove("bad_notation")`` when it is not a move."""

    @abstractmethod
    def _apply(self, move: Any, player: str) -> None:
        """Check and apply one move; raise ``IllegalMove`` with a reason code when illegal.

        It may raise after changing state: ``play`` restores the snapshot taken before."""

    @abstractmethod
    def _outcome(self) -> Outcome | None:
        """The outcome decided by the position alone (None while the game goes on)."""

    @abstractmethod
    def view(self, player: str | None = None) -> BaseView:
        """A JSON-serialisable dict of what ``player`` may see; never a hidden card."""

    @property
    @abstractmethod
    def score(self) -> int:
        """The game's score as the rules define it."""

    def _snapshot(self) -> Any:
        """Everything ``_apply`` may change, for undo. Override with something cheaper."""
        return copy.deepcopy(self._state_dict())

    def _restore(self, snapshot: Any) -> None:
        self.__dict__.update(copy.deepcopy(snapshot))

    def _state_dict(self) -> dict[str, Any]:
        skip = {"moves", "_undo_stack", "players", "options", "deal"}
        return {k: v for k, v in self.__dict__.items() if k not in skip}

    # ----- the public API ---------------------------------------------------------------------
    @property
    def current_player(self) -> str:
        return self.players[0]

    def legal_moves(self, player: str | None = None) -> list[Move]:
        """The moves ``player`` (default: whoever is to move) may play now."""
        if self.is_over:
            return []
        return self._legal(self.current_player if player is None else player)

    def play(self, move_or_text: Move | str, player: str | None = None) -> Move:
        """Apply one move given as a move value or as notation; returns the move.

        Raises ``IllegalMove`` (nothing changes) when it is not legal for ``player``.
        """
        if self.is_over:
            raise IllegalMove("game_over")
        player = self.current_player if player is None else player
        if player not in self.players:
            raise IllegalMove("not_a_player")
        move = self.parse_move(move_or_text) if isinstance(move_or_text, str) else move_or_text
        snapshot = self._snapshot()
        try:
            self._apply(move, player)
        except IllegalMove:
            self._restore(snapshot)
            raise
        self._undo_stack.append(snapshot)
        self.moves.append(str(move))
        return move

    def undo(self) -> str:
        """Take the last move back; returns its notation."""
        if not self._undo_stack:
            raise IllegalMove("nothing_to_undo")
        self._restore(self._undo_stack.pop())
        self._resigned = False
        return self.moves.pop()

    def resign(self, player: str | None = None) -> None:
        """Give up. Not a move: the session records it; replay of the moves does not."""
        if self.is_over:
            raise IllegalMove("game_over")
        self._resigned = True

    @property
    def move_number(self) -> int:
        """How many moves have been played (the seed's move counter)."""
        return len(self.moves)

    @property
    def outcome(self) -> Outcome | None:
        decided = self._outcome()
        if decided is not None:
            return decided
        return Outcome.RESIGNED if self._resigned else None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def returns(self) -> list[float]:
        """One number per player: the score for solo games."""
        return [float(self.score)] * len(self.players)

    def _base_view(self, player: str | None) -> BaseView:
        """The fields every view carries; games add their own."""
        return {
            "game": self.game_id,
            "deal": self.deal,
            "options": dict(self.options),
            "players": list(self.players),
            "viewer": player,
            "current_player": None if self.is_over else self.current_player,
            "move_number": self.move_number,
            "score": self.score,
            "is_over": self.is_over,
            "outcome": None if self.outcome is None else str(self.outcome),
            "last_move": self.moves[-1] if self.moves else None,
        }

    def _check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        checked = {name: choices[0] for name, choices in self.option_choices.items()}
        for name, value in options.items():
            if name not in self.option_choices:
                raise BadSetup("unknown_option", option=name)
            choices = self.option_choices[name]
            # Options often arrive as text ("cards=52"): match on the text form too.
            match = [c for c in choices if c == value or str(c).lower() == str(value).lower()]
            if not match:
                raise BadSetup("bad_option_value", option=name, value=value)
            checked[name] = match[0]
        return checked
