"""Moves, typed or pressed: ``/move``, plain-text moves, the board's move buttons (mv, sel,
back, found) and auto-finish.

A typed move's move word is read once (``MoveText``: ``pasar`` is ``pass`` at a table) and
goes to the game in focus when it reads it; else to the one other game that does, and when
several do the player is asked which (``bot.core.which``). A plain chat line is a move only
when, its spaces left out, it is a short word one of the sender's games reads as one; other
chatter gets no reply, except in the console. Table moves arrive here too (``/move`` and a
hand's ``mv`` buttons).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import i18n
from bot.core import focus as focus_words
from bot.core import which
from bot.core.buttons import ButtonAction
from bot.core.commands import MoveText, ascii_number
from bot.core.context import Ctx
from bot.core.focus import OpenGame
from bot.core.keyboards import pile_ids
from bot.core.registry import Registry
from bot.core.service import Service
from bot.core.session import Session
from bot.replies import Reply
from engine import IllegalMove

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


class Moves:
    """The commands and buttons that play a move (see module doc)."""

    def __init__(self, core: Service) -> None:
        self.core = core

    def register(self, registry: Registry) -> None:
        registry.command("move", self.cmd_move)
        registry.button("mv", self.press_move)
        for verb in ("sel", "back", "found"):
            registry.button(verb, self.press_pick, "solo")

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
                    await which.ask_which(
                        self.core, ctx, targets, arg, "focus.which_move", move=typed.text
                    )
                ]
        session = targets[0].session
        return await self.move(ctx, session, typed.notation(session.is_table))

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

    async def press_move(self, ctx: Ctx, session: Session, action: ButtonAction) -> list[Reply]:
        return await self.move(ctx, session, action.arg, action.revision)

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
