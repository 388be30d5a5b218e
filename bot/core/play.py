"""The solo-game lifecycle the core owns: ``/play``, ``/move``, ``/undo``, ``/resign``,
``/board``, ``/autofinish``, plain-text moves, the board buttons (mv, sel, back, found,
undo, resign, again) and the answers to the bot's questions (pick, yes, no).

A player may keep one open casual game per game in a chat, the day's ranked dailies beside
them, a race board and a seat at the table (``bot.core.focus``). A typed move, ``/move`` and
``/board`` go to the game in focus (the one last shown or played); words name a game
(``/board daily``, ``/undo canfield``, ``/resign table``). ``/undo`` and ``/resign`` with
several games open ask which, one button per game, and change nothing until the player picks.
Resigning a ranked daily, a race or a table game asks Yes/No (No after a minute), and so does
the board's Resign button, always.

Registered into the registry like any feature (``register``), so dispatch treats them alike;
table moves arrive here too (``/move`` and a hand's ``mv`` buttons)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from bot import i18n
from bot.core import buttons as button_ids
from bot.core import focus as focus_words
from bot.core.board_words import text_words
from bot.core.buttons import ButtonAction
from bot.core.commands import (
    ALL_GAMES,
    ITALIAN_FACES,
    MoveText,
    PlayArgs,
    ascii_number,
    game_id_of,
    parse_play,
    random_deal,
)
from bot.core.context import Ctx
from bot.core.focus import CASUAL, OpenGame
from bot.core.keyboards import pile_ids
from bot.core.registry import Registry
from bot.core.room import make_room
from bot.core.service import Service
from bot.core.session import Session, iso
from bot.replies import Button, Reply
from bot.storage import AlreadyExists, Confirmation
from engine import BadSetup, IllegalMove

#: a plain-text chat line is tried as a move only when, spaces left out, it is this short
MAX_PLAIN_MOVE = 16
#: where a plain line that is no move gets an answer: the console, the one place that reads
#: bare moves (README); in a group chat it is people talking next to a game, left alone
ANSWERS_EVERY_LINE = frozenset({"console"})
#: piles that must be empty for auto-finish (besides every card face up)
AUTO_FINISH_EMPTY = ("stock", "waste", "reserve")


def finishable(session: Session) -> bool:
    """Whether the bot may play out the game: a game that allows it (``GameInfo.auto_finish``:
    Solitario, Canfield), every card face up, and
    stock, waste and reserve empty (then each tableau column is a descending run and the cards
    go up to the foundations one by one, with no choice left for the player).

    The waste must be empty too: with cards there and no stock, the order they come off can
    still matter, so those games are left to the player."""
    game = session.game
    if game is None or game.is_over or not game.info.auto_finish:
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


#: ``/board full``: the whole board, in the three languages
FULL_WORDS = frozenset({"full", "whole", "completo", "entero", "intero", "tutto"})


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
        registry.button("pick", self.press_which)
        registry.button("yes", self.press_yes)
        registry.button("no", self.press_no)
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

    async def cmd_move(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        if not args:
            return [self.core.refuse(ctx, "move.usage")]
        typed = MoveText.read(ctx.lang, " ".join(args))
        targets = await self.core.move_targets(ctx, typed)
        if not targets:
            # no game reads it: the game in focus refuses it in its own words
            session = await self.core.game_for_move(ctx)
            if session is None:
                return [await self.core.no_game(ctx)]
            return await self.move(ctx, session, typed.notation(session.is_table))
        return await self.typed_move(ctx, typed, targets)

    async def plain_text(self, ctx: Ctx, words: list[str]) -> list[Reply]:
        """A chat line without a command: a move when, its spaces left out (``3 6`` is
        ``36``, as ``/move 3 6`` is), it is a short word one of the sender's games reads as
        one (legal or not: an illegal one is refused as ``/move`` refuses it). Anything else
        is chatter: no reply in a chat, and in the console (where every line is meant for
        the bot) what was tried and where help is."""
        text = "".join(words)
        if text and len(text) <= MAX_PLAIN_MOVE and not text.startswith("#"):
            typed = MoveText.read(ctx.lang, text)
            targets = await self.core.move_targets(ctx, typed)
            if targets:
                return await self.typed_move(ctx, typed, targets)
        if ctx.req.platform not in ANSWERS_EVERY_LINE or not text:
            return []  # chatter, not a move
        return [await self.not_a_move(ctx, " ".join(words))]

    async def not_a_move(self, ctx: Ctx, line: str) -> Reply:
        """The console's answer to a line that is neither a command nor a move of the
        sender's games: the games it was tried in, and where help is."""
        shown = line if len(line) <= 24 else line[:23] + "…"
        games = [g for g in await self.core.open_games(ctx) if g.session.game is not None]
        if not games:
            reply = self.core.refuse(ctx, "plain.no_game", text=shown)
        elif len({g.game_id for g in games}) == 1:
            reply = self.core.refuse(
                ctx,
                "plain.not_a_move",
                text=shown,
                word=games[0].game_id,
                game=focus_words.label(ctx.lang, games[0]),
            )
        else:
            names = ", ".join(focus_words.label(ctx.lang, g) for g in games)
            reply = self.core.refuse(ctx, "plain.not_a_move_several", text=shown, games=names)
        if line.isascii() and line.isdigit():  # "99": perhaps a button meant
            reply.text += " " + i18n.t(ctx.lang, "plain.button", number=line)
        return reply

    async def typed_move(self, ctx: Ctx, typed: MoveText, targets: list[OpenGame]) -> list[Reply]:
        """A typed move for the one game meant; when several of the sender's games (none of
        them in focus) read it, ask which, one button per game, and play nothing yet."""
        if len(targets) > 1:
            arg = f"move:{typed.text}"
            if arg.isascii() and len(arg) <= MAX_PLAIN_MOVE + 5:
                return [
                    await self.ask_which(ctx, targets, arg, "focus.which_move", move=typed.text)
                ]
        session = targets[0].session
        return await self.move(ctx, session, typed.notation(session.is_table))

    async def target(
        self, ctx: Ctx, args: list[str], action: str
    ) -> tuple[OpenGame | None, Reply | None]:
        """The game a command means: the one its words name (``daily``, ``canfield``,
        ``table``, ``daily canfield``); without words, for ``board`` the game in focus, and
        for what loses or takes back something (``resign``, ``undo``) the only game, else a
        question with one button per game. (game, None) or (None, the answer to give)."""
        core = self.core
        games = await core.open_games(ctx, lobby=action == "board")
        if action == "resign":  # a lobby has nothing to resign: /leave stands up
            games = [g for g in games if g.session.game is not None]
        if args:
            found = focus_words.matching(ctx.lang, games, args)
            if found is None:
                word = focus_words.unknown_word(ctx.lang, args)
                kinds = ", ".join(focus_words.kind_word(ctx.lang, k) for k in focus_words.KINDS)
                return None, core.refuse(
                    ctx,
                    "focus.unknown",
                    word=word[:32],
                    kinds=kinds,
                    games=core.games_list(ctx.lang, ALL_GAMES),
                )
            if not found:
                game_id = game_id_of(args[0])
                if len(args) == 1 and game_id is not None:
                    return None, await core.no_game(ctx, game_id)
                return None, core.refuse(
                    ctx,
                    "focus.none_named",
                    words=" ".join(args)[:40],
                    games=self.games_here(ctx, games),
                )
            if len(found) == 1:
                return found[0], None
            return None, await self.ask_which(ctx, found, action, f"focus.which_{action}")
        if not games:
            return None, await core.no_game(ctx)
        if action == "board" or len(games) == 1:
            return (await core.focused(ctx, games) or core.default_game(ctx, games)), None
        if action == "undo":
            undoable = [g for g in games if await self.may_undo(g)]
            if not undoable:
                return None, core.refuse(ctx, "undo.none_here", games=self.games_here(ctx, games))
            games = undoable
        return None, await self.ask_which(ctx, games, action, f"focus.which_{action}")

    def games_here(self, ctx: Ctx, games: list[OpenGame]) -> str:
        """The sender's games here in words, for answers that list them."""
        if not games:
            return i18n.t(ctx.lang, "focus.no_games")
        return ", ".join(focus_words.label(ctx.lang, g) for g in games)

    async def may_undo(self, game: OpenGame) -> bool:
        """Whether the game allows taking a move back: a casual solo game with moves."""
        session = game.session
        if game.kind != CASUAL or session.is_table or session.record.ranked:
            return False
        for guard in self.core.registry.undo_forbidden:
            if await guard(session):
                return False
        return session.game is not None and bool(session.game.moves)

    async def ask_which(
        self, ctx: Ctx, games: list[OpenGame], action: str, key: str, **params: str
    ) -> Reply:
        """ "Which game?": one button per game, named in words ("Daily Canfield, move 14");
        nothing changes until the player presses one."""
        answer = self.core.say(ctx, key, name=ctx.req.user_name, **params)
        answer.buttons = [
            # two a row (at most five rows on Discord); keyed by the game, so on the console a
            # game keeps its number from question to question
            Button(
                button_ids.encode("pick", g.session.id, g.session.record.revision, action),
                focus_words.described(ctx.lang, g),
                i // 2,
                "primary",
                key=f"game:{g.session.id}",
            )
            for i, g in enumerate(games)
        ]
        answer.params["games"] = [g.session.id for g in games]
        return answer

    async def cmd_undo(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        game, answer = await self.target(ctx, args, "undo")
        if game is None:
            return [answer] if answer is not None else []
        return await self.undo(ctx, game.session, None)

    async def cmd_resign(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        game, answer = await self.target(ctx, args, "resign")
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
        game, answer = await self.target(ctx, args, "board")
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

    # ----- moves, undo, resign (commands and buttons) ----------------------------------------
    async def move(
        self, ctx: Ctx, session: Session, text: str, revision: int | None = None
    ) -> list[Reply]:
        """Play ``text``, in the engine's notation (a table's move words already read: see
        ``MoveText``), or ``#n``, the n-th legal move (a button whose notation is too long).
        ``revision``: a button's, refused when the board has moved on."""
        core = self.core
        async with core.sessions.lock(session.id):
            refusal = core.refusal(ctx, session, revision, need_turn=True)
            if refusal is not None:
                return [refusal]
            game = session.game
            assert game is not None
            index = ascii_number(text[1:]) if text.startswith("#") else None
            if index is not None:
                legal = game.legal_moves(ctx.user)
                if index >= len(legal):
                    return [core.refuse(ctx, "button.stale")]
                text = str(legal[index])
            refused: Reply | None = None
            # at a table, the seats the bot plays may answer in the same transaction
            table_move = core.registry.table_move if session.is_table else None
            try:
                await core.sessions.play(
                    session,
                    text,
                    ctx.user,
                    ctx.now,
                    None if table_move is None else lambda s: table_move(ctx, s),
                )
            except IllegalMove as error:
                refused = core.illegal(ctx, error, session)
            else:
                if finishable(session) and await core.store.players.autofinish(
                    ctx.req.platform, ctx.user
                ):
                    await self.auto_finish(ctx, session)
                replies = await core.after_change(ctx, session)
        if refused is not None:
            # typed (not a button on its board) with several games open: say which refused it
            # (outside the lock: listing the games locks each of them)
            if revision is None and len(await core.open_games(ctx)) > 1:
                refused.text = i18n.t(
                    ctx.lang, "move.in_game", game=await core.label(ctx, session), text=refused.text
                )
            return [refused]
        await core.focus_on(ctx, session)
        return replies

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
    async def press_move(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        return await self.move(ctx, session, action.arg, action.revision)

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
            return await self.move(ctx, session, typed.notation(session.is_table))
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

    async def press_pick(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        """sel / back / found: they need the current position."""
        core = self.core
        async with core.sessions.lock(session.id):
            refusal = core.refusal(ctx, session, action.revision, need_turn=True)
            if refusal is not None:
                return [refusal]
            game = session.game
            assert game is not None
            if action.verb in ("back", "sel"):
                if action.verb == "sel" and not any(
                    str(m.src) == action.arg for m in game.legal_moves()
                ):
                    return [core.refuse(ctx, "button.stale")]
                selected = action.arg if action.verb == "sel" else None
                board = await core.board(ctx, session, selected=selected)
                await core.focus_on(ctx, session)  # a button on its board: the game they mean
                return [board]
            foundations = pile_ids(game.view(None), "foundation")
            to_found = [m for m in game.legal_moves() if m.dst in foundations]
            if action.arg != "*":
                to_found = [m for m in to_found if str(m.src) == action.arg]
            if not to_found:
                return [core.refuse(ctx, "found.none")]
            text = str(to_found[0])
        return await self.move(ctx, session, text, action.revision)
