"""Which language a player gets: the supported languages, a platform's language code read as
one of them, and a language's name in another (Babel's CLDR data)."""

from __future__ import annotations

from babel import Locale, UnknownLocaleError

LANGUAGES: tuple[str, ...] = ("en", "es", "it")
DEFAULT = "en"


def normalise(lang: str | None) -> str:
    """A supported language code for ``lang`` (``"es_AR"`` -> ``"es"``, unknown -> English).

    >>> normalise("it-IT"), normalise("fr"), normalise(None)
    ('it', 'en', 'en')
    """
    if not lang:
        return DEFAULT
    base = lang.replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else DEFAULT


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
