"""The solo-game lifecycle the core owns: ``/play``, ``/move``, ``/undo``, ``/resign``,
``/board``, ``/autofinish``, plain-text moves, and the board buttons (mv, sel, back, found,
undo, resign, again).

A player may keep one open casual game per game in a chat (and the day's ranked daily beside
it): a typed move goes to the most recently touched game that reads it as a move, and
``/undo``, ``/resign``, ``/board`` take the most recently touched one or the game named.

Registered into the registry like any feature (``register``), so dispatch treats them alike;
table moves arrive here too (``/move`` and a hand's ``mv`` buttons).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from bot import i18n
from bot.core.buttons import ButtonAction
from bot.core.commands import (
    ITALIAN_FACES,
    SOLO_GAMES,
    PlayArgs,
    ascii_number,
    game_id_of,
    move_word,
    parse_play,
)
from bot.core.context import Ctx
from bot.core.presentation import pile_ids
from bot.core.registry import Registry
from bot.core.service import Service, reads_as_move
from bot.core.sessions import Session, iso
from bot.replies import Reply
from bot.storage import AlreadyExists
from engine import BadSetup, IllegalMove

#: a plain-text chat line is tried as a move only when it is one word this short
MAX_PLAIN_MOVE = 16
#: games the bot finishes once every card is face up and nothing is left to draw
AUTO_FINISH_GAMES = ("solitario", "canfield")
#: piles that must be empty for auto-finish (besides every card face up)
AUTO_FINISH_EMPTY = ("stock", "waste", "reserve")


def finishable(session: Session) -> bool:
    """Whether the bot may play out the game: Solitario or Canfield, every card face up, and
    stock, waste and reserve empty (then each tableau column is a descending run and the cards
    go up to the foundations one by one, with no choice left for the player).

    The waste must be empty too: with cards there and no stock, the order they come off can
    still matter, so those games are left to the player."""
    game = session.game
    if session.record.game_id not in AUTO_FINISH_GAMES or game is None or game.is_over:
        return False
    view: Mapping[str, Any] = game.view(None)
    for pile in view.get("piles") or []:
        if pile.get("down"):
            return False
        if pile.get("kind") in AUTO_FINISH_EMPTY and pile.get("cards"):
            return False
    return True


def already_playing(ctx: Ctx, core: Service, game_id: str) -> Reply:
    """The refusal of a second casual game of ``game_id`` here."""
    return core.refuse(
        ctx, "play.already_playing", game=core.game_name(ctx.lang, game_id), word=game_id
    )


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
        registry.command("autofinish", self.cmd_autofinish)
        registry.button("mv", self.press_move)
        registry.button("undo", self.press_undo)
        registry.button("resign", self.press_resign)
        registry.button("again", self.press_again, "solo")
        for verb in ("sel", "back", "found"):
            registry.button(verb, self.press_pick, "solo")

    # ----- commands -------------------------------------------------------------------------
    async def cmd_play(self, ctx: Ctx, wanted: PlayArgs) -> list[Reply]:
        core = self.core
        game_id, faces, deal = wanted.game_id, wanted.faces, wanted.deal
        # One casual game per game: a Canfield beside a Solitario, or beside today's daily.
        if any(s.record.game_id == game_id and not s.record.ranked for s in await core.solos(ctx)):
            return [already_playing(ctx, core, game_id)]
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
            return [already_playing(ctx, core, game_id)]
        # Solitario with cards=52 is a French deck: Italian faces cannot draw it.
        if (
            faces in ITALIAN_FACES
            and session.game is not None
            and session.game.view(None).get("deck") == "french52"
        ):
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
        text = " ".join(args)
        session = await self.core.game_for_move(ctx, text)
        if session is None:
            return [await self.core.no_game(ctx)]
        return await self.move(ctx, session, text)

    async def plain_text(self, ctx: Ctx, words: list[str]) -> list[Reply]:
        """A chat line without a command: a move when it is one short word one of the sender's
        games reads as one (legal or not: an illegal one is refused as ``/move`` refuses it),
        else chatter (no reply)."""
        if len(words) != 1 or len(words[0]) > MAX_PLAIN_MOVE or words[0].startswith("#"):
            return []
        session = await self.core.game_for_move(ctx, words[0])
        if session is None:
            return []
        word = move_word(ctx.lang, words[0]) if session.is_table else words[0]
        if not reads_as_move(session, word):
            return []  # chatter, not a move
        return await self.move(ctx, session, word)

    async def named_solo(self, ctx: Ctx, args: list[str]) -> tuple[Session | None, Reply | None]:
        """The solo game ``/undo``, ``/resign`` or ``/board`` acts on: the one of the game
        ``args`` names, else the most recently touched; (None, refusal) when there is none."""
        core = self.core
        game_id = None
        if args:
            game_id = game_id_of(args[0])
            if game_id not in SOLO_GAMES or len(args) > 1:
                return None, core.refuse(ctx, "game.unknown", game=" ".join(args)[:32],
                                         games=core.games_list(ctx.lang, SOLO_GAMES))  # fmt: skip
        session = await core.solo(ctx, game_id)
        if session is None and game_id is not None:
            return None, await core.no_game(ctx, game_id)
        return session, None

    async def cmd_undo(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        session, refusal = await self.named_solo(ctx, args)
        if refusal is not None:
            return [refusal]
        if session is None:
            table = await self.core.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
            if table is not None and ctx.user in table.record.players:
                return [self.core.refuse(ctx, "undo.table")]
            return [await self.core.no_game(ctx)]
        return await self.undo(ctx, session, None)

    async def cmd_resign(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        core = self.core
        session, refusal = await self.named_solo(ctx, args)
        if refusal is not None:
            return [refusal]
        if session is None:
            table = await core.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
            if table is not None and ctx.user in table.record.players:
                return [core.refuse(ctx, "resign.table")]
            return [await core.no_game(ctx)]
        return await self.resign(ctx, session, None)

    async def cmd_board(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        core = self.core
        session, refusal = await self.named_solo(ctx, args)
        if refusal is not None:
            return [refusal]
        if session is None:
            session = await core.sessions.table_of(ctx.req.platform, ctx.req.chat_id)
        if session is None:
            return [await core.no_game(ctx)]
        async with core.sessions.lock(session.id):
            return [await core.board(ctx, session, fresh=True)]

    # ----- moves, undo, resign (commands and buttons) ----------------------------------------
    async def move(
        self, ctx: Ctx, session: Session, text: str, revision: int | None = None
    ) -> list[Reply]:
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
                refusal = core.illegal(ctx, error, session)
                if revision is None and not session.is_table:  # typed, not a button on its board
                    mine = await core.sessions.solos_of(ctx.req.platform, ctx.req.chat_id, ctx.user)
                    if len(mine) > 1:  # several games open: say which one refused it
                        name = core.game_name(ctx.lang, session.record.game_id)
                        refusal.text = i18n.t(
                            ctx.lang, "move.in_game", game=name, text=refusal.text
                        )
                return [refusal]
            if finishable(session) and await core.store.autofinish(ctx.req.platform, ctx.user):
                await self.auto_finish(ctx, session)
            return await core.after_change(ctx, session)

    async def auto_finish(self, ctx: Ctx, session: Session) -> None:
        """Under the session's lock: play every card up to the foundations, each a normal
        stored move (replays and results check them like the player's own); stops when no
        card can go up (never expected once ``finishable``: then the player goes on)."""
        game = session.game
        assert game is not None
        foundations = pile_ids(game.view(None), "foundation")
        while not game.is_over:
            up = [m for m in game.legal_moves() if m.dst in foundations]
            if not up:
                return
            await self.core.sessions.play(session, str(up[0]), ctx.user, ctx.now)

    async def cmd_autofinish(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        """``/autofinish [on|off]``: whether the bot plays the sender's last cards to the
        foundations in Solitario and Canfield; without a word it switches the setting."""
        core = self.core
        platform = ctx.req.platform
        if len(args) > 1 or (args and args[0].lower() not in ("on", "off")):
            return [core.refuse(ctx, "autofinish.usage")]
        on = (
            args[0].lower() == "on" if args else not await core.store.autofinish(platform, ctx.user)
        )
        await core.store.set_autofinish(platform, ctx.user, on)
        return [core.private(ctx, "autofinish.on" if on else "autofinish.off")]

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
            return [
                board,
                core.end_message(ctx, session),
                *await core.solo_ended(ctx, session, "resign"),
            ]

    # ----- buttons ----------------------------------------------------------------------------
    async def press_move(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        return await self.move(ctx, session, action.arg, action.revision)

    async def press_undo(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        return await self.undo(ctx, session, action.revision)

    async def press_resign(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        return await self.resign(ctx, session, action.revision)

    async def press_again(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        """ "Play again" under a finished solo game: a new deal of the same game, faces and
        options, for whoever presses it (a casual game, even after the daily)."""
        rec = session.record
        if session.is_open:
            return [self.core.refuse(ctx, "button.stale")]
        wanted = PlayArgs(rec.game_id, rec.faces, None, dict(rec.options))
        return await self.cmd_play(ctx, wanted)

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
