"""A platform's bot token kept out of every log record, whoever logs it (discord.py, httpx,
python-telegram-bot, the bot): in the message and in the text of an exception logged with it.

A record factory catches every logger whatever handlers are configured (a test's, a library's);
the root handler of ``bot.logs`` masks the token too, as a secret of ``bot.redact``.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.redact import add_secret

#: the tokens whose redaction is installed (once each, however many clients start)
_INSTALLED: set[str] = set()


def install_token_redaction(token: str, mask: str) -> None:
    """Replace ``token`` by ``mask`` in every log record from now on."""
    if not token:
        return
    # the root log handler masks it too, in every spelling (again after a test's forget_all)
    add_secret(token)
    if token in _INSTALLED:
        return
    _INSTALLED.add(token)
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to logging's own error path
            return record
        if token in message:
            record.msg, record.args = message.replace(token, mask), ()
        if record.exc_info and record.exc_info[1] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            if token in text:
                record.exc_text = text.replace(token, mask)
        return record

    logging.setLogRecordFactory(factory)
