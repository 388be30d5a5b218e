"""Multiplayer lobbies: ``/challenge``, ``/join``, ``/leave``, ``/start``, ``/addbot``,
``/end``, ``/kick``, ``/hand`` and the lobby and hand buttons.

A chat hosts one multiplayer session at a time: a Cartas Maestras table or a race lobby. The
commands and buttons land here and go to the tables or the races feature, whichever owns the
session.
"""

from __future__ import annotations

from bot.core.buttons import ButtonAction
from bot.core.context import Ctx
from bot.core.registry import Registry
from bot.core.service import Service
from bot.core.sessions import Session
from bot.features.races import Races
from bot.features.tables import Tables
from bot.replies import Reply


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

    async def _table(self, ctx: Ctx) -> tuple[Session | None, Reply | None]:
        table = await self.core.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
        if table is None:
            return None, self.core.refuse(ctx, "table.none")
        return table, None

    # ----- commands -------------------------------------------------------------------------
    async def cmd_join(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._table(ctx)
        return [refusal] if table is None else await self.join(ctx, table)  # type: ignore[list-item]

    async def cmd_leave(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        """``/leave``: standing up from a lobby is at once; leaving a game being played (its
        seat then plays by itself) asks Yes/No first."""
        table, refusal = await self._table(ctx)
        if table is None:
            # a race being run has no lobby left: leaving it is resigning one's board, asked first
            racing = [g for g in await self.core.open_games(ctx) if g.kind == "race"]
            if racing:
                return [await self.core.ask_confirmation(ctx, racing[0].session, "resign")]
            return [refusal]  # type: ignore[list-item]
        playing = table.is_active and table.game is not None and ctx.user in table.record.players
        # still playing there (a seat already left has nothing to ask)
        if playing and await self.tables.game_kind(ctx, table, ctx.user) != "":
            return [await self.core.ask_confirmation(ctx, table, "leave")]
        return await self.tables.leave(ctx, table)

    async def cmd_start(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._table(ctx)
        return [refusal] if table is None else await self.start(ctx, table)  # type: ignore[list-item]

    async def cmd_addbot(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._table(ctx)
        if table is None or self.races.is_race_lobby(table):
            return [refusal or self.core.refuse(ctx, "table.none")]
        return await self.tables.add_computer(ctx, table)

    async def cmd_hand(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        reply = await self.core.own_hand(ctx)
        return [reply if reply is not None else self.core.refuse(ctx, "hand.no_table")]

    async def cmd_end(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        race = await self.races.lobby_of_chat(ctx.req.platform, ctx.req.chat_id)
        if race is not None:
            return await self.races.end(ctx, race)
        table, refusal = await self._table(ctx)
        if table is None:
            return [refusal]  # type: ignore[list-item]
        return await self.tables.end(ctx, table)

    async def cmd_kick(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        table, refusal = await self._table(ctx)
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
