"""Mentions only where meant (issue 27): a Discord message pings nobody but the player the bot
means (an invitee, whose turn it is). A display name that reads ``<@id>`` or ``@everyone``
pings nobody, wherever the bot writes that name."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.fake_discord import Table, running_table


@pytest.fixture
async def table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    async for running in running_table(tmp_path, caplog):
        yield running


async def test_a_display_name_holding_a_mention_pings_nobody(table: Table) -> None:
    fake = table.fake
    victim = fake.add_user("victim")
    prankster = fake.add_user("x")
    prankster.name = f"<@{victim.id}> @everyone"
    bob = fake.add_user("bob")
    room = fake.add_channel("cards")
    await table.slash(bob, room, "help")  # the bot knows bob: an invitation pings him

    await table.slash(prankster, room, "challenge", player1=bob)
    sent = [m for m in fake.messages.values() if m.author is fake.bot_user]
    # the name is written as it is...
    assert any(f"<@{victim.id}>" in m.content for m in sent)
    # ...but the only one pinged is the invitee, and every message said whom it may ping
    assert set().union(*(m.pinged for m in sent)) == {bob.id}
    for message in sent:
        assert message.allowed_mentions is not None
        assert "everyone" not in (message.allowed_mentions.get("parse") or [])

    await table.slash(prankster, room, "join")
    await table.slash(bob, room, "join")
    await table.slash(prankster, room, "start")
    sent = [m for m in fake.messages.values() if m.author is fake.bot_user]
    assert victim.id not in set().union(*(m.pinged for m in sent))
    # the turn announcement pings the player to move, a seated player
    assert set().union(*(m.pinged for m in sent)) <= {bob.id, prankster.id}


async def test_a_solo_game_pings_nobody(table: Table) -> None:
    fake = table.fake
    victim = fake.add_user("victim")
    prankster = fake.add_user("x")
    prankster.name = f"<@{victim.id}>"
    room = fake.add_channel("solo")
    await table.slash(prankster, room, "play", game="canfield", deal=7)
    await table.slash(prankster, room, "resign")
    sent = [m for m in fake.messages.values() if m.author is fake.bot_user]
    assert sent and set().union(*(m.pinged for m in sent)) == set()


def test_telegram_writes_a_name_that_looks_like_markup_as_text() -> None:
    from bot.platforms.telegram.format import html_text
    from bot.replies import Reply

    name = '<a href="tg://user?id=42">boss</a> <b>'
    reply = Reply("challenge.opened", f"{name} opens a table", mentions=["7"])
    text = html_text(reply, 4096)
    assert "tg://user?id=42" not in text.replace("&quot;", '"').split("&lt;a", 1)[0]
    assert "&lt;a href=&quot;tg://user?id=42&quot;&gt;boss&lt;/a&gt; &lt;b&gt;" in text
    assert text.count('<a href="tg://user?id=') == 1  # the one mention the core meant
    assert '<a href="tg://user?id=7">' in text
