"""Telegram, end to end: a group's admins may do in a group what the bot lets admins do there
(as on Discord, where the interaction says who is one): seat a computer at someone else's
table, end it, give the group a new leaderboards link. Telegram is asked who is an admin."""

from __future__ import annotations

import html

import pytest
from fake_telegram import TelegramWorld

from bot import i18n

GROUP = -100333
ALICE, BOB = 701, 702  # Alice opens the table; Bob is an admin of the group
BASE = "https://tavolo.example"


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.user(BOB, "Bob")
        world.fake.group(GROUP)
        world.fake.admins.add((GROUP, BOB))
        world.core.service.web_base_url = BASE
        yield world


def group_texts(world: TelegramWorld) -> list[str]:
    return [html.unescape(m.text or m.caption or "") for m in world.fake.bot_messages(GROUP)]


async def test_an_admin_seats_a_computer_at_someone_elses_table(world):
    await world.command(GROUP, ALICE, "/challenge")
    await world.command(GROUP, BOB, "/addbot")
    texts = group_texts(world)
    assert not any(i18n.t("en", "end.not_allowed") in text for text in texts)
    computer = i18n.t("en", "tables.computer_name", number=1)
    assert any(computer in text for text in texts)


async def test_a_member_who_is_no_admin_may_not(world):
    carol = 703
    world.fake.user(carol, "Carol")
    await world.command(GROUP, ALICE, "/challenge")
    await world.command(GROUP, carol, "/addbot")
    assert i18n.t("en", "end.not_allowed") in group_texts(world)[-1]


async def test_an_admin_gives_the_group_a_new_leaderboards_link(world):
    await world.command(GROUP, BOB, "/leaderboard web new")
    given = group_texts(world)[-1]
    assert i18n.t("en", "web.admins_only") not in given
    assert f"{BASE}/chat/" in given
