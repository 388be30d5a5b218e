"""The solo-game lifecycle the core owns: ``/play``, ``/move``, ``/undo``, ``/resign``,
``/board``, plain-text moves, and the board buttons (mv, sel, back, found, undo, resign).

Registered into the registry like any feature (``register``), so dispatch treats them alike;
table moves arrive here too (``/move`` and a hand's ``mv`` buttons).
"""

from __future__ import annotations

import secrets

from bot.core.buttons import ButtonAction
from bot.core.commands import ITALIAN_FACES, PlayArgs, ascii_number, move_word, parse_play
from bot.core.context import Ctx
from bot.core.presentation import pile_ids
from bot.core.registry import Registry
from bot.core.service import Service
from bot.core.sessions import Session, iso
from bot.replies import Reply
from bot.storage import AlreadyExists
from engine import BadSetup, IllegalMove

#: a plain-text chat line is tried as a move only when it is one word this short
MAX_PLAIN_MOVE = 16


class SoloPlay:
    """Commands and buttons that play, undo and resign (see module doc)."""

    def __init__(self, core: Service) -> None:
        self.core = core

    def register(self, registry: Registry) -> None:
        registry.command("play", self.cmd_play, parse_play)
        registry.command("move", self.cmd_move)
        registry.command("board", self.cmd_board)
        registry.command("undo", self.cmd_undo)
        registry.command("resign", self.cmd_resign)
        registry.button("mv", self.press_move)
        registry.button("undo", self.press_undo)
        registry.button("resign", self.press_resign)
        for verb in ("sel", "back", "found"):
            registry.button(verb, self.press_pick, "solo")

    # ----- commands -------------------------------------------------------------------------
    async def cmd_play(self, ctx: Ctx, wanted: PlayArgs) -> list[Reply]:
        core = self.core
        existing = await core.solo(ctx)
        if existing is not None:
            return [core.refuse(ctx, "play.already_playing",
                                 game=core.game_name(ctx.lang, existing.record.game_id))]  # fmt: skip
        game_id, faces, deal = wanted.game_id, wanted.faces, wanted.deal
        if faces is None:
            faces = "napoletane" if game_id == "solitario" else "francesi"
        if deal is None:
            # Only the deal *number* is picked here; the shuffle itself is engine.rng's.
            deal = secrets.randbelow(1_000_000)
        else:
            for guard in core.registry.play_guard:
                refusal = await guard(ctx, game_id, deal, wanted.options)
                if refusal is not None:
                    return [refusal]
        try:
            session = await core.sessions.new_solo(
                ctx.req.platform, ctx.req.chat_id, ctx.user, ctx.req.user_name,
                game_id, wanted.options, deal, faces, iso(ctx.now),
            )  # fmt: skip
        except BadSetup as error:
            return [core.illegal(ctx, error)]
        except AlreadyExists:  # the same player's game, started a moment ago by another process
            return [core.refuse(ctx, "play.already_playing", game=core.game_name(ctx.lang, game_id))]
        # Solitario with cards=52 is a French deck: Italian faces cannot draw it.
        if faces in ITALIAN_FACES and session.game is not None and session.game.view(None).get("deck") == "french52":
            session.record.faces = "francesi"
            await core.sessions.save(session)
        started = core.say(ctx, "play.started", name=ctx.req.user_name,
                           game=core.game_name(ctx.lang, game_id), deal=deal)  # fmt: skip
        replies = [started, await core.board(ctx, session, fresh=True)]
        if session.game is not None and session.game.is_over:
            # Some deals are dead from the start: say how it ended, as after a last move.
            replies.append(core.end_message(ctx, session))
        return replies

    async def cmd_move(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        if not args:
            return [self.core.refuse(ctx, "move.usage")]
        session = await self.core.game_for_move(ctx)
        if session is None:
            return [await self.core.no_game(ctx)]
        return await self.move(ctx, session, " ".join(args))

    async def plain_text(self, ctx: Ctx, words: list[str]) -> list[Reply]:
        """A chat line without a command: a move when it is one short word the sender's game
        reads as one, else chatter (no reply)."""
        if len(words) != 1 or len(words[0]) > MAX_PLAIN_MOVE:
            return []
        session = await self.core.game_for_move(ctx)
        if session is None or session.game is None:
            return []
        word = move_word(ctx.lang, words[0]) if session.is_table else words[0]
        try:
            session.game.parse_move(word)
        except IllegalMove:
            return []  # chatter, not a move
        return await self.move(ctx, session, word)

    async def cmd_undo(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        session = await self.core.solo(ctx)
        if session is None:
            table = await self.core.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
            if table is not None and ctx.user in table.record.players:
                return [self.core.refuse(ctx, "undo.table")]
            return [await self.core.no_game(ctx)]
        return await self.undo(ctx, session, None)

    async def cmd_resign(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        core = self.core
        session = await core.solo(ctx)
        if session is None:
            table = await core.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
            if table is not None and ctx.user in table.record.players:
                return [core.refuse(ctx, "resign.table")]
            return [await core.no_game(ctx)]
        return await self.resign(ctx, session, None)

    async def cmd_board(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        core = self.core
        session = await core.solo(ctx)
        if session is None:
            session = await core.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
        if session is None:
            return [await core.no_game(ctx)]
        async with core.sessions.lock(session.id):
            return [await core.board(ctx, session, fresh=True)]

    # ----- moves, undo, resign (commands and buttons) ----------------------------------------
    async def move(self, ctx: Ctx, session: Session, text: str, revision: int | None = None) -> list[Reply]:
        core = self.core
        async with core.sessions.lock(session.id):
            refusal = core.refusal(ctx, session, revision, need_turn=True)
            if refusal is not None:
                return [refusal]
            game = session.game
            assert game is not None
            if session.is_table:  # "pasar", "Basta": the engine's notation is English
                text = move_word(ctx.lang, text)
            index = ascii_number(text[1:]) if text.startswith("#") else None
            if index is not None:
                legal = game.legal_moves(ctx.user)
                if index >= len(legal):
                    return [core.refuse(ctx, "button.stale")]
                text = str(legal[index])
            try:
                await core.sessions.play(session, text, ctx.user, ctx.now)
            except IllegalMove as error:
                return [core.illegal(ctx, error, session)]
            return await core.after_change(ctx, session)

    async def undo(self, ctx: Ctx, session: Session, revision: int | None) -> list[Reply]:
        core = self.core
        async with core.sessions.lock(session.id):
            refusal = core.refusal(ctx, session, revision, need_turn=False)
            if refusal is not None:
                return [refusal]
            forbidden = session.is_table or session.record.ranked
            for guard in core.registry.undo_forbidden:
                forbidden = forbidden or await guard(session)
            if forbidden:
                return [core.refuse(ctx, "undo.not_allowed")]
            try:
                await core.sessions.undo(session, iso(ctx.now))
            except IllegalMove as error:
                return [core.illegal(ctx, error)]
            return [await core.board(ctx, session)]

    async def resign(self, ctx: Ctx, session: Session, revision: int | None) -> list[Reply]:
        core = self.core
        async with core.sessions.lock(session.id):
            refusal = core.refusal(ctx, session, revision, need_turn=False)
            if refusal is not None:
                return [refusal]
            if session.is_table:
                return [core.refuse(ctx, "resign.table")]
            await core.sessions.resign(session, ctx.now)
            board = await core.board(ctx, session)
            return [board, core.end_message(ctx, session), *await core.solo_ended(ctx, session, "resign")]

    # ----- buttons ----------------------------------------------------------------------------
    async def press_move(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        return await self.move(ctx, session, action.arg, action.revision)

    async def press_undo(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        return await self.undo(ctx, session, action.revision)

    async def press_resign(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        return await self.resign(ctx, session, action.revision)

    async def press_pick(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        """sel / back / found: they need the current position."""
        core = self.core
        async with core.sessions.lock(session.id):
            refusal = core.refusal(ctx, session, action.revision, need_turn=True)
            if refusal is not None:
                return [refusal]
            game = session.game
            assert game is not None
            if action.verb == "back":
                return [await core.board(ctx, session)]
            if action.verb == "sel":
                if not any(str(m.src) == action.arg for m in game.legal_moves()):
                    return [core.refuse(ctx, "button.stale")]
                return [await core.board(ctx, session, selected=action.arg)]
            foundations = pile_ids(game.view(None), "foundation")
            to_found = [m for m in game.legal_moves() if m.dst in foundations]
            if action.arg != "*":
                to_found = [m for m in to_found if str(m.src) == action.arg]
            if not to_found:
                return [core.refuse(ctx, "found.none")]
            text = str(to_found[0])
        return await self.move(ctx, session, text, action.revision)
