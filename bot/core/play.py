"""The solo-game lifecycle the core owns: ``/play``, ``/undo``, ``/resign``, ``/board``,
``/autofinish``, the board buttons (undo, resign, again) and the answers to the bot's
questions (pick, yes, no); the moves themselves (``/move``, plain-text moves, mv, sel, back,
found) are ``bot.core.moves``'.

A player may keep one open casual game per game in a chat, the day's ranked dailies beside
them, a race board and a seat at the table (``bot.core.focus``). ``/board`` goes to the game
in focus (the one last shown or played); words name a game (``/board daily``, ``/undo
canfield``, ``/resign table``). ``/undo`` and ``/resign`` with several games open ask which,
one button per game (``bot.core.which``), and change nothing until the player picks.
Resigning a ranked daily, a race or a table game asks Yes/No (No after a minute), and so does
the board's Resign button, always.

Registered into the registry like any feature (``register``), so dispatch treats them alike."""

from __future__ import annotations

import engine
from bot import i18n
from bot.core import which
from bot.core.board_words import text_words
from bot.core.buttons import ButtonAction
from bot.core.commands import (
    ITALIAN_FACES,
    MoveText,
    PlayArgs,
    parse_play,
    random_deal,
)
from bot.core.context import Ctx
from bot.core.focus import CASUAL, OpenGame
from bot.core.moves import Moves
from bot.core.registry import Registry
from bot.core.room import make_room
from bot.core.service import Service
from bot.core.session import Session, iso
from bot.replies import Reply
from bot.storage import AlreadyExists, Confirmation
from engine import BadSetup, IllegalMove


def already_playing(ctx: Ctx, core: Service, game_id: str) -> Reply:
    """The refusal of a second casual game of ``game_id`` here."""
    return core.refuse(
        ctx, "play.already_playing", game=core.game_name(ctx.lang, game_id), word=game_id
    )


#: ``/board full``: the whole board, in the three languages
FULL_WORDS = frozenset({"full", "whole", "completo", "entero", "intero", "tutto"})


class SoloPlay:
    """Commands and buttons that play, undo and resign (see module doc)."""

    def __init__(self, core: Service) -> None:
        self.core = core
        self.moves = Moves(core)

    def register(self, registry: Registry) -> None:
        self.moves.register(registry)
        registry.command("play", self.cmd_play, parse_play)
        registry.command("board", self.cmd_board)
        registry.command("undo", self.cmd_undo)
        registry.command("resign", self.cmd_resign)
        registry.command("autofinish", self.cmd_autofinish)
        registry.button("undo", self.press_undo)
        registry.button("resign", self.press_resign)
        registry.button("again", self.press_again, "solo")
        registry.button("pick", self.press_which)
        registry.button("yes", self.press_yes)
        registry.button("no", self.press_no)

    # ----- commands -------------------------------------------------------------------------
    async def cmd_play(self, ctx: Ctx, wanted: PlayArgs) -> list[Reply]:
        core = self.core
        game_id, faces, deal = wanted.game_id, wanted.faces, wanted.deal
        # One casual game per game: a Canfield beside a Solitario, or beside today's daily.
        if any(s.record.game_id == game_id and not s.record.ranked for s in await core.solos(ctx)):
            return [already_playing(ctx, core, game_id)]
        if faces is None:
            faces = engine.game_info(game_id).default_faces
        if deal is None:
            deal = random_deal(game_id)
        else:
            for guard in core.registry.play_guard:
                refusal = await guard(ctx, game_id, deal, wanted.options)
                if refusal is not None:
                    return [refusal]
        try:
            session = await core.sessions.new_solo(
                ctx.req.platform,
                ctx.req.chat_id,
                ctx.user,
                ctx.req.user_name,
                game_id,
                wanted.options,
                deal,
                faces,
                iso(ctx.now),
            )
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
        started = core.say(
            ctx,
            "play.started",
            name=ctx.req.user_name,
            game=core.game_name(ctx.lang, game_id),
            deal=deal,
        )
        replies = [started, await core.board(ctx, session, fresh=True)]
        await core.focus_on(ctx, session)
        if session.game is not None and session.game.is_over:
            # Some deals are dead from the start: say how it ended, as after a last move.
            replies.append(core.end_message(ctx, session))
        else:  # one more open game: the player's oldest idle one beyond the cap is closed
            replies += await make_room(core, ctx, session)
        return replies

    async def cmd_undo(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        game, answer = await which.target(self.core, ctx, args, "undo")
        if game is None:
            return [answer] if answer is not None else []
        return await self.undo(ctx, game.session, None)

    async def cmd_resign(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        game, answer = await which.target(self.core, ctx, args, "resign")
        if game is None:
            return [answer] if answer is not None else []
        return await self.resign_asked(ctx, game)

    async def resign_asked(self, ctx: Ctx, game: OpenGame, button: bool = False) -> list[Reply]:
        """Resign ``game``: at once for a casual game named by command; after a Yes for a
        ranked daily, a race or a table game, and always from the board's Resign button."""
        if button or game.kind != CASUAL:
            refusal = self.core.refusal(ctx, game.session, None, need_turn=False)
            if refusal is not None:
                return [refusal]
            return [await self.core.ask_confirmation(ctx, game.session, "resign")]
        return await self.resign(ctx, game.session, None)

    async def cmd_board(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        # "/board full [game]": the whole board, however large (Squadratik boards are drawn
        # for a phone otherwise: what a move needs, the rest of each path counted);
        # "/board text [game]": the board in words only, for a screen reader
        full = any(arg.lower() in FULL_WORDS for arg in args)
        in_words = any(arg.casefold() in text_words() for arg in args)
        args = [a for a in args if a.lower() not in FULL_WORDS and a.casefold() not in text_words()]
        game, answer = await which.target(self.core, ctx, args, "board")
        if game is None:
            return [answer] if answer is not None else []
        if in_words:
            async with self.core.sessions.lock(game.session.id):
                return [self.core.presenter.text_board(ctx, game.session)]
        return await self.show_board(ctx, game.session, full)

    async def show_board(self, ctx: Ctx, session: Session, full: bool = False) -> list[Reply]:
        """The board again, posted anew; it is now the sender's game in focus. ``full``: the
        whole board, however large."""
        core = self.core
        async with core.sessions.lock(session.id):
            board = await core.board(ctx, session, fresh=True, full=full)
        await core.focus_on(ctx, session)
        return [board]

    async def cmd_autofinish(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        """``/autofinish [on|off]``: whether the bot plays the sender's last cards to the
        foundations in the games that allow it (``GameInfo.auto_finish``); without a word it
        switches the setting."""
        core = self.core
        platform = ctx.req.platform
        if len(args) > 1 or (args and args[0].lower() not in ("on", "off")):
            return [core.refuse(ctx, "autofinish.usage")]
        on = (
            args[0].lower() == "on"
            if args
            else not await core.store.players.autofinish(platform, ctx.user)
        )
        await core.store.players.set_autofinish(platform, ctx.user, on)
        finishing = [game_id for game_id, cls in engine.GAMES.items() if cls.info.auto_finish]
        games = i18n.game_names(ctx.lang, finishing)
        return [core.private(ctx, "autofinish.on" if on else "autofinish.off", games=games)]

    async def undo(self, ctx: Ctx, session: Session, revision: int | None) -> list[Reply]:
        core = self.core
        async with core.sessions.lock(session.id):
            refusal = core.refusal(ctx, session, revision, need_turn=False)
            if refusal is not None:
                return [refusal]
            name = await core.label(ctx, session)
            if session.is_table:
                return [core.refuse(ctx, "undo.table", game=name)]
            forbidden = session.record.ranked
            for guard in core.registry.undo_forbidden:
                forbidden = forbidden or await guard(session)
            if forbidden:
                return [core.refuse(ctx, "undo.not_allowed", game=name)]
            try:
                await core.sessions.undo(session, iso(ctx.now))
            except IllegalMove as error:
                if error.reason == "nothing_to_undo":
                    return [core.refuse(ctx, "undo.nothing", game=name)]
                return [core.illegal(ctx, error)]
            board = await core.board(ctx, session)
        await core.focus_on(ctx, session)
        return [board]

    async def resign(self, ctx: Ctx, session: Session, revision: int | None) -> list[Reply]:
        core = self.core
        async with core.sessions.lock(session.id):
            refusal = core.refusal(ctx, session, revision, need_turn=False)
            if refusal is not None:
                return [refusal]
            if session.is_table:  # a table game is left (its seat plays on by itself)
                leave = core.registry.leave_table
                if leave is None:
                    return [core.refuse(ctx, "game.not_active")]
                return await leave(ctx, session)
            await core.sessions.resign(session, ctx.now)
            board = await core.board(ctx, session)
            return [
                board,
                core.end_message(ctx, session),
                *await core.solo_ended(ctx, session, "resign"),
            ]

    # ----- buttons ----------------------------------------------------------------------------
    async def press_undo(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        return await self.undo(ctx, session, action.revision)

    async def press_resign(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        """The board's Resign button always asks first (one press never ends a game)."""
        refusal = self.core.refusal(ctx, session, action.revision, need_turn=False)
        if refusal is not None:
            return [refusal]
        return await self.resign_asked(ctx, await self.core.open_game(ctx, session), button=True)

    async def press_which(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        """A "which game?" button: the action the player asked for, on the game they picked."""
        core = self.core
        if ctx.user not in session.record.players:
            return [core.refuse(ctx, "game.not_your_game")]
        if not session.is_open:
            return [core.refuse(ctx, "focus.game_over", game=await core.label(ctx, session))]
        what = action.arg
        if what == "board":
            return await self.show_board(ctx, session)
        if session.game is None and what != "leave":
            return [core.refuse(ctx, "game.not_active")]
        if what == "undo":
            return await self.undo(ctx, session, None)
        if what == "resign":
            return await self.resign_asked(ctx, await core.open_game(ctx, session))
        if what.startswith("move:"):
            typed = MoveText.read(ctx.lang, what.removeprefix("move:"))
            return await self.moves.move(ctx, session, typed.notation(session.is_table))
        return [core.private(ctx, "button.unknown")]

    async def press_yes(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        """Yes to a stored question: do what was asked, unless the minute is over (then it was
        No: nothing changes, and the player is told) or it was answered already."""
        core = self.core
        asked = await self.question(ctx, session, action.arg)
        if isinstance(asked, Reply):
            return [asked]
        what = asked.action
        if ctx.now.timestamp() > asked.expires_at:
            return [core.refuse(ctx, "confirm.expired", game=await core.the_label(ctx, session))]
        if what == "leave" or session.is_table:
            leave = core.registry.leave_table
            if leave is None:
                return [core.refuse(ctx, "game.not_active")]
            return await leave(ctx, session)
        return await self.resign(ctx, session, None)

    async def press_no(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        """No to a stored question: nothing changes, and the chat reads that the game goes on."""
        asked = await self.question(ctx, session, action.arg)
        if isinstance(asked, Reply):
            return [asked]
        return [self.core.say(ctx, "confirm.kept", game=await self.core.the_label(ctx, session))]

    async def question(self, ctx: Ctx, session: Session, question_id: str) -> Confirmation | Reply:
        """The sender's stored question about ``session``, taken so it is answered once; else
        the refusal (someone else's question, answered already)."""
        core = self.core
        asked = await core.store.focus.confirmation(question_id)
        if asked is None:
            return core.refuse(ctx, "confirm.answered")
        where = (asked.platform, asked.chat_id, asked.session_id)
        if where != (ctx.req.platform, ctx.req.chat_id, session.id):
            return core.private(ctx, "button.unknown")
        if asked.player_id != ctx.user:
            return core.refuse(ctx, "confirm.not_yours", name=session.name_of(asked.player_id))
        taken = await core.store.focus.take_confirmation(question_id)
        if taken is None:  # answered a moment ago (a double press, another process)
            return core.refuse(ctx, "confirm.answered")
        return taken

    async def press_again(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        """ "Play again" under a finished solo game: a new deal of the same game, faces and
        options, for whoever presses it (a casual game, even after the daily)."""
        rec = session.record
        if session.is_open:
            return [self.core.refuse(ctx, "button.stale")]
        wanted = PlayArgs(rec.game_id, rec.faces, None, dict(rec.options))
        return await self.cmd_play(ctx, wanted)
