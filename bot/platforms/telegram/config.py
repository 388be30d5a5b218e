"""What the Telegram adapter reads from the settings, the updates it asks Telegram for, and the
token kept out of every log record."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Any

from telegram import Update

from bot import i18n
from bot.platforms import redaction
from bot.platforms.outbox import OutboxLimits
from bot.platforms.telegram.outbox import flood_limits

PLATFORM = "telegram"
#: the languages of the command menus (``setMyCommands``) and of the adapter's own words
LANGUAGES = i18n.LANGUAGES
UPDATE_TYPES = [
    Update.MESSAGE,
    Update.CALLBACK_QUERY,
    Update.INLINE_QUERY,
    Update.CHOSEN_INLINE_RESULT,
    Update.MY_CHAT_MEMBER,
]


# ----- settings ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TelegramConfig:
    """Everything the adapter reads from the settings."""

    token: str
    base_url: str | None = None
    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    default_language: str = "en"
    limits: OutboxLimits = field(default_factory=flood_limits)
    poll_timeout: int = 10

    @classmethod
    def from_settings(cls, settings: Any) -> TelegramConfig:
        """Read ``telegram_*`` attributes (missing ones take their defaults).

        >>> from types import SimpleNamespace
        >>> TelegramConfig.from_settings(SimpleNamespace(telegram_token="1:x")).webhook_url is None
        True
        """
        token = getattr(settings, "telegram_token", None) or os.environ.get("TELEGRAM_TOKEN")
        if not token:
            raise ValueError("TELEGRAM_TOKEN is not set")
        # the port and listen address come through the settings layer (``.env`` included):
        # ``Settings.webhook_port`` is TELEGRAM_WEBHOOK_PORT, else the platform's PORT
        port = getattr(settings, "webhook_port", None) or 8443
        webhook_url = getattr(settings, "telegram_webhook_url", None) or None
        webhook_secret = getattr(settings, "telegram_webhook_secret", None) or None
        if webhook_url and not webhook_secret:
            raise ValueError("TELEGRAM_WEBHOOK_SECRET must be set with TELEGRAM_WEBHOOK_URL")
        return cls(
            token=token,
            base_url=getattr(settings, "telegram_base_url", None) or None,
            webhook_url=webhook_url,
            webhook_secret=webhook_secret,
            webhook_listen=getattr(settings, "telegram_webhook_listen", None) or "0.0.0.0",
            webhook_port=int(port),
            default_language=getattr(settings, "default_language", None) or "en",
        )


def install_token_redaction(token: str) -> None:
    """Replace ``token`` by ``<telegram-token>`` in every log record from now on.

    httpx logs each request URL (which contains the token) at INFO, and exceptions quote URLs:
    its request lines are kept to warnings, and every record is redacted.
    """
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)
    redaction.install_token_redaction(token, "<telegram-token>")
