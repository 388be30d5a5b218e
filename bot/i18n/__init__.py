"""Every text the bot writes, in English, Spanish and Italian.

Texts live in gettext catalogues, ``bot/i18n/locales/<lang>/*.po``; the ``msgid`` of each entry
is a dotted key (``play.started``) and its ``msgstr`` the text, with ``str.format`` placeholders
(``{name}``). All files of one language are read once, on first use, with Babel and merged into
one table. Nothing is compiled and nothing is downloaded.

>>> t("en", "button.undo")
'Undo'
>>> t("xx", "button.undo")       # unknown language: English
'Undo'
>>> t("it", "button.undo")
'Annulla'

Placeholders may carry a locale-aware format spec, so numbers read naturally in each language:

* ``{n:n}`` — a number with the language's separators (``1,234`` / ``1.234``),
* ``{p:%}`` — a fraction as a percentage (``0.25`` -> ``25%`` / ``25 %``),
* ``{m:$}`` — an amount of (Canfield) dollars as the board draws it in every language
  (``$40``, ``-$15``: see :func:`dollars`),
* ``{n:#count.moves}`` — a counted noun: the plural entry ``count.moves`` with ``count=n``
  (``1 move`` / ``2 moves``), so one message can hold several counts,
* ``{game:cap}`` — the value with a capital first letter, where it starts a sentence or a
  button: a game in words starts lower case in Spanish and Italian ("mesa de Cartas Maestras").

Plural entries (``msgid``/``msgid_plural``) pick their form from the ``count`` parameter
using the catalogue's ``Plural-Forms`` header.

The package re-exports its public names; each concept has its module: ``languages`` (which
language, its name), ``catalogue`` (reading and merging the .po files, plural forms),
``formatting`` (``t`` and the format specs), ``words`` (board words, cards, games, piles),
``explanations`` (refusal reasons, rules, help pages).
"""

from __future__ import annotations

from bot.i18n.catalogue import has_key, keys, raw_forms, reload
from bot.i18n.explanations import (
    GAME_IDS,
    HELP_LIMIT,
    games_help,
    help_text,
    is_games_word,
    reason_text,
    rules_text,
)
from bot.i18n.formatting import dollars, t
from bot.i18n.languages import DEFAULT, LANGUAGES, language_name, normalise
from bot.i18n.words import (
    BOARD_WORDS,
    FRENCH_FACES,
    ITALIAN_FACES,
    board_words,
    card_label,
    card_name,
    game_name,
    game_names,
    pile_name,
)

__all__ = [
    "BOARD_WORDS",
    "DEFAULT",
    "FRENCH_FACES",
    "GAME_IDS",
    "HELP_LIMIT",
    "ITALIAN_FACES",
    "LANGUAGES",
    "board_words",
    "card_label",
    "card_name",
    "dollars",
    "game_name",
    "game_names",
    "games_help",
    "has_key",
    "help_text",
    "is_games_word",
    "keys",
    "language_name",
    "normalise",
    "pile_name",
    "raw_forms",
    "reason_text",
    "reload",
    "rules_text",
    "t",
]
