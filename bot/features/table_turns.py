"""A started Cartas Maestras table's turns: how a person's move is stored with what follows
it, the seats nobody answers for, the turn clock and its timeouts, players leaving, and the
ratings when the table ends.

The core calls :meth:`TableTurns.after_change` (under the table's lock) after every move, and
asks :meth:`TableTurns.move_plan` how a person's move is stored: with the answers of the seats
the bot plays and the table's play state, in one transaction. Per-table play state that the
engine does not keep lives in the ``table_play`` row of the table (:class:`TablePlay`): the
turn timer, the running turn's deadline, each player's timeouts in a row, who left, and which
seats the computer plays.

Seats that nobody answers for are played by the core at once, right after the move before:

- computer players (``/addbot``): the engine's greedy strategy;
- players who left a started table (``/leave``, ``/kick``, three timeouts in a row): the engine
  cannot take a seat out of a game, so the seat stays and is *auto-passed*
  (:func:`bot.features.timers.timeout_move`): it passes when the rules allow a pass, ends its final-phase
  turn with ``stop``, and otherwise (a pass is illegal while a card fits) the greedy strategy
  places a card for it, since the engine has no "timeout" move.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import engine
from bot.core.context import system_ctx
from bot.core.session import Session, TableMove, iso
from bot.features import ratings
from bot.features.table_rules import MAX_TIMEOUTS
from bot.features.table_state import load_play
from bot.features.table_text import auto_name, named_view, own_name, play_lines
from bot.features.timers import computer_move, timeout_move
from bot.replies import Reply
from bot.storage import ACTIVE, Storage, TablePlay

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service


class TableTurns:
    """The table side of every move (see module doc); :class:`~bot.features.tables.Tables`
    adds the commands."""

    def __init__(self, core: Service) -> None:
        self.core = core

    @property
    def store(self) -> Storage:
        return self.core.store

    async def game_kind(self, ctx: Ctx, session: Session, player: str) -> str | None:
        """A started table is no longer the game of a player who left it (their seat plays
        by itself): "" then, for ``bot.core.focus``; None (no opinion) otherwise. Who left is
        as the request read it with its chat (``Ctx.departed_read``; ``_depart`` keeps it up
        to date), else read now."""
        if not session.is_table or session.record.status != ACTIVE:
            return None
        departed = None if ctx.departed_read is None else ctx.departed_read.get(session.id)
        if departed is None:
            departed = (await load_play(self.store, session.id)).departed
        return "" if player in departed else None

    async def _depart(self, ctx: Ctx, table: Session, player: str, key: str) -> list[Reply]:
        """Under the lock: ``player`` leaves a started game (auto-passed from now on)."""
        core = self.core
        play = await load_play(self.store, table.id)
        note = core.say(ctx, key, name=table.name_of(player))
        if player not in play.departed:
            play.departed.append(player)
            self._mark_auto(ctx.lang, table, player)
            await core.sessions.save(table)
        await self._save_play(table, play)  # what after_change reads next
        if ctx.departed_read is not None:  # the rest of this request sees them gone
            ctx.departed_read[table.id] = list(play.departed)
        return [note, *await self.after_departure(ctx, table, play)]

    async def after_departure(self, ctx: Ctx, table: Session, play: TablePlay) -> list[Reply]:
        """Under the lock, after a seat became auto-played: end the table when no person is
        left playing, else go on (auto-playing the seat if it is its turn)."""
        core = self.core
        if not play.people_left(table.record.players):
            await core.sessions.end_without_result(table, iso(ctx.now))
            await self._stop_timer(table.id)
            return [core.say(ctx, "tables.abandoned")]
        game = table.game
        assert game is not None
        if play.auto_played(game.current_player):
            return await core.after_change(ctx, table)
        return []

    def move_plan(self, ctx: Ctx, table: Session) -> TableMove | None:
        """How a person's move at this table is stored (``Sessions.play``): when this process
        knows the table's play state at this revision (it stored or read it with the last
        move), the seats the bot plays answer at once and everything goes in the move's own
        transaction: the person's move, the answers, the mover's timeouts reset and the turn
        clock the answers leave (stored only if storage still says the same seats left). Else
        None: the move alone, and ``after_change`` plays the answers as their own moves."""
        play = table.table_state()
        if play is None:
            return None
        if ctx.user in play.timeouts:
            play.timeouts[ctx.user] = 0  # a move of their own ends a run of timeouts

        def answer(game: engine.Game) -> tuple[str, str] | None:
            if game.is_over or not play.auto_played(game.current_player):
                return None
            return game.current_player, str(self._auto_move(table, game, play))

        def state(game: engine.Game) -> TablePlay:
            self._settle_clock(play, game, ctx.now)
            return play

        return TableMove(state, answer, list(play.departed))

    def _auto_move(self, table: Session, game: engine.Game, play: TablePlay) -> Any:
        """The move of the seat to play, which the bot plays (a computer, or who left)."""
        player = game.current_player
        seen = table.view(player)  # the seat's view: the choice reads it, and the play's line
        if player in play.computers:
            return computer_move(game, player, seed=len(game.moves), view=seen)
        return timeout_move(game, player, seen)

    async def after_change(self, ctx: Ctx, table: Session) -> list[Reply]:
        """Under the table's lock, after a move was stored: reset the mover's timeouts, play
        the turns of computer and departed seats, restart the turn clock, and rate the table
        when it is over. Returns what the channel should read before the new board.

        A person's move usually came with the answers and the play state already stored
        (``move_plan``): what is left is to say them. Otherwise the play state comes from the
        move's own transaction (or what ``_depart`` and ``_time_out`` just stored), and the
        last auto-played move stores it with the turn clock it starts."""
        game = table.game
        assert game is not None
        play = await self._play_of(table)
        if ctx.user in play.timeouts:
            play.timeouts[ctx.user] = 0  # a move of their own ends a run of timeouts
        lines: list[str] = []
        played: list[tuple[str, str]] = []  # the seats the bot played, and their moves
        stored, state_stored = table.take_played()
        for index, move in enumerate(stored):
            # the position after it, as the next seat saw it before its own move (the
            # public seats and phase: all a play's line reads), or the table as it is now
            after = stored[index + 1].before if index + 1 < len(stored) else table.view(None)
            if index > 0:
                played.append((move.player, move.notation))
            elif move.before.get("viewer") != ctx.user:
                continue  # not a person's own move (a timeout's: its own line says it)
            lines += play_lines(
                ctx.lang,
                game,
                table.name_of(move.player),
                move.player,
                move.notation,
                move.before,
                after,
            )

        def last_state(after: engine.Game) -> TablePlay | None:
            # stored with an auto-played move after which a person is to move (or nobody)
            if not after.is_over and play.auto_played(after.current_player):
                return None
            self._settle_clock(play, after, ctx.now)
            return play

        def plan(_: Session) -> TableMove:
            return TableMove(last_state)

        while not game.is_over and play.auto_played(game.current_player):
            player = game.current_player
            move = self._auto_move(table, game, play)
            notation = await self.core.sessions.play(table, str(move), player, ctx.now, plan)
            played.append((player, notation))
            state_stored = True  # the last of them stores it
            just_played, _ = table.take_played()
            before = just_played[0].before if just_played else None
            lines += play_lines(
                ctx.lang, game, table.name_of(player), player, notation, before, table.view(None)
            )
        if not state_stored:  # no move of this command stored the play state: on its own
            self._settle_clock(play, game, ctx.now)
            await self._save_play(table, play)
        if game.is_over:
            await self._rate(table, play)
        if not lines:
            return []
        return [Reply(key="tables.plays", text="\n".join(lines), params={"moves": played})]

    async def time_out(self, session_id: str, now: datetime) -> bool:
        """The turn timer of a table ran out: pass the player to move (a timeout), remove
        them after three in a row, and push what happened to the chat. False when there was
        nothing to do (the table moved on or ended meanwhile)."""
        # Every process sees the same passed deadline: the claim lets one of them act, and
        # the deadline is read again under it (the holder before us may have handled it).
        async with self.store.claims.hold(f"timeout:{session_id}") as mine:
            return mine and await self._time_out(session_id, now)

    async def _time_out(self, session_id: str, now: datetime) -> bool:
        core = self.core
        table = await core.sessions.get(session_id)
        if table is None:
            return False
        async with core.sessions.lock(session_id):
            play = await load_play(self.store, session_id)
            if play.deadline is None or play.deadline > iso(now):
                return False  # someone moved meanwhile
            game = table.game
            if not table.is_active or game is None or game.is_over:
                play.deadline = None
                await self._save_play(table, play)
                return False
            rec = table.record
            lang = await core.chat_language(rec.platform, rec.chat_id)
            ctx = system_ctx(rec.platform, rec.chat_id, lang, now)
            player = game.current_player
            count = play.timeouts.get(player, 0) + 1
            play.timeouts[player] = count
            move = await core.sessions.play(table, str(timeout_move(game, player)), player, now)
            table.take_played()  # the timeout line below says what was played
            replies = [
                core.say(
                    ctx,
                    "tables.timed_out",
                    player=table.name_of(player),
                    move=move,
                    count=count,
                    max=MAX_TIMEOUTS,
                )
            ]
            if count >= MAX_TIMEOUTS:
                play.departed.append(player)
                replies.append(
                    core.say(ctx, "tables.removed", player=table.name_of(player), max=MAX_TIMEOUTS)
                )
                self._mark_auto(lang, table, player)
                await core.sessions.save(table)
            # kept: after_change goes on from it (the move's own read came before the count)
            await self._save_play(table, play)
            if not play.people_left(rec.players) and not game.is_over:
                await core.sessions.end_without_result(table, iso(now))
                await self._stop_timer(table.id)
                replies.append(core.say(ctx, "tables.abandoned"))
            else:
                replies += await core.after_change(ctx, table)
        for reply in replies:
            await core.push(rec.platform, rec.chat_id, reply)
        return True

    @staticmethod
    def _mark_auto(lang: str, table: Session, player: str) -> None:
        """A seat the bot now plays for someone who left is named as such everywhere (board,
        turn lines, results): "Ana (computer)"."""
        table.record.names[player] = auto_name(lang, table.stored_name(player))

    def _restart_clock(self, play: TablePlay, now: datetime) -> None:
        play.deadline = (
            None if play.timer_seconds is None else iso(now + timedelta(seconds=play.timer_seconds))
        )

    def _settle_clock(self, play: TablePlay, game: engine.Game, now: datetime) -> None:
        """The turn clock after a command's moves: stopped once the game is over, else the
        next person's turn starts now."""
        if game.is_over:
            play.deadline = None
        else:
            self._restart_clock(play, now)

    async def _play_of(self, table: Session) -> TablePlay:
        """The table's play state (a copy to change): as the move just stored read it, or as
        this process just stored it, else read now."""
        return table.table_state() or await load_play(self.store, table.id)

    async def _save_play(self, table: Session, play: TablePlay) -> None:
        """Store the table's play state, and keep it for what follows at this revision."""
        await self.store.play.save_table(play)
        table.keep_table_state(play)

    async def _stop_timer(self, session_id: str) -> None:
        await self.store.play.stop_timer(session_id)

    async def _rate(self, table: Session, play: TablePlay) -> None:
        game = table.game
        assert game is not None
        view: Mapping[str, Any] = game.view(None)
        results = view.get("results") or []
        placed = [
            (str(row["player"]), own_name(table.stored_name(str(row["player"]))), int(row["place"]))
            for row in results
            if str(row["player"]) not in play.computers
        ]
        rec = table.record
        await ratings.record_table(self.store, rec.platform, rec.chat_id, rec.game_id, placed)

    async def view_extras(self, session: Session, view: Mapping[str, Any]) -> Mapping[str, Any]:
        """The view as the renderer should draw it: each seat's timeouts in a row (the engine
        does not know them and always says 0)."""
        # the board of the move just stored: its timeouts are those it stored (they change
        # only with a move, which moves the revision on)
        play = await self._play_of(session)
        if not isinstance(view.get("seats"), list):
            return view
        seats = [
            dict(seat, timeouts=play.timeouts.get(str(seat.get("player")), 0))
            for seat in view["seats"]
        ]
        return named_view(session, dict(view, seats=seats))
