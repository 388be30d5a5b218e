"""Privacy by chat on both platforms' fake servers (issue 35, finding 1): a person is found only
among the people seen in the chat, or through the platform's own mention (a Discord user
option, a Telegram ``text_mention`` entity); an id typed as text finds nobody and is never
turned into a name or a ping."""

from __future__ import annotations

import html
from typing import Any

import pytest
from fake_telegram import TelegramWorld

from tests.e2e.fake_discord import running_table

GROUP_A, GROUP_B = -100771, -100772
ALICE, BOB = 811, 812


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.user(BOB, "Bob")
        world.fake.group(GROUP_A)
        world.fake.group(GROUP_B)
        yield world


def texts_since(world: TelegramWorld, chat_id: int, start: int) -> list[str]:
    """The bot's messages in the chat from number ``start`` on, as a reader sees them."""
    return [
        html.unescape(m.text or m.caption or "") for m in world.fake.bot_messages(chat_id)[start:]
    ]


async def test_telegram_finds_people_only_in_their_chat_or_by_telegrams_mention(world):
    await world.command(GROUP_B, BOB, "/play canfield 3")
    await world.command(GROUP_B, BOB, "/resign")
    start = len(world.fake.bot_messages(GROUP_A))
    for typed in (f"/stats {BOB}", f"/stats @{BOB}", f"/stats <@{BOB}>", "/stats @bob"):
        await world.command(GROUP_A, ALICE, typed)
    await world.command(GROUP_A, ALICE, f"/challenge @{BOB} <@{BOB}> @bob")
    sent = [m.text or "" for m in world.fake.bot_messages(GROUP_A)[start:]]
    said = texts_since(world, GROUP_A, start)
    assert sum("I don't know a player called" in t for t in said) == 4, said
    assert not any("Canfield" in t for t in said)
    assert not any(f"tg://user?id={BOB}" in t for t in sent)  # nobody pinged by id
    await world.command(GROUP_A, ALICE, "/end")

    # Telegram's own mention (a member picked from the list) carries Bob: it names him
    start = len(world.fake.bot_messages(GROUP_A))
    await world.command(GROUP_A, ALICE, "/stats Bob", mentions=[("Bob", BOB)])
    await world.command(GROUP_A, ALICE, "/challenge Bob", mentions=[("Bob", BOB)])
    said = texts_since(world, GROUP_A, start)
    assert any(t.startswith("Statistics of bob") and "Canfield" in t for t in said), said
    opened = next(
        m.text for m in world.fake.bot_messages(GROUP_A)[start:] if "Invited" in (m.text or "")
    )
    assert f'href="tg://user?id={BOB}"' in opened and "Invited: bob" in html.unescape(opened)


@pytest.fixture
async def table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    async for running in running_table(tmp_path, caplog):
        yield running


async def test_a_discord_user_option_names_and_pings_the_user_discord_resolved(table: Any):
    fake = table.fake
    ana, bob = fake.add_user("ana"), fake.add_user("bob")
    room = fake.add_channel("cards")
    await table.slash(ana, room, "challenge", player1=bob)  # bob never wrote to the bot
    opened = next(m for m in fake.channel_messages(room) if "Invited" in m.content)
    assert "Invited: bob" in opened.content and opened.pinged == {bob.id}
    assert opened.content.replace(f"<@{bob.id}>", "").count(str(bob.id)) == 0
    await table.slash(ana, room, "stats", player=bob)
    answer = fake.visible_to(ana, room)[-1]
    assert "bob" in answer.content and str(bob.id) not in answer.content


async def test_two_discord_players_with_one_name_are_numbered_never_shown_by_id(table: Any):
    fake = table.fake
    first, second = fake.add_user("ana"), fake.add_user("ana")
    room = fake.add_channel("cards")
    await table.slash(first, room, "challenge")
    await table.slash(second, room, "join")
    await table.slash(first, room, "start")
    said = "\n".join(m.content for m in fake.channel_messages(room))
    assert "ana 2 sits down" in said and "Turn order: ana 1, ana 2." in said, said
    for user in (first, second):  # an id shows only as the turn's ping, never as a name
        assert said.replace(f"<@{user.id}>", "").count(str(user.id)) == 0
