"""Things of the games in words: the words boards draw, cards, game names and piles."""

from __future__ import annotations

from functools import cache
from typing import Any

from babel.lists import format_list

import engine
from bot.i18n.catalogue import has_key
from bot.i18n.formatting import t
from bot.i18n.languages import DEFAULT, normalise
from engine.game import Outcome

#: the words the renderer draws on boards from the catalogues (``board.word.<key>``); the bot
#: passes them to ``renderer.render(..., words=board_words(lang))`` since the renderer never
#: imports bot
CATALOGUE_WORDS: tuple[str, ...] = (
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
)


#: every board word: the catalogues' and each game's board title (``GameInfo.title``: a fact of
#: the game, not a catalogue text), ``title_<game>``
BOARD_WORDS: tuple[str, ...] = (
    *CATALOGUE_WORDS,
    *(f"title_{game_id}" for game_id in engine.GAMES),
)


def board_words(lang: str) -> dict[str, str]:
    """Every board word in ``lang``, for the renderer: the titles of the games registered now.

    >>> board_words("it")["score"], board_words("es")["stock"]
    ('Punti', 'Mazo')
    """
    words = dict(_catalogue_words(lang))
    words.update(
        (f"title_{game_id}", cls.info.title(lang)) for game_id, cls in engine.GAMES.items()
    )
    return words


@cache
def _catalogue_words(lang: str) -> dict[str, str]:
    # the catalogues never change while the bot runs, and every board asks: look them up once
    return {key: t(lang, f"board.word.{key}") for key in CATALOGUE_WORDS}


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
