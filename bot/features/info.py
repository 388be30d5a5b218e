"""``/rules``, ``/help`` and ``/lang``: what the games are, what the commands do, and the
chat's language."""

from __future__ import annotations

from bot import i18n
from bot.core import focus
from bot.core.commands import ALL_GAMES, game_id_of
from bot.core.context import Ctx
from bot.core.registry import Registry
from bot.core.service import Service
from bot.features.race_rules import race_games
from bot.features.table_rules import table_game
from bot.replies import Reply


def game_named(lang: str, word: str) -> str | None:
    """The game a word names as everywhere: a game's name, or a kind that is one game (a
    ``table`` is the table game's, a ``race`` the race's game); None for any other word."""
    game_id = game_id_of(word)
    if game_id is not None:
        return game_id
    kind = focus.word_kind(lang, word)
    if kind == focus.TABLE:
        return table_game()
    return next(iter(race_games()), None) if kind == focus.RACE else None


def register(registry: Registry, core: Service) -> None:
    def unknown_game(ctx: Ctx, word: str) -> Reply:
        return core.refuse(
            ctx, "game.unknown", game=word[:32], games=core.games_list(ctx.lang, ALL_GAMES)
        )

    async def rules(ctx: Ctx, args: list[str]) -> list[Reply]:
        if not args:
            return [core.refuse(ctx, "rules.usage", games=core.games_list(ctx.lang, ALL_GAMES))]
        game_id = game_named(ctx.lang, args[0])
        if game_id is None:
            return [unknown_game(ctx, args[0])]
        return [
            Reply(
                key="rules.text", text=i18n.rules_text(ctx.lang, game_id), params={"game": game_id}
            )
        ]

    async def help_(ctx: Ctx, args: list[str]) -> list[Reply]:
        if args and i18n.is_games_word(args[0]):  # /help games: one line per game
            return [Reply(key="help.games", text=page) for page in i18n.games_help(ctx.lang)]
        game_id = None
        if args:
            game_id = game_named(ctx.lang, args[0])
            if game_id is None:
                return [unknown_game(ctx, args[0])]
        return [
            Reply(key="help.text", text=i18n.help_text(ctx.lang, game_id), params={"game": game_id})
        ]

    async def lang(ctx: Ctx, args: list[str]) -> list[Reply]:
        choices = ", ".join(i18n.LANGUAGES)
        if len(args) != 1:
            return [core.refuse(ctx, "lang.usage", languages=choices)]
        code = args[0].lower()
        if code not in i18n.LANGUAGES:
            return [core.refuse(ctx, "lang.unknown", code=args[0][:16], languages=choices)]
        if ctx.req.is_group and not ctx.req.is_admin:
            return [core.refuse(ctx, "lang.admins_only")]
        await core.store.players.set_chat_language(ctx.req.platform, ctx.req.chat_id, code)
        return [core.reply(code, "lang.set", language=i18n.language_name(code, code))]

    registry.command("rules", rules)
    registry.command("help", help_)
    registry.command("lang", lang)
