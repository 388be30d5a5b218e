"""The few texts the Discord adapter writes itself, in English, Spanish and Italian.

Command descriptions come from the core (``Core.command_list``); this table holds what only
Discord needs: option descriptions, choice names, and short acknowledgements. ``bot.i18n`` is
asked first (keys ``discord.<key>``), so translators can override any of these in the catalogues.

>>> text("es", "option.game")
'Juego'
>>> text("xx", "ack.done")
'Done.'
"""

from __future__ import annotations

from typing import Any

_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "option.game": "Game",
        "option.faces": "Card faces (Solitario)",
        "option.deal": "Deal number (same number, same cards)",
        "option.text": "The move in the game's notation, e.g. w3 or 7f",
        "option.player": "A player to invite",
        "option.period": "Time span",
        "option.scope": "This channel or everyone",
        "option.language": "Language",
        "option.minutes": "Time limit in minutes",
        "option.timer": "Turn timer in minutes (1-1440), or untimed",
        "option.senza_tempo": "No time limit (senza tempo): a tie on top replays a new deal",
        "option.kick_player": "The player to remove from the table",
        "option.replay_game": "Only your last game of this kind",
        "timer.untimed": "untimed: no turn timer",
        "timer.minutes": "{minutes} min",
        "timer.default": "{minutes} min (default)",
        "choice.today": "today",
        "choice.week": "this week",
        "choice.all": "all time",
        "choice.here": "this channel",
        "choice.global": "everyone",
        "ack.done": "Done.",
        "ack.board": "Board updated: {link}",
        "nudge.hand": "{mention} it is your turn: use /hand to see your cards.",
        "error.busy": "Something went wrong; nothing was changed. Please try again.",
    },
    "es": {
        "option.game": "Juego",
        "option.faces": "Naipes (Solitario)",
        "option.deal": "Número de reparto (mismo número, mismas cartas)",
        "option.text": "La jugada en la notación del juego, p. ej. w3 o 7f",
        "option.player": "Un jugador al que invitar",
        "option.period": "Periodo",
        "option.scope": "Este canal o todos",
        "option.language": "Idioma",
        "option.minutes": "Tiempo límite en minutos",
        "option.timer": "Tiempo por turno en minutos (1-1440), o sin tiempo",
        "option.senza_tempo": "Sin límite de tiempo (senza tempo): un empate arriba se juega de nuevo",
        "option.kick_player": "El jugador que quieres quitar de la mesa",
        "option.replay_game": "Solo tu última partida de este juego",
        "timer.untimed": "sin tiempo: ningún límite por turno",
        "timer.minutes": "{minutes} min",
        "timer.default": "{minutes} min (por defecto)",
        "choice.today": "hoy",
        "choice.week": "esta semana",
        "choice.all": "siempre",
        "choice.here": "este canal",
        "choice.global": "todos",
        "ack.done": "Hecho.",
        "ack.board": "Tablero actualizado: {link}",
        "nudge.hand": "{mention} te toca: usa /hand para ver tus cartas.",
        "error.busy": "Algo ha fallado; no ha cambiado nada. Inténtalo de nuevo.",
    },
    "it": {
        "option.game": "Gioco",
        "option.faces": "Carte (Solitario)",
        "option.deal": "Numero di smazzata (stesso numero, stesse carte)",
        "option.text": "La mossa nella notazione del gioco, es. w3 o 7f",
        "option.player": "Un giocatore da invitare",
        "option.period": "Periodo",
        "option.scope": "Questo canale o tutti",
        "option.language": "Lingua",
        "option.minutes": "Tempo limite in minuti",
        "option.timer": "Tempo per turno in minuti (1-1440), o senza tempo",
        "option.senza_tempo": "Senza limite di tempo (senza tempo): un pari in testa si rigioca",
        "option.kick_player": "Il giocatore da togliere dal tavolo",
        "option.replay_game": "Solo la tua ultima partita di questo gioco",
        "timer.untimed": "senza tempo: nessun limite per turno",
        "timer.minutes": "{minutes} min",
        "timer.default": "{minutes} min (predefinito)",
        "choice.today": "oggi",
        "choice.week": "questa settimana",
        "choice.all": "sempre",
        "choice.here": "questo canale",
        "choice.global": "tutti",
        "ack.done": "Fatto.",
        "ack.board": "Tavolo aggiornato: {link}",
        "nudge.hand": "{mention} tocca a te: usa /hand per vedere le tue carte.",
        "error.busy": "Qualcosa è andato storto; non è cambiato nulla. Riprova.",
    },
}

#: game names shown in autocomplete when the catalogues have none
_GAME_NAMES: dict[str, str] = {
    "solitario": "Solitario",
    "canfield": "Canfield",
    "imaginary13": "Imaginary Thirteen",
    "squadratik": "Squadratik: El Solitario",
    "maestras": "Cartas Maestras",
}

_FACE_NAMES: dict[str, str] = {
    "napoletane": "Napoletane",
    "piacentine": "Piacentine",
    "francesi": "Francesi",
}


def _catalogue(lang: str, key: str, **params: Any) -> str | None:
    """The text of ``key`` from ``bot.i18n`` when it has one (it may not exist yet)."""
    try:
        from bot import i18n
    except ImportError:
        return None
    try:
        if not i18n.has_key(key):
            return None
        return i18n.t(lang, key, **params)
    except (KeyError, ValueError, AttributeError):
        return None


def text(lang: str, key: str, **params: Any) -> str:
    """The adapter's text ``key`` in ``lang`` (English when unknown).

    >>> text("it", "ack.board", link="https://x")
    'Tavolo aggiornato: https://x'
    """
    found = _catalogue(lang, f"discord.{key}", **params)
    if found is not None:
        return found
    table = _TEXTS.get(lang, _TEXTS["en"])
    return table.get(key, _TEXTS["en"][key]).format(**params)


def game_name(lang: str, game_id: str) -> str:
    """How a game is called in ``lang``.

    >>> game_name("en", "imaginary13")
    'Imaginary Thirteen'
    """
    return _catalogue(lang, f"game.{game_id}") or _GAME_NAMES.get(game_id, game_id)


def face_name(lang: str, faces: str) -> str:
    """How a face style is called in ``lang``."""
    return _catalogue(lang, f"faces.{faces}") or _FACE_NAMES.get(faces, faces)


def language_name(lang: str, in_lang: str) -> str:
    """The name of ``lang`` in ``in_lang`` (``bot.i18n`` knows CLDR names)."""
    try:
        from bot import i18n

        return i18n.language_name(lang, in_lang)
    except (ImportError, AttributeError):
        return {"en": "English", "es": "Español", "it": "Italiano"}.get(lang, lang)


LANGUAGES: tuple[str, ...] = ("en", "es", "it")
