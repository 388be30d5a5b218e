"""Privacy by chat (issue 35, finding 1 and the last sentence of finding 2).

A player is named, looked up or pinged only among the people seen in the same chat, or through
the platform's own mention (``Request.mentions``): ``/stats <id>``, ``@<id>`` and a hand-typed
``<@id>`` find nobody, and ``/web hide`` keeps a player's numbers to themselves. Two seats with
one name are numbered the same way in the chat's texts, the replay's frames and the web page,
never told apart by their platform ids. Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from core_fakes import DrawSpy, FakePlatform, play_out
from hypothesis import given, settings
from hypothesis import strategies as st
from web_fakes import BASE, Person, main_text, page, web_client

from bot.core import Core
from bot.core.names import name_key, seat_names
from bot.replies import Mention, Reply, Request
from bot.storage import Player, Storage

#: Bo's platform id: digits, as Discord and Telegram ids are
BO = "5550123"
GROUP_A, GROUP_B = "group-a", "group-b"


class NamedChat(FakePlatform):
    """A chat whose people have names of their own (the fake's default is the id, capitalised)."""

    def __init__(self, core: Core, chat_id: str, names: dict[str, str]) -> None:
        super().__init__(core, chat_id=chat_id)
        self.names = names

    def request(self, user: str, is_group: bool = True) -> Request:
        name = self.names.get(user, user.capitalize())
        return Request(self.platform, self.chat_id, user, name, is_group, user in self.admins)


def said(replies: list[Reply]) -> str:
    """Everything the replies show a reader: texts and button labels."""
    return "\n".join([r.text for r in replies] + [b.label for r in replies for b in r.buttons])


async def bo_plays_in_group_b(core: Core) -> NamedChat:
    group_b = NamedChat(core, GROUP_B, {BO: "Bo"})
    await group_b.say(BO, "/play canfield 3")
    await group_b.resign(BO)
    return group_b


async def test_nobody_is_found_from_a_chat_they_never_wrote_in(core: Core):
    await bo_plays_in_group_b(core)
    group_a = NamedChat(core, GROUP_A, {"ana": "Ana"})
    for typed in ("Bo", "@bo", BO, f"@{BO}", f"<@{BO}>", f"<@!{BO}>"):
        replies = await group_a.say("ana", f"/stats {typed}")
        assert [r.key for r in replies] == ["stats.unknown_player"], typed
        assert "Canfield" not in said(replies), typed
    for typed in ("@bo", f"@{BO}", f"<@{BO}>"):
        opened, *_ = await group_a.say("ana", f"/challenge {typed}")
        assert opened.key == "challenge.opened" and opened.mentions == [], typed
        assert "Bo" not in opened.text, typed
        await group_a.say("ana", "/end")


async def test_a_typed_platform_id_finds_nobody_even_in_a_shared_chat(core: Core):
    group_b = await bo_plays_in_group_b(core)
    group_b.names["ana"] = "Ana"
    (stats,) = await group_b.say("ana", "/stats Bo")  # by name, in the chat Bo writes in
    assert stats.key == "stats.text" and "Bo" in stats.text
    for typed in (BO, f"@{BO}", f"<@{BO}>"):
        replies = await group_b.say("ana", f"/stats {typed}")
        assert [r.key for r in replies] == ["stats.unknown_player"], typed
        opened, *_ = await group_b.say("ana", f"/challenge {typed}")
        assert opened.mentions == [] and "Bo" not in opened.text, typed
        await group_b.say("ana", "/end")
    # at a table: Bo sits at it, but his id is not his name
    await group_b.say("ana", "/challenge")
    await group_b.say(BO, "/join")
    for typed in (BO, f"<@{BO}>"):
        (refused,) = await group_b.say("ana", f"/kick {typed}")
        assert refused.key == "kick.not_seated", typed
    (kicked, *_) = await group_b.say("ana", "/kick bo")
    assert kicked.key == "kick.kicked" and kicked.params["name"] == "Bo"


async def test_the_platforms_own_mention_names_the_person_it_carries(core: Core):
    await bo_plays_in_group_b(core)
    group_a = NamedChat(core, GROUP_A, {"ana": "Ana"})
    # Discord's user option / Telegram's text_mention: the adapter writes <@id> and lists it
    mentioned = dataclasses.replace(group_a.request("ana"), mentions=(Mention(BO, "Bo"),))
    (stats,) = await core.handle_text(mentioned, f"/stats <@{BO}>")
    assert stats.key == "stats.text" and "Statistics of Bo" in stats.text
    opened, *_ = await core.handle_text(mentioned, f"/challenge <@!{BO}>")
    assert opened.mentions == [BO] and "Bo" in opened.text and BO not in opened.text
    # a mention of someone else does not vouch for the id typed beside it
    other = dataclasses.replace(group_a.request("ana"), mentions=(Mention("999", "Cid"),))
    (unknown,) = await core.handle_text(other, f"/stats <@{BO}>")
    assert unknown.key == "stats.unknown_player"


async def test_web_hide_keeps_a_players_statistics_to_themselves(core: Core):
    group_b = await bo_plays_in_group_b(core)
    group_b.names["ana"] = "Ana"
    assert (await group_b.say("ana", "/stats Bo"))[0].key == "stats.text"
    await group_b.say(BO, "/web hide")
    (hidden,) = await group_b.say("ana", "/stats Bo")
    assert hidden.key == "stats.hidden" and "Canfield" not in hidden.text
    (own,) = await group_b.say(BO, "/stats")  # their own numbers are still theirs to see
    assert own.key == "stats.text" and "Canfield" in own.text
    await group_b.say(BO, "/web show")
    assert (await group_b.say("ana", "/stats Bo"))[0].key == "stats.text"


async def two_anas_play_a_table(core: Core, chat: NamedChat) -> str:
    """Two people both called Ana play a table out; the table's session id."""
    await chat.say("uid-1", "/challenge")
    (joined, lobby) = await chat.say("uid-2", "/join")
    assert joined.text.startswith("Ana 2 sits down") and "Ana 1, Ana 2" in lobby.text
    (started, *_) = await chat.say("uid-1", "/start")
    assert started.key == "start.started"
    assert "Turn order: Ana 1, Ana 2." in started.text, started.text
    await play_out(core, chat)
    over = next(r for r in reversed(chat.replies) if r.key == "table.over")
    assert "uid-" not in said([over])
    table = await core.store.sessions.get(chat.board().board.session_id)
    assert table is not None and table.status == "over"
    return table.id


async def test_two_seats_with_one_name_are_numbered_in_texts_and_replay_frames(
    core: Core, draw_spy: DrawSpy
):
    chat = NamedChat(core, GROUP_A, {"uid-1": "Ana", "uid-2": "Ana"})
    await two_anas_play_a_table(core, chat)
    assert all("uid-" not in said([r]) for r in chat.replies)
    (replay,) = await chat.say("uid-1", "/replay")
    assert replay.image is not None and "Ana 1, Ana 2" in replay.text
    assert "uid-" not in replay.text
    # the frames name the seats as the chat does, never by platform id
    assert draw_spy.views and all(v["players"] == ["Ana 1", "Ana 2"] for v in draw_spy.views)
    assert "uid-" not in repr(draw_spy.views)


async def test_the_web_replay_numbers_two_seats_with_one_name_the_same_way(core: Core, clock):
    core.service.web_base_url = BASE
    chat = NamedChat(core, GROUP_A, {"uid-1": "Ana", "uid-2": "Ana"})
    for user in ("uid-1", "uid-2"):  # named on public pages once they finished a daily
        await Person(core, user, "Ana", chat_id=GROUP_A, platform="fake").daily("imaginary13", 1)
    session_id = await two_anas_play_a_table(core, chat)
    async with web_client(core, clock) as client:
        status, html = await page(client, f"/replay/{session_id}")
    assert status == 200
    text = main_text(html)
    assert "Ana 1" in text and "Ana 2" in text and "uid-" not in html


async def test_forgetme_forgets_in_which_chats_the_player_was_seen(core: Core):
    group_b = await bo_plays_in_group_b(core)
    group_b.names["ana"] = "Ana"
    await group_b.say(BO, "/forgetme confirm")
    rows = await core.store.fetch("SELECT user_id FROM chat_players WHERE user_id = ?", (BO,))
    assert rows == []
    assert (await group_b.say("ana", "/stats Bo"))[0].key == "stats.unknown_player"


@pytest.fixture(params=["sqlite", "postgres"])
async def old_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    return await request.getfixturevalue("pg_server").fresh_database(migrated=False)


RESULT = (
    "INSERT INTO results (session_id, platform, chat_id, game_id, player_id, player_name, "
    "deal, options, score, tiebreak_move, move_count, moves, outcome, won, ranked, day, "
    "finished_at) VALUES (?, 'fake', ?, 'canfield', ?, ?, 1, '{}', 0, 0, 0, '[]', "
    "'resigned', 0, 0, '2025-03-10', ?)"
)


async def test_migration_14_knows_who_finished_a_game_in_which_chat(old_url: str):
    """A database from before migration 14: the people who finished a game in a chat can be
    named there right after the upgrade (computers and forgotten players are nobody)."""
    store = await Storage.open(old_url)
    try:
        async with store.backend.transaction() as tx:
            await tx.execute("DELETE FROM schema_version WHERE version >= 14")
            await tx.execute("DROP TABLE chat_players")
            rows = [
                ("s1", GROUP_B, BO, "Bo", "2025-03-10T10:00:00"),
                ("s2", GROUP_B, BO, "Bo", "2025-03-11T10:00:00"),
                ("s3", GROUP_B, "~cpu1", "Computer 1", "2025-03-11T10:00:00"),
                ("s4", GROUP_B, "former:abc", "a former player", "2025-03-11T10:00:00"),
            ]
            for row in rows:
                await tx.execute(RESULT, row)
            await tx.execute(
                "INSERT INTO players (platform, user_id, name, first_seen, last_seen) "
                "VALUES ('fake', ?, 'Bo', '2025-03-10T10:00:00', '2025-03-11T10:00:00')",
                (BO,),
            )
    finally:
        await store.close()
    store = await Storage.open(old_url)  # migrates again: 14 only
    try:
        assert await store.players.seen_in("fake", GROUP_B) == [Player(BO, "Bo")]
        assert await store.players.seen_in("fake", GROUP_A) == []
        rows = await store.fetch("SELECT last_seen FROM chat_players")
        assert [tuple(r) for r in rows] == [("2025-03-11T10:00:00",)]
    finally:
        await store.close()


NAMES = ["Ana", "ana", "Ana 2", "Ana 1", "ANA_2", "Bo", "Bo 1", "Ｂｏ", "x"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(NAMES), max_size=10))
def test_seat_names_tell_every_seat_apart_and_change_nothing_when_all_differ(names: list[str]):
    shown = seat_names(names)
    assert len(shown) == len(names)
    assert len({name_key(n) for n in shown}) == len(shown)  # /kick and the engine tell them apart
    assert all(seat.startswith(name) for seat, name in zip(shown, names, strict=True))
    if len({name_key(n) for n in names}) == len(names):
        assert shown == names
