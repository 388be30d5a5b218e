"""Telegram, end to end: the command menu lists every core command in each language (and
/help explains each of them), and /replay arrives in the group as an animation (sendAnimation)
that plays the whole game."""

from __future__ import annotations

import html
import io

import pytest
from fake_telegram import TelegramWorld
from PIL import Image

from bot.core.commands import COMMANDS
from bot.i18n import LANGUAGES, help_text

GROUP = -100555
ALICE = 811


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.group(GROUP)
        world.fake.started_privately.add(ALICE)
        yield world


async def test_the_command_menu_has_every_core_command_in_every_language(world):
    menus = world.fake.command_menus
    assert set(menus) == {"en", "es", "it", ""}  # "" is the menu for every other language
    for names in menus.values():
        assert names == list(COMMANDS)
    assert {"addbot", "end", "kick", "replay"} <= set(menus["it"])
    descriptions = {
        call.params.get("language_code") or "": {
            c["command"]: c["description"] for c in call.params["commands"]
        }
        for call in world.fake.calls_of("setMyCommands")
    }
    assert (
        descriptions["es"]["replay"] != descriptions["en"]["replay"] != descriptions["it"]["replay"]
    )


async def test_replay_is_sent_as_an_animation_of_every_move(world):
    await world.command(GROUP, ALICE, "/replay")
    assert not world.fake.calls_of("sendAnimation")  # nothing finished yet: refused, in the group
    command = [m for m in world.fake.chat_messages(GROUP) if not m.from_bot][-1]
    answer = world.fake.bot_messages(GROUP)[-1]
    assert "no finished game" in answer.text and answer.reply_to == command.message_id
    assert not world.fake.bot_messages(ALICE)

    await world.command(GROUP, ALICE, "/play canfield 3")
    session = await world.core.sessions.solo_of("telegram", str(GROUP), str(ALICE))
    for _ in range(3):
        await world.command(GROUP, ALICE, f"/move {session.game.legal_moves()[0]}")
    await world.command(GROUP, ALICE, "/resign")
    await world.command(GROUP, ALICE, "/replay")

    [call] = world.fake.calls_of("sendAnimation")
    assert call.chat_id == GROUP and call.ok
    # (the solver's "could it have been won?" follow-up may arrive in between: a text message)
    replay = next(m for m in reversed(world.fake.bot_messages(GROUP)) if m.animation is not None)
    assert replay.photo is None
    with Image.open(io.BytesIO(replay.animation)) as gif:
        assert gif.format == "GIF" and gif.n_frames == 4  # the deal, then one frame per move
    assert html.unescape(replay.caption) == "Replay of alice's Canfield, deal 3: 3 moves."
    assert len(world.fake.calls_of("sendPhoto")) == 1  # the board stayed a photo, edited in place


def test_help_names_every_command_of_the_menu_in_every_language() -> None:
    for lang in LANGUAGES:
        text = help_text(lang)
        assert [name for name in COMMANDS if f"/{name}" not in text] == [], lang
        assert "timer=<" in text and "senza-tempo" in text and len(text) <= 2000
