"""Multiplayer lobbies: ``/challenge``, ``/join``, ``/leave``, ``/start``, ``/addbot``,
``/end``, ``/kick``, ``/hand`` and the lobby and hand buttons.

A chat hosts at most one table and one race at a time, side by side (README:
a race board and a table seat may be held at once). The commands and buttons land here and go
to the tables or the races feature, whichever owns the session. With both open, a command
goes to the one it can mean (``/join`` to the one the sender is not in yet, ``/start`` to the
one they opened...); a word says which when both fit (``/join race``, ``/end table``, in the
chat's language too, or the game's name), and without one the bot asks for it, naming both.
Which is which is read from the games' facts: a multiplayer session of a game that races is a
race's lobby, any other a table.
"""

from __future__ import annotations

from collections.abc import Callable

import engine
from bot.core import focus
from bot.core.buttons import ButtonAction
from bot.core.commands import game_id_of
from bot.core.context import Ctx
from bot.core.registry import Registry
from bot.core.service import Service
from bot.core.session import Session
from bot.features.race_rules import is_race_game
from bot.features.races import Races
from bot.features.table_rules import may_manage
from bot.features.tables import Tables
from bot.replies import Reply
from bot.storage import LOBBY

#: which open multiplayer sessions each command may mean, when a race and a table are open
_FITS: dict[str, Callable[[Ctx, Session], bool]] = {
    "join": lambda ctx, s: s.record.status == LOBBY and ctx.user not in s.record.players,
    "leave": lambda ctx, s: ctx.user in s.record.players,
    "start": lambda ctx, s: s.record.status == LOBBY and ctx.user == s.record.creator,
    "kick": may_manage,
    "addbot": lambda ctx, s: not is_race_game(s.record.game_id),
}


def _kind_of(session: Session) -> str:
    """A multiplayer session's kind: a race's lobby or a table (``focus.RACE``/``TABLE``)."""
    return focus.RACE if is_race_game(session.record.game_id) else focus.TABLE


def _is_named(session: Session, named: tuple[str, str | None]) -> bool:
    """Whether a multiplayer session is the one a word named (its kind, and its game when the
    word was a game's name)."""
    kind, game_id = named
    return _kind_of(session) == kind and game_id in (None, session.record.game_id)


class Lobby:
    """Routes lobby commands and buttons to tables or races (see module doc)."""

    def __init__(self, core: Service, tables: Tables, races: Races) -> None:
        self.core = core
        self.tables = tables
        self.races = races

    def register(self, registry: Registry) -> None:
        registry.command("challenge", self.tables.challenge)
        registry.command("join", self.cmd_join)
        registry.command("leave", self.cmd_leave)
        registry.command("start", self.cmd_start)
        registry.command("hand", self.cmd_hand)
        registry.command("end", self.cmd_end)
        registry.command("kick", self.cmd_kick)
        registry.command("addbot", self.cmd_addbot)
        registry.command("race", self.races.open)
        # join/leave from an older copy of the lobby message mean the same thing; start must
        # see the roster it was shown
        registry.button("join", self.press_join, "table", lobby_only=True)
        registry.button("leave", self.press_leave, "table", lobby_only=True)
        registry.button("start", self.press_start, "table", lobby_only=True, exact_revision=True)
        registry.button("hand", self.press_hand, "table")
        registry.button("turn", self.press_turn, "table")
        registry.button("rematch", self.press_rematch, "table")
        registry.button("kick", self.press_kick, "table")

    async def _table(
        self, ctx: Ctx, args: list[str] | None = None, action: str = "join"
    ) -> tuple[Session | None, Reply | None]:
        """The table or race lobby a lobby command means (see the module doc); with a word
        that names one (``race``, ``table``, ``gara``, a game's name) it is taken off ``args``."""
        core = self.core
        open_here = [s for s in await core.in_chat(ctx) if s.is_table]
        named = self._named_game(ctx, args[0]) if args else None
        if named is not None and args is not None and (action != "kick" or len(open_here) > 1):
            del args[0]  # a player called "Table" is still kicked when only one is open
            open_here = [s for s in open_here if _is_named(s, named)]
        if not open_here:
            if named is not None and named[0] == focus.RACE:
                return None, core.refuse(ctx, "race.none")
            return None, core.refuse(ctx, "table.none")
        if len(open_here) > 1:
            fitting = [s for s in open_here if _FITS[action](ctx, s)]
            if len(fitting) != 1:
                return None, self._which(ctx, action)
            open_here = fitting
        return open_here[0], None

    def _which(self, ctx: Ctx, action: str) -> Reply:
        """The question when a race and a table both fit: which one, in the chat's words."""
        race, table = (focus.kind_word(ctx.lang, k) for k in (focus.RACE, focus.TABLE))
        return self.core.refuse(ctx, "lobby.which", command=action, race=race, table=table)

    @staticmethod
    def _named_game(ctx: Ctx, word: str) -> tuple[str, str | None] | None:
        """The multiplayer session a word names, as (kind, game id or None for any game): a
        race (``race``, ``carrera``, or a game that races: ``solitario``) or a table (``table``,
        ``mesa``, or the name of a game played at a table); None for any other word."""
        kind = focus.word_kind(ctx.lang, word)
        if kind in (focus.RACE, focus.TABLE):
            return kind, None
        game_id = game_id_of(word)
        if game_id is None:
            return None
        if is_race_game(game_id):
            return focus.RACE, game_id
        if engine.game_info(game_id).table:
            return focus.TABLE, game_id
        return None

    # ----- commands -------------------------------------------------------------------------
    async def cmd_join(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._table(ctx, args, "join")
        return [refusal] if table is None else await self.join(ctx, table)  # type: ignore[list-item]

    async def cmd_leave(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        """``/leave``: standing up from a lobby is at once; leaving a game being played (its
        seat then plays by itself) asks Yes/No first."""
        table, refusal = await self._table(ctx, args, "leave")
        if table is None or ctx.user not in table.record.players:
            # a race being run has no lobby left: leaving it is resigning one's board, asked
            # first (also when a table they do not sit at is open beside it)
            racing = [g for g in await self.core.open_games(ctx) if g.kind == "race"]
            if racing:
                return [await self.core.ask_confirmation(ctx, racing[0].session, "resign")]
        if table is None:
            return [refusal]  # type: ignore[list-item]
        playing = table.is_active and table.game is not None and ctx.user in table.record.players
        # still playing there (a seat already left has nothing to ask)
        if playing and await self.tables.game_kind(ctx, table, ctx.user) != "":
            return [await self.core.ask_confirmation(ctx, table, "leave")]
        return await self.tables.leave(ctx, table)

    async def cmd_start(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._table(ctx, args, "start")
        return [refusal] if table is None else await self.start(ctx, table)  # type: ignore[list-item]

    async def cmd_addbot(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._table(ctx, args, "addbot")
        if table is None or self.races.is_race_lobby(table):
            return [refusal or self.core.refuse(ctx, "table.none")]
        return await self.tables.add_computer(ctx, table)

    async def cmd_hand(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        reply = await self.core.own_hand(ctx)
        return [reply if reply is not None else self.core.refuse(ctx, "hand.no_table")]

    async def cmd_end(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        # a race being run has left the chat's open sessions: it is ended by name, or alone
        race = await self.races.lobby_of_chat(ctx.req.platform, ctx.req.chat_id)
        named = self._named_game(ctx, args[0]) if args else None
        table = await self.tables.table_in_chat(ctx.req.platform, ctx.req.chat_id)
        if race is not None and table is not None and named is None:
            fitting = [s for s in (race, table) if may_manage(ctx, s)]
            if len(fitting) == 1:
                return await self._end(ctx, fitting[0])
            return [self._which(ctx, "end")]
        if race is not None and (named is None or _is_named(race, named)):
            return await self.races.end(ctx, race)
        if table is not None and (named is None or _is_named(table, named)):
            return await self.tables.end(ctx, table)
        names_a_race = named is not None and named[0] == focus.RACE
        return [self.core.refuse(ctx, "race.none" if names_a_race else "table.none")]

    async def _end(self, ctx: Ctx, session: Session) -> list[Reply]:
        if self.races.is_race_lobby(session):
            return await self.races.end(ctx, session)
        return await self.tables.end(ctx, session)

    async def cmd_kick(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        args = list(args)
        table, refusal = await self._table(ctx, args, "kick")
        if table is None:
            return [refusal]  # type: ignore[list-item]
        return await self.tables.kick(ctx, table, args)

    # ----- the lobby of a table or a race ---------------------------------------------------
    async def join(self, ctx: Ctx, table: Session) -> list[Reply]:
        if self.races.is_race_lobby(table):
            return await self.races.join(ctx, table)
        return await self.tables.join(ctx, table)

    async def start(self, ctx: Ctx, table: Session) -> list[Reply]:
        if self.races.is_race_lobby(table):
            return await self.races.start(ctx, table)
        return await self.tables.start(ctx, table)

    # ----- buttons (the core checked kind, lobby and revision) ------------------------------
    async def press_join(self, ctx: Ctx, table: Session, action: ButtonAction) -> list[Reply]:
        return await self.join(ctx, table)

    async def press_leave(self, ctx: Ctx, table: Session, action: ButtonAction) -> list[Reply]:
        return await self.tables.leave(ctx, table)

    async def press_start(self, ctx: Ctx, table: Session, action: ButtonAction) -> list[Reply]:
        return await self.start(ctx, table)

    async def press_hand(self, ctx: Ctx, table: Session, action: ButtonAction) -> list[Reply]:
        if ctx.user not in table.record.players:
            return [self.core.refuse(ctx, "game.not_your_game")]
        if table.game is None or not table.is_active:
            return [self.core.refuse(ctx, "game.not_active")]
        return [await self.core.hand(ctx, table)]

    async def press_turn(self, ctx: Ctx, table: Session, action: ButtonAction) -> list[Reply]:
        """The second step of placing a card: its rotations on the chosen path."""
        refusal = self.core.refusal(ctx, table, action.revision, need_turn=True)
        if refusal is not None:
            return [refusal]
        return [await self.core.hand(ctx, table, placing=action.arg[:8])]

    async def press_kick(self, ctx: Ctx, table: Session, action: ButtonAction) -> list[Reply]:
        return await self.tables.press_kick(ctx, table, action.arg)

    async def press_rematch(self, ctx: Ctx, table: Session, action: ButtonAction) -> list[Reply]:
        return await self.tables.rematch(ctx, table)
