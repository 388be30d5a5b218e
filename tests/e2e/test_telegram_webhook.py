"""Webhook mode: updates POSTed by Telegram, checked against the secret token."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest
from fake_telegram import GENEROUS_SECONDS, FakeTelegram

from bot.app import open_core
from bot.platforms.telegram import TelegramAdapter, TelegramConfig

GROUP = -100555
ALICE = 901


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_webhook_mode_takes_updates_only_with_the_secret(tmp_path):
    fake = FakeTelegram()
    await fake.start()
    port = free_port()
    core = await open_core(f"sqlite:///{tmp_path / 'db.sqlite'}", sweep_interval=None)
    config = TelegramConfig(
        token=fake.token,
        base_url=fake.base_url,
        webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
        webhook_secret="s3cret-Token_1",
        webhook_listen="127.0.0.1",
        webhook_port=port,
    )
    adapter = TelegramAdapter(core, config)
    try:
        await adapter.start()
        assert fake.webhook["url"] == config.webhook_url
        assert fake.webhook["secret_token"] == "s3cret-Token_1"
        assert not fake.calls_of("getUpdates")  # no polling in webhook mode
        fake.user(ALICE, "Alice")
        fake.group(GROUP)
        fake.send_text(GROUP, ALICE, "/help")
        update = fake._updates.pop()
        async with aiohttp.ClientSession() as http:
            url = config.webhook_url
            forged = await http.post(
                url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "nope"}
            )
            assert forged.status == 403
            real = await http.post(
                url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret-Token_1"}
            )
            assert real.status == 200
        await adapter.processed(update["update_id"])
        await adapter.outbox.drain(10)
        [answer] = fake.bot_messages(GROUP)
        assert "/play" in answer.text
        metrics = core.metrics.exposition().decode()
        assert 'tavolo_update_queue_depth{platform="telegram"} 0.0' in metrics
    finally:
        await adapter.stop()
        await core.close()
        await fake.stop()


async def test_two_webhook_workers_behind_one_url_handle_an_update_delivered_twice_once(tmp_path):
    fake = FakeTelegram()
    await fake.start()
    database = f"sqlite:///{tmp_path / 'db.sqlite'}"
    workers = []
    try:
        for _ in range(2):  # two processes' worth: each its own core and webhook server
            port = free_port()
            core = await open_core(database, sweep_interval=None)
            config = TelegramConfig(
                token=fake.token,
                base_url=fake.base_url,
                webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
                webhook_secret="s3cret",
                webhook_listen="127.0.0.1",
                webhook_port=port,
            )
            adapter = TelegramAdapter(core, config)
            await adapter.start()
            workers.append((core, adapter, config))
        fake.user(ALICE, "Alice")
        fake.group(GROUP)
        fake.send_text(GROUP, ALICE, "/help")
        update = fake._updates.pop()
        headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
        async with aiohttp.ClientSession() as http:
            # delivered to both workers, and retried to the first
            for _core, _adapter, config in (*workers, workers[0]):
                assert (
                    await http.post(config.webhook_url, json=update, headers=headers)
                ).status == 200
        # the first worker got it twice: wait for both, or the dropped copy's mark could end
        # the wait before the first copy's answer was even queued
        for (_core, adapter, _config), deliveries in zip(workers, (2, 1), strict=True):
            await asyncio.wait_for(
                adapter.processed(update["update_id"], deliveries), GENEROUS_SECONDS
            )
            await adapter.outbox.drain(GENEROUS_SECONDS)
        answers = fake.bot_messages(GROUP)
        assert len(answers) == 1 and "/play" in answers[0].text
    finally:
        for core, adapter, _config in workers:
            await adapter.stop()
            await core.close()
        await fake.stop()


async def test_a_restarted_worker_leaves_the_webhook_as_it_is_and_none_works_without_the_secret(
    tmp_path,
):
    """A rolling restart of webhook workers never calls setWebhook again (so none can flip
    another's secret), and a worker cannot start without the shared secret."""
    fake = FakeTelegram()
    await fake.start()
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram/hook"
    database = f"sqlite:///{tmp_path / 'db.sqlite'}"
    try:
        for _ in range(2):  # the same worker started twice, as in a rolling restart
            core = await open_core(database, sweep_interval=None)
            config = TelegramConfig(
                token=fake.token,
                base_url=fake.base_url,
                webhook_url=url,
                webhook_secret="shared_1",
                webhook_listen="127.0.0.1",
                webhook_port=port,
            )
            adapter = TelegramAdapter(core, config)
            try:
                await adapter.start()
            finally:
                await adapter.stop()
                await core.close()
        assert len(fake.calls_of("setWebhook")) == 1
        assert len(fake.calls_of("getWebhookInfo")) == 2
        core = await open_core(database, sweep_interval=None)
        unsafe = TelegramConfig(
            token=fake.token,
            base_url=fake.base_url,
            webhook_url=url,
            webhook_listen="127.0.0.1",
            webhook_port=port,
        )
        adapter = TelegramAdapter(core, unsafe)
        try:
            with pytest.raises(ValueError, match="TELEGRAM_WEBHOOK_SECRET"):
                await adapter.start()
        finally:
            await adapter.stop()
            await core.close()
        assert len(fake.calls_of("setWebhook")) == 1
    finally:
        await fake.stop()
