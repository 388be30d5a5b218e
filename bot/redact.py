"""Secrets out of every text the bot prints: log lines, exception text, start-up errors.

Two nets, both applied by :func:`redact`:

- the secrets the bot knows (tokens, the database password, the webhook secret, registered
  with :func:`add_secret` as soon as they are read or generated), in every spelling they may
  take in a text: as given, percent-encoded and percent-decoded;
- the shapes of secrets whoever logs them: a URL's ``user:password@``, a ``password=`` (or
  ``secret_token=``, ``token=``) parameter, a Telegram bot token, a Discord bot token.

>>> add_secret("s3cr3t/pw")
>>> redact("postgresql://bot:s3cr3t%2Fpw@db/tavolo and s3cr3t/pw")
'postgresql://bot:***@db/tavolo and ***'
>>> redact("GET https://api.telegram.org/bot123456:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ra/getMe")
'GET https://api.telegram.org/bot***/getMe'
>>> redact("postgresql:///tavolo?host=/run/pg&password=hunter2&user=bot")
'postgresql:///tavolo?host=/run/pg&password=***&user=bot'
"""

from __future__ import annotations

import re
import threading
from urllib.parse import parse_qsl, quote, unquote, urlsplit

MASK = "***"
#: shorter values are not treated as secrets (they would mask ordinary words)
_MIN_LENGTH = 4

_lock = threading.Lock()
_secrets: set[str] = set()
#: the known secrets, longest first (a secret containing another is masked whole)
_ordered: tuple[str, ...] = ()

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # scheme://user:password@host -> scheme://user:***@host (also with no user)
    (
        re.compile(r"(?P<head>[a-zA-Z][\w+.-]*://[^\s:/@?#]*):[^\s@/?#]*@"),
        r"\g<head>:" + MASK + "@",
    ),
    # password=..., passwd=..., secret_token=..., token=... in a query, a DSN or keyword form
    (
        re.compile(
            r"(?P<head>\b(?:password|passwd|pwd|sslpassword|secret_token|secret|token|api_key)"
            r"""\s*[=:]\s*['"]?)[^\s&'",;)}]+""",
            re.IGNORECASE,
        ),
        r"\g<head>" + MASK,
    ),
    # a Telegram bot token: digits, colon, 30+ url-safe characters
    (re.compile(r"(?<!\d)\d{5,12}:[A-Za-z0-9_-]{30,}"), MASK),
    # a Discord bot token: three dot-separated base64url parts
    (re.compile(r"\b[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{20,}"), MASK),
)


def spellings(value: str) -> set[str]:
    """Every way ``value`` may be written into a text (as is, URL-encoded, URL-decoded)."""
    found = {value, quote(value, safe=""), quote(value, safe="/"), quote(value), unquote(value)}
    found.add(quote(unquote(value), safe=""))
    return {s for s in found if len(s) >= _MIN_LENGTH}


def add_secret(value: str | None) -> None:
    """From now on, mask ``value`` (in all its spellings) wherever it appears."""
    global _ordered
    if not value or len(value) < _MIN_LENGTH:
        return
    with _lock:
        _secrets.update(spellings(value))
        _ordered = tuple(sorted(_secrets, key=len, reverse=True))


def url_secrets(url: str | None) -> list[str]:
    """The passwords inside a database URL: ``user:password@`` and ``?password=``.

    >>> url_secrets("postgresql://bot:p%40ss@db/x?sslpassword=k3y")
    ['p%40ss', 'k3y']
    """
    if not url:
        return []
    found = []
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
    except ValueError:
        return []
    userinfo, at, _ = netloc.rpartition("@")
    if at and ":" in userinfo:
        found.append(userinfo.split(":", 1)[1])
    for key, value in parse_qsl(parts.query, keep_blank_values=False):
        if "password" in key.lower() or key.lower() in ("passwd", "pwd"):
            found.append(value)
    return [f for f in found if f]


def redact(text: str) -> str:
    """``text`` with every known secret and every secret-shaped part masked."""
    for secret in _ordered:
        if secret in text:
            text = text.replace(secret, MASK)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def forget_all() -> None:
    """Forget the registered secrets (tests)."""
    global _ordered
    with _lock:
        _secrets.clear()
        _ordered = ()
