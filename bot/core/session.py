"""One session in memory: a stored game (or table) with its live engine object, and what is
read off it (results, which of a chat's sessions is whose).

A session is id, game id, options, deal, players, move list, chat id, board message id, status
and face style (``SessionRecord``); ``Session`` adds the live ``Game``, rebuilt from the stored
moves, and what a command keeps for its replies. ``bot.core.sessions`` holds them (cache,
locks, storing every change).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.core.names import seat_names
from bot.storage import (
    ACTIVE,
    LOBBY,
    SOLO,
    TABLE,
    ResultRecord,
    SessionRecord,
    TablePlay,
)
from engine import Game

#: the order in which a session id's characters are drawn (lower-case, button-id safe)
_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
_ID_LENGTH = 8


@dataclass(frozen=True, slots=True)
class Played:
    """A move a table's last ``Sessions.play`` stored: who played it, its notation, and that
    seat's view just before it (so the table feature can say which card was played and what
    it won)."""

    player: str
    notation: str
    before: Mapping[str, Any]


@dataclass(slots=True)
class TableMove:
    """What a move at a table stores with it (``Sessions.play``).

    ``state`` is asked with the game once the moves are applied: the table's play state to
    store in their transaction (None: none). ``answer``, when given, is asked with the game
    after each move: the next move of a seat the bot plays, ``(player, notation)``, played and
    stored in the same transaction (None: a person is to move, or nobody). ``departed``: who
    had left as ``answer`` knew it; the play state is stored only if storage still says so
    (``StaleRevision`` otherwise: another process saw someone leave)."""

    state: Callable[[Game], TablePlay | None]
    answer: Callable[[Game], tuple[str, str] | None] | None = None
    departed: list[str] | None = None


@dataclass(slots=True)
class Session:
    """A stored session and, once a game exists (not a lobby), its live engine object."""

    record: SessionRecord
    game: Game | None = None
    #: a table's moves the last ``Sessions.play`` stored (the person's and the answers stored
    #: with it), the revision after them and whether the play state was stored with them: see
    #: ``take_played``
    played: tuple[int, list[Played], bool] | None = field(default=None, compare=False)
    #: the revision storage holds as far as this copy knows: every write of the session is
    #: compare-and-set against it, so a stale copy never overwrites another process's change
    stored_revision: int = -1
    #: a table's play state (turn clock, timeouts, departed and computer seats) as this
    #: process last stored or read it, with the session's revision then (see ``table_state``)
    kept_play: tuple[int, TablePlay] | None = field(default=None, compare=False)
    #: a table's views of its current position, by viewer, and the position they show (the
    #: game object, revision and move count): see ``view``
    _views: dict[str | None, Mapping[str, Any]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _views_of: tuple[Game | None, int, int] = field(
        default=(None, -1, -1), repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if self.stored_revision < 0:
            self.stored_revision = self.record.revision

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def is_table(self) -> bool:
        return self.record.kind == TABLE

    @property
    def is_active(self) -> bool:
        return self.record.status == ACTIVE

    @property
    def is_open(self) -> bool:
        """Lobby or playing: not finished or ended."""
        return self.record.status in (LOBBY, ACTIVE)

    def name_of(self, player: str) -> str:
        """The player's name as the chat reads it: seats that share a name are numbered
        (:func:`~bot.core.names.seat_names`, as boards, replays and web pages number them)."""
        players = self.record.players
        if player in players and len(players) > 1:
            return seat_names([self.stored_name(p) for p in players])[players.index(player)]
        return self.stored_name(player)

    def stored_name(self, player: str) -> str:
        """The name the player plays under here, unnumbered (what results and ratings keep).
        A platform id is never a name: a seat without one (none is expected) is "?"."""
        return self.record.names.get(player) or "?"

    def view(self, viewer: str | None) -> Mapping[str, Any]:
        """The game's view for ``viewer`` (None: the public one), read-only: a table's views
        of its current position are kept and handed to every caller (a table command looks at
        one position from several places: the mover's view before the move, the computer's
        choice, the play's line and the board read the same views). Kept only while the
        position is the same game object at the same revision and move count, and only at
        tables: a solo board is read once (its view is not kept beside the session)."""
        game = self.game
        assert game is not None
        if not self.is_table:
            return game.view(viewer)
        position = (game, self.record.revision, game.move_number)
        if self._views_of[0] is not game or self._views_of[1:] != position[1:]:
            self._views = {}
            self._views_of = position
        view = self._views.get(viewer)
        if view is None:
            view = self._views[viewer] = game.view(viewer)
        return view

    def take_played(self) -> tuple[list[Played], bool]:
        """The moves the last ``Sessions.play`` of this table stored and whether it stored
        the table's play state with them, once (then nothing), when nothing changed the
        session since (nothing otherwise: ``([], False)``)."""
        played, self.played = self.played, None
        if played is None or played[0] != self.record.revision:
            return [], False
        return played[1], played[2]

    def table_state(self) -> TablePlay | None:
        """A table's play state as this process last stored it or read it in a move's
        transaction, when that was at the session's current revision (None: unknown, or older
        than the position). A copy: changing it changes nothing kept."""
        kept = self.kept_play
        if kept is None or kept[0] != self.record.revision:
            return None
        return kept[1].copy()

    def keep_table_state(self, play: TablePlay | None) -> None:
        """Remember ``play`` as the table's play state at the current revision (just stored,
        or read with the move that made this revision)."""
        self.kept_play = None if play is None else (self.record.revision, play.copy())


def new_session_id() -> str:
    """A fresh random session id: 8 characters of ``[0-9a-z]``."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(_ID_LENGTH))


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def results_of(session: Session, moment: datetime) -> list[ResultRecord]:
    """One result per player of a finished game, ready for the leaderboards.

    Solo: the game's score; the tie-break move is the move at which that score was reached
    (the view's ``score_move`` where the game reports it, else the last move). Tables: the
    engine's ``results`` (place, masters, cards); the score is the masters won."""
    game = session.game
    assert game is not None
    rec = session.record
    view: Mapping[str, Any] = game.view(None)
    base: dict[str, Any] = dict(
        session_id=rec.id,
        platform=rec.platform,
        chat_id=rec.chat_id,
        game_id=rec.game_id,
        deal=rec.deal,
        options=dict(rec.options),
        move_count=game.move_number,
        moves=list(game.moves),
        outcome=str(game.outcome),
        ranked=rec.ranked,
        day=moment.date().isoformat(),
        finished_at=iso(moment),
    )
    if not session.is_table:
        player = rec.players[0]
        score_move = view.get("score_move")
        return [
            ResultRecord(
                player_id=player,
                player_name=session.stored_name(player),
                score=int(game.score),
                tiebreak_move=int(score_move if score_move is not None else game.move_number),
                won=str(game.outcome) in game.info.wins,
                **base,
            )
        ]
    results = []
    for row in view.get("results") or []:
        player = str(row["player"])
        results.append(
            ResultRecord(
                player_id=player,
                player_name=session.stored_name(player),
                score=int(row.get("masters", 0)),
                tiebreak_move=game.move_number,
                won=row.get("place") == 1,
                place=row.get("place"),
                masters=row.get("masters"),
                cards=row.get("cards"),
                **base,
            )
        )
    return results


def solos_among(chat: list[Session], player: str) -> list[Session]:
    """The player's solo games among a chat's open sessions (``in_chat``, oldest first), the
    most recently touched first."""
    found = [s for s in chat if s.record.kind == SOLO and player in s.record.players]
    # in_chat lists oldest first: on a tie of times (one second), the later in that order
    order = {s.id: n for n, s in enumerate(found)}
    found.sort(
        key=lambda s: (s.record.last_active_at, s.record.created_at, order[s.id]), reverse=True
    )
    return found


def table_among(chat: list[Session], game_id: str | None = None) -> Session | None:
    """The first multiplayer session among a chat's open sessions (of ``game_id``), if any."""
    return next(iter(tables_among(chat, game_id)), None)


def tables_among(chat: list[Session], game_id: str | None = None) -> list[Session]:
    """The multiplayer sessions among a chat's open sessions (of ``game_id``), oldest first:
    at most one per game (a Cartas Maestras table, a race's lobby)."""
    return [s for s in chat if s.is_table and game_id in (None, s.record.game_id)]
