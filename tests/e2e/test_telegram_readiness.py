"""Readiness tells the truth about Telegram (issue 39): a webhook worker whose deliveries are
refused (403: Telegram holds another worker's secret) and a long-polling process in a 409
conflict are not ready, each named in ``/readyz``, while ``/livez`` stays green; either logs one
line a minute, not a line (or a traceback) per failed request."""

from __future__ import annotations

import asyncio
import logging
import socket

import aiohttp
from fake_telegram import GENEROUS_SECONDS, FakeTelegram, TelegramWorld

from bot.app import open_core
from bot.http import HttpServer
from bot.platforms.telegram import TelegramAdapter, TelegramConfig

GROUP = -100777
ALICE = 911
CONFLICT = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def get(server: HttpServer, route: str) -> tuple[int, str]:
    url = f"http://127.0.0.1:{server.port}{route}"
    async with aiohttp.ClientSession() as client, client.get(url) as response:
        return response.status, await response.text()


async def test_a_webhook_worker_whose_deliveries_are_refused_is_not_ready(tmp_path, caplog):
    fake = FakeTelegram()
    await fake.start()
    database = f"sqlite:///{tmp_path / 'db.sqlite'}"
    workers = []
    try:
        # two workers behind one address, started with different secrets: the second one's
        # setWebhook wins, and Telegram now sends its secret to the first one as well
        for secret in ("first-secret", "second-secret"):
            port = free_port()
            core = await open_core(database, sweep_interval=None)
            config = TelegramConfig(
                token=fake.token,
                base_url=fake.base_url,
                webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
                webhook_secret=secret,
                webhook_listen="127.0.0.1",
                webhook_port=port,
            )
            adapter = TelegramAdapter(core, config)
            await adapter.start()
            server = await HttpServer.start(core, "127.0.0.1", 0)
            workers.append((core, adapter, config, server))
        (_, first, first_config, first_http), (_, second, second_config, second_http) = workers
        fake.user(ALICE, "Alice")
        fake.group(GROUP)
        assert await get(first_http, "/readyz") == (
            200,
            "database: ok\ntelegram: ok (webhook, 0 deliveries accepted)\n",
        )
        caplog.set_level(logging.INFO)
        caplog.clear()
        fake.send_text(GROUP, ALICE, "/help")
        for _ in range(5):  # Telegram retries the refused update
            assert await fake.deliver(first_config.webhook_url) == [403]
        status, text = await get(first_http, "/readyz")
        assert status == 503
        assert "telegram: webhook refuses deliveries: wrong secret (5 in a row)\n" in text
        assert text.startswith("database: ok\n")
        assert await get(first_http, "/livez") == (200, "ok\n")
        refusals = [r for r in caplog.records if "webhook" in r.getMessage()]
        assert len(refusals) == 1 and refusals[0].levelname == "ERROR"  # once, not 5 times
        assert "second-secret" not in caplog.text and "first-secret" not in caplog.text
        # the worker Telegram agrees with takes the update and is ready
        assert await fake.deliver(second_config.webhook_url) == [200]
        await asyncio.wait_for(second.processed(fake.last_update_id), GENEROUS_SECONDS)
        status, text = await get(second_http, "/readyz")
        assert (status, text) == (
            200,
            "database: ok\ntelegram: ok (webhook, 1 deliveries accepted)\n",
        )
    finally:
        for core, adapter, _config, server in workers:
            await server.stop()
            await adapter.stop()
            await core.close()
        await fake.stop()


async def test_a_polling_conflict_is_not_ready_and_logs_one_line_a_minute(tmp_path, caplog):
    async with TelegramWorld(tmp_path) as world:
        server = await HttpServer.start(world.core, "127.0.0.1", 0)
        try:
            assert await get(server, "/readyz") == (200, "database: ok\ntelegram: ok (polling)\n")
            caplog.set_level(logging.DEBUG)
            caplog.clear()
            world.fake.fail_next("getUpdates", 409, CONFLICT, times=1000)
            # the library retries after 1 s, 1.5 s, 2.25 s ...: wait for three conflicts
            await world.fake.wait_until(
                lambda: world.fake._failures[-1].times <= 997,
                timeout=GENEROUS_SECONDS,
                what="three conflicts",
            )
            status, text = await get(server, "/readyz")
            assert status == 503
            assert text == (
                "database: ok\n"
                "telegram: polling conflict (409): another process polls with this token\n"
            )
            assert await get(server, "/livez") == (200, "ok\n")
            lines = [r for r in caplog.records if "409" in r.getMessage() or r.exc_info]
            assert len(lines) == 1 and lines[0].exc_info is None  # one line, no traceback
            # the other process stops: polling goes on, and readiness turns green again
            world.fake._failures[-1].times = 0
            world.adapter.conflict_window = 0.5
            await asyncio.sleep(0.6)
            assert (await get(server, "/readyz"))[0] == 200
            world.fake.user(ALICE, "Alice")
            world.fake.group(GROUP)
            await world.command(GROUP, ALICE, "/help")  # and updates are taken again
            assert "/play" in world.fake.bot_messages(GROUP)[-1].text
        finally:
            await server.stop()
