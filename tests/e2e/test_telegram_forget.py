"""Telegram, end to end (issue 35): the player who plays the day's FreeCell ranked, resigns,
practises it and asks to be forgotten gets a practice game from ``/daily freecell``, told so
in the group, and the database keeps neither their id nor their name."""

from __future__ import annotations

import pytest
from fake_telegram import TelegramWorld

from bot.core import buttons

GROUP = -100779
ALICE = 731955024
NAME = "Alicequintavalle"


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, NAME)
        world.fake.group(GROUP)
        world.fake.started_privately.add(ALICE)
        yield world


def verb_button(message, verb: str) -> str:
    return next(d for d in message.callback_data() if buttons.decode(d).verb == verb)


async def test_forgetting_never_buys_a_second_ranked_daily_and_leaves_no_trace(world):
    await world.command(GROUP, ALICE, "/daily freecell")
    assert "ranked, one attempt" in world.fake.bot_messages(GROUP)[-2].text
    await world.command(GROUP, ALICE, "/resign")
    question = world.fake.bot_messages(GROUP)[-1]
    await world.press(GROUP, ALICE, question.message_id, verb_button(question, "yes"))
    await world.command(GROUP, ALICE, "/daily freecell")
    await world.command(GROUP, ALICE, "/hint")
    await world.command(GROUP, ALICE, "/resign")
    await world.command(GROUP, ALICE, "/forgetme confirm")
    done = world.fake.bot_messages(ALICE)[-1].text
    assert done.startswith("Done:")

    await world.command(GROUP, ALICE, "/daily freecell")
    told = world.fake.bot_messages(GROUP)[-2].text
    assert "for practice: unranked" in told and "does not give a second one" in told
    assert "practice, not ranked" in done  # and /forgetme said so when it was done
    store = world.core.store
    assert await store.fetch("SELECT COUNT(*) FROM daily_attempts") == [(0,)]
    await world.command(GROUP, ALICE, "/resign")
    await world.command(GROUP, ALICE, "/forgetme confirm")
    # every column of every table (read from the database itself): no id, no name
    tables = await store.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
    for (table,) in tables:
        for column in [row[1] for row in await store.fetch(f"PRAGMA table_info({table})")]:
            for needle in (str(ALICE), NAME):
                found = await store.fetch(
                    f'SELECT COUNT(*) FROM {table} WHERE CAST("{column}" AS TEXT) LIKE ?',
                    (f"%{needle}%",),
                )
                assert found == [(0,)], f"{table}.{column} holds {needle}"
