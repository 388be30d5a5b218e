"""Cartas Maestras tables: opening, seating (people and computer players), starting, leaving,
ending, removing players, and what happens after every move (computer turns, the turn timer,
ratings when the table ends).

The core's ``/challenge``, ``/join``, ``/leave``, ``/start``, ``/addbot``, ``/end`` and
``/kick`` call into :class:`Tables`; the core calls :meth:`Tables.after_change` (under the
table's lock) after every move, and asks :meth:`Tables.move_plan` how a person's move is
stored: with the answers of the seats the bot plays and the table's play state, in one
transaction. Per-table play state that the engine does not keep lives in
the ``table_play`` row of the table (:class:`TablePlay`): the turn timer, the running turn's
deadline, each player's timeouts in a row, who left, and which seats the computer plays.

Seats that nobody answers for are played by the core at once, right after the move before:

- computer players (``/addbot``): the engine's greedy strategy;
- players who left a started table (``/leave``, ``/kick``, three timeouts in a row): the engine
  cannot take a seat out of a game, so the seat stays and is *auto-passed*
  (:func:`bot.features.timers.timeout_move`): it passes when the rules allow a pass, ends its final-phase
  turn with ``stop``, and otherwise (a pass is illegal while a card fits) the greedy strategy
  places a card for it, since the engine has no "timeout" move.

Arguments of ``/challenge``: mentions of the invited players, ``timer=<minutes>`` (1-1440) or
``untimed``. ``timer=0`` (and ``timer=off``) is accepted as "no timer", and the reply says so
in words ("timer=0 means no turn timer: this table is untimed"). The default turn timer is
three minutes.

>>> parse_timer("timer=5"), parse_timer("untimed"), parse_timer("@ana")
(300, None, Ellipsis)
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import engine
from bot import i18n
from bot.core import buttons as button_ids
from bot.core.commands import ascii_number, random_deal
from bot.core.context import system_ctx
from bot.core.names import find_players, mentioned_id, player_query, short_name, split_names
from bot.core.people import named_person, platform_mention
from bot.core.session import Session, TableMove, iso
from bot.features import ratings
from bot.features.table_state import load_play
from bot.features.table_text import auto_name, named_view, own_name, play_lines, timer_text
from bot.features.timers import computer_move, timeout_move
from bot.replies import Button, Reply
from bot.storage import ACTIVE, DEFAULT_TIMER_SECONDS, LOBBY, AlreadyExists, Storage, TablePlay
from bot.storage.records import COMPUTER_PREFIX
from engine import BadSetup

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service

# This module plays Cartas Maestras' own table rules (seats, masters won, computer players,
# ratings): the one table game, so naming it is clearer than a search for "the" table game.
GAME = "maestras"
MIN_TABLE, MAX_TABLE = engine.game_info(GAME).min_players, engine.game_info(GAME).max_players
MAX_TIMER_MINUTES = 24 * 60
#: timeouts in a row after which a player leaves the table
MAX_TIMEOUTS = 3


def is_computer(player: str) -> bool:
    """True for a seat played by the computer.

    >>> is_computer("~cpu2"), is_computer("ana")
    (True, False)
    """
    return player.startswith(COMPUTER_PREFIX)


def parse_timer(word: str) -> int | None | Any:
    """Seconds of a ``timer=<minutes>`` / ``untimed`` argument; None means untimed, Ellipsis
    means the word is not a timer setting; ``ValueError`` for a bad number of minutes."""
    lowered = word.lower()
    if lowered in ("untimed", "timer=untimed", "timer=off", "timer=0", "notimer"):
        return None
    if lowered.startswith("timer="):
        value = lowered.removeprefix("timer=").removesuffix("m")
        minutes = ascii_number(value)
        if minutes is None or not 1 <= minutes <= MAX_TIMER_MINUTES:
            raise ValueError(value)
        return minutes * 60
    return ...


def names_a_computer(query: str) -> bool:
    """Whether a player's words name a computer seat: its id or "Computer 2" / "Ordenador 2"
    in any language (computers play at tables but are not ranked: no stats, no ratings).

    >>> names_a_computer("Computer 1"), names_a_computer("ordenador 3"), names_a_computer("ana")
    (True, True, False)
    """
    words = " ".join(query.replace("_", " ").split()).casefold()
    if is_computer(words):
        return True
    for lang in i18n.LANGUAGES:
        before, _, after = (
            i18n.t(lang, "tables.computer_name", number="#").casefold().partition("#")
        )
        if re.fullmatch(re.escape(before) + r"\d+" + re.escape(after), words):
            return True
    return False


class Tables:
    """Cartas Maestras table commands and the table side of every move (see module doc)."""

    def __init__(self, core: Service) -> None:
        self.core = core

    @property
    def store(self) -> Storage:
        return self.core.store

    # ----- commands -------------------------------------------------------------------------
    async def challenge(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        """``/challenge [@players] [timer=<minutes>|untimed]``: open a table and invite."""
        core = self.core
        refusal = self.opening_refusal(ctx, GAME)
        if refusal is not None:
            return [refusal]
        if await self.chat_is_taken(ctx.req.platform, ctx.req.chat_id):
            return [core.refuse(ctx, "challenge.exists")]
        timer: int | None = DEFAULT_TIMER_SECONDS
        no_timer_word: str | None = None  # timer=0 / timer=off: said back in words
        invited_ids: list[str] = []
        invited_names: list[str] = []
        # a quoted name of several words is one invitation: /challenge "Ana María" @bo
        for word in split_names(" ".join(args)):
            try:
                setting = parse_timer(word)
            except ValueError:
                return [core.refuse(ctx, "tables.bad_timer", arg=word[:32], max=MAX_TIMER_MINUTES)]
            if setting is not ...:
                timer = setting
                if setting is None and word.lower().startswith("timer="):
                    no_timer_word = word[:32]
                continue
            name = player_query([word])[:64]
            if not name or len(invited_names) >= MAX_TABLE - 1:
                continue
            # someone seen in this chat, or the platform's own mention: only they are pinged
            known = await named_person(self.store, ctx.req, name)
            if known is not None and known.user_id != ctx.user:
                invited_ids.append(known.user_id)
                name = known.name
            elif mentioned_id(name) is not None:  # a typed "<@123>" names nobody: not echoed
                continue
            invited_names.append(name)
        try:
            session = await core.sessions.new_table(
                ctx.req.platform,
                ctx.req.chat_id,
                ctx.user,
                ctx.req.user_name,
                GAME,
                invited_ids,
                iso(ctx.now),
            )
        except AlreadyExists:  # another process opened this chat's table a moment ago
            return [core.refuse(ctx, "challenge.exists")]
        await self.store.play.save_table(TablePlay(session.id, timer))
        opened = core.say(
            ctx,
            "challenge.opened",
            creator=ctx.req.user_name,
            game=core.game_name(ctx.lang, GAME),
            invited=", ".join(invited_names),
        )
        if not invited_names:  # nobody invited: no empty "Invited: ." line
            opened.text = i18n.t(
                ctx.lang,
                "challenge.opened_open",
                creator=ctx.req.user_name,
                game=core.game_name(ctx.lang, GAME),
            )
        if no_timer_word is not None and timer is None:
            opened.text += "\n" + i18n.t(ctx.lang, "tables.timer_zero", arg=no_timer_word)
        opened.text += "\n" + i18n.t(ctx.lang, "tables.settings", timer=timer_text(ctx.lang, timer))
        opened.params["timer"] = timer
        opened.mentions = invited_ids
        return [opened, await core.board(ctx, session, fresh=True)]

    async def join(self, ctx: Ctx, table: Session) -> list[Reply]:
        core = self.core
        async with core.sessions.lock(table.id):
            rec = table.record
            if rec.status != LOBBY:
                return [core.refuse(ctx, lobby_key(table, "join.started"))]
            if ctx.user in rec.players:
                return [core.refuse(ctx, lobby_key(table, "join.already"))]
            if len(rec.players) >= MAX_TABLE:
                return [core.refuse(ctx, lobby_key(table, "join.full"), max=MAX_TABLE)]
            rec.players.append(ctx.user)
            rec.names[ctx.user] = ctx.req.user_name
            # numbered when someone seated already has this name ("Ana 2 sits down")
            joined = table.name_of(ctx.user)
            return await self._seating_changed(
                ctx, table, lobby_key(table, "join.joined"), name=joined
            )

    async def add_computer(self, ctx: Ctx, table: Session) -> list[Reply]:
        """``/addbot``: the creator (or an admin) seats a computer player in the lobby."""
        core = self.core
        async with core.sessions.lock(table.id):
            rec = table.record
            if not may_manage(ctx, table):
                return [core.refuse(ctx, "end.not_allowed")]
            if rec.status != LOBBY:
                return [core.refuse(ctx, "join.started")]
            if len(rec.players) >= MAX_TABLE:
                return [core.refuse(ctx, "join.full", max=MAX_TABLE)]
            play = await load_play(self.store, table.id)
            number = 1
            while (
                f"{COMPUTER_PREFIX}{number}" in rec.players
                or f"{COMPUTER_PREFIX}{number}" in play.computers
            ):
                number += 1
            player = f"{COMPUTER_PREFIX}{number}"
            play.computers.append(player)
            await self._save_play(table, play)
            rec.players.append(player)
            rec.names[player] = i18n.t(ctx.lang, "tables.computer_name", number=number)
            return await self._seating_changed(ctx, table, "join.joined", name=rec.names[player])

    async def leave(self, ctx: Ctx, table: Session) -> list[Reply]:
        """``/leave``: in the lobby, stand up (the creator closes the table); in a started
        game, leave it: the seat is auto-passed from now on."""
        core = self.core
        async with core.sessions.lock(table.id):
            rec = table.record
            if ctx.user not in rec.players:
                return [core.refuse(ctx, lobby_key(table, "leave.not_seated"))]
            if rec.status == ACTIVE:
                return await self._depart(ctx, table, ctx.user, "tables.left_game")
            if rec.status != LOBBY:
                return [core.refuse(ctx, "game.not_active")]
            if ctx.user == rec.creator:
                await core.sessions.end_without_result(table, iso(ctx.now))
                await self._stop_timer(table.id)
                return [core.say(ctx, lobby_key(table, "leave.closed"), name=ctx.req.user_name)]
            left = table.name_of(ctx.user)  # as the lobby numbered them
            rec.players.remove(ctx.user)
            return await self._seating_changed(
                ctx, table, lobby_key(table, "leave.left"), name=left
            )

    async def start(self, ctx: Ctx, table: Session) -> list[Reply]:
        """``/start``: the creator deals (2-8 seats, computers included)."""
        core = self.core
        async with core.sessions.lock(table.id):
            rec = table.record
            refusal = self.start_refusal(ctx, table, MIN_TABLE)
            if refusal is not None:
                return [refusal]
            try:
                await core.sessions.start_table(table, random_deal(rec.game_id), iso(ctx.now))
            except BadSetup as error:
                return [core.illegal(ctx, error)]
            play = await load_play(self.store, table.id)
            self._restart_clock(play, ctx.now)
            await self._save_play(table, play)
            order = ", ".join(short_name(table.name_of(p)) for p in rec.players)
            # the new game is each person's game in focus here (their next move goes to it)
            await core.focus_players(ctx, table, [p for p in rec.players if not is_computer(p)])
            started = core.say(ctx, "start.started", players=order)
            # the timer only: how to change it (at /challenge) no longer applies once dealt
            started.text += "\n" + i18n.t(
                ctx.lang, "tables.timer", timer=timer_text(ctx.lang, play.timer_seconds)
            )
            # the first turns often offer only Pass: say why before anyone wonders
            started.text += "\n" + i18n.t(ctx.lang, "tables.opening_rule")
            return [started, await core.board(ctx, table), core.turn_announcement(ctx.lang, table)]

    async def end(self, ctx: Ctx, table: Session) -> list[Reply]:
        """``/end``: the creator or an admin closes the table; no result is stored."""
        core = self.core
        async with core.sessions.lock(table.id):
            if not may_manage(ctx, table):
                return [core.refuse(ctx, "end.not_allowed")]
            await core.sessions.end_without_result(table, iso(ctx.now))
            await self._stop_timer(table.id)
        return [core.say(ctx, "end.ended", name=ctx.req.user_name)]

    async def kick(self, ctx: Ctx, table: Session, args: list[str]) -> list[Reply]:
        """``/kick <player>``: the creator or an admin removes a player; in a started game the
        seat stays and is auto-passed (the engine cannot remove a seat mid-game). The player
        may be named in several words, quoted, as a mention or ``@name``, in any case; a name
        that fits several seats asks which, one button per seat."""
        core = self.core
        query = player_query(args)
        if not query:
            return [core.refuse(ctx, "kick.usage")]
        async with core.sessions.lock(table.id):
            rec = table.record
            if not may_manage(ctx, table):
                return [core.refuse(ctx, "end.not_allowed")]
            seats = [(p, table.name_of(p)) for p in rec.players]
            mentioned = platform_mention(ctx.req, query)
            if mentioned is not None:
                found = [mentioned.user_id] if mentioned.user_id in rec.players else []
            else:
                found = find_players(query, seats)
            if not found:
                seated = ", ".join(short_name(name) for _, name in seats)
                asked = query if mentioned is None else mentioned.name
                return [core.refuse(ctx, "kick.not_seated", name=short_name(asked), seated=seated)]
            if len(found) > 1:
                return [self._which_to_kick(ctx, table, query, found)]
            return await self._kick_seat(ctx, table, found[0])

    def _which_to_kick(self, ctx: Ctx, table: Session, query: str, found: list[str]) -> Reply:
        """The question when a name fits several seats: one button per seat, named in full."""
        rec = table.record
        answer = self.core.private(ctx, "kick.which", name=short_name(query))
        for n, player in enumerate(found):
            arg = f"{rec.players.index(player)}.{_seat_check(player)}"
            button_id = button_ids.encode("kick", rec.id, rec.revision, arg)
            label = short_name(table.name_of(player), 32)
            answer.buttons.append(Button(button_id, label, n // 2, "danger"))
        return answer

    async def press_kick(self, ctx: Ctx, table: Session, arg: str) -> list[Reply]:
        """The answer to :meth:`_which_to_kick`: the seat pressed, if it is still that player."""
        core = self.core
        index, _, check = arg.partition(".")
        number = ascii_number(index)
        async with core.sessions.lock(table.id):
            rec = table.record
            if not may_manage(ctx, table):
                return [core.refuse(ctx, "end.not_allowed")]
            player = rec.players[number] if number is not None and number < len(rec.players) else ""
            if not player or _seat_check(player) != check:  # the seats moved since the question
                return [core.refuse(ctx, "kick.stale")]
            return await self._kick_seat(ctx, table, player)

    async def _kick_seat(self, ctx: Ctx, table: Session, target: str) -> list[Reply]:
        """Remove ``target`` (the caller holds the table's lock and checked the right to)."""
        core = self.core
        rec = table.record
        if target == rec.creator:
            return [core.refuse(ctx, "kick.creator")]
        if rec.status == ACTIVE:
            play = await load_play(self.store, table.id)
            if target in play.departed:
                seated = ", ".join(
                    short_name(table.name_of(p)) for p in rec.players if p not in play.departed
                )
                name = short_name(table.name_of(target))
                return [core.refuse(ctx, "kick.not_seated", name=name, seated=seated)]
            return await self._depart(ctx, table, target, "kick.kicked")
        if rec.status != LOBBY:
            return [core.refuse(ctx, "game.not_active")]
        rec.players.remove(target)
        return await self._seating_changed(
            ctx, table, lobby_key(table, "kick.kicked"), name=short_name(table.name_of(target))
        )

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

    def opening_refusal(self, ctx: Ctx, game_id: str) -> Reply | None:
        """Why a table or race of ``game_id`` cannot be opened from this chat at all: the
        game is not playable yet, or this is not a group. None: it can."""
        if game_id not in engine.GAMES:
            return self.core.refuse(
                ctx, "error.game_unavailable", game=self.core.game_name(ctx.lang, game_id)
            )
        if not ctx.req.is_group:
            return self.core.refuse(ctx, "challenge.groups_only")
        return None

    async def chat_is_taken(self, platform: str, chat_id: str) -> bool:
        """Does the chat already host its one open Cartas Maestras table? (A race beside it
        is no obstacle: README's race board and table seat may be held at once.)"""
        return await self.core.sessions.table_of(platform, chat_id, GAME) is not None

    def start_refusal(self, ctx: Ctx, lobby: Session, minimum: int) -> Reply | None:
        """Why the sender may not deal this lobby (a table's or a race's) now: it has started
        already, they did not open it, or fewer than ``minimum`` are seated. None: they may."""
        rec = lobby.record
        if rec.status != LOBBY:
            return self.core.refuse(ctx, "start.already")
        if ctx.user != rec.creator:
            return self.core.refuse(
                ctx, lobby_key(lobby, "start.not_creator"), creator=lobby.name_of(rec.creator)
            )
        if len(rec.players) < minimum:
            return self.core.refuse(ctx, "start.too_few", min=minimum)
        return None

    async def _seating_changed(
        self, ctx: Ctx, lobby: Session, key: str, **params: Any
    ) -> list[Reply]:
        """Under the lock, after someone sat down or stood up in a lobby: store it (new revision,
        so older lobby buttons go stale) and tell the chat, with the updated lobby board."""
        rec = lobby.record
        rec.revision += 1
        rec.last_active_at = iso(ctx.now)
        await self.core.sessions.save(lobby)
        said = self.core.say(ctx, key, count=len(rec.players), **params)
        return [said, await self.core.board(ctx, lobby)]

    # ----- during the game ------------------------------------------------------------------
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

    async def stats_lines(
        self, lang: str, platform: str, chat_id: str, player_id: str
    ) -> list[str]:
        """``/stats`` lines: the player's Cartas Maestras rating here and everywhere."""
        lines = []
        for scope, key in (
            (chat_id, "tables.rating_here"),
            (ratings.GLOBAL, "tables.rating_global"),
        ):
            rating = await ratings.rating_of(self.store, platform, scope, player_id, GAME)
            if rating is not None:
                lines.append(i18n.t(lang, key, rating=rating.shown, games=rating.games))
        return lines

    async def rematch(self, ctx: Ctx, table: Session) -> list[Reply]:
        """ "Play again" under a finished table: a new lobby here with the same seats. Whoever
        presses it opens it (one of the players); the computer seats sit down at once with
        the same timer, the other people are invited and mentioned, and /join when they are
        still here (a lobby does not deal anyone in who did not say so); the opener /start's."""
        core = self.core
        rec = table.record
        if table.is_open:
            return [core.private(ctx, "button.stale")]
        if ctx.user not in rec.players or is_computer(ctx.user):
            return [core.private(ctx, "game.not_your_game")]
        if await self.chat_is_taken(ctx.req.platform, ctx.req.chat_id):
            return [core.private(ctx, "challenge.exists")]
        old = await load_play(self.store, table.id)
        people = [p for p in rec.players if not is_computer(p) and p != ctx.user]
        try:
            lobby = await core.sessions.new_table(
                ctx.req.platform,
                ctx.req.chat_id,
                ctx.user,
                ctx.req.user_name,
                GAME,
                people,
                iso(ctx.now),
            )
        except AlreadyExists:  # another player pressed it a moment ago
            return [core.private(ctx, "challenge.exists")]
        computers = [p for p in rec.players if is_computer(p)]
        for player in computers:
            lobby.record.players.append(player)
            lobby.record.names[player] = table.stored_name(player)
        await core.sessions.save(lobby)
        await self.store.play.save_table(
            TablePlay(lobby.id, old.timer_seconds, computers=computers)
        )
        opened = core.say(
            ctx,
            "challenge.opened",
            creator=ctx.req.user_name,
            game=core.game_name(ctx.lang, GAME),
            invited=", ".join(table.name_of(p) for p in people) or "-",
        )
        opened.text += "\n" + i18n.t(
            ctx.lang, "tables.settings", timer=timer_text(ctx.lang, old.timer_seconds)
        )
        opened.mentions = people
        return [opened, await core.board(ctx, lobby, fresh=True)]


def _seat_check(player: str) -> str:
    """A short check of a seat's player id, carried by a kick button with the seat's index
    (ids may be long or not ASCII, and a button id is 64 ASCII bytes at most)."""
    return format(zlib.crc32(player.encode()) & 0xFFFF, "04x")


#: what a race's lobby says where a table's says "table" (a race's lobby is a table session)
_RACE_WORDING = {
    "join.started": "race.join_started",
    "join.already": "race.join_already",
    "join.full": "race.join_full",
    "join.joined": "race.joined",
    "leave.not_seated": "race.not_seated",
    "leave.closed": "race.closed",
    "leave.left": "race.left",
    "kick.kicked": "race.kicked",
    "start.not_creator": "race.not_creator",
    "end.ended": "race.ended",
}


def lobby_key(lobby: Session, key: str) -> str:
    """``key``, or its race's wording when ``lobby`` is a race's ("ana joins the race", not
    "ana sits down"): a chat may hold both at once, and each message names its own."""
    return _RACE_WORDING.get(key, key) if lobby.record.game_id != GAME else key


def may_manage(ctx: Ctx, lobby: Session) -> bool:
    """The creator of a table or race, and the chat's admins, may seat computers, remove
    players and end it."""
    return ctx.user == lobby.record.creator or ctx.req.is_admin
