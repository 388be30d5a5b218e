"""Running Discord: one client, or chosen shards of the bot in this process, as the ``Adapter``
``python -m bot`` runs (and the client ``python -m bot sync-commands`` syncs with)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.platforms.discord.client import TavoloClient
from bot.platforms.discord.config import (
    DiscordConfig,
    configure_endpoints,
    install_token_redaction,
)
from bot.platforms.discord.messages import PLATFORM

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger(__name__)


class ShardedTavoloClient(TavoloClient, discord.AutoShardedClient):
    """The client running chosen shards of the bot in this process (``AutoShardedClient``):
    each process of a sharded bot runs its own ``DISCORD_SHARD_IDS`` out of
    ``DISCORD_SHARD_COUNT``, all on one database."""


def create_client(core: Core, settings: Any, **options: Any) -> TavoloClient:
    """A client for ``core``, with endpoints and token redaction set from ``settings``; a
    sharded one when ``discord_shard_count`` is set."""
    config = DiscordConfig.from_settings(settings)
    configure_endpoints(config.api_base, config.gateway_url)
    install_token_redaction(config.token)
    if config.shard_count is None:
        return TavoloClient(core, config, **options)
    shards: dict[str, Any] = {"shard_count": config.shard_count}
    if config.shard_ids is not None:
        shards["shard_ids"] = list(config.shard_ids)
    log.info(
        "discord: shards %s of %d in this process",
        ",".join(map(str, config.shard_ids or range(config.shard_count))),
        config.shard_count,
    )
    return ShardedTavoloClient(core, config, **shards, **options)


class DiscordPlatform:
    """Discord as an ``Adapter`` (``python -m bot`` runs it when ``DISCORD_TOKEN`` is set):
    the gateway client runs until ``stop`` closes it."""

    name = PLATFORM

    def __init__(self) -> None:
        self._client: TavoloClient | None = None
        self._stopped = False

    async def run(self, core: Core, settings: Any) -> None:
        client = create_client(core, settings)
        self._client = client
        if self._stopped:  # stopped before it started
            return
        async with client:
            await client.start(client.config.token)

    async def stop(self) -> None:
        self._stopped = True
        if self._client is not None and not self._client.is_closed():
            await self._client.close()
