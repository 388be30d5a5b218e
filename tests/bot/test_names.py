"""Players named in commands (issue 26, finding 7): ``/kick Computer 2`` read "Computer", and
quotes, ``@``, ``_`` and lower case failed. A name is now read whole, in any of the ways people
write one; a name that fits several seats asks which, one button per seat."""

from __future__ import annotations

import pytest
from core_fakes import FakePlatform

from bot.core import buttons
from bot.core.names import find_players, player_query, short_name, split_names
from bot.replies import Reply, Request


async def say_as(chat: FakePlatform, user: str, name: str, text: str) -> list[Reply]:
    """``text`` from a player whose display name is ``name`` (several words, any script)."""
    request = Request(chat.platform, chat.chat_id, user, name, True, user in chat.admins)
    return await chat._record(await chat.core.handle_text(request, text))


async def table_with_two_computers(chat: FakePlatform) -> None:
    await chat.say("ana", "/challenge")
    for _ in range(2):
        added = await chat.say("ana", "/addbot")
        assert added[0].key != "table.none", added[0].text


def seated(chat: FakePlatform) -> str:
    lobby = next(r for r in reversed(chat.replies) if r.key == "table.lobby")
    return lobby.params["players"]


@pytest.mark.parametrize(
    "typed",
    [
        "Computer 2",
        "computer 2",
        "COMPUTER 2",
        '"Computer 2"',
        "«Computer 2»",
        "@computer_2",
        "“computer  2”",
        "Computer_2",
    ],
)
async def test_kick_reads_the_whole_name_however_it_is_written(chat: FakePlatform, typed: str):
    await table_with_two_computers(chat)
    assert seated(chat) == "Ana, Computer 1, Computer 2"
    (kicked, *_) = await chat.say("ana", f"/kick {typed}")
    assert kicked.key == "kick.kicked" and kicked.params["name"] == "Computer 2"
    assert seated(chat) == "Ana, Computer 1"


async def test_a_name_that_fits_several_seats_asks_with_one_button_each(chat: FakePlatform):
    await table_with_two_computers(chat)
    (question,) = await chat.say("ana", "/kick computer")
    assert question.key == "kick.which" and question.visibility == "private"
    assert [b.label for b in question.buttons] == ["Computer 1", "Computer 2"]
    assert seated(chat) == "Ana, Computer 1, Computer 2"  # nothing changed yet
    assert (await chat.press("bea", question.buttons[0].id))[0].key == "end.not_allowed"
    (kicked, *_) = await chat.press("ana", question.buttons[1].id)
    assert kicked.key == "kick.kicked" and kicked.params["name"] == "Computer 2"
    assert seated(chat) == "Ana, Computer 1"
    # the other button now names a seat that moved: it asks to /kick again, removes nobody
    assert buttons.decode(question.buttons[0].id).verb == "kick"
    await chat.say("ana", "/addbot")
    stale = await chat.press("ana", question.buttons[1].id)
    assert stale[0].key in ("kick.stale", "kick.kicked")
    if stale[0].key == "kick.kicked":  # the same seat index holds the same player id again
        assert stale[0].params["name"].startswith("Computer")


async def test_multi_word_and_other_script_names_of_people(chat: FakePlatform):
    await say_as(chat, "u1", "Ana María", "/challenge")
    await say_as(chat, "u2", "张伟", "/join")
    await say_as(chat, "u3", "张伟", "/join")  # two people, one name
    await say_as(chat, "u4", "Jean-Luc Picard", "/join")
    (question,) = await say_as(chat, "u1", "Ana María", "/kick 张伟")
    # two seats with one name are numbered by seat, as everywhere (issue 35)
    assert question.key == "kick.which"
    assert [b.label for b in question.buttons] == ["张伟 2", "张伟 3"]
    (kicked, *_) = await say_as(chat, "u1", "Ana María", "/kick jean-luc picard")
    assert kicked.key == "kick.kicked" and kicked.params["name"] == "Jean-Luc Picard"
    (missing,) = await say_as(chat, "u1", "Ana María", "/kick Jean-Luc")
    assert missing.key == "kick.not_seated" and "张伟" in missing.text


async def test_stats_of_a_player_named_in_several_words(chat: FakePlatform):
    await say_as(chat, "u1", "Ana María", "/play canfield 3")
    await say_as(chat, "u1", "Ana María", "/resign")
    for typed in ("Ana María", '"ana maría"', "@Ana_María"):
        (stats,) = await chat.say("bo", f"/stats {typed}")
        assert stats.key == "stats.text" and "Ana María" in stats.text, typed
    (unknown,) = await chat.say("bo", "/stats Ana Mar")
    assert unknown.key == "stats.unknown_player" and "Ana Mar" in unknown.text


def test_names_are_parsed_and_shortened_sensibly() -> None:
    seats = [("1", "Computer 1"), ("2", "Computer 10"), ("3", "Susana"), ("4", "Ana María")]
    assert find_players("computer 1", seats) == ["1"]  # exact beats the start of a name
    assert find_players("comp", seats) == ["1", "2"]
    assert find_players("ana", seats) == ["4"]  # a name's start, not the middle of Susana
    assert find_players(player_query(["@ana_maria"]), seats) == ["4"]  # no accents on Telegram
    assert player_query(["<@!123>"]) == "<@123>" and player_query(["@ana"]) == "ana"
    assert split_names('"Ana María" @bo timer=5') == ["Ana María", "@bo", "timer=5"]
    long = "Maximiliana Esperanza de los Ángeles Fernández-Villaverde"  # 57 characters
    assert len(short_name(long)) <= 24 and short_name(long).endswith("…")
    assert short_name(long).startswith("Maximiliana Esperanza")
    assert short_name("👩‍👩‍👧‍👦" * 10, 5).count("\u200d") % 3 == 0  # no half-joined emoji


async def test_a_quoted_name_of_several_words_is_one_invitation(chat: FakePlatform):
    await say_as(chat, "u9", "Ana María", "/stats")  # known to the bot
    (opened, *_) = await chat.say("bo", '/challenge "Ana María" @cid')
    assert opened.key == "challenge.opened"
    assert "Ana María" in opened.text and "cid" in opened.text.lower()
    assert opened.mentions == ["u9"]


async def test_a_long_name_is_shortened_in_the_tables_text(chat: FakePlatform):
    long = "Bartholomew Fitzgerald-Montgomery III"  # 37 characters
    await say_as(chat, "u1", long, "/challenge")
    await chat.say("u1", "/addbot")
    (started, *_) = await say_as(chat, "u1", long, "/start")
    order = started.text.splitlines()[0]
    assert "Bartholomew Fitzgerald…" in order and long not in order
    assert "Computer 1" in order
