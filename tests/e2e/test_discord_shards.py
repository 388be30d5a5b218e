"""Discord sharding: ``DISCORD_SHARD_COUNT`` / ``DISCORD_SHARD_IDS`` reach an
``AutoShardedClient`` that identifies as the chosen shards and serves commands."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.settings import Settings
from tests.e2e.fake_discord import running_table


async def test_the_shard_settings_run_the_chosen_shards_and_a_command_is_served(
    tmp_path: Any, caplog: Any
) -> None:
    settings = Settings.from_mapping({"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "1, 3"})
    assert (settings.discord_shard_count, settings.discord_shard_ids) == (4, (1, 3))
    shards = {
        "discord_shard_count": settings.discord_shard_count,
        "discord_shard_ids": settings.discord_shard_ids,
    }
    async for table in running_table(tmp_path, caplog, shards):
        client = table.client
        assert isinstance(client, discord.AutoShardedClient)
        assert (client.shard_count, sorted(client.shards)) == (4, [1, 3])
        assert sorted(table.fake.identified_shards) == [[1, 4], [3, 4]]  # one gateway link each
        alice = table.fake.add_user("alice")
        general = table.fake.add_channel("general")
        await table.slash(alice, general, "help")
        shown = table.fake.visible_to(alice, general)
        assert shown and "/play" in shown[-1].content
        metrics = table.core.metrics.exposition().decode()
        # each shard of this process has its heartbeat latency; interactions in hand counted
        assert 'tavolo_gateway_latency_seconds{shard="1"}' in metrics
        assert 'tavolo_gateway_latency_seconds{shard="3"}' in metrics
        assert 'tavolo_gateway_latency_seconds{shard="0"}' not in metrics
        assert 'tavolo_update_queue_depth{platform="discord"} 0.0' in metrics


async def test_without_shard_settings_the_plain_client_identifies_unsharded(
    tmp_path: Any, caplog: Any
) -> None:
    async for table in running_table(tmp_path, caplog):
        assert not isinstance(table.client, discord.AutoShardedClient)
        assert table.fake.identified_shards in ([None], [[0, 1]])


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        (None, "0", "needs DISCORD_SHARD_COUNT"),
        ("0", None, "from 1"),
        ("2", "2", "not below"),
        ("2", "0,x", "separated by commas"),
        ("4", "1,1", "twice"),
    ],
)
def test_a_wrong_shard_setting_is_one_clear_line(
    count: str | None, ids: str | None, says: str
) -> None:
    with pytest.raises(ValueError, match=says):
        Settings.from_mapping({"DISCORD_SHARD_COUNT": count, "DISCORD_SHARD_IDS": ids})


async def test_a_replica_of_a_sharded_bot_leaves_the_slash_commands_to_the_deploy_step(
    tmp_path: Any, caplog: Any
) -> None:
    settings = Settings.from_mapping({"DISCORD_SHARD_COUNT": "4", "DISCORD_REPLICA": "1/2"})
    shards = {
        "discord_shard_count": settings.discord_shard_count,
        "discord_shard_ids": settings.discord_shard_ids,
        "syncs_discord_commands": settings.syncs_discord_commands,
    }
    async for table in running_table(tmp_path, caplog, shards):
        assert sorted(table.client.shards) == [2, 3]
        assert table.fake.commands == {}  # nothing synced by this replica
        assert "python -m bot sync-commands" in caplog.text
    async for table in running_table(tmp_path, caplog):  # one process: syncs at start
        assert "play" in table.fake.command_names()
