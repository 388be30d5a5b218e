"""``python -m bot sync-commands`` (issue 39): the deploy step registers Discord's slash
commands (which replicas leave alone) and Telegram's menus and webhook, secret included, even
when Telegram already shows the same address."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fake_discord import TOKEN, FakeDiscord
from fake_telegram import FakeTelegram

from bot.settings import Settings
from bot.sync_commands import sync_commands


async def test_the_deploy_step_syncs_discords_commands_that_a_replica_left(tmp_path: Any) -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        replica = Settings.from_mapping({"DISCORD_SHARD_COUNT": "4", "DISCORD_REPLICA": "1/2"})
        settings = SimpleNamespace(
            database_url=f"sqlite:///{tmp_path / 'db.sqlite'}",
            default_language="en",
            discord_token=TOKEN,
            discord_guild_id=str(fake.guild_id),
            discord_api_base=fake.api_base,
            discord_gateway_url=fake.gateway_url,
            discord_shard_count=replica.discord_shard_count,
            discord_shard_ids=replica.discord_shard_ids,
            syncs_discord_commands=replica.syncs_discord_commands,
        )
        done = await sync_commands(settings)
        assert "play" in fake.command_names() and "leaderboard" in fake.command_names()
        assert done == [f"discord: {len(fake.command_names())} slash commands synced"]
        assert fake.identified_shards == []  # no gateway connection: the REST calls only
    finally:
        await fake.stop()


async def test_the_deploy_step_sets_telegrams_webhook_with_the_secret_every_time(
    tmp_path: Any,
) -> None:
    fake = FakeTelegram()
    await fake.start()
    try:
        settings = Settings.from_mapping(
            {
                "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}",
                "TELEGRAM_TOKEN": fake.token,
                "TELEGRAM_BASE_URL": fake.base_url,
                "TELEGRAM_WEBHOOK_URL": "https://bot.example/telegram",
                "TELEGRAM_WEBHOOK_SECRET": "new_1",
            }
        )
        for _ in range(2):  # a second deploy with a new secret must reach Telegram too
            assert await sync_commands(settings) == [
                "telegram: command menus set",
                "telegram: webhook set",
            ]
        assert len(fake.calls_of("setWebhook")) == 2
        assert fake.webhook is not None and fake.webhook["secret_token"] == "new_1"
        assert "play" in fake.command_menus[""]
    finally:
        await fake.stop()
