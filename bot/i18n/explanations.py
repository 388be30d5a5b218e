"""What the bot explains: why a move or a setup is refused (``reason_text``), a game's rules,
the ``/help`` pages and the list of games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from babel.lists import format_list

import engine
from bot.i18n.formatting import t
from bot.i18n.languages import LANGUAGES
from bot.i18n.words import card_label, pile_name

#: every game id (the engine's games)
GAME_IDS: tuple[str, ...] = tuple(engine.GAMES)


#: details keys that hold card codes / pile ids / lists, put into words by ``reason_text``
_CARD_DETAILS = ("card", "onto", "top", "base")
_PILE_DETAILS = ("src", "dst", "pile", "source", "target", "column")
_VALUE_SYMBOLS = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _detail_params(lang: str, details: Mapping[str, Any]) -> dict[str, Any]:
    """``details`` with card codes, rank values, pile ids and lists put into words."""
    deck, faces, game_id = (
        value if isinstance(value, str) else None
        for value in (details.get("deck"), details.get("faces"), details.get("game_id"))
    )
    # A detail without a value (``onto=None``: an empty pile) cannot fill a placeholder, so
    # the message falls back to the reason's generic text.
    params: dict[str, Any] = {name: value for name, value in details.items() if value is not None}
    for name, value in params.items():
        if name in _CARD_DETAILS and isinstance(value, str) and value:
            params[name] = card_label(value, deck, faces, lang)
        elif name in _PILE_DETAILS and isinstance(value, str | int) and str(value):
            params[name] = pile_name(lang, str(value), game_id)
        elif name == "needed" and isinstance(value, int):
            # a rank value (Imaginary Thirteen counts A=1 .. K=13)
            params[name] = _VALUE_SYMBOLS.get(value, str(value))
        elif name == "needed" and isinstance(value, str):
            params[name] = card_label(value, deck, faces, lang)
        elif isinstance(value, list | tuple) and value:
            params[name] = format_list([str(item) for item in value], style="or", locale=lang)
    return params


def reason_text(lang: str, reason: str, details: Mapping[str, Any] | None = None) -> str:
    """A short, specific message for an ``IllegalMove`` / ``BadSetup`` reason code.

    ``details`` are the error's details, plus what the caller knows: ``deck`` and ``faces``
    (card codes are then named for the face style, else shown as ``7♣``) and ``game_id``
    (pile ids of Imaginary Thirteen differ). A message falls back to the reason's generic text
    when a detail it needs is missing, and unknown codes still get a polite answer, so this
    never raises for a code the engines invent later.

    >>> reason_text("en", "not_alternating_colour", {"card": "7c", "onto": "6s"})
    '7♣ cannot go on 6♠: same colour.'
    >>> reason_text("it", "not_alternating_colour", {"card": "Qh", "onto": "Kd",
    ...             "deck": "italian40", "faces": "napoletane"})
    'Cavallo di coppe non può andare su Re di denari: stesso colore.'
    >>> reason_text("en", "not_alternating_colour", {})
    'Cards in a column must alternate red and black.'
    >>> reason_text("es", "must_play_to_foundation", {"card": "7c", "fits": ["3", "5"]})
    '7♣ encaja en la fundación 3 o 5: tiene que ir allí.'
    """
    params = _detail_params(lang, details or {})
    # every game id, for the texts that suggest them (``error.unknown_game``): from the games
    params.setdefault("games", ", ".join(GAME_IDS))
    for key in (f"error.{reason}.detail", f"error.{reason}"):
        try:
            return t(lang, key, **params)
        except (KeyError, IndexError, ValueError):
            continue
    return t(lang, "error.unknown", reason=reason)


def rules_text(lang: str, game_id: str) -> str:
    """The rules summary of one game (under ~1,500 characters: one chat message).

    >>> "Re" in rules_text("it", "solitario")
    True
    """
    if game_id not in GAME_IDS:
        return reason_text(lang, "unknown_game", {"game": game_id})
    return t(lang, f"rules.{game_id}")


def help_text(lang: str, game_id: str | None = None) -> str:
    """The command list (the same whatever games there are: ``/help games`` lists them), or
    one game's page: its move notation, what it offers (card faces, a daily challenge, the
    last cards played home) and a reminder of the commands used while playing.

    >>> "/play" in help_text("en")
    True
    >>> "w3" in help_text("es", "solitario")
    True
    >>> print(help_text("en", "solitario").split("\\n\\n")[1])
    Card faces: napoletane, piacentine, francesi (e.g. /play solitario piacentine)
    Daily challenge: /daily solitario
    I play your last cards home once nothing is left hidden (/autofinish off: you play them).
    """
    if game_id is None:
        return t(lang, "help.commands")
    if game_id not in GAME_IDS:
        return reason_text(lang, "unknown_game", {"game": game_id})
    info = engine.game_info(game_id)
    offers = []
    if len(info.faces) > 1:
        faces = ", ".join(info.faces)
        offers.append(t(lang, "help.page.faces", faces=faces, game=game_id, example=info.faces[1]))
    if info.daily is not None:
        offers.append(t(lang, "help.page.daily", game=game_id))
    if info.auto_finish:
        offers.append(t(lang, "help.page.auto_finish"))
    parts = [t(lang, f"help.{game_id}"), "\n".join(offers), t(lang, "help.in_game")]
    return "\n\n".join(part for part in parts if part)


#: the longest text one help message holds (Discord's limit; Telegram takes 4,096)
HELP_LIMIT = 2000


def is_games_word(word: str) -> bool:
    """Whether ``word`` asks ``/help`` for the list of games, in any language.

    >>> is_games_word("Giochi"), is_games_word("games"), is_games_word("canfield")
    (True, True, False)
    """
    wanted = word.strip().casefold()
    return any(wanted == t(lang, "help.games_word").casefold() for lang in LANGUAGES)


def games_help(lang: str) -> list[str]:
    """``/help games``: every game on a line of its own (its name, how to start it), as many
    messages of at most :data:`HELP_LIMIT` characters as the games need.

    >>> pages = games_help("it")
    >>> len(pages), "• FreeCell — per giocare: /play freecell" in pages[0].splitlines()
    (1, True)
    """
    lines = []
    for game_id in GAME_IDS:
        info = engine.game_info(game_id)
        key = "help.games.table_line" if info.table else "help.games.line"
        lines.append(t(lang, key, name=info.name(lang), game=game_id))
    pages = [t(lang, "help.games.title")]
    for line in lines:
        if len(pages[-1]) + 1 + len(line) > HELP_LIMIT:
            pages.append(line)
        else:
            pages[-1] += "\n" + line
    return pages
