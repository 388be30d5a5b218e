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
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

import engine
from engine.game import Outcome

LANGUAGES: tuple[str, ...] = ("en", "es", "it")
DEFAULT = "en"

LOCALES_DIR = Path(__file__).resolve().parent / "locales"


@dataclass(frozen=True, slots=True)
class _Entry:
    """One message: a single text, or plural forms chosen by ``count``."""

    forms: tuple[str, ...]
    plural: bool


@dataclass(frozen=True, slots=True)
class _Language:
    entries: Mapping[str, _Entry]
    plural_index: Any  # callable n -> form index, from the catalogue's Plural-Forms header


def _read_language(lang: str) -> _Language:
    entries: dict[str, _Entry] = {}
    plural_expr = "(n != 1)"
    folder = LOCALES_DIR / lang
    for path in sorted(folder.glob("*.po")) if folder.is_dir() else ():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=path.stem)
        plural_expr = catalog.plural_expr or plural_expr
        for message in catalog:
            if not message.id:
                continue  # the header
            string = message.string
            if isinstance(message.id, tuple):
                forms = tuple(string) if isinstance(string, tuple | list) else ()
                key, plural = message.id[0], True
            else:
                forms = (string if isinstance(string, str) else "",)
                key, plural = str(message.id), False
            # An empty or fuzzy translation is "not translated": fall back to English.
            if message.fuzzy or not all(forms):
                continue
            entries[key] = _Entry(forms, plural)
    return _Language(entries, gettext.c2py(plural_expr))


@cache
def _language(lang: str) -> _Language:
    return _read_language(lang)


def reload() -> None:
    """Forget the cached catalogues (tests and translators editing .po files use this)."""
    _language.cache_clear()


def normalise(lang: str | None) -> str:
    """A supported language code for ``lang`` (``"es_AR"`` -> ``"es"``, unknown -> English).

    >>> normalise("it-IT"), normalise("fr"), normalise(None)
    ('it', 'en', 'en')
    """
    if not lang:
        return DEFAULT
    base = lang.replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else DEFAULT


class _LocaleFormatter(string.Formatter):
    """``str.format`` plus the locale-aware specs ``n``, ``%`` and ``$`` (see module doc)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "n" and isinstance(value, int | float):
            return format_decimal(value, locale=self.lang)
        if format_spec == "%" and isinstance(value, int | float):
            return format_percent(value, locale=self.lang)
        if format_spec == "$" and isinstance(value, int | float):
            return dollars(value)
        if format_spec.startswith("#") and isinstance(value, int):
            return t(self.lang, format_spec[1:], count=value)
        if format_spec == "cap":
            text = str(value)
            return text[:1].upper() + text[1:]
        return super().format_field(value, format_spec)


def dollars(amount: float) -> str:
    """Canfield dollars, one way everywhere (the board's header, /stats, leaderboards, shares).

    >>> dollars(40), dollars(-15), t("it", "lb.dollars", dollars=-40)
    ('$40', '-$15', '-$40')
    """
    whole = int(amount)
    return f"-${-whole}" if whole < 0 else f"${whole}"


def _lookup(lang: str, key: str) -> tuple[str, _Entry]:
    lang = normalise(lang)
    entry = _language(lang).entries.get(key)
    if entry is None and lang != DEFAULT:
        lang, entry = DEFAULT, _language(DEFAULT).entries.get(key)
    if entry is None:
        raise KeyError(f"no text for key {key!r}")
    return lang, entry


def t(lang: str, key: str, **params: Any) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in.

    Unknown language -> English; key missing in that language -> the English text; key missing
    everywhere, or a placeholder without its parameter -> ``KeyError`` (so tests catch typos).

    >>> t("es", "button.draw")
    'Robar'
    >>> t("en", "no.such.key")
    Traceback (most recent call last):
    ...
    KeyError: "no text for key 'no.such.key'"
    """
    found_lang, entry = _lookup(lang, key)
    text = entry.forms[0]
    if entry.plural:
        count = params.get("count")
        if count is None:
            raise KeyError(f"plural key {key!r} needs a 'count' parameter")
        index = _language(found_lang).plural_index(abs(int(count)))
        text = entry.forms[min(index, len(entry.forms) - 1)]
    pieces = _pieces(text)
    if pieces is None:  # an indexed or nested field: the general formatter
        return _formatter(found_lang).vformat(text, (), params)
    formatter = _formatter(found_lang)
    parts = []
    for literal, name, spec, conversion in pieces:
        parts.append(literal)
        if name is not None:
            value = params[name]  # a missing parameter: KeyError, as str.format says it
            if conversion:
                value = formatter.convert_field(value, conversion)
            parts.append(formatter.format_field(value, spec))
    return "".join(parts)


#: a text cut at its placeholders: (literal text, field name, format spec, conversion)
_Piece = tuple[str, str | None, str, str | None]
#: texts cut once (every text of the catalogues fits: they are what is formatted)
_PIECES_LIMIT = 8192


@lru_cache(maxsize=_PIECES_LIMIT)
def _pieces(text: str) -> tuple[_Piece, ...] | None:
    """``text`` cut at its placeholders once, instead of on every ``t`` (``string.Formatter``
    parses the text anew each time); None when a field is indexed, dotted, positional or has a
    nested spec (then the general formatter runs).

    >>> _pieces("{n} pts, {game:cap}!")
    (('', 'n', '', None), (' pts, ', 'game', 'cap', None), ('!', None, '', None))
    >>> t("en", "button.undo") == "Undo", _pieces("{0}"), _pieces("{a[0]}")
    (True, None, None)
    """
    pieces: list[_Piece] = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None and (not name.isidentifier() or "{" in (spec or "")):
            return None
        pieces.append((literal, name, spec or "", conversion))
    return tuple(pieces)


@cache
def _formatter(lang: str) -> _LocaleFormatter:
    """One formatter per language (it keeps nothing but the language)."""
    return _LocaleFormatter(lang)


def has_key(key: str) -> bool:
    """Whether ``key`` has a text (in English, which every key must have).

    >>> has_key("button.undo"), has_key("button.nope")
    (True, False)
    """
    return key in _language(DEFAULT).entries


#: the words the renderer draws on boards (``board.word.<key>``); the bot passes them to
#: ``renderer.render(..., words=board_words(lang))`` since the renderer never imports bot
BOARD_WORDS: tuple[str, ...] = (
    "score",
    "moves",
    "stock",
    "waste",
    "reserve",
    "turned",
    "next",
    "deal",
    *(o.value for o in Outcome),
    "hand",
    "masters",
    "cards",
    "turn",
    "points",
    "your_hand",
    "place",
    "done",
    "redeals",
    "final",
    "empty_hand",
    # each game's board title (``GameInfo.title``: a fact of the game, not a catalogue text)
    *(f"title_{game_id}" for game_id in engine.GAMES),
)


def board_words(lang: str) -> dict[str, str]:
    """Every board word in ``lang``, for the renderer.

    >>> board_words("it")["score"], board_words("es")["stock"]
    ('Punti', 'Mazo')
    """
    return dict(_board_words(lang))


@cache
def _board_words(lang: str) -> dict[str, str]:
    # the catalogues never change while the bot runs, and every board asks: look them up once
    titles = {f"title_{game_id}": engine.game_info(game_id).title(lang) for game_id in engine.GAMES}
    return {key: titles.get(key) or t(lang, f"board.word.{key}") for key in BOARD_WORDS}


def keys(lang: str = DEFAULT) -> frozenset[str]:
    """Every key that has a text in ``lang`` (its own, not the English fallback)."""
    return frozenset(_language(normalise(lang)).entries)


def raw_forms(lang: str, key: str) -> tuple[str, ...]:
    """The unformatted text(s) of ``key`` in ``lang`` itself (no fallback); for checks."""
    entry = _language(normalise(lang)).entries[key]
    return entry.forms


def language_name(lang: str, in_lang: str) -> str:
    """The name of language ``lang`` written in ``in_lang``, from Babel's CLDR data.

    >>> language_name("es", "es"), language_name("it", "en"), language_name("en", "it")
    ('español', 'Italian', 'inglese')
    """
    try:
        name = Locale.parse(normalise(in_lang)).languages.get(lang)
    except (UnknownLocaleError, ValueError):
        name = None
    return name or lang


# --- cards -------------------------------------------------------------------------------

#: face styles that draw Italian suits (denari, coppe, bastoni, spade); "francesi" draws French ones
ITALIAN_FACES = frozenset({"napoletane", "piacentine"})
FRENCH_FACES = "francesi"

_SUIT_SYMBOLS = {"d": "♦", "h": "♥", "c": "♣", "s": "♠"}
_RANK_SYMBOLS = {"french52": "A23456789TJQK", "italian40": "A234567JQK"}


def _parse_card(code: str, deck: str) -> tuple[int, str]:
    """(rank number, suit letter) of a card code, or ``ValueError``."""
    code = code.strip()
    if code[:2] == "10":
        code = "T" + code[2:]
    symbols = _RANK_SYMBOLS.get(deck, _RANK_SYMBOLS["french52"])
    if len(code) != 2 or code[0].upper() not in symbols or code[1].lower() not in _SUIT_SYMBOLS:
        raise ValueError(f"not a card code: {code!r}")
    return symbols.index(code[0].upper()) + 1, code[1].lower()


def _italian_style(deck: str | None, faces: str | None) -> bool:
    """Italian suits and ranks are drawn only on the Italian deck; a French deck always shows
    French faces, whatever face style the player chose for Solitario."""
    return faces in ITALIAN_FACES and deck == "italian40"


def _rank_key(rank: int, deck: str, faces: str) -> str:
    if _italian_style(deck, faces):
        return f"card.rank.italian.{rank}"
    if deck == "italian40" and rank >= 8:
        # The French face of an Italian Fante/Cavallo/Re shows J/Q/K (the seed's table).
        rank += 3
    return f"card.rank.french.{rank}"


def card_name(code: str, deck: str, faces: str, lang: str) -> str:
    """The full name of a card in ``lang``, following the face style.

    Italian faces (napoletane, piacentine) use Italian suits and Spanish-deck names in Spanish;
    English uses coins, cups, batons, swords. French faces use hearts, diamonds, clubs, spades.

    >>> card_name("Ah", "italian40", "napoletane", "it")
    'Asso di coppe'
    >>> card_name("Ah", "italian40", "piacentine", "es"), card_name("Qd", "italian40", "napoletane", "en")
    ('As de copas', 'Knight of coins')
    >>> card_name("Ah", "french52", "francesi", "en"), card_name("Qs", "french52", "napoletane", "it")
    ('Ace of hearts', 'Donna di picche')
    """
    rank, suit = _parse_card(code, deck)
    style = "italian" if _italian_style(deck, faces) else "french"
    return t(
        lang,
        "card.name",
        rank=t(lang, _rank_key(rank, deck, faces)),
        suit=t(lang, f"card.suit.{style}.{suit}"),
    )


def card_label(
    code: str, deck: str | None = None, faces: str | None = None, lang: str = DEFAULT
) -> str:
    """A card as a player reads it in a sentence: symbols for French faces (``7♣``, ``10♦``),
    the full name for Italian faces, symbols when the faces are not known.

    >>> card_label("Tc"), card_label("7c", "french52", "francesi", "es")
    ('10♣', '7♣')
    >>> card_label("Kd", "italian40", "piacentine", "it")
    'Re di denari'
    """
    deck = deck or "french52"
    if faces is not None and _italian_style(deck, faces):
        try:
            return card_name(code, deck, faces, lang)
        except ValueError:
            return code
    try:
        rank, suit = _parse_card(code, deck)
    except ValueError:
        return code
    symbol = _RANK_SYMBOLS.get(deck, _RANK_SYMBOLS["french52"])[rank - 1]
    return ("10" if symbol == "T" else symbol) + _SUIT_SYMBOLS[suit]


# --- piles, errors, rules, help ------------------------------------------------------------

#: every game id (the engine's games)
GAME_IDS: tuple[str, ...] = tuple(engine.GAMES)


def game_name(lang: str, game_id: str) -> str:
    """How a game is called in ``lang`` (the names are the game's own facts, ``GameInfo``).

    >>> game_name("es", "imaginary13"), game_name("it", "imaginary13")
    ('Trece Imaginario', 'Tredici Immaginario')
    """
    return engine.game_info(game_id).name(normalise(lang))


def game_names(lang: str, game_ids: list[str] | tuple[str, ...]) -> str:
    """The games' names as one phrase in ``lang``.

    >>> game_names("es", list(engine.GAMES)[:2]), game_names("it", ["imaginary13"])
    ('Solitario y Canfield', 'Tredici Immaginario')
    """
    return format_list([game_name(lang, game_id) for game_id in game_ids], locale=normalise(lang))


def pile_name(lang: str, pile: str, game_id: str | None = None) -> str:
    """A pile id of the move notation (``docs/views.md``) as words.

    ``s`` stock, ``w`` waste, ``r`` reserve, ``t`` turned card, ``f1``-``f4`` foundations,
    ``1``-``7`` columns, ``a``-``d`` waste piles. A game calls a pile its own way with a key
    ``pile.<kind>.<game id>`` in the catalogues (Solitario's waste is the seed's "mazzetto";
    Imaginary Thirteen's ``1``-``8`` are foundations). Anything else comes back as it is.

    >>> pile_name("en", "3"), pile_name("it", "w"), pile_name("es", "f2")
    ('column 3', 'scarto', 'fundación 2')
    >>> pile_name("en", "3", "imaginary13"), pile_name("it", "b", "imaginary13")
    ('foundation 3', 'scarto b')
    """
    pile = str(pile).strip().lower()
    simple = {"s": "stock", "w": "waste", "r": "reserve", "t": "turned", "f": "foundation"}
    params: dict[str, Any] = {}
    if pile in simple:
        kind = simple[pile]
    # ASCII digits only: "²".isdigit() is true, but int("²") fails
    elif pile.isascii() and pile.isdigit():
        kind, params = "column_n", {"n": int(pile)}
    elif pile[:1] == "f" and pile[1:].isascii() and pile[1:].isdigit():
        kind, params = "foundation_n", {"n": int(pile[1:])}
    elif pile in ("a", "b", "c", "d"):
        kind, params = "waste_pile_n", {"n": pile}
    else:
        return pile
    own = f"pile.{kind}.{game_id}"
    return t(lang, own if has_key(own) else f"pile.{kind}", **params)


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
