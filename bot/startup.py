"""What keeps ``python -m bot`` from starting, said in one line.

A setting that cannot be used, a port that cannot be listened on, a font file that is missing:
each stops the process at start with one line and exit status 2 (JSON under
``LOG_FORMAT=json``), never a traceback and never later, in the middle of a game.

>>> start_failure("HTTP_PORT 80 is taken", "text")
'tavolo: cannot start: HTTP_PORT 80 is taken'
>>> start_failure("HTTP_PORT 80 is taken", "json")  # doctest: +ELLIPSIS
'{"time": "...", "level": "CRITICAL", "logger": "tavolo", "event": "cannot start: HTTP_PORT 80 is taken"}'
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from bot.redact import redact

#: the exit status of a start that a setting or the machine prevents (``main`` returns it)
EXIT_CANNOT_START = 2


class StartupError(Exception):
    """The bot cannot start as configured; the text says what to change."""


def start_failure(reason: str, log_format: str) -> str:
    """The one line that says why the bot cannot start, redacted, in the log's format."""
    reason = redact(reason)
    if log_format == "json":
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        entry = {
            "time": now,
            "level": "CRITICAL",
            "logger": "tavolo",
            "event": f"cannot start: {reason}",
        }
        return json.dumps(entry, ensure_ascii=False)
    return f"tavolo: cannot start: {reason}"


def wanted_log_format(environ: dict[str, str], env_file: Path) -> str:
    """``LOG_FORMAT`` as given, for a failure before the settings could be read."""
    value = environ.get("LOG_FORMAT")
    if value is None and env_file.is_file():
        from dotenv import dotenv_values

        value = dotenv_values(env_file).get("LOG_FORMAT")
    return "json" if (value or "").strip().lower() == "json" else "text"


def check_fonts() -> None:
    """Every font file the boards need is there and loads: a missing one stops the start
    rather than the first Cartas Maestras board."""
    from renderer import typeface

    for path in typeface.font_files():
        try:
            typeface.load_check(path)
        except OSError as error:
            shown = os.path.relpath(path)
            raise StartupError(
                f"font file {shown} cannot be read ({error}): reinstall Tavolo"
            ) from None
