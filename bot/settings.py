"""Settings of ``python -m bot``: from the environment and a ``.env`` file (environment wins).

>>> s = Settings.from_mapping({"TELEGRAM_TOKEN": "123:xyzzy", "LOG_LEVEL": "debug"})
>>> s.telegram_token, s.log_level, s.database_url
('123:xyzzy', 'DEBUG', 'sqlite:///data/tavolo.db')
>>> "xyzzy" in repr(s)
False
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from dotenv import dotenv_values

from bot.core.limits import Limits
from bot.i18n import LANGUAGES
from bot.redact import redact, url_secrets
from bot.storage import DEFAULT_DATABASE_URL, is_postgres_url
from bot.storage.postgres import TRANSACTION_POOLER, PoolSettings

#: attribute name -> environment variable
_VARIABLES = {
    "discord_token": "DISCORD_TOKEN",
    "telegram_token": "TELEGRAM_TOKEN",
    "database_url": "DATABASE_URL",
    "database_pool_size": "DATABASE_POOL_SIZE",
    "database_pool_timeout": "DATABASE_POOL_TIMEOUT",
    "database_pooler": "DATABASE_POOLER",
    "default_language": "DEFAULT_LANGUAGE",
    "log_level": "LOG_LEVEL",
    "telegram_base_url": "TELEGRAM_BASE_URL",
    "telegram_webhook_url": "TELEGRAM_WEBHOOK_URL",
    "telegram_webhook_secret": "TELEGRAM_WEBHOOK_SECRET",
    "telegram_webhook_listen": "TELEGRAM_WEBHOOK_LISTEN",
    "telegram_webhook_port": "TELEGRAM_WEBHOOK_PORT",
    # the port a platform (Heroku, Render, Railway...) routes to the process: the webhook's
    # when TELEGRAM_WEBHOOK_PORT is not set
    "platform_port": "PORT",
    "discord_guild_id": "DISCORD_GUILD_ID",
    "discord_api_base": "DISCORD_API_BASE",
    "discord_gateway_url": "DISCORD_GATEWAY_URL",
    "discord_shard_count": "DISCORD_SHARD_COUNT",
    "discord_shard_ids": "DISCORD_SHARD_IDS",
    "discord_replica": "DISCORD_REPLICA",
    "discord_sync_commands": "DISCORD_SYNC_COMMANDS",
    "web_base_url": "WEB_BASE_URL",
    "auto_migrate": "AUTO_MIGRATE",
    "http_host": "HTTP_HOST",
    "http_port": "HTTP_PORT",
    "log_format": "LOG_FORMAT",
    "rate_user_burst": "RATE_USER_BURST",
    "rate_user_per_minute": "RATE_USER_PER_MINUTE",
    "rate_chat_burst": "RATE_CHAT_BURST",
    "rate_chat_per_minute": "RATE_CHAT_PER_MINUTE",
    "rate_move_burst": "RATE_MOVE_BURST",
    "rate_move_per_minute": "RATE_MOVE_PER_MINUTE",
}
#: the rate limit settings: attribute -> (whole number?, default)
_RATES = {
    "rate_user_burst": (True, 8),
    "rate_user_per_minute": (False, 30.0),
    "rate_chat_burst": (True, 40),
    "rate_chat_per_minute": (False, 120.0),
    "rate_move_burst": (True, 20),
    "rate_move_per_minute": (False, 300.0),
}
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Telegram's rule for a webhook's secret token
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
#: values that must never be printed or logged
SECRETS = frozenset({"discord_token", "telegram_token", "telegram_webhook_secret"})
#: URLs that may carry a password: shown with it masked
URLS = frozenset({"database_url", "telegram_base_url", "telegram_webhook_url"})


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
            raise ValueError(
                f"DISCORD_SHARD_IDS: shard {shard} is not below DISCORD_SHARD_COUNT={count} "
                f"(ids run 0..{count - 1})"
            )
    if len(set(ids)) != len(ids):
        raise ValueError(f"DISCORD_SHARD_IDS names a shard twice ({ids_text!r})")
    return count, ids


def replica_shards(replica_text: str, count: int | None) -> tuple[int, ...]:
    """``DISCORD_REPLICA=INDEX/REPLICAS``: the shards this replica runs, a contiguous share of
    ``DISCORD_SHARD_COUNT`` (the first replicas take one more when they do not divide evenly).
    Every replica is started with the same count and its own index, so no two can run one shard.

    >>> [replica_shards(f"{i}/3", 8) for i in range(3)]
    [(0, 1, 2), (3, 4, 5), (6, 7)]
    >>> replica_shards("3/3", 8)
    Traceback (most recent call last):
    ValueError: DISCORD_REPLICA: index 3 is not below the 3 replicas (indexes run 0..2)
    """
    index_text, slash, replicas_text = replica_text.partition("/")
    if not slash or not index_text.strip().isdigit() or not replicas_text.strip().isdigit():
        raise ValueError(f"DISCORD_REPLICA must be INDEX/REPLICAS, like 0/2 (got {replica_text!r})")
    index, replicas = int(index_text), int(replicas_text)
    if count is None:
        raise ValueError("DISCORD_REPLICA needs DISCORD_SHARD_COUNT (the bot's shards in all)")
    if replicas < 1 or index >= replicas:
        raise ValueError(
            f"DISCORD_REPLICA: index {index} is not below the {replicas} replicas "
            f"(indexes run 0..{max(replicas - 1, 0)})"
        )
    if replicas > count:
        raise ValueError(
            f"DISCORD_REPLICA: {replicas} replicas for {count} shards leaves some "
            "with none (raise DISCORD_SHARD_COUNT)"
        )
    size, extra = divmod(count, replicas)
    start = index * size + min(index, extra)
    return tuple(range(start, start + size + (1 if index < extra else 0)))


def _port(variable: str, text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise ValueError(f"{variable} must be a port number 0-65535 (got {text!r})")
    return int(text)


def _switch(variable: str, text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{variable} must be 1 or 0 (got {text!r})")


def _rate(variable: str, text: str, whole: bool) -> float:
    """A rate limit setting: a number from 0 (a whole one for a burst)."""
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = -1
    if value < 0 or value != value or value == float("inf"):
        kind = "a whole number" if whole else "a number"
        raise ValueError(f"{variable} must be {kind} from 0 (got {text!r})")
    return value


@dataclass(frozen=True)
class Settings:
    """Every setting of the bot and its adapters. Empty values count as unset (None)."""

    discord_token: str | None = None
    telegram_token: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    #: PostgreSQL: connections a process opens at most, and how long a request waits for a
    #: free one before it is answered "busy"
    database_pool_size: int = 10
    database_pool_timeout: float = 5.0
    #: PostgreSQL reached through a pooler in transaction mode (PgBouncer): ``transaction``
    database_pooler: str | None = None
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
    #: ``DISCORD_REPLICA=INDEX/REPLICAS``: this replica's share of the shards (sets the ids)
    discord_replica: str | None = None
    #: sync the slash commands at start: by default only a process that runs every shard
    #: does; replicas leave it to the deploy step ``python -m bot sync-commands``
    discord_sync_commands: bool | None = None
    #: Telegram's webhook server: where it listens (``TELEGRAM_WEBHOOK_PORT``, else ``PORT``)
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int | None = None
    platform_port: int | None = None
    #: the HTTP server (``/healthz``, ``/metrics``, the web pages): off unless a port is set
    http_host: str = "127.0.0.1"
    http_port: int | None = None
    #: ``text`` (one readable line per record) or ``json`` (one JSON object per line)
    log_format: str = "text"
    #: rate limits: a user's burst, then so many requests a minute; the same for a whole chat
    #: (a burst of 0 turns that limit off)
    rate_user_burst: int = 8
    rate_user_per_minute: float = 30.0
    rate_chat_burst: int = 40
    rate_chat_per_minute: float = 120.0
    #: a user's moves and taps on a board: a guard against scripts, far above a player's pace
    rate_move_burst: int = 20
    rate_move_per_minute: float = 300.0
    #: the web page's public address (``https://tavolo.example``): links in replies point there
    web_base_url: str | None = None
    #: whether a process started on an older schema migrates it itself (``AUTO_MIGRATE``);
    #: unset: see ``migrates_itself``
    auto_migrate: bool | None = None

    def migrates_itself(self, console: bool) -> bool:
        """Whether this process applies pending migrations at start (else it stops, naming
        ``python -m bot migrate``): ``AUTO_MIGRATE`` when set; unset, yes for the console
        and for SQLite (one process and its file), no for PostgreSQL, where several
        processes share the database and a release step (``python -m bot migrate``, after a
        backup) migrates it once before they start.

        >>> Settings().migrates_itself(console=False)
        True
        >>> pg = Settings(database_url="postgresql://db/tavolo")
        >>> pg.migrates_itself(console=False), pg.migrates_itself(console=True)
        (False, True)
        >>> Settings(auto_migrate=False).migrates_itself(console=True)
        False
        """
        if self.auto_migrate is not None:
            return self.auto_migrate
        return console or not is_postgres_url(self.database_url)

    def __repr__(self) -> str:
        shown = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in SECRETS and value:
                value = "***"
            elif f.name in URLS and value:
                value = redact(value)  # the URL stays readable, its password does not
            shown.append(f"{f.name}={value!r}")
        return f"Settings({', '.join(shown)})"

    __str__ = __repr__

    @property
    def pool(self) -> PoolSettings:
        """PostgreSQL's connection pool of this process."""
        return PoolSettings(
            self.database_pool_size, self.database_pool_timeout, self.database_pooler
        )

    @property
    def webhook_port(self) -> int:
        """The port Telegram's webhook server listens on: ``TELEGRAM_WEBHOOK_PORT``, else the
        platform's ``PORT``, else 8443."""
        for port in (self.telegram_webhook_port, self.platform_port):
            if port is not None:
                return port
        return 8443

    @property
    def syncs_discord_commands(self) -> bool:
        """Whether this process syncs Discord's slash commands at start: as set, else only
        when it runs every shard (one process); replicas leave it to ``sync-commands``."""
        if self.discord_sync_commands is not None:
            return self.discord_sync_commands
        return self.discord_shard_ids is None

    @property
    def limits(self) -> Limits:
        """The per-user and per-chat rate limits of the core."""
        return Limits(
            self.rate_user_burst,
            self.rate_user_per_minute,
            self.rate_chat_burst,
            self.rate_chat_per_minute,
            self.rate_move_burst,
            self.rate_move_per_minute,
        )

    @property
    def secrets(self) -> list[str]:
        """The secret values that are set (for log redaction): tokens, the webhook secret and
        the passwords inside the database URL."""
        found = [v for name in SECRETS if (v := getattr(self, name))]
        return found + url_secrets(self.database_url)

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
            if found["log_level"] not in LOG_LEVELS:
                raise ValueError(
                    f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)} "
                    f"(got {values.get('LOG_LEVEL')!r})"
                )
        if "default_language" in found:
            found["default_language"] = found["default_language"].lower()
            if found["default_language"] not in LANGUAGES:
                raise ValueError(
                    f"DEFAULT_LANGUAGE must be one of {', '.join(LANGUAGES)} "
                    f"(got {values.get('DEFAULT_LANGUAGE')!r})"
                )
        if "discord_guild_id" in found and not found["discord_guild_id"].isdigit():
            raise ValueError(
                f"DISCORD_GUILD_ID must be a server id, digits only "
                f"(got {found['discord_guild_id']!r})"
            )
        if "telegram_webhook_url" in found:
            # Every webhook worker must check deliveries against one secret, the one Telegram
            # was given: a worker that made up its own would turn every other worker's
            # deliveries into 403s.
            secret = found.get("telegram_webhook_secret")
            if not secret:
                raise ValueError(
                    "TELEGRAM_WEBHOOK_SECRET must be set with TELEGRAM_WEBHOOK_URL "
                    "(one secret shared by every webhook worker; 1-256 characters "
                    "A-Z a-z 0-9 _ -)"
                )
            if not _WEBHOOK_SECRET.fullmatch(secret):
                raise ValueError(
                    "TELEGRAM_WEBHOOK_SECRET must be 1-256 characters A-Z a-z 0-9 _ - "
                    "(Telegram's rule)"
                )
        if "log_format" in found:
            found["log_format"] = found["log_format"].lower()
            if found["log_format"] not in ("text", "json"):
                raise ValueError(f"LOG_FORMAT must be text or json (got {found['log_format']!r})")
        parsed: dict[str, object] = dict(found)
        for attr, (whole, _default) in _RATES.items():
            if attr in found:
                parsed[attr] = _rate(_VARIABLES[attr], found[attr], whole)
        for burst, per_minute in (
            ("rate_user_burst", "rate_user_per_minute"),
            ("rate_chat_burst", "rate_chat_per_minute"),
            ("rate_move_burst", "rate_move_per_minute"),
        ):
            if parsed.get(burst, _RATES[burst][1]) and not parsed.get(per_minute, 1):
                raise ValueError(
                    f"{_VARIABLES[per_minute]} must be above 0 while "
                    f"{_VARIABLES[burst]} is set (0 turns the limit off)"
                )
        if "database_pool_size" in found:
            size = found["database_pool_size"]
            if not size.isdigit() or not 1 <= int(size) <= 1000:
                raise ValueError(f"DATABASE_POOL_SIZE must be a whole number 1-1000 (got {size!r})")
            parsed["database_pool_size"] = int(size)
        if "database_pool_timeout" in found:
            wait = _rate("DATABASE_POOL_TIMEOUT", found["database_pool_timeout"], whole=False)
            if not 0 < wait <= 600:
                raise ValueError(
                    "DATABASE_POOL_TIMEOUT must be seconds above 0, at most 600 "
                    f"(got {found['database_pool_timeout']!r})"
                )
            parsed["database_pool_timeout"] = wait
        if "database_pooler" in found:
            pooler = found["database_pooler"].lower()
            if pooler != TRANSACTION_POOLER:
                raise ValueError(
                    f"DATABASE_POOLER must be {TRANSACTION_POOLER} (PgBouncer's pool_mode = "
                    f"transaction) or unset (got {found['database_pooler']!r})"
                )
            parsed["database_pooler"] = pooler
        for attr in ("http_port", "telegram_webhook_port", "platform_port"):
            if attr in found:
                parsed[attr] = _port(_VARIABLES[attr], found[attr])
        if "discord_sync_commands" in found:
            parsed["discord_sync_commands"] = _switch(
                "DISCORD_SYNC_COMMANDS", found["discord_sync_commands"]
            )
        if "auto_migrate" in found:
            parsed["auto_migrate"] = _switch("AUTO_MIGRATE", found["auto_migrate"])
        count, ids = shard_settings(
            found.get("discord_shard_count"), found.get("discord_shard_ids")
        )
        if "discord_replica" in found:
            if ids is not None:
                raise ValueError("set DISCORD_REPLICA or DISCORD_SHARD_IDS, not both")
            ids = replica_shards(found["discord_replica"], count)
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
