"""The Telegram adapter against the fake Bot API: menus, commands, the token kept out of logs."""

from __future__ import annotations

import logging

import pytest
from fake_telegram import BOT_USER, TelegramWorld

from bot import logs

GROUP = -100111
ALICE, BOB = 501, 502


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.user(BOB, "Bob", language="it")
        world.fake.group(GROUP)
        yield world


async def test_command_menus_are_registered_in_three_languages(world):
    menus = {
        c.params.get("language_code"): c.params["commands"]
        for c in world.fake.calls_of("setMyCommands")
    }
    assert set(menus) == {"en", "es", "it", None}
    names = [c["command"] for c in menus["en"]]
    assert {"play", "move", "hand", "help", "lang"} <= set(names)
    assert [c["command"] for c in menus["it"]] == names
    for lang in ("en", "es", "it"):  # each menu in its language, as the core words it
        assert [c["description"] for c in menus[lang]] == [
            d for _, d in world.core.command_list(lang)
        ]


async def test_help_is_answered_in_the_group(world):
    await world.command(GROUP, ALICE, "/help")
    [message] = world.fake.bot_messages(GROUP)
    assert "/play" in message.text


async def test_a_command_for_another_bot_is_ignored(world):
    await world.command(GROUP, ALICE, "/help@SomeOtherBot")
    await world.command(GROUP, ALICE, f"/help@{BOT_USER['username']}")
    assert len(world.fake.bot_messages(GROUP)) == 1


async def test_the_token_never_reaches_the_logs(tmp_path, captured):
    # the bot's own logging at DEBUG (as LOG_LEVEL=debug sets it up), not told the token, and
    # python-telegram-bot's own DEBUG lines on (an operator chasing a library problem): those
    # quote the Bot API URL, which holds the token
    logs.configure("DEBUG", "text", [], captured)
    logging.getLogger("telegram.ext").setLevel(logging.DEBUG)
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.group(GROUP)
        await world.command(GROUP, ALICE, "/help")
        world.fake.fail_next("sendMessage", 500, "Internal Server Error")
        await world.command(GROUP, ALICE, "/help")
    text = captured.getvalue()
    assert "Bot API URL" in text and "getUpdates" in text  # the lines that quote the URL
    assert world.fake.token not in text
    assert world.fake.token.split(":")[1] not in text
