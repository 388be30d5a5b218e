"""Sessions: a stored game (or table) plus its live engine object and its lock.

A session is id, game id, options, deal, players, move list, chat id, board message id, status
and face style (``SessionRecord``). The live ``Game`` is a cache rebuilt with ``engine.replay``
from the stored moves whenever it is not in memory (after a restart): the move list is the
truth. Each session has one ``asyncio.Lock``; every change to a session happens under it, and
is committed to storage before the change is reported to anyone.

>>> import asyncio, engine
>>> from bot.storage import Storage
>>> async def demo():
...     store = await Storage.open("sqlite:///:memory:")
...     sessions = Sessions(store)
...     s = await sessions.new_solo("console", "c", "you", "you", "canfield", {}, 3, "francesi", "2025-01-01T00:00:00")
...     again = await Sessions(store).get(s.id)   # a fresh manager: rebuilt from storage
...     await store.close()
...     return again.game.deal
>>> asyncio.run(demo())
3
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import secrets
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import engine
from bot import logs
from bot.core.names import seat_names
from bot.storage import (
    ACTIVE,
    ENDED,
    LOBBY,
    OVER,
    SOLO,
    TABLE,
    ResultRecord,
    SessionRecord,
    SessionRevision,
    StaleRevision,
    Storage,
    StorageBusy,
    StoredMove,
    TablePlay,
)
from engine import Game, IllegalMove

#: the order in which a session id's characters are drawn (lower-case, button-id safe)
_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
_ID_LENGTH = 8
#: how long a move that keeps losing the race to other processes' moves on the same game is
#: tried again (each time on the reloaded position) before the player is told "busy, try
#: again": a count of tries alone gave up under load while three processes flooded one game
_MOVE_RETRY_SECONDS = 10.0
#: the longest pause between two tries: a random pause breaks the lockstep of processes that
#: keep colliding on the same revision
_MOVE_RETRY_PAUSE = 0.05


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


class Sessions:
    """Loads, caches, locks and changes sessions; every change is stored before it returns."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        #: told the game id of every game that ends with a result (the metrics count them)
        self.on_finished: Callable[[str], None] | None = None
        self._live: dict[str, Session] = {}
        # Weak: a lock lives while a coroutine holds or waits for it (``async with`` keeps it),
        # then goes, so a process that ran for weeks keeps no lock of a game that ended.
        # Everyone using the session at the same moment still gets the same lock object.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def live_count(self) -> int:
        """How many sessions this process holds in memory."""
        return len(self._live)

    def lock(self, session_id: str) -> asyncio.Lock:
        """The one lock of a session (created on first use, gone once nobody holds it)."""
        logs.bind(session_id=session_id)  # every change happens under it: name the game
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        return lock

    async def get(self, session_id: str, read: tuple[int | None] | None = None) -> Session | None:
        """The session, rebuilt from storage if it is not in memory; None if unknown.
        ``read``: ``(stored revision,)`` as this request has just read it (else it is read)."""
        logs.bind(session_id=session_id)  # this request's later log lines name the game
        live = self._live.get(session_id)
        if live is not None:
            # Another process may have moved on: the copy in memory is checked against the
            # stored revision (one indexed read). A copy ahead of storage is a change of this
            # process being stored right now, and is left alone.
            stored = read[0] if read is not None else await self.store.sessions.revision(session_id)
            if stored is None:
                # deleted by another process (``/forgetme``): the copy must not outlive it
                self._live.pop(session_id, None)
                return None
            if stored > live.record.revision:
                await self._reload(live)
            return live
        loaded = await self._load(session_id)
        if loaded is None:
            return None
        # Another coroutine may have loaded it meanwhile: keep one object per session.
        return self._live.setdefault(session_id, loaded)

    async def _load(self, session_id: str) -> Session | None:
        record = await self.store.sessions.get(session_id)
        if record is None:
            return None
        session = Session(record)
        if record.status == ACTIVE:
            moves = await self.store.sessions.moves(session_id)
            session.game = engine.replay(
                record.game_id, record.deal, record.players, record.options, moves
            )
        return session

    async def _reload(self, session: Session) -> None:
        """Bring a copy up to what is stored (in place: callers hold this object)."""
        fresh = await self._load(session.id)
        # what this copy kept of the table's play state may be what another process changed
        # (who left moves no revision): read anew from now on
        session.kept_play = session.played = None
        if fresh is not None:
            session.record, session.game = fresh.record, fresh.game
            session.stored_revision = fresh.record.revision

    async def in_chat(
        self, platform: str, chat_id: str, stored: list[SessionRevision] | None = None
    ) -> list[Session]:
        """Open sessions (lobbies and games) of a chat, oldest first. ``stored``: the chat's
        open sessions as this request has just read them (else they are read here)."""
        found = []
        if stored is None:
            stored = await self.store.sessions.open_revisions(platform, chat_id)
        for row in stored:
            live = self._live.get(row.id)
            if live is not None and row.revision <= live.record.revision:
                session: Session | None = live  # checked against storage by the read above
            else:
                session = await self.get(row.id)
            if session is not None and session.is_open:
                found.append(session)
        return found

    async def solos_of(self, platform: str, chat_id: str, player: str) -> list[Session]:
        """The player's active solo games in this chat (at most one casual and one ranked per
        game), the most recently touched first."""
        return solos_among(await self.in_chat(platform, chat_id), player)

    async def solo_of(self, platform: str, chat_id: str, player: str) -> Session | None:
        """The player's most recently touched active solo game in this chat, if any."""
        found = await self.solos_of(platform, chat_id, player)
        return found[0] if found else None

    async def table_of(
        self, platform: str, chat_id: str, game_id: str | None = None
    ) -> Session | None:
        """The chat's open multiplayer session (of ``game_id``: a chat may hold a table and
        a race's lobby at once), if any."""
        return table_among(await self.in_chat(platform, chat_id), game_id)

    async def _unused_id(self) -> str:
        while True:
            candidate = new_session_id()
            if not await self.store.sessions.exists(candidate):
                return candidate

    async def new_solo(
        self,
        platform: str,
        chat_id: str,
        player: str,
        player_name: str,
        game_id: str,
        options: Mapping[str, Any],
        deal: int,
        faces: str,
        now: str,
        ranked: bool = False,
    ) -> Session:
        """Start and store a solo game (raises ``engine.BadSetup`` for bad options/deal;
        ``AlreadyExists`` when the player has this game open here, casual or ``ranked`` alike)."""
        game = engine.new_game(game_id, deal, [player], dict(options))
        record = SessionRecord(
            id=await self._unused_id(),
            platform=platform,
            chat_id=chat_id,
            kind=SOLO,
            game_id=game_id,
            options=dict(game.options),
            deal=deal,
            players=[player],
            names={player: player_name},
            creator=player,
            status=ACTIVE,
            faces=faces,
            ranked=ranked,
            created_at=now,
            last_active_at=now,
        )
        session = Session(record, game)
        logs.bind(session_id=record.id)
        if game.is_over:
            # Some deals are dead from the start (over at move 0): stored finished at once, or
            # the player could neither play it nor resign it nor start another game here. The
            # row is born finished: a neighbour's command reading the chat between the insert
            # and the results must never load it as an open game.
            record.status, record.outcome = OVER, str(game.outcome)
            await self.store.sessions.insert(record)
            await self.store.sessions.finish(
                record, results_of(session, datetime.fromisoformat(now))
            )
            self._finished(record)
            return session
        await self.store.sessions.insert(record)
        self._live[record.id] = session
        return session

    async def new_table(
        self,
        platform: str,
        chat_id: str,
        creator: str,
        creator_name: str,
        game_id: str,
        invited: list[str],
        now: str,
    ) -> Session:
        """Open and store a lobby: the creator is seated first."""
        record = SessionRecord(
            id=await self._unused_id(),
            platform=platform,
            chat_id=chat_id,
            kind=TABLE,
            game_id=game_id,
            options={},
            deal=0,
            players=[creator],
            names={creator: creator_name},
            invited=invited,
            creator=creator,
            status=LOBBY,
            faces=engine.game_info(game_id).default_faces,
            created_at=now,
            last_active_at=now,
        )
        await self.store.sessions.insert(record)
        session = Session(record)
        self._live[record.id] = session
        return session

    async def start_table(self, session: Session, deal: int, now: str) -> None:
        """Deal the table's game (players in seating order) and store it as active."""
        game = engine.new_game(session.record.game_id, deal, session.record.players, {})
        session.record.deal = deal
        session.record.options = dict(game.options)
        session.record.status = ACTIVE
        session.record.revision += 1
        session.record.last_active_at = now
        await self.save(session)
        session.game = game

    async def save(self, session: Session) -> None:
        """Store the session's fields, compare-and-set against the revision this copy was
        read at. ``StaleRevision`` when another process changed it first: the copy is
        dropped (the next ``get`` rebuilds it from storage) and nothing is written."""
        await self._stored(
            session, self.store.sessions.save(session.record, session.stored_revision)
        )

    async def _stored(self, session: Session, write: Awaitable[None]) -> None:
        try:
            await write
        except BaseException:
            # not stored: the copy in memory is ahead of (or behind) storage; rebuild it
            self.forget(session.id)
            raise
        session.stored_revision = session.record.revision

    async def play(
        self,
        session: Session,
        text: str,
        player: str,
        moment: datetime,
        plan: Callable[[Session], TableMove | None] | None = None,
    ) -> str:
        """Play one move for ``player`` and store it (with the results when it ends the game);
        returns its notation.

        At a table, ``plan`` says what to store with it (a ``TableMove``: the play state, and
        the answers of the seats the bot plays, all in the move's transaction), asked at each
        try (a try again follows a reload, which forgets what the session kept).
        Without a play state to store, the table's play state is read in that transaction
        instead. Either way the session keeps it (``Session.table_state``), and the moves
        stored (``Session.take_played``), for what follows the move.

        Raises ``engine.IllegalMove`` (nothing changes) when the engine refuses it. When
        another process stored a move of this session first, the session is reloaded and the
        move applied again to the new position, if it is still legal there (and the answers
        chosen again)."""
        return await self._retrying(
            session,
            lambda: self._play_once(
                session, text, player, moment, None if plan is None else plan(session)
            ),
        )

    async def _play_once(
        self,
        session: Session,
        text: str,
        player: str,
        moment: datetime,
        with_table: TableMove | None,
    ) -> str:
        game = session.game
        assert game is not None
        table = session.is_table
        before: Mapping[str, Any] = session.view(player) if table else {}
        notation = str(game.play(text, player))
        played = [Played(player, notation, before)]
        now = iso(moment)
        revision = session.record.revision
        try:
            answer = with_table.answer if table and with_table is not None else None
            while answer is not None and not game.is_over:
                following = answer(game)
                if following is None:
                    break
                seat, move = following
                seen = session.view(seat)
                try:
                    played.append(Played(seat, str(game.play(move, seat)), seen))
                except IllegalMove:  # the engine offered it: this would be an engine bug
                    raise RuntimeError(f"the engine refused its own legal move {move}") from None
            session.record.revision += len(played)
            session.record.last_active_at = now
            results: list[ResultRecord] = []
            if game.is_over:
                session.record.status = OVER
                session.record.outcome = str(game.outcome)
                results = results_of(session, moment)
            to_store = with_table.state(game) if table and with_table is not None else None
            # the play state is stored only while who left is still as the answers knew it
            guard = with_table.departed if with_table is not None and to_store else None
            first = game.move_number - len(played) + 1
            read = await self.store.sessions.record_moves(
                session.record,
                [StoredMove(first + i, p.player, p.notation) for i, p in enumerate(played)],
                now,
                results,
                table=to_store,
                read_table=table and to_store is None,
                departed_was=guard,
            )
        except BaseException:
            # Not stored means not played: put the live game back as it was.
            for _ in played:
                game.undo()
            session.record.revision = revision
            session.record.status, session.record.outcome = ACTIVE, None
            raise
        session.stored_revision = session.record.revision
        if table:
            session.keep_table_state(to_store or read)
            session.played = (session.record.revision, played, to_store is not None)
        if results:
            self._finished(session.record)
        return notation

    def _finished(self, record: SessionRecord) -> None:
        if self.on_finished is not None:
            self.on_finished(record.game_id)

    async def undo(self, session: Session, now: str) -> str:
        """Take back the last move (raises ``engine.IllegalMove("nothing_to_undo")``)."""
        return await self._retrying(session, lambda: self._undo_once(session, now))

    async def _retrying(self, session: Session, change: Callable[[], Awaitable[str]]) -> str:
        """Run ``change`` until it is stored: after another process stored a change of this
        session first, reload it and try again (on the new position, so an illegal move is then
        refused as usual) for up to ``_MOVE_RETRY_SECONDS``; ``StorageBusy`` after that."""
        deadline = asyncio.get_running_loop().time() + _MOVE_RETRY_SECONDS
        while True:
            try:
                return await change()
            except StaleRevision:
                if asyncio.get_running_loop().time() >= deadline:
                    raise StorageBusy(
                        f"session {session.id} kept changing under this move"
                    ) from None
                await self._reload(session)
                if session.game is None or not session.is_active:
                    raise engine.IllegalMove("game_over") from None
                await asyncio.sleep(random.uniform(0, _MOVE_RETRY_PAUSE))

    async def _undo_once(self, session: Session, now: str) -> str:
        game = session.game
        assert game is not None
        number = game.move_number
        notation = game.undo()
        session.record.revision += 1
        session.record.last_active_at = now
        try:
            await self.store.sessions.remove_last_move(session.record, number)
        except BaseException:
            game.play(notation)
            session.record.revision -= 1
            raise
        session.stored_revision = session.record.revision
        return notation

    async def resign(
        self, session: Session, moment: datetime, touch: bool = True, outcome: str | None = None
    ) -> None:
        """End a solo game as resigned and store its result (``touch``: count as activity;
        an idle expiry keeps the last activity time; ``outcome``: the stored word when it was
        not the player who gave up, e.g. ``time_up`` for a race board the clock ended)."""
        game = session.game
        assert game is not None
        if not game.is_over:  # a game already over (stored by older versions) just closes
            game.resign()
        session.record.status = OVER
        session.record.outcome = outcome or str(game.outcome)
        session.record.revision += 1
        if touch:
            session.record.last_active_at = iso(moment)
        results = results_of(session, moment)
        if outcome is not None:
            results = [dataclasses.replace(r, outcome=outcome) for r in results]
        await self._stored(session, self.store.sessions.finish(
            session.record, results, session.stored_revision))  # fmt: skip
        self._finished(session.record)
        self._live.pop(session.id, None)

    async def end_without_result(self, session: Session, now: str) -> None:
        """Close a lobby or a table that will not finish (no result is stored)."""
        session.record.status = ENDED
        session.record.revision += 1
        session.record.last_active_at = now
        await self.save(session)
        self._live.pop(session.id, None)

    def forget_finished(self, session: Session) -> None:
        """A finished session leaves memory (it is only read from storage from now on)."""
        if not session.is_open:
            self._live.pop(session.id, None)

    def peek(self, session_id: str) -> Session | None:
        """The copy in memory, if any (no read: it may be behind storage)."""
        return self._live.get(session_id)

    def forget_all(self) -> None:
        """Drop every copy in memory (the database was opened anew: read everything again)."""
        self._live.clear()

    def forget(self, session_id: str) -> None:
        """Drop the in-memory copy (the next ``get`` rebuilds it from storage)."""
        self._live.pop(session_id, None)


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
