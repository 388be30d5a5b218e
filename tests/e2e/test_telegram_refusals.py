"""Telegram: a refused command that reveals nothing private is answered in the group, as a
reply to that command (players of Telegram game bots expect it; a player who never opened a
private chat with the bot reads it too). Button refusals stay callback answers; hands and
private answers stay private."""

from __future__ import annotations

import html

import pytest
from fake_telegram import TelegramWorld

GROUP = -100777
ANA, BEA = 701, 702  # Ana never opened a private chat with the bot; Bea did


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ANA, "Ana")
        world.fake.user(BEA, "Bea")
        world.fake.group(GROUP)
        world.fake.send_text(BEA, BEA, "/start")
        await world.handled(world.fake.last_update_id)
        yield world


async def answer_to(world: TelegramWorld, user: int, text: str):
    """The bot's answer in the group to ``text``, which must be a reply to that command."""
    before = len(world.fake.bot_messages(GROUP))
    await world.command(GROUP, user, text)
    command = [m for m in world.fake.chat_messages(GROUP) if not m.from_bot][-1]
    new = world.fake.bot_messages(GROUP)[before:]
    assert len(new) == 1, [m.text for m in new]
    assert new[0].reply_to == command.message_id
    return html.unescape(new[0].text)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("/play nosuchgame", "nosuchgame"),  # unknown game
        ("/frobnicate", "frobnicate"),  # unknown command
        ("/move", "/move"),  # bad arguments
        ("/challenge timer=99999", "timer"),  # a bad argument of a table command
    ],
)
async def test_a_refused_command_is_answered_in_the_group_as_a_reply(world, line, words):
    text = await answer_to(world, ANA, line)
    assert words in text
    assert not world.fake.bot_messages(ANA)  # nothing went to a private chat ...
    assert "private answer" not in text  # ... and no "open a chat with me" notice


async def test_a_bad_move_text_is_answered_in_the_group(world):
    await world.command(GROUP, ANA, "/play canfield 3")
    text = await answer_to(world, ANA, "/move zz9")
    assert text and not world.fake.bot_messages(ANA)
    text = await answer_to(world, BEA, "/resign")  # Bea has no game here
    assert "no game" in text and len(world.fake.bot_messages(BEA)) == 1  # only her /start answer


async def test_not_your_turn_at_a_table_is_a_group_reply_and_buttons_stay_callback_answers(world):
    await world.command(GROUP, ANA, "/challenge")
    lobby = world.fake.latest_photo(GROUP) or world.fake.bot_messages(GROUP)[-1]
    join = next(d for d in lobby.callback_data() if d.startswith("v1:join:"))
    await world.press(GROUP, BEA, lobby.message_id, join)
    lobby = next(m for m in world.fake.bot_messages(GROUP) if m.message_id == lobby.message_id)
    start = next(d for d in lobby.callback_data() if d.startswith("v1:start:"))
    # a button refusal (Bea did not open the table) stays the callback answer only she sees
    before = len(world.fake.bot_messages(GROUP))
    answer = await world.press(GROUP, BEA, lobby.message_id, start)
    assert answer["text"] and len(world.fake.bot_messages(GROUP)) == before
    await world.press(GROUP, ANA, lobby.message_id, start)
    # Ana moves first: Bea typing a move is told whose turn it is, in the group
    text = await answer_to(world, BEA, "/move pass")
    assert "not your turn" in text and "ana" in text.lower()
    # her hand is still private: /hand goes to her private chat, never to the group
    before = len(world.fake.bot_messages(GROUP))
    await world.command(GROUP, BEA, "/hand")
    assert len(world.fake.bot_messages(GROUP)) == before
    assert world.fake.bot_messages(BEA)[-1].photo_sha is not None
