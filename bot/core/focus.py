"""Which game a player means: their open games in a chat, named in words, and the one in focus.

A player may have, in one chat at once, casual solo games (one per game), the day's ranked
dailies, a race board and a seat at the chat's table. Each is an :class:`OpenGame` with a
``kind``: ``casual``, ``daily``, ``race`` or ``table``, and a name in words ("Daily
Canfield", "Cartas Maestras table") that every reply about it uses.

The game *in focus* is the one whose board the player was last shown at their own request,
or last played on, in this chat. It is stored (``focus`` table), so any process answering the
player's next line agrees. A typed move, ``/move``, ``/hint`` and ``/board`` go to it; words
name a game directly (``/board daily``, ``/undo canfield``, ``/resign table``, ``/board
maestras``).

>>> word_kind("en", "Daily"), word_kind("it", "tavolo"), word_kind("es", "canfield")
('daily', 'table', None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot import i18n
from bot.core.commands import game_id_of
from bot.core.session import Session

CASUAL = "casual"
DAILY = "daily"
RACE = "race"
TABLE = "table"
KINDS: tuple[str, ...] = (CASUAL, DAILY, RACE, TABLE)


@dataclass(frozen=True, slots=True)
class OpenGame:
    """One of a player's open games in a chat, and what kind of game it is to them."""

    session: Session
    kind: str

    @property
    def game_id(self) -> str:
        return self.session.record.game_id


def word_kind(lang: str, word: str) -> str | None:
    """The kind of game a word names (``daily``, ``table``, ``race``, ``casual``) in English
    or the chat's language, else None.

    >>> word_kind("es", "diaria"), word_kind("en", "race")
    ('daily', 'race')
    """
    wanted = word.strip().casefold()
    for kind in KINDS:
        spellings = {kind}
        for language in {lang, i18n.DEFAULT}:
            spellings |= {
                s.strip().casefold() for s in i18n.t(language, f"focus.words.{kind}").split(",")
            }
        if wanted in spellings:
            return kind
    return None


def kind_word(lang: str, kind: str) -> str:
    """The word that names a kind of game in the chat's language (its first spelling).

    >>> kind_word("es", "table"), kind_word("it", "daily")
    ('mesa', 'giornaliera')
    """
    return i18n.t(lang, f"focus.words.{kind}").split(",")[0].strip()


def label(lang: str, game: OpenGame) -> str:
    """The game in words: "Canfield", "Daily Canfield", "Solitario race", "Cartas Maestras
    table"."""
    name = i18n.game_name(lang, game.game_id)
    return i18n.t(lang, f"focus.label.{game.kind}", game=name)


def the_label(lang: str, game: OpenGame) -> str:
    """The game in words with its article or "your", for the middle of a sentence: "your
    Daily Canfield", "la mesa de Cartas Maestras", "il tavolo di Cartas Maestras" (a question
    "¿Abandonar la mesa de Cartas Maestras?" needs the article a bare label lacks)."""
    name = i18n.game_name(lang, game.game_id)
    return i18n.t(lang, f"focus.the.{game.kind}", game=name)


def described(lang: str, game: OpenGame) -> str:
    """A pick button's text: the game in words and how far it is ("Daily Canfield, move 14")."""
    played = game.session.game
    if played is None:  # a table still in its lobby
        return i18n.t(lang, "focus.pick_lobby", game=label(lang, game))
    return i18n.t(lang, "focus.pick_game", game=label(lang, game), move=played.move_number)


def matching(lang: str, games: Sequence[OpenGame], words: Sequence[str]) -> list[OpenGame] | None:
    """The games every word names (a game's name or a kind: ``daily canfield``); None when a
    word names no game and no kind at all (the caller says which word it did not know)."""
    found = list(games)
    for word in words:
        kind = word_kind(lang, word)
        if kind is not None:
            found = [g for g in found if g.kind == kind]
            continue
        game_id = game_id_of(word)
        if game_id is None:
            return None
        found = [g for g in found if g.game_id == game_id]
    return found


def unknown_word(lang: str, words: Sequence[str]) -> str:
    """The first word that names neither a game nor a kind (for the refusal)."""
    for word in words:
        if word_kind(lang, word) is None and game_id_of(word) is None:
            return word
    return " ".join(words)
