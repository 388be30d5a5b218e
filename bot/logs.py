"""The bot's logging: one handler at the root, every line redacted, text or JSON.

``LOG_FORMAT=text`` (default) writes ``time level logger: message``; ``LOG_FORMAT=json`` writes
one JSON object a line: ``time``, ``level``, ``logger``, ``event`` (the log message),
``chat_id`` and ``session_id`` when the line was logged while handling a request or a game,
and ``error`` (the exception, one string) when there was one. What a player typed is never
logged (the core logs what happened, not the text), and the whole formatted line, message,
exception and stack included, goes through :func:`bot.redact.redact` at the end, whoever
logged it: a library quoting a URL with the token, a driver quoting a DSN.

The request's chat and session ids come from context variables the core sets
(:func:`bind`), so every logger, ours or a library's, carries them. A chat or player id is
never logged as it is (a private chat's id is its player's on Telegram): :func:`pseudonym`
gives a keyed hash of it, the same in every process of one database (the key is the
database's, ``storage.pseudonyms``), so the lines of one chat can still be followed, and
the hash means nothing once the player is forgotten.
"""

from __future__ import annotations

import contextvars
import hashlib
import hmac
import json
import logging
import secrets
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, TextIO

from bot.redact import add_secret, redact

chat_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("chat_id", default=None)
session_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "session_id", default=None
)


#: the key of :func:`pseudonym`: random until the database's is known (``set_pseudonym_key``)
_pseudonym_key = secrets.token_bytes(32)


def set_pseudonym_key(key: bytes) -> None:
    """Use the database's key, shared by every process, for :func:`pseudonym`."""
    global _pseudonym_key
    _pseudonym_key = key


def pseudonym(platform_id: object) -> str:
    """What a log line says for a chat or user id: ``#`` and 12 hex digits of a keyed hash.

    >>> p = pseudonym("731955024681")
    >>> p.startswith("#") and len(p) == 13 and "7319" not in p and p == pseudonym(731955024681)
    True
    """
    digest = hmac.new(_pseudonym_key, str(platform_id).encode("utf-8"), hashlib.sha256)
    return "#" + digest.hexdigest()[:12]


def begin_request(chat_id: str) -> None:
    """A new request in ``chat_id``: later log lines of this task name it (by its pseudonym)
    and no game yet."""
    chat_id_var.set(pseudonym(chat_id))
    session_id_var.set(None)


def bind(*, chat_id: str | None = None, session_id: str | None = None) -> None:
    """Name the chat (and game) being handled: every later log line of this task carries them
    (the chat by its pseudonym)."""
    if chat_id is not None:
        chat_id_var.set(pseudonym(chat_id))
    if session_id is not None:
        session_id_var.set(session_id)


class RedactingFormatter(logging.Formatter):
    """The standard text line, secrets masked (message, exception and stack alike)."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module doc), secrets masked."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "event": record.getMessage(),
        }
        for key in ("chat_id", "session_id"):
            value = getattr(record, key, None)
            if value is not None:
                entry[key] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # redacted field by field, so a mask never breaks the JSON's quoting
        return json.dumps(
            {k: redact(v) if isinstance(v, str) else v for k, v in entry.items()},
            ensure_ascii=False,
        )


class RedactSecrets(logging.Filter):
    """A filter that masks the given secret values in a record's text (and remembers them
    for every later line: see :func:`bot.redact.add_secret`)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        for secret in secrets:
            add_secret(secret)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            return True  # a malformed record: logging reports it on its own
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.msg, record.args = redact(message), None
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


_factory_installed = False


def _install_context_factory() -> None:
    """Every record gets the chat and session ids of the task that logged it."""
    global _factory_installed
    if _factory_installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        record.chat_id = chat_id_var.get()
        record.session_id = session_id_var.get()
        return record

    logging.setLogRecordFactory(factory)
    _factory_installed = True


def configure(
    level: str = "INFO",
    fmt: str = "text",
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
) -> logging.Handler:
    """One handler at the root (replacing any), writing to ``stream`` (stderr by default)."""
    for secret in secrets:
        add_secret(secret)
    _install_context_factory()
    handler = logging.StreamHandler(stream or sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=getattr(logging, level, logging.INFO), handlers=[handler], force=True)
    # These libraries' DEBUG lines repeat whole payloads: aiosqlite every statement with its
    # parameters, discord.py every gateway event, python-telegram-bot every update, each with
    # what players typed. Noise at best, players' words in the log at worst: INFO at least.
    for chatty in PAYLOAD_LOGGERS:
        logging.getLogger(chatty).setLevel(max(logging.INFO, logging.getLogger().level))
    return handler


#: loggers that print whole payloads at DEBUG (see ``configure``)
PAYLOAD_LOGGERS = ("aiosqlite", "discord.gateway", "discord.client", "telegram.ext")
