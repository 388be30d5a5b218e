"""Which game a command means, and the "which game?" question.

A command's words name a game (``/board daily``, ``/undo canfield``, ``/resign table``);
without words ``/board`` means the game in focus, and what loses or takes back something
(``/resign``, ``/undo``) the only game, else the player is asked: one button per game (the
``pick`` verb, answered in ``bot.core.play``), and nothing changes until they press one.
"""

from __future__ import annotations

from bot import i18n
from bot.core import buttons as button_ids
from bot.core import focus as focus_words
from bot.core.commands import ALL_GAMES, game_id_of
from bot.core.context import Ctx
from bot.core.focus import CASUAL, OpenGame
from bot.core.service import Service
from bot.replies import Button, Reply


async def target(
    core: Service, ctx: Ctx, args: list[str], action: str
) -> tuple[OpenGame | None, Reply | None]:
    """The game a command means: the one its words name (``daily``, ``canfield``,
    ``table``, ``daily canfield``); without words, for ``board`` the game in focus, and
    for what loses or takes back something (``resign``, ``undo``) the only game, else a
    question with one button per game. (game, None) or (None, the answer to give)."""
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
                games=games_here(ctx, games),
            )
        if len(found) == 1:
            return found[0], None
        return None, await ask_which(core, ctx, found, action, f"focus.which_{action}")
    if not games:
        return None, await core.no_game(ctx)
    if action == "board" or len(games) == 1:
        return (await core.focused(ctx, games) or core.default_game(ctx, games)), None
    if action == "undo":
        undoable = [g for g in games if await may_undo(core, g)]
        if not undoable:
            return None, core.refuse(ctx, "undo.none_here", games=games_here(ctx, games))
        games = undoable
    return None, await ask_which(core, ctx, games, action, f"focus.which_{action}")


def games_here(ctx: Ctx, games: list[OpenGame]) -> str:
    """The sender's games here in words, for answers that list them."""
    if not games:
        return i18n.t(ctx.lang, "focus.no_games")
    return ", ".join(focus_words.label(ctx.lang, g) for g in games)


async def may_undo(core: Service, game: OpenGame) -> bool:
    """Whether the game allows taking a move back: a casual solo game with moves."""
    session = game.session
    if game.kind != CASUAL or session.is_table or session.record.ranked:
        return False
    for guard in core.registry.undo_forbidden:
        if await guard(session):
            return False
    return session.game is not None and bool(session.game.moves)


async def ask_which(
    core: Service, ctx: Ctx, games: list[OpenGame], action: str, key: str, **params: str
) -> Reply:
    """ "Which game?": one button per game, named in words ("Daily Canfield, move 14");
    nothing changes until the player presses one."""
    answer = core.say(ctx, key, name=ctx.req.user_name, **params)
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
