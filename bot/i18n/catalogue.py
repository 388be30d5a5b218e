"""The catalogues: every ``bot/i18n/locales/<lang>/*.po`` file of a language read once, on
first use, with Babel and merged into one table of entries (a single text, or plural forms
chosen by the catalogue's ``Plural-Forms`` header). Nothing is compiled or downloaded."""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from bot.i18n.languages import DEFAULT, normalise

LOCALES_DIR = Path(__file__).resolve().parent / "locales"


@dataclass(frozen=True, slots=True)
class Entry:
    """One message: a single text, or plural forms chosen by ``count``."""

    forms: tuple[str, ...]
    plural: bool


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Every entry of one language, from all its files, and how it picks a plural form."""

    entries: Mapping[str, Entry]
    plural_index: Any  # callable n -> form index, from the catalogue's Plural-Forms header


def _read_language(lang: str) -> Catalogue:
    entries: dict[str, Entry] = {}
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
            entries[key] = Entry(forms, plural)
    return Catalogue(entries, gettext.c2py(plural_expr))


@cache
def catalogue_for(lang: str) -> Catalogue:
    """The catalogue of ``lang`` (a supported code), read on first use."""
    return _read_language(lang)


def reload() -> None:
    """Forget the cached catalogues (tests and translators editing .po files use this)."""
    catalogue_for.cache_clear()


def lookup(lang: str, key: str) -> tuple[str, Entry]:
    """The entry of ``key`` and the language it was found in: ``lang``'s own, else English's;
    ``KeyError`` when no language has it."""
    lang = normalise(lang)
    entry = catalogue_for(lang).entries.get(key)
    if entry is None and lang != DEFAULT:
        lang, entry = DEFAULT, catalogue_for(DEFAULT).entries.get(key)
    if entry is None:
        raise KeyError(f"no text for key {key!r}")
    return lang, entry


def has_key(key: str) -> bool:
    """Whether ``key`` has a text (in English, which every key must have).

    >>> has_key("button.undo"), has_key("button.nope")
    (True, False)
    """
    return key in catalogue_for(DEFAULT).entries


def keys(lang: str = DEFAULT) -> frozenset[str]:
    """Every key that has a text in ``lang`` (its own, not the English fallback)."""
    return frozenset(catalogue_for(normalise(lang)).entries)


def raw_forms(lang: str, key: str) -> tuple[str, ...]:
    """The unformatted text(s) of ``key`` in ``lang`` itself (no fallback); for checks."""
    entry = catalogue_for(normalise(lang)).entries[key]
    return entry.forms
