"""Tables from the chat (of the table game, :func:`~bot.features.table_rules.table_game`): opening (``/challenge``), seating people and computer
players, starting, leaving, removing players, ending, ``/stats``' ratings and "Play again".

The core's ``/challenge``, ``/join``, ``/leave``, ``/start``, ``/addbot``, ``/end`` and
``/kick`` call into :class:`Tables`; what happens once the game is dealt (moves, the seats the
bot plays, the turn clock, departures, ratings) is :class:`~bot.features.table_turns.TableTurns`,
which it builds on. The table's rules outside the game (seats, timer settings, who may manage
it, a race lobby's wording) are in :mod:`bot.features.table_rules`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from bot import i18n
from bot.core import buttons as button_ids
from bot.core.commands import ascii_number, random_deal
from bot.core.names import find_players, mentioned_id, player_query, short_name, split_names
from bot.core.people import named_person, platform_mention
from bot.core.session import Session, iso, tables_among
from bot.features import ratings
from bot.features.race_rules import is_race_game
from bot.features.table_rules import (
    MAX_TIMER_MINUTES,
    is_computer,
    lobby_key,
    max_seats,
    may_manage,
    min_seats,
    parse_timer,
    seat_check,
    table_game,
)
from bot.features.table_state import load_play
from bot.features.table_text import timer_text
from bot.features.table_turns import TableTurns
from bot.replies import Button, Reply
from bot.storage import ACTIVE, DEFAULT_TIMER_SECONDS, LOBBY, AlreadyExists, TablePlay
from bot.storage.records import COMPUTER_PREFIX
from engine import BadSetup

if TYPE_CHECKING:
    from bot.core.context import Ctx


class Tables(TableTurns):
    """Table commands (see module doc)."""

    # ----- commands -------------------------------------------------------------------------
    async def challenge(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        """``/challenge [@players] [timer=<minutes>|untimed]``: open a table and invite."""
        core = self.core
        game = table_game()
        if game is None:
            return [core.refuse(ctx, "challenge.no_game")]
        refusal = self.opening_refusal(ctx, game)
        if refusal is not None:
            return [refusal]
        seats = engine.game_info(game).max_players
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
            if not name or len(invited_names) >= seats - 1:
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
                game,
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
            game=core.game_name(ctx.lang, game),
            invited=", ".join(invited_names),
        )
        if not invited_names:  # nobody invited: no empty "Invited: ." line
            opened.text = i18n.t(
                ctx.lang,
                "challenge.opened_open",
                creator=ctx.req.user_name,
                game=core.game_name(ctx.lang, game),
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
            if len(rec.players) >= max_seats(table):
                return [core.refuse(ctx, lobby_key(table, "join.full"), max=max_seats(table))]
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
            if len(rec.players) >= max_seats(table):
                return [core.refuse(ctx, "join.full", max=max_seats(table))]
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
            refusal = self.start_refusal(ctx, table, min_seats(rec.game_id))
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
            arg = f"{rec.players.index(player)}.{seat_check(player)}"
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
            if not player or seat_check(player) != check:  # the seats moved since the question
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
        """Does the chat already host its one open table? (A race beside it is no obstacle:
        README's race board and table seat may be held at once.)"""
        return await self.table_in_chat(platform, chat_id) is not None

    async def table_in_chat(self, platform: str, chat_id: str) -> Session | None:
        """The chat's open table (a race's lobby is not one), if any."""
        chat = await self.core.sessions.in_chat(platform, chat_id)
        return next((s for s in tables_among(chat) if not is_race_game(s.record.game_id)), None)

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

    async def stats_lines(
        self, lang: str, platform: str, chat_id: str, player_id: str
    ) -> list[str]:
        """``/stats`` lines: the player's rating at the table game here and everywhere."""
        lines: list[str] = []
        game = table_game()
        if game is None:
            return lines
        for scope, key in (
            (chat_id, "tables.rating_here"),
            (ratings.GLOBAL, "tables.rating_global"),
        ):
            rating = await ratings.rating_of(self.store, platform, scope, player_id, game)
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
                rec.game_id,
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
            game=core.game_name(ctx.lang, rec.game_id),
            invited=", ".join(table.name_of(p) for p in people) or "-",
        )
        opened.text += "\n" + i18n.t(
            ctx.lang, "tables.settings", timer=timer_text(ctx.lang, old.timer_seconds)
        )
        opened.mentions = people
        return [opened, await core.board(ctx, lobby, fresh=True)]
