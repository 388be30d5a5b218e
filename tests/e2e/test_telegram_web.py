"""Telegram, end to end: the web page's links arrive where a player can tap them (the chat's
leaderboards link in the group, the page link as its own message after the table, which is a
fixed-width block)."""

from __future__ import annotations

import pytest
from fake_telegram import TelegramWorld

BASE = "https://tavolo.example"
GROUP = -100777
ALICE = 911


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.group(GROUP)
        world.fake.started_privately.add(ALICE)
        world.core.service.web_base_url = BASE
        yield world


async def test_the_chat_link_and_the_leaderboard_link_reach_the_group(world):
    await world.command(GROUP, ALICE, "/leaderboard web")
    given = world.fake.bot_messages(GROUP)[-1].text
    assert f"{BASE}/chat/" in given
    token = given.split(f"{BASE}/chat/")[1].split()[0]
    await world.command(GROUP, ALICE, "/play canfield 3")
    await world.command(GROUP, ALICE, "/resign canfield")
    await world.command(GROUP, ALICE, "/leaderboard week")
    table, link = world.fake.bot_messages(GROUP)[-2:]
    assert link.text.endswith(f"{BASE}/chat/{token}?period=week")
    assert "<pre>" not in link.text and BASE not in table.text
    assert table.text.startswith("<pre>")  # the table: fixed width, where a link is not tapped
