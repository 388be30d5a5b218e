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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.app import open_core
from bot.core import Core
from bot.platforms.base import Adapter
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


def _telegram() -> Adapter:
    from bot.platforms.telegram import TelegramPlatform

    return TelegramPlatform()


def _discord() -> Adapter:
    from bot.platforms.discord import DiscordPlatform

    return DiscordPlatform()


def _console() -> Adapter:
    from bot.platforms.console import ConsolePlatform

    return ConsolePlatform()


@dataclass(frozen=True, slots=True)
class PlatformChoice:
    """A chat platform ``python -m bot`` may run: when ``wanted(settings)`` (its token is
    set), ``make()`` builds its adapter (imported only then: each platform's library is big)."""

    name: str
    wanted: Callable[[Settings], bool]
    make: Callable[[], Adapter]


#: the chat platforms, in start order; with none wanted (or ``--console``) the console runs
PLATFORMS: tuple[PlatformChoice, ...] = (
    PlatformChoice("telegram", lambda settings: bool(settings.telegram_token), _telegram),
    PlatformChoice("discord", lambda settings: bool(settings.discord_token), _discord),
)
CONSOLE = PlatformChoice("console", lambda settings: True, _console)


def chosen_platforms(settings: Settings, console: bool) -> list[PlatformChoice]:
    """The platforms to run: those whose token is set, else (or with ``--console``) the
    console."""
    wanted = [] if console else [p for p in PLATFORMS if p.wanted(settings)]
    return wanted or [CONSOLE]


async def serve(core: Core, settings: Any, adapters: Sequence[Adapter]) -> None:
    """Run every adapter on ``core`` until one of them ends (the console at end of input, a
    platform that fails or closes); then stop the others and wait for them, so none is left
    running on a closed core. A failure is raised after all have stopped."""
    tasks = [asyncio.create_task(a.run(core, settings), name=a.name) for a in adapters]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for adapter in adapters:
            await adapter.stop()
        results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            raise result


def web_base_url(settings: Settings) -> str | None:
    """Where links in replies point: ``WEB_BASE_URL``, else the local HTTP server when
    ``HTTP_PORT`` is set (reachable from this machine only), else nowhere (no links).

    >>> web_base_url(Settings(web_base_url="https://tavolo.example/"))
    'https://tavolo.example'
    >>> web_base_url(Settings()) is None
    True
    """
    if settings.web_base_url:
        return settings.web_base_url.rstrip("/")
    port = getattr(settings, "http_port", None)  # the HTTP server's settings (issue 27)
    if port:
        host = getattr(settings, "http_host", None) or "127.0.0.1"
        return f"http://{host}:{port}"
    return None


async def run(settings: Settings, console: bool) -> None:
    core = await open_core(settings.database_url, settings.default_language)
    core.service.web_base_url = web_base_url(settings)
    try:
        chosen = chosen_platforms(settings, console)
        adapters = [choice.make() for choice in chosen]
        if chosen == [CONSOLE]:
            await serve(core, settings, adapters)
            return
        log.info("starting %s with %s", ", ".join(a.name for a in adapters), settings)
        warm = asyncio.create_task(keep_warm(core.store))
        try:
            await serve(core, settings, adapters)
        finally:
            warm.cancel()
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
