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
import weakref
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

import engine
from bot import logs
from bot.core.session import (
    Played,
    Session,
    TableMove,
    iso,
    new_session_id,
    results_of,
    solos_among,
    table_among,
)
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
)
from engine import IllegalMove

#: how long a move that keeps losing the race to other processes' moves on the same game is
#: tried again (each time on the reloaded position) before the player is told "busy, try
#: again": a count of tries alone gave up under load while three processes flooded one game
_MOVE_RETRY_SECONDS = 10.0
#: the longest pause between two tries: a random pause breaks the lockstep of processes that
#: keep colliding on the same revision
_MOVE_RETRY_PAUSE = 0.05


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
        await self._stored(
            session, self.store.sessions.finish(session.record, results, session.stored_revision)
        )
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
