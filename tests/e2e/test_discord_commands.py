"""Discord, end to end: every core command is a slash command (with Spanish and Italian
descriptions); the table commands /addbot, /kick, /end; the /challenge turn timer and the
/race time options; /replay posting the whole game as an animated GIF attachment."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.core.commands import COMMANDS
from tests.e2e.fake_discord import running_table


@pytest.fixture
async def table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    async for running in running_table(tmp_path, caplog):
        yield running


def said_since(fake: Any, channel: Any, start: int) -> str:
    """Everything posted in the channel from message number ``start`` on, one per line."""
    return "\n".join(m.content for m in fake.channel_messages(channel)[start:])


def option(command: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in command.get("options", []) if o["name"] == name)


async def test_every_core_command_is_a_slash_command_in_three_languages(table: Any) -> None:
    fake = table.fake
    assert set(COMMANDS) <= set(fake.command_names())
    for name in COMMANDS:
        command = fake._command(name)
        localized = command.get("description_localizations") or {}
        assert localized.get("it") and localized.get("es-ES"), name
    kick = fake._command("kick")
    assert option(kick, "player")["type"] == 6 and option(kick, "player")["required"]  # a user
    timer = option(fake._command("challenge"), "timer")
    assert timer["autocomplete"] and timer["description_localizations"]["it"].startswith(
        "Tempo per turno"
    )
    race = fake._command("race")
    assert option(race, "minutes")["max_value"] == 120
    assert option(race, "senza_tempo")["type"] == 5  # a yes/no option
    assert option(race, "senza_tempo")["description_localizations"]["es-ES"].startswith(
        "Sin tiempo"
    )


async def test_the_timer_option_offers_untimed_and_the_minutes_being_typed(table: Any) -> None:
    fake = table.fake
    alice = fake.add_user("alice")
    room = fake.add_channel("cards")
    first = await fake.autocomplete(alice, room, "challenge", "timer", timer="")
    assert first[0]["value"] == "untimed" and "3 min (default)" in [c["name"] for c in first]
    typed = await fake.autocomplete(alice, room, "challenge", "timer", timer="45")
    assert [c["value"] for c in typed] == ["45"]
    italian = await fake.autocomplete(alice, room, "challenge", "timer", timer="unt", locale="it")
    assert italian[0]["name"].startswith("senza tempo")


async def test_an_untimed_table_with_a_computer_a_kick_and_an_end(table: Any) -> None:
    fake = table.fake
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    room = fake.add_channel("cards")
    await table.slash(alice, room, "challenge", player1=bob, timer="untimed")
    assert "Turn timer: none (untimed table)" in said_since(fake, room, 0)
    await table.slash(bob, room, "join")
    await table.slash(alice, room, "addbot")
    lobby = await table.core.sessions.table_of("discord", str(room.id))
    assert lobby.record.players == [str(alice.id), str(bob.id), "~cpu1"]

    await table.slash(bob, room, "kick", player=alice)  # only the creator (or an admin) may
    assert "Only the table's creator" in fake.ephemerals(bob)[-1].content
    await table.slash(alice, room, "kick", player=bob)
    assert any(m.content == "bob was removed from the table." for m in fake.channel_messages(room))
    assert lobby.record.players == [str(alice.id), "~cpu1"]

    await table.slash(alice, room, "end")
    assert await table.core.sessions.table_of("discord", str(room.id)) is None
    start = len(fake.channel_messages(room))
    await table.slash(alice, room, "challenge", timer="5")
    assert "Turn timer: 5 min" in said_since(fake, room, start)
    await table.slash(alice, room, "end")
    await table.slash(alice, room, "challenge", timer="9999")
    assert (
        "the turn timer is timer=<minutes> (1 to 1440), or timer=0 or untimed for none"
        in fake.ephemerals(alice)[-1].content
    )
    assert await table.core.sessions.table_of("discord", str(room.id)) is None


async def test_a_senza_tempo_race_is_opened_from_its_option(table: Any) -> None:
    fake = table.fake
    alice = fake.add_user("alice")
    room = fake.add_channel("race")
    await table.slash(alice, room, "race", minutes=3, senza_tempo=True)
    assert "an untimed Solitario race: no time limit" in said_since(fake, room, 0)
    await table.slash(alice, room, "end")
    start = len(fake.channel_messages(room))
    await table.slash(alice, room, "race", minutes=7)
    assert "7 minutes on the same deal" in said_since(fake, room, start)


async def test_replay_posts_the_whole_game_as_a_gif_attachment(table: Any) -> None:
    fake = table.fake
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    await table.slash(alice, general, "replay")
    assert "no finished game" in fake.ephemerals(alice)[-1].content
    await table.slash(alice, general, "play", game="canfield", deal=3)
    session = await table.core.sessions.solo_of("discord", str(general.id), str(alice.id))
    for _ in range(2):
        await table.slash(alice, general, "move", text=str(session.game.legal_moves()[0]))
    await table.slash(alice, general, "resign")
    await table.slash(alice, general, "replay", game="canfield")

    replay = fake.channel_messages(general)[-1]
    assert not replay.ephemeral and replay.content == "Replay of alice's Canfield, deal 3: 2 moves."
    [attachment] = replay.attachments
    assert attachment["filename"] == "replay.gif" and attachment["content_type"] == "image/gif"
    with Image.open(io.BytesIO(attachment["data"])) as gif:
        assert gif.format == "GIF" and gif.n_frames == 3  # the deal, then one frame per move
    assert table.board(general) is not replay  # the board is still the board


async def test_a_race_and_a_table_in_one_channel_are_told_apart_by_an_option(table: Any) -> None:
    fake = table.fake
    alice, bob, cid = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("cid")
    room = fake.add_channel("cards")
    await table.slash(alice, room, "challenge")
    await table.slash(bob, room, "race", minutes=5)  # beside the table: no refusal
    assert "bob opens a Solitario race" in said_since(fake, room, 0)
    await table.slash(cid, room, "join")  # both fit: which one?
    assert "A race and a table are both open here" in fake.ephemerals(cid)[-1].content
    start = len(fake.channel_messages(room))
    await table.slash(cid, room, "join", which="race")
    await table.slash(cid, room, "join", which="table")
    said = said_since(fake, room, start)
    assert "cid joins the race (2 racers)." in said and "cid sits down (2 at the table)." in said
    join = fake._command("join")
    assert [c["value"] for c in option(join, "which")["choices"]] == ["race", "table"]
