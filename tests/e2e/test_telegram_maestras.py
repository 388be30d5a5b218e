"""Cartas Maestras on Telegram: three players, hands shown only to their owners.

A recording renderer remembers every image drawn from a player's own view (their hand); no
such image, and no button playing a hand card, may ever reach the group.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from fake_telegram import BOT_USER, TelegramWorld

import renderer

GROUP = -100222
ALICE, BOB, CAROL = 601, 602, 603
PLAYERS = (ALICE, BOB, CAROL)


class RecordingRenderer:
    """``renderer.render``, remembering which images show a private (player's own) view.

    An image drawn from a player's view that is identical to a public board shows nothing
    private, so it does not count."""

    def __init__(self) -> None:
        self.public: set[str] = set()
        self.from_player_views: set[str] = set()

    @property
    def private_images(self) -> set[str]:
        return self.from_player_views - self.public

    def __call__(self, game_id, view, **style):
        png = renderer.render(game_id, view, **style)
        digest = hashlib.sha1(png).hexdigest()
        if view.get("viewer") is None and not style.get("hand"):
            self.public.add(digest)
        else:
            self.from_player_views.add(digest)
        return png


@pytest.fixture
async def table(tmp_path):
    recorder = RecordingRenderer()
    async with TelegramWorld(tmp_path, renderer=recorder) as world:
        world.recorder = recorder
        for user, name in zip(PLAYERS, ("Alice", "Bob", "Carol"), strict=True):
            world.fake.user(user, name)
        world.fake.group(GROUP)
        world.fake.send_text(BOB, BOB, "/start")  # only Bob opened a private chat with the bot
        await world.handled(world.fake.last_update_id)
        await world.command(GROUP, ALICE, "/challenge")
        lobby = world.fake.latest_photo(GROUP) or world.fake.bot_messages(GROUP)[-1]
        join = next(d for d in lobby.callback_data() if d.startswith("v1:join:"))
        for user in (BOB, CAROL):
            lobby = next(
                m for m in world.fake.bot_messages(GROUP) if m.message_id == lobby.message_id
            )
            join = next(d for d in lobby.callback_data() if d.startswith("v1:join:"))
            await world.press(GROUP, user, lobby.message_id, join)
        lobby = next(m for m in world.fake.bot_messages(GROUP) if m.message_id == lobby.message_id)
        start = next(d for d in lobby.callback_data() if d.startswith("v1:start:"))
        await world.press(GROUP, ALICE, lobby.message_id, start)
        yield world


def hand_button_query(world) -> str:
    """The inline query the group board's hand button opens."""
    board = world.fake.latest_photo(GROUP)
    [button] = board.buttons()
    return button["switch_inline_query_current_chat"]


async def inline_hand(world, user, query):
    answer = await world.fake.inline_answer_of(world.fake.inline_query(user, query))
    return answer


def assert_group_never_saw_a_hand(world):
    for call in world.fake.calls:
        if call.chat_id != GROUP:
            continue
        for image in call.files.values():
            assert hashlib.sha1(image).hexdigest() not in world.recorder.private_images, call.method
        markup = call.params.get("reply_markup") or {}
        for row in markup.get("inline_keyboard", []):
            for button in row:
                assert not button.get("callback_data", "").startswith("v1:mv:"), button


async def test_hands_are_shown_only_to_their_owner_and_played_from_the_inline_list(table):
    world = table
    query = hand_button_query(world)
    played = 0
    for _ in range(6):
        answers = {user: await inline_hand(world, user, query) for user in PLAYERS}
        movers = [user for user, answer in answers.items() if answer["results"]]
        assert len(movers) == 1  # only the player whose turn it is gets playable cards
        [mover] = movers
        for answer in answers.values():
            assert answer["is_personal"] is True and int(answer["cache_time"]) == 0
        result = answers[mover]["results"][0]
        assert len(result["id"].encode()) <= 64
        text = result["input_message_content"]["message_text"]
        assert text.startswith(f"/move@{BOT_USER['username']} ")
        before = world.fake.latest_photo(GROUP).edits
        world.fake.send_via_bot(GROUP, mover, text)
        await world.handled(world.fake.last_update_id)
        assert world.fake.latest_photo(GROUP).edits == before + 1  # the board moved on
        played += 1
    assert played == 6
    assert_group_never_saw_a_hand(world)


async def test_hand_command_goes_to_the_private_chat_or_only_a_notice_to_the_group(table):
    world = table
    for user in PLAYERS:
        await world.command(GROUP, user, "/hand")
    # Bob opened a private chat: his hand (image + buttons when it is his turn) is there.
    [bob_hand] = [m for m in world.fake.bot_messages(BOB) if m.photo_sha]
    assert bob_hand.photo_sha in world.recorder.from_player_views
    # Carol did not: the group is told to open a chat, and sees nothing of her hand.
    notices = [m for m in world.fake.bot_messages(GROUP) if m.text and f"id={CAROL}" in m.text]
    assert notices and all(m.photo_sha is None for m in notices)
    assert notices[-1].buttons()[0]["url"] == f"https://t.me/{BOT_USER['username']}"
    assert_group_never_saw_a_hand(world)


async def bobs_private_hand(world: TelegramWorld) -> tuple[Any, str]:
    """Play from the inline hands until it is Bob's turn, then open his hand in his private
    chat (following a hand chosen in steps: card, place, rotation): the private message and
    one of its move buttons."""
    query = hand_button_query(world)
    for _ in range(3):
        if (await inline_hand(world, BOB, query))["results"]:
            break
        for user in (ALICE, CAROL):
            answer = await inline_hand(world, user, query)
            if answer["results"]:
                text = answer["results"][0]["input_message_content"]["message_text"]
                world.fake.send_via_bot(GROUP, user, text)
                await world.handled(world.fake.last_update_id)
    await world.command(GROUP, BOB, "/hand")

    def private_hand() -> tuple[Any, list[str], list[str]]:
        message = [m for m in world.fake.bot_messages(BOB) if m.callback_data()][-1]
        data = message.callback_data()
        return (
            message,
            [d for d in data if d.startswith("v1:mv:")],
            [d for d in data if d.startswith("v1:turn:")],
        )

    private, moves, steps = private_hand()
    while not moves and steps:
        await world.press(BOB, BOB, private.message_id, steps[0])
        private, moves, steps = private_hand()
    return private, moves[0]


async def test_private_hand_buttons_play_at_the_group_table(table):
    world = table
    # Play until it is Bob's turn, then let him play from his private chat.
    private, move = await bobs_private_hand(world)
    edits = world.fake.latest_photo(GROUP).edits
    answer = await world.press(BOB, BOB, private.message_id, move)
    assert not answer.get("text")  # accepted: nothing to say privately
    assert world.fake.latest_photo(GROUP).edits == edits + 1
    assert_group_never_saw_a_hand(world)


async def test_a_stranger_cannot_see_or_play_a_hand(table):
    world = table
    world.fake.user(699, "Mallory")
    answer = await inline_hand(world, 699, hand_button_query(world))
    assert answer["results"] == []
    board = world.fake.latest_photo(GROUP)
    answer = await world.press(GROUP, 699, board.message_id, f"v1:mv:{'x' * 8}:1:1N")
    assert answer["text"]  # refused, privately (the callback answer only the presser sees)


async def test_private_hand_buttons_still_play_at_the_table_after_a_restart(table):
    world = table
    private, move = await bobs_private_hand(world)
    await world.stop_bot()
    await world.start_bot()  # a new process: which table the private hand belongs to is stored
    edits = world.fake.latest_photo(GROUP).edits
    answer = await world.press(BOB, BOB, private.message_id, move)
    assert not answer.get("text")  # accepted at the group's table
    assert world.fake.latest_photo(GROUP).edits == edits + 1
    assert_group_never_saw_a_hand(world)
