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
    "discord_shard_count": "DISCORD_SHARD_COUNT",
    "discord_shard_ids": "DISCORD_SHARD_IDS",
    "web_base_url": "WEB_BASE_URL",
}
#: values that must never be printed or logged
SECRETS = frozenset({"discord_token", "telegram_token", "telegram_webhook_secret"})


def shard_settings(
    count_text: str | None, ids_text: str | None
) -> tuple[int | None, tuple[int, ...] | None]:
    """``DISCORD_SHARD_COUNT`` and ``DISCORD_SHARD_IDS`` checked: the ids need the count, each
    id is below it, none twice. A mistake is one clear line (``ValueError``) at start-up.

    >>> shard_settings("4", "0,1"), shard_settings("4", None), shard_settings(None, None)
    ((4, (0, 1)), (4, None), (None, None))
    >>> shard_settings("2", "2")
    Traceback (most recent call last):
    ValueError: DISCORD_SHARD_IDS: shard 2 is not below DISCORD_SHARD_COUNT=2 (ids run 0..1)
    """
    if count_text is None:
        if ids_text is not None:
            raise ValueError(
                "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT (the bot's shards in all)"
            )
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ValueError(f"DISCORD_SHARD_COUNT must be a whole number from 1 (got {count_text!r})")
    count = int(count_text)
    if ids_text is None:
        return count, None
    parts = [p.strip() for p in ids_text.split(",") if p.strip()]
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError(
            f"DISCORD_SHARD_IDS must be shard numbers separated by commas, like 0,1 (got {ids_text!r})"
        )
    ids = tuple(int(p) for p in parts)
    for shard in ids:
        if shard >= count:
            raise ValueError(f"DISCORD_SHARD_IDS: shard {shard} is not below DISCORD_SHARD_COUNT={count} "
                             f"(ids run 0..{count - 1})")  # fmt: skip
    if len(set(ids)) != len(ids):
        raise ValueError(f"DISCORD_SHARD_IDS names a shard twice ({ids_text!r})")
    return count, ids


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
    #: Discord sharding: how many shards the bot has in all, and which of them this process
    #: runs (``0,1``); unset: one process, one shard. See ``shard_ids`` for the rules.
    discord_shard_count: int | None = None
    discord_shard_ids: tuple[int, ...] | None = None
    #: the web page's public address (``https://tavolo.example``): links in replies point there
    web_base_url: str | None = None

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
        parsed: dict[str, object] = dict(found)
        count, ids = shard_settings(
            found.get("discord_shard_count"), found.get("discord_shard_ids")
        )
        parsed["discord_shard_count"], parsed["discord_shard_ids"] = count, ids
        return cls(**parsed)  # type: ignore[arg-type]

    @classmethod
    def load(
        cls, env_file: str | Path = ".env", environ: Mapping[str, str] | None = None
    ) -> Settings:
        """Settings from ``env_file`` (if it exists) overridden by the environment."""
        merged: dict[str, str | None] = {}
        path = Path(env_file)
        if path.is_file():
            merged.update(dotenv_values(path))
        environ = os.environ if environ is None else environ
        merged.update({k: v for k, v in environ.items() if k in _VARIABLES.values()})
        return cls.from_mapping(merged)
