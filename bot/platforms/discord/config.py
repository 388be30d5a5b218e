"""What the Discord adapter reads from the settings, and the process-wide set-up it implies:
discord.py pointed at another REST base and gateway (a local test server), the token kept out
of every log record."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord
import yarl

from bot.platforms import redaction
from bot.platforms.outbox import OutboxLimits


@dataclass(frozen=True, slots=True)
class DiscordConfig:
    """What the adapter reads from the bot's settings (attributes, all optional but the token)."""

    token: str
    guild_id: int | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    default_language: str = "en"
    #: sharding (``DISCORD_SHARD_COUNT`` / ``DISCORD_SHARD_IDS``): None runs one plain client
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: the outbox's limits (None: Discord's, ``discord_limits()``)
    limits: OutboxLimits | None = None
    #: sync the slash commands at start (``Settings.syncs_discord_commands``): a replica of
    #: a sharded bot leaves it to the deploy step ``python -m bot sync-commands``
    sync_commands: bool = True

    @classmethod
    def from_settings(cls, settings: Any) -> DiscordConfig:
        """Read ``discord_token``, ``discord_guild_id``, ``discord_api_base``,
        ``discord_gateway_url`` and ``default_language`` from ``settings``.

        >>> from types import SimpleNamespace
        >>> DiscordConfig.from_settings(SimpleNamespace(discord_token="t", discord_guild_id="42")).guild_id
        42
        """
        guild = getattr(settings, "discord_guild_id", None)
        return cls(
            token=str(getattr(settings, "discord_token", "") or "").strip(),
            guild_id=int(guild) if guild not in (None, "") else None,
            api_base=getattr(settings, "discord_api_base", None) or None,
            gateway_url=getattr(settings, "discord_gateway_url", None) or None,
            default_language=getattr(settings, "default_language", None) or "en",
            shard_count=getattr(settings, "discord_shard_count", None),
            shard_ids=getattr(settings, "discord_shard_ids", None),
            limits=getattr(settings, "discord_limits", None),
            sync_commands=bool(getattr(settings, "syncs_discord_commands", True)),
        )


def configure_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Point discord.py at another REST base and gateway (a local test server).

    discord.py keeps both as class attributes, so this is process-wide.

    >>> before = discord.http.Route.BASE
    >>> configure_endpoints("http://127.0.0.1:8080", None)
    >>> discord.http.Route.BASE
    'http://127.0.0.1:8080/api/v10'
    >>> discord.http.Route.BASE = before  # process-wide: the example puts it back
    """
    if api_base:
        base = api_base.rstrip("/")
        if not re.search(r"/api/v\d+$", base):
            base += "/api/v10"
        discord.http.Route.BASE = base
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def install_token_redaction(token: str) -> None:
    """Replace ``token`` by ``[token]`` in every log record from now on, whoever logs it."""
    redaction.install_token_redaction(token, "[token]")
