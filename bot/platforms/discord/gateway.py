"""The gateway links of this process, for readiness (``/readyz``) and metrics: each shard is up
from its READY (or RESUMED) to its disconnect, with its heartbeat latency (an unsharded client
is shard 0)."""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING

import discord

from bot.health import Health

if TYPE_CHECKING:
    from discord import Client as _ClientBase
else:
    _ClientBase = object

log = logging.getLogger(__name__)


class GatewayLinks(_ClientBase):
    """The client's gateway bookkeeping (a mixin of ``TavoloClient``, which owns the state)."""

    #: each shard's gateway link: up from its READY or RESUMED to its disconnect
    _links: dict[int, bool]

    def shard_latencies(self) -> list[tuple[int, float]]:
        """Each shard of this process with its heartbeat latency (an unsharded client is
        shard 0)."""
        latencies = getattr(self, "latencies", None)  # an AutoShardedClient's, per shard
        if latencies is not None:
            return [(int(shard), float(seconds)) for shard, seconds in latencies]
        return [(0, float(self.latency))]

    def _shards(self) -> list[int]:
        """The shards this process runs (an unsharded client is shard 0)."""
        if isinstance(self, discord.AutoShardedClient):
            ids = self.shard_ids
            return sorted(ids) if ids is not None else list(range(self.shard_count or 1))
        return [0]

    def _latency(self, shard: int) -> str:
        if isinstance(self, discord.AutoShardedClient):
            info = self.get_shard(shard)
            seconds = info.latency if info is not None else float("nan")
        else:
            seconds = self.latency
        return f"{seconds * 1000:.0f} ms" if math.isfinite(seconds) else "no heartbeat yet"

    def connection_problem(self) -> Health:
        """Whether every shard of this process is connected (``/readyz``), with latencies."""
        if self.is_closed():
            return Health(False, "closed")
        shards = self._shards()
        sharded = isinstance(self, discord.AutoShardedClient)
        down = [shard for shard in shards if not self._links.get(shard)]
        up = [shard for shard in shards if shard not in down]
        latencies = ", ".join(
            f"shard {shard}: {self._latency(shard)}"
            if sharded
            else f"latency {self._latency(shard)}"
            for shard in up
        )
        if not down:
            return Health(True, latencies)
        missing = ("shards " if len(down) > 1 else "shard ") + ", ".join(map(str, down))
        what = f"{missing} not connected" if sharded else "not connected"
        return Health(False, f"{what} ({latencies})" if latencies else what)

    def _shard_link(self, shard: int, up: bool) -> None:
        if self._links.get(shard) != up:
            (log.info if up else log.warning)(
                "discord: shard %s %s", shard, "connected" if up else "disconnected"
            )
        self._links[shard] = up

    # discord.py's gateway events: a shard is up from its READY (or RESUMED) to its disconnect
    async def on_connect(self) -> None:
        if not isinstance(self, discord.AutoShardedClient):
            self._shard_link(0, True)

    async def on_resumed(self) -> None:
        await self.on_connect()

    async def on_disconnect(self) -> None:
        if not isinstance(self, discord.AutoShardedClient):
            self._shard_link(0, False)

    async def on_shard_connect(self, shard_id: int) -> None:
        self._shard_link(shard_id, True)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._shard_link(shard_id, True)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self._shard_link(shard_id, False)
