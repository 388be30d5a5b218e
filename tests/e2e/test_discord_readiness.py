"""Readiness tells the truth about Discord (issue 39): every shard of this process connected,
each with its latency; a shard whose gateway link dropped and has not come back turns
``/readyz`` red naming it (``/livez`` stays green), and green again once it reconnected."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp

from bot.http import HttpServer
from tests.e2e.fake_discord import GENEROUS_SECONDS, running_table

SHARDS = {"discord_shard_count": 4, "discord_shard_ids": (1, 3)}


async def get(server: HttpServer, route: str) -> tuple[int, str]:
    url = f"http://127.0.0.1:{server.port}{route}"
    async with aiohttp.ClientSession() as client, client.get(url) as response:
        return response.status, await response.text()


async def until(server: HttpServer, status: int) -> str:
    """/readyz's body once it answers ``status`` (within the generous bound)."""
    deadline = time.monotonic() + GENEROUS_SECONDS
    while True:
        answered, text = await get(server, "/readyz")
        if answered == status:
            return text
        assert time.monotonic() < deadline, f"/readyz stayed {answered}: {text}"
        await asyncio.sleep(0.05)


async def no_wait(shard_id: int | None, initial: bool) -> None:
    """discord.py waits 5 s before a shard identifies again (Discord's identify limit)."""


async def test_a_shard_that_reconnects_is_not_ready_until_it_is_back(
    tmp_path: Any, caplog: Any
) -> None:
    async for table in running_table(tmp_path, caplog, SHARDS):
        table.client.before_identify_hook = no_wait
        server = await HttpServer.start(table.core, "127.0.0.1", 0)
        try:
            text = await until(server, 200)
            assert text.startswith("database: ok\ndiscord: ok (shard 1: ")
            assert ", shard 3: " in text
            table.fake.ready_allowed.clear()
            await table.fake.drop(3)
            text = await until(server, 503)
            assert text.startswith("database: ok\ndiscord: shard 3 not connected (shard 1: ")
            assert (await get(server, "/livez")) == (200, "ok\n")
            table.fake.ready_allowed.set()  # the gateway lets it back in
            text = await until(server, 200)
            assert "shard 1: " in text and "shard 3: " in text
            alice = table.fake.add_user("alice")
            general = table.fake.add_channel("general")
            await table.slash(alice, general, "help")  # and it serves commands
            assert "/play" in table.fake.visible_to(alice, general)[-1].content
        finally:
            await server.stop()


async def test_an_unsharded_client_reports_its_latency_and_its_reconnects(
    tmp_path: Any, caplog: Any
) -> None:
    async for table in running_table(tmp_path, caplog):
        server = await HttpServer.start(table.core, "127.0.0.1", 0)
        try:
            text = await until(server, 200)
            assert text.startswith("database: ok\ndiscord: ok (latency ")
            table.fake.ready_allowed.clear()
            await table.fake.drop(0)
            assert (await until(server, 503)).endswith("discord: not connected\n")
            table.fake.ready_allowed.set()
            await until(server, 200)
        finally:
            await server.stop()
