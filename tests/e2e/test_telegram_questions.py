"""Telegram, end to end: the board's Resign button asks Yes/No in the group before a game
ends (issue 26: one press never loses a game), and the Yes is what ends it."""

from __future__ import annotations

import pytest
from fake_telegram import TelegramWorld, assert_callback_data_fits

from bot.core import buttons

GROUP = -100778
ALICE = 902


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.group(GROUP)
        yield world


def verb_button(message, verb: str) -> str:
    return next(d for d in message.callback_data() if buttons.decode(d).verb == verb)


async def test_the_resign_button_asks_in_the_group_and_only_yes_ends_the_game(world):
    await world.command(GROUP, ALICE, "/play solitario 5")
    board = world.fake.latest_photo(GROUP)
    session_id = buttons.decode(board.callback_data()[0]).session_id
    await world.press(GROUP, ALICE, board.message_id, verb_button(board, "resign"))
    question = world.fake.bot_messages(GROUP)[-1]
    assert (
        "Resign your Solitario, " in question.text and "? It cannot be taken back." in question.text
    )
    assert [b["text"] for b in question.buttons()] == ["Yes", "No"]
    assert (await world.core.sessions.get(session_id)).is_active
    await world.press(GROUP, ALICE, question.message_id, verb_button(question, "no"))
    assert world.fake.bot_messages(GROUP)[-1].text == "Your Solitario goes on: nothing changed."
    assert (await world.core.sessions.get(session_id)).is_active
    # asked again, Yes ends it
    await world.press(GROUP, ALICE, board.message_id, verb_button(board, "resign"))
    question = world.fake.bot_messages(GROUP)[-1]
    await world.press(GROUP, ALICE, question.message_id, verb_button(question, "yes"))
    assert (await world.core.sessions.get(session_id)).record.status == "over"
    assert_callback_data_fits(world.fake.calls)
