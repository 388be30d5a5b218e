"""``python -m bot``: start Tavolo on the platforms whose tokens are set, or the console.

    python -m bot              # Discord and/or Telegram when their tokens are set, else the console
    python -m bot --console    # the console, whatever tokens are set
    python -m bot sync-commands  # the deploy step: slash commands, menus, Telegram's webhook
    python -m bot migrate      # the release step: apply pending schema migrations
    python -m bot backup PATH  # a backup of the database; restore PATH puts one back

Settings come from the environment and ``.env`` (the environment wins): see ``.env.example``.
A database that cannot be used stops the program with a readable message and status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import logs
from bot.app import open_core
from bot.core import Core
from bot.platforms.base import Adapter
from bot.settings import Settings
from bot.startup import (
    EXIT_CANNOT_START,
    StartupError,
    check_fonts,
    start_failure,
    wanted_log_format,
)
from bot.storage import Storage, StorageError
from bot.warmup import keep_warm

log = logging.getLogger("tavolo")


def configure_logging(settings: Settings) -> None:
    """Logging at the root: every line redacted, text or JSON (``LOG_FORMAT``)."""
    logs.configure(settings.log_level, settings.log_format, settings.secrets)


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


async def serve(
    core: Core, settings: Any, adapters: Sequence[Adapter], stop: asyncio.Event | None = None
) -> None:
    """Run every adapter on ``core`` until one of them ends (the console at end of input, a
    platform that fails or closes) or ``stop`` is set (SIGTERM); then stop them all and wait
    for them (each stops taking updates, finishes what it has in hand and flushes its
    outbox), so none is left running on a closed core. A failure is raised after all have
    stopped."""
    tasks = [asyncio.create_task(a.run(core, settings), name=a.name) for a in adapters]
    stopping = asyncio.ensure_future((stop or asyncio.Event()).wait())
    try:
        await asyncio.wait([*tasks, stopping], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
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
    >>> web_base_url(Settings(http_port=8080))
    'http://127.0.0.1:8080'
    >>> web_base_url(Settings()) is None
    True
    """
    if settings.web_base_url:
        return settings.web_base_url.rstrip("/")
    if settings.http_port:
        return f"http://{settings.http_host}:{settings.http_port}"
    return None


async def check_schema(settings: Settings, console: bool) -> None:
    """Unless this process may migrate the database itself (``Settings.migrates_itself``), a
    schema older than this program's stops the start with the command to run."""
    if settings.migrates_itself(console or chosen_platforms(settings, console) == [CONSOLE]):
        return
    store = await Storage.open(settings.database_url, migrate=False, pool=settings.pool)
    await store.close()


async def run(settings: Settings, console: bool) -> None:
    await check_schema(settings, console)
    # The console is one person at their own terminal (pasting a line of fifty moves is
    # fine): the rate limits guard the chat platforms only.
    platforms = chosen_platforms(settings, console) != [CONSOLE]
    core = await open_core(
        settings.database_url,
        settings.default_language,
        limits=settings.limits if platforms else None,
        pool=settings.pool,
    )
    core.service.web_base_url = web_base_url(settings)
    http = None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # no signals on Windows or off the main thread: then SIGTERM is Python's default
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGTERM, _stop_requested, stop)
        # SIGHUP (a closed terminal, a supervisor's "reload") must not end a running bot: the
        # logs go to standard error, so there is nothing to reopen
        loop.add_signal_handler(signal.SIGHUP, _hangup)
    try:
        if settings.http_port is not None:
            from bot.http import HttpServer

            http = await HttpServer.start(core, settings.http_host, settings.http_port)
        chosen = chosen_platforms(settings, console)
        adapters = [choice.make() for choice in chosen]
        if chosen == [CONSOLE]:
            await serve(core, settings, adapters, stop)
            return
        log.info("starting %s with %s", ", ".join(a.name for a in adapters), settings)
        warm = asyncio.create_task(keep_warm(core.store))
        try:
            await serve(core, settings, adapters, stop)
        finally:
            warm.cancel()
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGTERM)
            loop.remove_signal_handler(signal.SIGHUP)
        # the health endpoint goes last but one: a load balancer sees the bot until it is gone
        await core.close()  # waits (bounded) for the requests in hand, then the database
        if http is not None:
            await http.stop()
        if stop.is_set():
            log.info("stopped on SIGTERM")


def _hangup() -> None:
    log.info("SIGHUP: ignored (the log goes to standard error; SIGTERM stops the bot)")


def _stop_requested(stop: asyncio.Event) -> None:
    log.info("SIGTERM: no more updates; finishing the requests in hand")
    stop.set()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Tavolo: a card table in your chat."
    )
    parser.add_argument(
        "--console", action="store_true", help="play in this terminal, ignoring any tokens"
    )
    parser.add_argument(
        "step",
        nargs="?",
        choices=["sync-commands", "migrate", "backup", "restore"],
        help="sync-commands: register the slash commands, menus and webhook (a deploy step); "
        "migrate: apply pending schema migrations (the release step); backup PATH: a "
        "backup of the database; restore PATH: put one back (stop the bot first)",
    )
    parser.add_argument("path", nargs="?", metavar="PATH", help="the backup file")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="restore: write over a database that already has games",
    )
    args = parser.parse_args(argv)
    if (args.path is not None) != (args.step in ("backup", "restore")):
        parser.error("backup and restore take a PATH, and only they do")
    try:
        settings = Settings.load()
    except ValueError as error:  # a setting that cannot be used: one line, no traceback
        fmt = wanted_log_format(dict(os.environ), Path(".env"))
        print(start_failure(str(error), fmt), file=sys.stderr)
        return EXIT_CANNOT_START
    configure_logging(settings)
    if args.step in ("migrate", "backup", "restore"):
        from bot import admin

        if args.step == "migrate":
            return admin.migrate(settings)
        if args.step == "backup":
            return admin.make_backup(settings, args.path)
        return admin.restore_backup(settings, args.path, args.replace)
    try:
        if args.step == "sync-commands":
            from bot.sync_commands import sync_commands

            asyncio.run(sync_commands(settings))
            return 0
        check_fonts()
        asyncio.run(run(settings, args.console))
    except (StorageError, StartupError) as error:
        print(start_failure(str(error), settings.log_format), file=sys.stderr)
        return EXIT_CANNOT_START
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
