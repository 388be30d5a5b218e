"""``python -m bot``: start Tavolo on the platforms whose tokens are set, or the console.

    python -m bot              # Discord and/or Telegram when their tokens are set, else the console
    python -m bot --console    # the console, whatever tokens are set

Settings come from the environment and ``.env`` (the environment wins): see ``.env.example``.
A database that cannot be used stops the program with a readable message and status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

from bot import logs
from bot.core import Core
from bot.redact import redact
from bot.settings import Settings
from bot.storage import StorageError
from bot.warmup import keep_warm

log = logging.getLogger("tavolo")


def configure_logging(settings: Settings) -> None:
    """Logging at the root: every line redacted, text or JSON (``LOG_FORMAT``)."""
    logs.configure(settings.log_level, settings.log_format, settings.secrets)


async def run(settings: Settings, console: bool) -> None:
    core = await Core.create(
        settings.database_url, settings.default_language, limits=settings.limits
    )
    http = None
    try:
        if settings.http_port is not None:
            from bot.http import HttpServer

            http = await HttpServer.start(core, settings.http_host, settings.http_port)
        services = []
        if not console and settings.telegram_token:
            from bot.platforms import telegram

            services.append(telegram.serve(core, settings))
        if not console and settings.discord_token:
            from bot.platforms import discord

            services.append(discord.serve(core, settings))
        if services:
            log.info("starting %d platform(s) with %s", len(services), settings)
            warm = asyncio.create_task(keep_warm(core.store))
            try:
                await asyncio.gather(*services)
            finally:
                warm.cancel()
        else:
            from bot.platforms import console as console_platform

            await console_platform.serve(core, settings)
    finally:
        if http is not None:
            await http.stop()
        await core.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Tavolo: a card table in your chat."
    )
    parser.add_argument(
        "--console", action="store_true", help="play in this terminal, ignoring any tokens"
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings.load()
    except ValueError as error:  # a setting that cannot be used: one line, no traceback
        print(redact(f"tavolo: cannot start: {error}"), file=sys.stderr)
        return 2
    configure_logging(settings)
    try:
        asyncio.run(run(settings, args.console))
    except StorageError as error:
        print(redact(f"tavolo: cannot start: {error}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    except Exception:
        # through the redacting log, not Python's own traceback printer: a driver's or an HTTP
        # library's exception text may quote a URL with a token or a password in it
        log.exception("tavolo stopped on an error")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
