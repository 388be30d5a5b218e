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

from bot.app import open_core
from bot.settings import Settings
from bot.storage import StorageError
from bot.warmup import keep_warm

log = logging.getLogger("tavolo")


class RedactSecrets(logging.Filter):
    """Replaces every secret value (tokens) in a log record's text by ``***``."""

    def __init__(self, secrets: Sequence[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        for secret in self.secrets:
            message = message.replace(secret, "***")
            if record.exc_text:
                record.exc_text = record.exc_text.replace(secret, "***")
        record.msg, record.args = message, None
        return True


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets(settings.secrets))
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO), handlers=[handler], force=True
    )


async def run(settings: Settings, console: bool) -> None:
    core = await open_core(settings.database_url, settings.default_language)
    try:
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
        await core.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Tavolo: a card table in your chat."
    )
    parser.add_argument(
        "--console", action="store_true", help="play in this terminal, ignoring any tokens"
    )
    args = parser.parse_args(argv)
    settings = Settings.load()
    configure_logging(settings)
    try:
        asyncio.run(run(settings, args.console))
    except StorageError as error:
        print(f"tavolo: cannot start: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
