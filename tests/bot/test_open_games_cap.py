"""A cap on the solo games one player keeps open across chats (issue 39, bounded memory): one
player held thousands of open games across 600 chats, each in memory until the 24-hour sweep.
Past the cap, ``/play`` closes the player's least recently touched casual game (stored as
resigned) and tells its chat, in that chat's language."""

from __future__ import annotations

import pytest
from core_fakes import FakeClock, FakePlatform

from bot.core import Core, room
from bot.replies import Reply


def pushed_into(core: Core) -> list[tuple[str, Reply]]:
    got: list[tuple[str, Reply]] = []

    async def push(platform: str, chat_id: str, reply: Reply) -> None:
        got.append((chat_id, reply))

    core.set_push(push)
    return got


async def test_the_oldest_idle_game_beyond_the_cap_is_closed_and_its_chat_told(
    core: Core, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(room, "OPEN_GAMES_PER_PLAYER", 2)
    pushed = pushed_into(core)
    first, second, third = (FakePlatform(core, chat_id=f"chat-{n}") for n in (1, 2, 3))
    second.admins.add("ana")
    await second.say("ana", "/lang it")
    await first.say("ana", "/play canfield 13")
    clock.advance(minutes=1)
    await second.say("ana", "/play solitario 29")
    clock.advance(minutes=1)
    await first.say("ana", "/move d")  # the Canfield is touched: the Solitario is the oldest now
    clock.advance(minutes=1)
    started = await third.say("ana", "/play freecell 5")
    assert "game.closed_for_room" not in [reply.key for reply in started]
    [(chat_id, note)] = pushed
    assert chat_id == "chat-2" and note.key == "game.closed_for_room"
    assert note.text.startswith("Ana, la tua partita a Solitario qui è stata chiusa")
    assert "/replay solitario" in note.text
    # the closed game is stored as resigned; the other two play on
    (gone,) = await second.say("ana", "/move d")
    assert gone.refusal
    replay = await second.say("ana", "/replay")
    assert replay[0].key != "replay.none"
    assert not any(reply.refusal for reply in await first.say("ana", "/move d"))
    assert not any(reply.refusal for reply in await third.say("ana", "/move 1a"))
    stored = await core.store.sessions.open_solos_of("fake", "ana")
    assert sorted(record.game_id for record in stored) == ["canfield", "freecell"]


async def test_a_game_closed_in_the_same_chat_is_said_with_the_new_one_in_its_language(
    core: Core, chat: FakePlatform, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(room, "OPEN_GAMES_PER_PLAYER", 1)
    chat.admins.add("ana")
    await chat.say("ana", "/lang es")
    await chat.say("ana", "/play canfield 13")
    clock.advance(minutes=1)
    started = await chat.say("ana", "/play solitario 29")
    [note] = [reply for reply in started if reply.key == "game.closed_for_room"]
    assert note.text.startswith("Ana, tu partida de Canfield aquí se ha cerrado")


async def test_a_ranked_daily_is_never_closed_to_make_room(
    core: Core, chat: FakePlatform, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(room, "OPEN_GAMES_PER_PLAYER", 1)
    pushed = pushed_into(core)
    await chat.say("ana", "/daily freecell")
    clock.advance(minutes=1)
    started = await chat.say("ana", "/play canfield 13")
    assert "game.closed_for_room" not in [reply.key for reply in started] and pushed == []
    stored = await core.store.sessions.open_solos_of("fake", "ana")
    assert sorted((record.game_id, record.ranked) for record in stored) == [
        ("canfield", False),
        ("freecell", True),
    ]
