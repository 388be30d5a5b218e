"""Races (seed 001's Solitario race, on every game whose facts say it races): everyone plays
the same deal on their own board, within a time limit, and is ranked by the seed's rules
(:mod:`bot.features.race_rules`).

``/race [game] [minutes] [senza-tempo]`` opens a join window (``JOIN_WINDOW`` seconds, or until
the creator presses Start / types ``/start``); without a game word it races the first game that
races (Solitario), as ``/play`` reads a game word. The race's lobby is an ordinary table session
(of the race's game, so ``/join``, ``/leave``, ``/kick`` and the lobby buttons work as for
tables); its ``races`` row keeps the rest. When the race starts, every player gets a solo
session of that game on the same deal, linked to the race in ``race_entries``: ``/move``, buttons and
``/board`` work on it as on any solo game; undo is refused (a race is competitive), and the
board shows the race clock. The rounds, their end and ranking are
:class:`~bot.features.race_rounds.RaceRounds`, which :class:`Races` builds on.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import engine
from bot import i18n
from bot.core import focus
from bot.core.commands import ascii_number, game_id_of
from bot.core.session import Session, iso
from bot.features.race_rounds import RaceRounds
from bot.features.race_rules import (
    DEFAULT_MINUTES,
    JOIN_WINDOW,
    MAX_MINUTES,
    MIN_RACERS,
    RACING,
    SENZA_TEMPO_WORDS,
    clock_text,
    is_race_game,
    race_games,
)
from bot.features.table_rules import lobby_key, may_manage
from bot.replies import Reply
from bot.storage import AlreadyExists

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service
    from bot.features.tables import Tables


class Races(RaceRounds):
    """The race commands, a race board's rules and its clock (see module doc)."""

    def __init__(self, core: Service, tables: Tables) -> None:
        super().__init__(core)
        self.tables = tables

    @staticmethod
    def is_race_lobby(session: Session) -> bool:
        return session.is_table and is_race_game(session.record.game_id)

    async def running_in_chat(self, platform: str, chat_id: str) -> str | None:
        """The id of the race being run in this chat, if any."""
        return await self.store.sessions.one_in_status(platform, chat_id, RACING)

    async def game_kind(self, ctx: Ctx, session: Session, player: str) -> str | None:
        """A racer's board and a race's lobby are the player's "race" (``bot.core.focus``)."""
        if self.is_race_lobby(session) or await self.forbids_undo(session):
            return "race"
        return None

    async def forbids_undo(self, session: Session) -> bool:
        """Undo is refused on a race board."""
        return not session.is_table and await self.entry_of(session.id) is not None

    async def clock(self, session: Session) -> str | None:
        """The clock drawn on a race board: time left (timed), time played (senza tempo)."""
        if session.is_table:
            return None
        entry = await self.entry_of(session.id)
        if entry is None:
            return None
        race = await self.store.play.race(entry.race_id)
        now = self.core.clock()
        if race is None:
            return None
        if race.deadline is not None:
            return clock_text((datetime.fromisoformat(race.deadline) - now).total_seconds())
        if race.started_at is not None:
            return clock_text((now - datetime.fromisoformat(race.started_at)).total_seconds())
        return None

    # ----- commands -------------------------------------------------------------------------
    async def open(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        """``/race [game] [minutes] [senza-tempo]``: open the join window."""
        core = self.core
        games = race_games()
        if not games:
            return [core.refuse(ctx, "race.no_game")]
        game = games[0]
        refusal = self.tables.opening_refusal(ctx, game)
        if refusal is not None:
            return [refusal]
        minutes: int | None = DEFAULT_MINUTES
        senza_tempo = False
        for word in args:
            lowered = word.lower()
            if lowered in SENZA_TEMPO_WORDS:
                senza_tempo = True
            elif (number := ascii_number(lowered)) is not None and 1 <= number <= MAX_MINUTES:
                minutes = number
            elif (named := game_id_of(word)) is not None:
                if named not in games:  # a game, but not one a race can deal
                    return [self._not_a_race_game(ctx, named, games)]
                game = named
            else:
                return [self._usage(ctx, games)]
        if senza_tempo:
            minutes = None
        platform, chat_id = ctx.req.platform, ctx.req.chat_id
        if await self.lobby_of_chat(platform, chat_id) is not None:
            return [core.refuse(ctx, "race.exists")]  # a table beside it is no obstacle
        busy = await self._busy_refusal(ctx)
        if busy is not None:
            return [busy]
        try:
            lobby = await core.sessions.new_table(
                platform, chat_id, ctx.user, ctx.req.user_name, game, [], iso(ctx.now)
            )
        except AlreadyExists:  # another process opened this chat's race a moment ago
            return [core.refuse(ctx, "race.exists")]
        if len(games) > 1 and await self._another_race_beside(lobby):
            await core.sessions.end_without_result(lobby, iso(ctx.now))
            return [core.refuse(ctx, "race.exists")]
        lobby.record.faces = engine.game_info(game).default_faces
        await core.sessions.save(lobby)
        await self.store.play.insert_race(
            lobby.id, minutes, senza_tempo, iso(ctx.now + JOIN_WINDOW)
        )
        key = "race.opened_senza_tempo" if senza_tempo else "race.opened"
        opened = core.say(
            ctx,
            key,
            creator=ctx.req.user_name,
            game=core.game_name(ctx.lang, game),
            minutes=minutes or 0,
            seconds=int(JOIN_WINDOW.total_seconds()),
        )
        return [opened, await core.board(ctx, lobby, fresh=True)]

    async def _another_race_beside(self, lobby: Session) -> bool:
        """Whether the chat holds a race besides the one just stored. The unique index keeps one
        open race per chat *and game*; a race of another game that another process opened
        meanwhile is seen here once both are stored, and the later check gives way: two races
        never both stay (at worst both give way, and the players type /race again)."""
        rec = lobby.record
        if await self.running_in_chat(rec.platform, rec.chat_id) is not None:
            return True
        chat = await self.core.sessions.in_chat(rec.platform, rec.chat_id)
        return any(self.is_race_lobby(s) and s.id != lobby.id for s in chat)

    def _usage(self, ctx: Ctx, games: list[str]) -> Reply:
        """How ``/race`` is written: with one game that races, no game word to learn."""
        if len(games) == 1:
            return self.core.refuse(ctx, "race.usage", max=MAX_MINUTES)
        names = self.core.games_list(ctx.lang, games)
        return self.core.refuse(ctx, "race.usage_games", max=MAX_MINUTES, games=names)

    def _not_a_race_game(self, ctx: Ctx, game_id: str, games: list[str]) -> Reply:
        """The refusal of a game that cannot be raced, naming those that can."""
        return self.core.refuse(
            ctx,
            "race.not_a_race_game",
            game=self.core.game_name(ctx.lang, game_id),
            games=self.core.games_list(ctx.lang, games),
        )

    async def join(self, ctx: Ctx, lobby: Session) -> list[Reply]:
        busy = await self._busy_refusal(ctx)
        if busy is not None:
            return [busy]
        return await self.tables.join(ctx, lobby)

    async def _busy_refusal(self, ctx: Ctx) -> Reply | None:
        """A racer plays no solo game beside the race in this chat: the refusal names each open
        game as every reply names it ("Daily Canfield, move 14") and the command that gives
        it up (``/resign daily canfield``), or None when there is none."""
        core = self.core
        solos = await core.sessions.solos_of(ctx.req.platform, ctx.req.chat_id, ctx.user)
        if not solos:
            return None
        lang = ctx.lang
        games = [focus.OpenGame(s, focus.DAILY if s.record.ranked else focus.CASUAL) for s in solos]
        refusal = core.refuse(ctx, "race.busy")
        lines = [refusal.text]
        for game in games:
            # the shortest words that name this game alone: its game's word, with "daily" (or
            # "casual" when a daily of the same game is open too)
            twin = any(g.game_id == game.game_id and g.kind != game.kind for g in games)
            words = game.game_id
            if game.kind == focus.DAILY or twin:
                words = f"{focus.kind_word(lang, game.kind)} {game.game_id}"
            lines.append(
                i18n.t(
                    lang,
                    "race.busy_line",
                    game=focus.described(lang, game),
                    resign=f"/resign {words}",
                )
            )
        # one line per game: the game as every reply names it, then the command that ends it
        refusal.text = "\n".join(lines)
        return refusal

    async def start(self, ctx: Ctx, lobby: Session) -> list[Reply]:
        """The creator starts the race before the join window closes."""
        core = self.core
        async with core.sessions.lock(lobby.id):
            refusal = self.tables.start_refusal(ctx, lobby, MIN_RACERS)
            if refusal is not None:
                return [refusal]
            return await self._start_round(ctx, lobby, 1)

    async def end(self, ctx: Ctx, lobby: Session) -> list[Reply]:
        """``/end`` on a race: the creator or an admin stops it; boards are resigned, no ranking."""
        core = self.core
        if not may_manage(ctx, lobby):
            return [core.refuse(ctx, "end.not_allowed")]
        race = await self.store.play.race(lobby.id)
        if race is not None and race.round > 0:  # ended by hand: the boards are resigned
            await self._resign_unfinished(race, ctx.now, outcome=None)
        async with core.sessions.lock(lobby.id):
            await core.sessions.end_without_result(lobby, iso(ctx.now))
        return [core.say(ctx, lobby_key(lobby, "end.ended"), name=ctx.req.user_name)]

    async def lobby_of_chat(self, platform: str, chat_id: str) -> Session | None:
        """The race lobby open or running in this chat (for ``/end``)."""
        race_id = await self.running_in_chat(platform, chat_id)
        if race_id is not None:
            return await self.core.sessions.get(race_id)
        chat = await self.core.sessions.in_chat(platform, chat_id)
        return next((s for s in chat if self.is_race_lobby(s)), None)
