"""Settings of ``python -m bot``: from the environment and a ``.env`` file (environment wins).

>>> s = Settings.from_mapping({"TELEGRAM_TOKEN": "123:xyzzy", "LOG_LEVEL": "debug"})
>>> s.telegram_token, s.log_level, s.database_url
('123:xyzzy', 'DEBUG', 'sqlite:///data/tavolo.db')
>>> "xyzzy" in repr(s)
False
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from dotenv import dotenv_values

from bot.storage import DEFAULT_DATABASE_URL

#: attribute name -> environment variable
_VARIABLES = {
    "discord_token": "DISCORD_TOKEN",
    "telegram_token": "TELEGRAM_TOKEN",
    "database_url": "DATABASE_URL",
    "default_language": "DEFAULT_LANGUAGE",
    "log_level": "LOG_LEVEL",
    "telegram_base_url": "TELEGRAM_BASE_URL",
    "telegram_webhook_url": "TELEGRAM_WEBHOOK_URL",
    "telegram_webhook_secret": "TELEGRAM_WEBHOOK_SECRET",
    "discord_guild_id": "DISCORD_GUILD_ID",
    "discord_api_base": "DISCORD_API_BASE",
    "discord_gateway_url": "DISCORD_GATEWAY_URL",
}
#: values that must never be printed or logged
SECRETS = frozenset({"discord_token", "telegram_token", "telegram_webhook_secret"})


@dataclass(frozen=True)
class Settings:
    """Every setting of the bot and its adapters. Empty values count as unset (None)."""

    discord_token: str | None = None
    telegram_token: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    default_language: str = "en"
    log_level: str = "INFO"
    telegram_base_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: str | None = None
    discord_guild_id: str | None = None
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None

    def __repr__(self) -> str:
        shown = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in SECRETS and value:
                value = "***"
            shown.append(f"{f.name}={value!r}")
        return f"Settings({', '.join(shown)})"

    __str__ = __repr__

    @property
    def secrets(self) -> list[str]:
        """The secret values that are set (for log redaction)."""
        return [v for name in SECRETS if (v := getattr(self, name))]

    @classmethod
    def from_mapping(cls, values: Mapping[str, str | None]) -> Settings:
        """Settings from ``NAME=value`` pairs (missing or empty: the default)."""
        found: dict[str, str] = {}
        for attr, variable in _VARIABLES.items():
            value = (values.get(variable) or "").strip()
            if value:
                found[attr] = value
        if "log_level" in found:
            found["log_level"] = found["log_level"].upper()
        if "default_language" in found:
            found["default_language"] = found["default_language"].lower()
        return cls(**found)

    @classmethod
    def load(cls, env_file: str | Path = ".env", environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``env_file`` (if it exists) overridden by the environment."""
        merged: dict[str, str | None] = {}
        path = Path(env_file)
        if path.is_file():
            merged.update(dotenv_values(path))
        environ = os.environ if environ is None else environ
        merged.update({k: v for k, v in environ.items() if k in _VARIABLES.values()})
        return cls.from_mapping(merged)
