"""How updates reach the adapter, and whether they do (``/readyz``): long polling (a 409
conflict means another process polls with this token) or the webhook server (deliveries checked
against the one configured secret; the URL registered only when Telegram's differs)."""

from __future__ import annotations

import hmac
import logging
import time
from typing import Any
from urllib.parse import urlsplit

from telegram import Update
from telegram.error import Conflict, TelegramError
from telegram.ext import Application

from bot.health import Health, Throttle
from bot.platforms.telegram.config import UPDATE_TYPES, TelegramConfig
from bot.redact import add_secret
from bot.startup import StartupError

log = logging.getLogger(__name__)

#: a polling conflict (409: another process polls with this token) seen this recently keeps
#: readiness red; while it lasts the library retries at most every 30 s, so it is seen again
CONFLICT_WINDOW_SECONDS = 65.0
#: webhook deliveries refused in a row (a wrong secret) before readiness turns red: a stray
#: request without the secret is no outage, Telegram's retries of refused updates are
REFUSED_IN_A_ROW = 3


class Updates:
    """The adapter's update intake (a mixin of ``TelegramAdapter``, which owns the state)."""

    config: TelegramConfig
    application: Application[Any, Any, Any, Any, Any, Any]
    #: the webhook's aiohttp runner while it listens
    _webhook_runner: Any
    #: readiness: when polling last met a 409 conflict, and the webhook's refusals in a
    #: row since its last accepted delivery (each failure logged once a minute at most)
    conflict_window: float
    _conflict_at: float | None
    _conflict_log: Throttle
    _polling_log: Throttle
    _refused_in_a_row: int
    _accepted: int
    _refused_log: Throttle

    def connection_problem(self) -> Health:
        """Whether this adapter takes updates now (``/readyz``): the webhook listening and
        its deliveries accepted, or polling without a conflict."""
        app = self.application
        if not app.running:
            return Health(False, "not connected")
        if self.config.webhook_url:
            if self._webhook_runner is None:
                return Health(False, "webhook not listening")
            if self._refused_in_a_row >= REFUSED_IN_A_ROW:
                return Health(
                    False,
                    f"webhook refuses deliveries: wrong secret ({self._refused_in_a_row} in a row)",
                )
            return Health(True, f"webhook, {self._accepted} deliveries accepted")
        if app.updater is None or not app.updater.running:
            return Health(False, "not polling")
        if (
            self._conflict_at is not None
            and time.monotonic() - self._conflict_at < self.conflict_window
        ):
            return Health(False, "polling conflict (409): another process polls with this token")
        return Health(True, "polling")

    def _polling_failed(self, error: TelegramError) -> None:
        """The library's polling met an error (it retries by itself, waiting longer each
        time): one line a minute, no traceback; a conflict turns readiness red."""
        if isinstance(error, Conflict):
            self._conflict_at = time.monotonic()
            held = self._conflict_log.due()
            if held is not None:
                log.error(
                    "telegram polling conflict (409): another process polls with this "
                    "token (only one may; use a webhook for several workers)%s",
                    f"; {held} more since the last line" if held else "",
                )
            return
        held = self._polling_log.due()
        if held is not None:
            log.warning(
                "telegram polling failed (%s), retrying%s",
                type(error).__name__,
                f"; {held} more since the last line" if held else "",
            )

    async def _start_webhook(self) -> None:
        """Serve Telegram's webhook POSTs (aiohttp) and register the URL with a secret token."""
        from aiohttp import web

        url = self.config.webhook_url
        secret = self.config.webhook_secret
        # Every worker checks deliveries against the one configured secret (the settings refuse
        # a webhook without one): a secret of its own would 403 every other worker's deliveries.
        if url is None or not secret:
            raise ValueError("webhook mode needs TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET")
        add_secret(secret)  # masked in every log line from now on (the library logs requests)
        path = urlsplit(url).path or "/"
        app = self.application

        async def receive(request: web.Request) -> web.Response:
            given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
            if not hmac.compare_digest(given.encode(), secret.encode()):
                self._refused_in_a_row += 1
                held = self._refused_log.due()
                if held is not None:
                    log.error(
                        "telegram webhook: a delivery was refused, its secret is not this "
                        "worker's (do all workers share TELEGRAM_WEBHOOK_SECRET?)%s",
                        f"; {held} more since the last line" if held else "",
                    )
                return web.Response(status=403)
            try:
                update = Update.de_json(await request.json(), app.bot)
            except ValueError:
                return web.Response(status=400)
            self._refused_in_a_row = 0
            self._accepted += 1
            await app.update_queue.put(update)
            return web.Response()

        server = web.Application()
        server.router.add_post(path, receive)
        self._webhook_runner = web.AppRunner(server, access_log=None)
        await self._webhook_runner.setup()
        site = web.TCPSite(
            self._webhook_runner, self.config.webhook_listen, self.config.webhook_port
        )
        try:
            await site.start()
        except OSError as error:
            raise StartupError(
                f"the Telegram webhook cannot listen on {self.config.webhook_listen}:"
                f"{self.config.webhook_port} ({error.strerror or error}): set "
                "TELEGRAM_WEBHOOK_PORT / TELEGRAM_WEBHOOK_LISTEN"
            ) from None
        await self._register_webhook(url, secret)

    async def _stop_webhook(self) -> None:
        """Stop serving the webhook (the URL stays registered with Telegram)."""
        if self._webhook_runner is not None:
            await self._webhook_runner.cleanup()
            self._webhook_runner = None

    async def _register_webhook(self, url: str, secret: str) -> None:
        """``setWebhook`` only when Telegram's webhook differs from the settings: in a rolling
        restart of several workers, none re-registers (and none could flip the others' secret).
        Telegram never shows the secret back, so a new secret is given with
        ``python -m bot sync-commands``, which registers it whatever Telegram shows."""
        bot = self.application.bot
        info = await bot.get_webhook_info()
        if info.url == url and set(info.allowed_updates or ()) == set(UPDATE_TYPES):
            log.info("telegram webhook already set to this address: left as it is")
            return
        await bot.set_webhook(url, secret_token=secret, allowed_updates=UPDATE_TYPES)
        log.info("telegram webhook set")

    @property
    def webhook_port(self) -> int | None:
        """The port the webhook server really listens on (useful with port 0)."""
        if self._webhook_runner is None:
            return None
        for site in self._webhook_runner.sites:
            server = getattr(site, "_server", None)
            if server is not None and server.sockets:
                return int(server.sockets[0].getsockname()[1])
        return None
