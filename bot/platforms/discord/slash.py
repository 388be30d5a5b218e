"""Discord slash commands: their options, autocompletion and translations. Each handler only
forwards its words to the client's ``on_command``, which hands them to the core."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.core.commands import ALL_GAMES as GAMES
from bot.core.commands import COMMANDS, FACES, SOLO_GAMES, ascii_number
from bot.core.focus import KINDS, kind_word
from bot.features import race_rules, table_rules
from bot.platforms.discord.messages import (
    _LOCALE_LANG,
    LANGUAGES,
    face_name,
    game_name,
    lang_of,
    language_name,
    text,
)
from bot.replies import Mention
from bot.storage import DEFAULT_TIMER_SECONDS

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger(__name__)

#: /challenge turn timer and /race time limit, in minutes: the features' own bounds (they check
#: them; the options only offer what they take)
MAX_TIMER_MINUTES = table_rules.MAX_TIMER_MINUTES
MAX_RACE_MINUTES = race_rules.MAX_MINUTES
DEFAULT_TIMER_MINUTES = DEFAULT_TIMER_SECONDS // 60
#: what the /challenge ``timer`` option offers while typing (any 1-1440 may be typed)
TIMER_SUGGESTIONS = (1, 2, 3, 5, 10, 30, 60, 180, 720, 1440)
UNTIMED = "untimed"


class CommandSink(Protocol):
    """The client side a slash command goes to."""

    async def on_command(
        self, interaction: discord.Interaction, name: str, *args: object
    ) -> None: ...


# ----- slash commands ----------------------------------------------------------------------------
def _d(name: str, english: str) -> locale_str:
    """A command description: English here, other languages from the core's command list."""
    return locale_str(english, kind="command", name=name)


def _o(key: str) -> locale_str:
    """An option description or choice name from the adapter's table."""
    return locale_str(text("en", key), kind="text", key=key)


class CommandTranslator(app_commands.Translator):
    """Localises descriptions for Discord's Spanish and Italian clients."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._commands: dict[str, dict[str, str]] = {}

    async def load(self) -> None:
        for lang in LANGUAGES:
            try:
                self._commands[lang] = {
                    name: desc[:100] for name, desc in self.core.command_list(lang)
                }
            except Exception:  # a core without its texts yet: English only
                log.exception("no command list for %s", lang)
                self._commands[lang] = {}

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = _LOCALE_LANG.get(locale)
        if lang is None:
            return None
        if string.extras.get("kind") == "command":
            return self._commands.get(lang, {}).get(string.extras["name"])
        if string.extras.get("kind") == "text":
            return text(lang, string.extras["key"])[:100]
        return None


def _choices(
    interaction: discord.Interaction, current: str, items: Iterable[tuple[str, str]]
) -> list[app_commands.Choice[str]]:
    needle = current.strip().lower()
    return [
        app_commands.Choice(name=label[:100], value=value)
        for value, label in items
        if not needle or needle in value.lower() or needle in label.lower()
    ][:25]


async def complete_solo_game(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    return _choices(interaction, current, ((g, game_name(lang, g)) for g in SOLO_GAMES))


async def complete_game(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    return _choices(interaction, current, ((g, game_name(lang, g)) for g in GAMES))


async def complete_named_game(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """/board, /undo, /resign, /hint: a game's name, or which one (daily, table, race)."""
    lang = lang_of(interaction)
    words = (kind_word(lang, kind) for kind in KINDS)
    kinds = ((word, word) for word in words)
    games = ((g, game_name(lang, g)) for g in GAMES)
    return _choices(interaction, current, (*kinds, *games))


async def complete_faces(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    return _choices(interaction, current, ((f, face_name(lang, f)) for f in FACES))


async def complete_language(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    return _choices(
        interaction,
        current,
        (
            (code, f"{language_name(code, code)} ({language_name(code, lang)})")
            for code in LANGUAGES
        ),
    )


async def complete_timer(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Turn timer choices for /challenge: "untimed", the number being typed, common values."""
    lang = lang_of(interaction)
    typed = current.strip()
    number = ascii_number(typed)
    minutes = [number] if number is not None and 1 <= number <= MAX_TIMER_MINUTES else []
    minutes += [
        m
        for m in TIMER_SUGGESTIONS
        if m not in minutes and (number is None or str(m).startswith(typed))
    ]

    def label(m: int) -> str:
        return text(
            lang, "timer.default" if m == DEFAULT_TIMER_MINUTES else "timer.minutes", minutes=m
        )

    items = [(UNTIMED, text(lang, "timer.untimed"))] + [(str(m), label(m)) for m in minutes]
    if number is not None:
        return [
            app_commands.Choice(name=name[:100], value=value)
            for value, name in items
            if value != UNTIMED
        ][:25]
    return _choices(interaction, typed, items)


def timer_argument(value: str | None) -> str | None:
    """The core's /challenge word for the ``timer`` option: ``timer=<minutes>`` or ``untimed``.

    >>> timer_argument("5"), timer_argument(" Untimed "), timer_argument(None), timer_argument("5 m")
    ('timer=5', 'untimed', None, 'timer=5m')
    """
    if value is None or not value.strip():
        return None
    cleaned = "".join(value.split()).lower()
    return UNTIMED if cleaned == UNTIMED else f"timer={cleaned}"


_PERIODS = [app_commands.Choice(name=_o(f"choice.{p}"), value=p) for p in ("today", "week", "all")]
_SCOPES = [app_commands.Choice(name=_o(f"choice.{s}"), value=s) for s in ("here", "global")]
#: /leaderboard's web option: this channel's private page link, or a new one (the old revoked)
_WEB_LINKS = [app_commands.Choice(name=_o(f"choice.web_{w}"), value=w) for w in ("link", "new")]
#: /web's action: the player's page, off the public pages, back on them
_WEB_ACTIONS = [app_commands.Choice(name=_o(f"choice.web_{w}"), value=w) for w in ("hide", "show")]


def _mention(user: discord.abc.User | None) -> Mention | None:
    """A user option: a person Discord itself resolved (the adapter writes ``<@id>``)."""
    return None if user is None else Mention(str(user.id), user.display_name)


def register_commands(tree: app_commands.CommandTree, client: CommandSink) -> None:
    """Add Tavolo's slash commands to ``tree``; each handler only forwards to the core."""
    run = client.on_command

    @tree.command(name="play", description=_d("play", "Start a solo game"))
    @app_commands.describe(game=_o("option.game"), faces=_o("option.faces"), deal=_o("option.deal"))
    @app_commands.autocomplete(game=complete_solo_game, faces=complete_faces)
    async def play(
        interaction: discord.Interaction,
        game: str,
        faces: str | None = None,
        deal: app_commands.Range[int, 0, 2_000_000_000] | None = None,
    ) -> None:
        await run(interaction, "play", game, faces, deal)

    @tree.command(name="daily", description=_d("daily", "Today's daily challenge"))
    @app_commands.describe(game=_o("option.game"))
    @app_commands.autocomplete(game=complete_solo_game)
    async def daily(interaction: discord.Interaction, game: str) -> None:
        await run(interaction, "daily", game)

    @tree.command(
        name="challenge", description=_d("challenge", "Open a Cartas Maestras table here")
    )
    @app_commands.describe(
        player1=_o("option.player"),
        player2=_o("option.player"),
        player3=_o("option.player"),
        timer=_o("option.timer"),
    )
    @app_commands.autocomplete(timer=complete_timer)
    async def challenge(
        interaction: discord.Interaction,
        player1: discord.User | None = None,
        player2: discord.User | None = None,
        player3: discord.User | None = None,
        timer: app_commands.Range[str, 1, 16] | None = None,
    ) -> None:
        players = (_mention(p) for p in (player1, player2, player3))
        await run(interaction, "challenge", *players, timer_argument(timer))

    @tree.command(name="race", description=_d("race", "Race on the same Solitario deal"))
    @app_commands.describe(minutes=_o("option.minutes"), senza_tempo=_o("option.senza_tempo"))
    async def race(
        interaction: discord.Interaction,
        minutes: app_commands.Range[int, 1, MAX_RACE_MINUTES] | None = None,
        senza_tempo: bool = False,
    ) -> None:
        await run(interaction, "race", minutes, "senza-tempo" if senza_tempo else None)

    @tree.command(name="kick", description=_d("kick", "Remove a player from the table"))
    @app_commands.describe(player=_o("option.kick_player"))
    async def kick(interaction: discord.Interaction, player: discord.User) -> None:
        await run(interaction, "kick", _mention(player))

    @tree.command(name="replay", description=_d("replay", "An animated replay of your last game"))
    @app_commands.describe(game=_o("option.replay_game"))
    @app_commands.autocomplete(game=complete_game)
    async def replay(interaction: discord.Interaction, game: str | None = None) -> None:
        await run(interaction, "replay", game)

    @tree.command(name="move", description=_d("move", "Play a move in text notation"))
    @app_commands.describe(text=_o("option.text"))
    async def move(interaction: discord.Interaction, text: app_commands.Range[str, 1, 100]) -> None:
        await run(interaction, "move", text)

    @tree.command(name="stats", description=_d("stats", "Games, wins, best scores, streaks"))
    @app_commands.describe(player=_o("option.player"))
    async def stats(interaction: discord.Interaction, player: discord.User | None = None) -> None:
        await run(interaction, "stats", _mention(player))

    @tree.command(name="leaderboard", description=_d("leaderboard", "Leaderboards"))
    @app_commands.describe(
        game=_o("option.game"),
        period=_o("option.period"),
        scope=_o("option.scope"),
        web=_o("option.web_link"),
    )
    @app_commands.autocomplete(game=complete_game)
    @app_commands.choices(period=_PERIODS, scope=_SCOPES, web=_WEB_LINKS)
    async def leaderboard(
        interaction: discord.Interaction,
        game: str | None = None,
        period: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
        web: app_commands.Choice[str] | None = None,
    ) -> None:
        if web is not None:  # /leaderboard web [new]: the channel's private page
            await run(interaction, "leaderboard", "web", "new" if web.value == "new" else None)
            return
        await run(interaction, "leaderboard", game, period and period.value, scope and scope.value)

    @tree.command(name="web", description=_d("web", "Your web page"))
    @app_commands.describe(action=_o("option.web_action"))
    @app_commands.choices(action=_WEB_ACTIONS)
    async def web_page(
        interaction: discord.Interaction, action: app_commands.Choice[str] | None = None
    ) -> None:
        await run(interaction, "web", action and action.value)

    @tree.command(name="forgetme", description=_d("forgetme", "Delete what Tavolo keeps about you"))
    @app_commands.describe(confirm=_o("option.forgetme_confirm"))
    async def forgetme(interaction: discord.Interaction, confirm: bool = False) -> None:
        await run(interaction, "forgetme", "confirm" if confirm else None)

    @tree.command(name="rules", description=_d("rules", "The rules of a game"))
    @app_commands.describe(game=_o("option.game"))
    @app_commands.autocomplete(game=complete_game)
    async def rules(interaction: discord.Interaction, game: str) -> None:
        await run(interaction, "rules", game)

    @tree.command(name="lang", description=_d("lang", "This channel's language"))
    @app_commands.describe(language=_o("option.language"))
    @app_commands.autocomplete(language=complete_language)
    async def lang(interaction: discord.Interaction, language: str) -> None:
        await run(interaction, "lang", language)

    # the game in focus, or the one named: a game's name, or daily, table, race
    named = {
        "undo": "Take back the last move",
        "hint": "A hint",
        "resign": "Give up this game",
        "board": "Post the board again",
    }
    for name, english in named.items():
        tree.add_command(_named_game_command(name, english, run))
    # a channel may hold a race and a table at once: these say which, when both fit
    lobby = {
        "join": "Join the table",
        "leave": "Leave the table",
        "start": "Start the table's game",
        "end": "End this channel's table",
    }
    for name, english in lobby.items():
        tree.add_command(_lobby_command(name, english, run))
    simple = {
        "hand": "Your hand (privately)",
        "help": "Commands and notation",
        "addbot": "Seat a computer player at the table",
    }
    for name, english in simple.items():
        tree.add_command(_simple_command(name, english, run))
    # Every core command has a slash command: one the core gained after this list was
    # written is registered too, without options (its description from the catalogue).
    for name in COMMANDS:
        if tree.get_command(name) is None:
            tree.add_command(_simple_command(name, _english_description(name), run))


def _english_description(name: str) -> str:
    """A command's English description from the core's catalogue (its name if it has none)."""
    try:
        from bot import i18n

        return i18n.t("en", f"cmd.{name}")[:100]
    except (ImportError, KeyError):
        return name


def _named_game_command(
    name: str, english: str, run: Callable[..., Awaitable[None]]
) -> app_commands.Command[Any, Any, None]:
    """A command acting on one of the player's games: an optional ``game`` option."""

    @app_commands.describe(game=_o("option.which_game"))
    @app_commands.autocomplete(game=complete_named_game)
    async def forward(interaction: discord.Interaction, game: str | None = None) -> None:
        await run(interaction, name, *(game.split() if game else ()))

    return app_commands.Command(name=name, description=_d(name, english), callback=forward)


#: which of a channel's race and table a lobby command means (the core's English kind words)
_LOBBIES = [app_commands.Choice(name=_o(f"choice.{k}"), value=k) for k in ("race", "table")]


def _lobby_command(
    name: str, english: str, run: Callable[..., Awaitable[None]]
) -> app_commands.Command[Any, Any, None]:
    """A lobby command with an optional ``which`` choice: the race or the table."""

    @app_commands.describe(which=_o("option.which_lobby"))
    @app_commands.choices(which=_LOBBIES)
    async def forward(
        interaction: discord.Interaction, which: app_commands.Choice[str] | None = None
    ) -> None:
        await run(interaction, name, which and which.value)

    return app_commands.Command(name=name, description=_d(name, english), callback=forward)


def _simple_command(
    name: str, english: str, run: Callable[..., Awaitable[None]]
) -> app_commands.Command[Any, Any, None]:
    async def forward(interaction: discord.Interaction) -> None:
        await run(interaction, name)

    return app_commands.Command(name=name, description=_d(name, english), callback=forward)
