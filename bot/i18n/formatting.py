"""Filling a text in: ``t(lang, key, **params)`` and the locale-aware format specs of its
placeholders (numbers, percentages, Canfield dollars, counted nouns, a capital first letter)."""

from __future__ import annotations

import string
from functools import cache, lru_cache
from typing import Any

from babel.numbers import format_decimal, format_percent

from bot.i18n.catalogue import catalogue_for, lookup


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
        formatted: str = super().format_field(value, format_spec)
        return formatted


def dollars(amount: float) -> str:
    """Canfield dollars, one way everywhere (the board's header, /stats, leaderboards, shares).

    >>> dollars(40), dollars(-15), t("it", "lb.dollars", dollars=-40)
    ('$40', '-$15', '-$40')
    """
    whole = int(amount)
    return f"-${-whole}" if whole < 0 else f"${whole}"


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
    found_lang, entry = lookup(lang, key)
    text = entry.forms[0]
    if entry.plural:
        count = params.get("count")
        if count is None:
            raise KeyError(f"plural key {key!r} needs a 'count' parameter")
        index = catalogue_for(found_lang).plural_index(abs(int(count)))
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
