"""Discord, end to end (issue 35): ``/daily freecell``, resign, practise, ``/forgetme
confirm``, ``/daily freecell`` gives a practice game and says why; the database keeps neither
the player's id nor their name."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.fake_discord import running_table

NAME = "Alicequintavalle"


@pytest.fixture
async def table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    async for running in running_table(tmp_path, caplog):
        yield running


def said(fake: Any, channel: Any, user: Any) -> list[str]:
    """What the bot posted in the channel and showed the user only, in order."""
    shown = fake.channel_messages(channel) + fake.ephemerals(user)
    return [m.content for m in sorted(shown, key=lambda m: m.id)]


async def test_forgetting_never_buys_a_second_ranked_daily_and_leaves_no_trace(table: Any):
    fake = table.fake
    alice = fake.add_user(NAME)
    room = fake.add_channel("cards")
    await table.slash(alice, room, "daily", game="freecell")
    assert any("ranked, one attempt" in text for text in said(fake, room, alice))
    await table.slash(alice, room, "resign")
    question = next(
        m
        for m in reversed(fake.channel_messages(room) + fake.ephemerals(alice))
        if m.custom_ids and "Yes" in str(m.components)
    )
    await table.press(alice, question, question.button("Yes"))
    await table.slash(alice, room, "daily", game="freecell")
    await table.slash(alice, room, "hint")
    await table.slash(alice, room, "resign")
    await table.slash(alice, room, "forgetme", confirm=True)
    assert fake.ephemerals(alice)[-1].content.startswith("Done:")

    await table.slash(alice, room, "daily", game="freecell")
    told = [t for t in said(fake, room, alice) if "for practice: unranked" in t]
    assert told and "does not give a second one" in told[-1]
    store = table.core.store
    assert await store.fetch("SELECT COUNT(*) FROM daily_attempts") == [(0,)]
    await table.slash(alice, room, "resign")
    await table.slash(alice, room, "forgetme", confirm=True)
    # every column of every table (read from the database itself): no id, no name
    tables = await store.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
    for (name,) in tables:
        for column in [row[1] for row in await store.fetch(f"PRAGMA table_info({name})")]:
            for needle in (str(alice.id), NAME):
                found = await store.fetch(
                    f'SELECT COUNT(*) FROM {name} WHERE CAST("{column}" AS TEXT) LIKE ?',
                    (f"%{needle}%",),
                )
                assert found == [(0,)], f"{name}.{column} holds {needle}"
