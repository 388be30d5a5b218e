"""Solo games on Telegram, played by button presses only, as a player would."""

from __future__ import annotations

import pytest
from fake_telegram import TelegramWorld, button_revision, button_session, button_verb

GROUP = -100444
ALICE, BOB = 801, 802


def eager_press(data: list[str]) -> str | None:
    """A move button, else "to foundation", else the first source to select; None at the end."""
    for verb in ("mv", "found", "sel"):
        for item in data:
            if button_verb(item) == verb:
                return item
    return None


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.user(BOB, "Bob")
        world.fake.group(GROUP)
        yield world


async def press_on_board(world, user, data):
    board = world.fake.latest_photo(GROUP)
    return await world.press(GROUP, user, board.message_id, data)


@pytest.mark.slow
async def test_a_whole_imaginary_thirteen_game_by_buttons(world):
    await world.command(GROUP, ALICE, "/play imaginary13 3")
    [board] = [m for m in world.fake.bot_messages(GROUP) if m.photo_sha]
    session = button_session(board.callback_data()[0])
    presses = 0
    while (data := eager_press(world.fake.latest_photo(GROUP).callback_data())) is not None:
        answer = await press_on_board(world, ALICE, data)
        assert not answer.get("text"), answer  # every press was a legal, accepted action
        presses += 1
        assert presses < 400
    record = (await world.core.sessions.get(session)).record
    assert record.outcome in ("won", "lost") and presses > 60
    # One board message all game long, edited in place; the end is announced in the group.
    assert len(world.fake.calls_of("sendPhoto")) == 1
    assert world.fake.latest_photo(GROUP).message_id == board.message_id
    assert world.fake.bot_messages(GROUP)[-1].text  # the outcome message


async def test_a_strangers_press_is_refused_privately(world):
    await world.command(GROUP, ALICE, "/play imaginary13 2")
    board = world.fake.latest_photo(GROUP)
    messages_before = len(world.fake.bot_messages(GROUP))
    answer = await press_on_board(world, BOB, eager_press(board.callback_data()))
    assert answer.get("text")  # "not your game", shown only to Bob
    assert len(world.fake.bot_messages(GROUP)) == messages_before
    assert world.fake.latest_photo(GROUP).edits == 0


async def test_after_a_restart_the_old_boards_buttons_still_work(world):
    await world.command(GROUP, ALICE, "/play imaginary13 4")
    for _ in range(3):
        await press_on_board(
            world, ALICE, eager_press(world.fake.latest_photo(GROUP).callback_data())
        )
    board = world.fake.latest_photo(GROUP)
    edits_before = board.edits
    session = button_session(board.callback_data()[0])
    moves_before = (await world.core.sessions.get(session)).game.moves
    await world.stop_bot()
    await world.start_bot()  # a new Application and a new Core on the same database
    data = eager_press(board.callback_data())
    answer = await world.press(GROUP, ALICE, board.message_id, data)
    assert not answer.get("text")
    after = world.fake.latest_photo(GROUP)
    assert after.message_id == board.message_id and after.edits == edits_before + 1
    assert len(world.fake.calls_of("sendPhoto")) == 1  # edited in place, not re-posted
    revision = button_revision(after.callback_data()[0])
    assert revision >= button_revision(data)
    game = (await world.core.sessions.get(session)).game
    assert game.moves[: len(moves_before)] == moves_before  # nothing lost across the restart
