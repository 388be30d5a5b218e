"""Solitario races: the join window, one board per player on the same deal, the clock, the
seed's ranking (score, then the race-wide move that reached it, idle players in a seeded random order),
senza tempo replays, and a restart in the middle."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render
from hypothesis import given
from hypothesis import strategies as st

import engine
from bot.app import open_core
from bot.core import Core
from bot.features.race_rules import Entry, rank, tie_for_first
from bot.replies import Reply

#: deal 1 opens with ``27``: column 2 onto column 7, turning a card up (+5), possible before
#: or after turning the stock; ``d`` turns the stock (no points)
DEAL = 1


@pytest.fixture(autouse=True)
def solitario_available(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if "solitario" not in engine.GAMES:
        from engine.solitario import Solitario

        monkeypatch.setitem(engine.GAMES, "solitario", Solitario)
    yield


def pushed_into(chat: FakePlatform) -> list[Reply]:
    got: list[Reply] = []

    async def push(platform: str, chat_id: str, reply: Reply) -> None:
        got.append(reply)
        await chat._record([reply])

    chat.core.set_push(push)
    chat.core.features["races"].pick_deal = lambda: DEAL
    return got


def clock_of(reply: Reply) -> str | None:
    return json.loads(reply.image[4:]).get("clock")


async def open_race(chat: FakePlatform, *players: str, args: str = "") -> list[Reply]:
    await chat.say(players[0], f"/race {args}".strip())
    for player in players[1:]:
        await chat.say(player, "/join")
    return await chat.say(players[0], "/start")


async def test_three_racers_ranked_by_score_then_the_race_move_that_reached_it(
    core: Core, chat: FakePlatform, clock
):
    pushed = pushed_into(chat)
    opened = await chat.say("ana", "/race 5")
    assert opened[0].key == "race.opened" and opened[0].params["minutes"] == 5
    assert (await chat.say("bea", "/race"))[0].key == "race.exists"  # one race at a time
    await chat.say("bea", "/join")
    await chat.say("cid", "/join")
    assert (await chat.say("bea", "/start"))[0].key == "race.not_creator"
    started = await chat.say("ana", "/start")
    assert started[0].key == "race.started" and started[0].params["deal"] == DEAL
    boards = started[1:]
    assert [b.mentions for b in boards] == [["ana"], ["bea"], ["cid"]]
    assert len({b.board.session_id for b in boards}) == 3  # a board each
    assert {clock_of(b) for b in boards} == {"05:00"}  # the clock on the image
    assert (await chat.say("ana", "/race"))[0].key == "race.exists"  # even while it runs

    clock.advance(minutes=1)
    (bea_board, *_) = await chat.say("bea", "/move d")
    assert clock_of(bea_board) == "04:00"
    await chat.say("bea", "/move 27")  # +5 at Bea's move 2, the race's move 2
    await chat.say("ana", "/move 27")  # +5 at Ana's move 1, but the race's move 3: later
    assert (await chat.say("ana", "/undo"))[0].key == "undo.not_allowed"
    clock.advance(minutes=3, seconds=59)
    assert await core.tick() == 0
    clock.advance(seconds=1)
    assert await core.tick() == 1
    assert [r.key for r in pushed] == ["race.time_up", "race.results"]
    assert pushed[1].params["ranking"] == [("bea", 1, 5, 2), ("ana", 2, 5, 3), ("cid", 3, 0, 0)]
    assert pushed[1].params["winners"] == ["Bea"]
    assert "did not play" in pushed[1].text.splitlines()[-1]
    # by place, under the seed's tie rule in words (equal scores: the earlier race move first)
    lines = pushed[1].text.splitlines()
    assert "on equal scores, whoever reached their score at an earlier move" in lines[0]
    assert [line.split(". ", 1)[1].split(":")[0] for line in lines[1:]] == ["Bea", "Ana", "Cid"]
    assert await core.store.results.count() == 3  # every board is stored, resigned as it stood
    assert (await chat.say("ana", "/race"))[0].key == "race.opened"  # the chat is free again


async def test_the_race_ends_as_soon_as_every_board_is_finished(core: Core, chat: FakePlatform):
    pushed_into(chat)
    await open_race(chat, "ana", "bea")
    await chat.say("ana", "/move 27")
    await chat.resign("ana")
    await chat.resign("bea")
    assert await core.tick() == 1
    results = chat.replies[-1]
    assert results.key == "race.results" and results.params["winners"] == ["Ana"]


async def test_senza_tempo_tie_for_first_deals_everyone_a_new_game(
    core: Core, chat: FakePlatform, clock
):
    pushed = pushed_into(chat)
    opened = await chat.say("ana", "/race senza-tempo")
    assert opened[0].key == "race.opened_senza_tempo"
    await chat.say("bea", "/join")
    started = await chat.say("ana", "/start")
    assert clock_of(started[1]) == "00:00"  # senza tempo: the time played
    clock.advance(hours=5)
    assert await core.tick() == 0  # no time limit
    await chat.say("ana", "/move d")
    await chat.say("ana", "/move 27")  # 5 points at move 2
    await chat.say("bea", "/move 27")  # 5 points at move 1: no help without time
    await chat.resign("ana")
    replies = await chat.resign("bea")
    assert [r.key for r in replies][-1] == "outcome.resigned"
    assert await core.tick() == 1
    assert [r.key for r in pushed][:2] == ["race.tie_replay", "race.new_round"]
    assert pushed[1].params["round"] == 2
    new_boards = [r for r in pushed if r.board is not None]
    assert len(new_boards) == 2 and all(b.params["move"] == 0 for b in new_boards)
    # round two: Bea scores, Ana does not; Bea wins outright
    await chat.say("bea", "/move 27")
    await chat.resign("ana")
    replies = await chat.resign("bea")
    assert await core.tick() == 1
    assert pushed[-1].key == "race.results" and pushed[-1].params["winners"] == ["Bea"]


async def test_a_race_survives_a_restart(db_url: str, clock: FakeClock):
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    pushed_into(chat)
    await open_race(chat, "ana", "bea", args="3")
    await chat.say("bea", "/move 27")
    await core.close()

    clock.advance(minutes=1)
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    pushed = pushed_into(chat)
    try:
        (board, *_) = await chat.say("ana", "/move wf1")  # 15 points
        assert clock_of(board) == "02:00"
        assert (await chat.say("ana", "/undo"))[0].key == "undo.not_allowed"
        clock.advance(minutes=2)
        assert await core.tick() == 1
        assert pushed[-1].params["ranking"][0][:3] == ("ana", 1, 15)
    finally:
        await core.close()


async def test_join_window_closes_by_itself(core: Core, chat: FakePlatform, clock):
    pushed = pushed_into(chat)
    await chat.say("ana", "/race")
    clock.advance(seconds=61)
    assert await core.tick() == 1
    assert [r.key for r in pushed] == ["race.cancelled"]  # alone: no race
    pushed.clear()
    await chat.say("ana", "/race 2")
    await chat.say("bea", "/join")
    clock.advance(seconds=61)
    assert await core.tick() == 1
    assert pushed[0].key == "race.started" and len([r for r in pushed if r.board]) == 2


async def test_race_arguments_and_busy_players(core: Core, chat: FakePlatform):
    assert (await chat.say("ana", "/race fast"))[0].key == "race.usage"
    assert (await chat.say("ana", "/race 999"))[0].key == "race.usage"
    assert (await chat.say("ana", "/race", is_group=False))[0].key == "challenge.groups_only"
    await chat.say("bea", "/play solitario")
    await chat.say("ana", "/race")
    assert (await chat.say("bea", "/join"))[0].key == "race.busy"
    assert (await chat.say("ana", "/addbot"))[0].key == "table.none"
    assert (await chat.say("ana", "/end"))[0].key == "race.ended"


entries = st.lists(
    st.builds(
        Entry,
        st.sampled_from("abcdefgh"),
        st.integers(0, 400),
        st.integers(0, 300),
        st.integers(0, 300),
    ),
    min_size=1,
    max_size=8,
    unique_by=lambda e: e.player,
)


@given(entries, st.text(min_size=1, max_size=8), st.integers(1, 5))
def test_ranking_follows_the_seed(rows: list[Entry], race_id: str, round_number: int) -> None:
    placed = rank(rows, race_id, round_number)
    assert sorted(p.player for p in placed) == sorted(e.player for e in rows)
    assert placed == rank(list(reversed(rows)), race_id, round_number)  # deterministic
    movers = [p for p in placed if p.moved]
    assert [p.moved for p in placed] == [True] * len(movers) + [False] * (len(placed) - len(movers))
    for a, b in zip(movers, movers[1:], strict=False):
        assert (a.score, -a.score_move) >= (b.score, -b.score_move)
        assert (a.place == b.place) == ((a.score, a.score_move) == (b.score, b.score_move))
    assert [p.place for p in placed[len(movers) :]] == list(range(len(movers) + 1, len(placed) + 1))
    assert tie_for_first(placed) == (len(placed) > 1 and placed[0].score == placed[1].score)


async def test_equal_scores_rank_by_the_race_wide_move_not_the_players_own(
    core: Core, chat: FakePlatform
):
    """Seed 001's example: one counter for the whole race. Bea needs two of her own moves to
    score and Ana one, but Bea's scoring move is the race's move 2 and Ana's the race's move
    4: Bea reached the same score earlier in the race and wins."""
    pushed = pushed_into(chat)
    started = await open_race(chat, "ana", "bea")
    bea_board, ana_board = started[2].board.session_id, started[1].board.session_id
    await chat.say("bea", "/move d")  # race move 1
    await chat.say("bea", "/move 27")  # race move 2: +5 (Bea's own move 2)
    await chat.say("ana", "/move d")  # race move 3
    await chat.say("ana", "/move 27")  # race move 4: +5 (Ana's own move 2)
    await chat.say("bea", "/move d")  # race move 5: no points, Bea's tie-break stays 2
    assert await core.store.play.race_move_at(bea_board, 2) == 2
    assert await core.store.play.race_move_at(ana_board, 2) == 4
    assert await core.store.play.race_move_at(bea_board, 3) == 5
    await chat.resign("ana")
    await chat.resign("bea")
    assert await core.tick() == 1
    assert pushed[-1].params["ranking"] == [("bea", 1, 5, 2), ("ana", 2, 5, 4)]
    assert pushed[-1].params["winners"] == ["Bea"]
    assert "move 2" in pushed[-1].text.splitlines()[1]


async def test_the_race_wide_counter_survives_a_restart_and_keeps_the_order(
    db_url: str, clock: FakeClock
):
    """The counter is read from the database, not kept in a process: a core started in the
    middle of the race numbers the next move after the ones already stored."""
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    pushed_into(chat)
    await open_race(chat, "ana", "bea", args="3")
    await chat.say("ana", "/move d")  # race move 1
    await chat.say("ana", "/move d")  # race move 2
    await chat.say("bea", "/move 27")  # race move 3: +5 (Bea's own move 1)
    await core.close()

    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    pushed = pushed_into(chat)
    try:
        await chat.say("ana", "/move 27")  # race move 4: +5 (Ana's own move 3)
        await chat.resign("ana")
        await chat.resign("bea")
        assert await core.tick() == 1
        assert pushed[-1].params["ranking"] == [("bea", 1, 5, 3), ("ana", 2, 5, 4)]
    finally:
        await core.close()


async def test_racers_served_by_two_processes_share_one_counter(db_url: str, clock: FakeClock):
    """Two cores on one database (two processes serving the chat): each racer moves through a
    different one, and the race-wide numbers still come out distinct and in order."""
    first = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    second = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    try:
        chat_a, chat_b = FakePlatform(first), FakePlatform(second)
        pushed_into(chat_a)
        pushed = pushed_into(chat_b)
        started = await open_race(chat_a, "ana", "bea")
        ana_board, bea_board = started[1].board.session_id, started[2].board.session_id
        await chat_b.say("bea", "/move d")  # race move 1, on the second process
        await chat_a.say("ana", "/move 27")  # race move 2: +5, on the first
        await chat_b.say("bea", "/move 27")  # race move 3: +5
        assert [await first.store.play.race_move_at(ana_board, 1)] == [2]
        assert [await second.store.play.race_move_at(bea_board, n) for n in (1, 2)] == [1, 3]
        await chat_a.resign("ana")
        await chat_b.resign("bea")
        assert await second.tick() == 1
        assert pushed[-1].params["ranking"] == [("ana", 1, 5, 2), ("bea", 2, 5, 3)]
    finally:
        await first.close()
        await second.close()


async def test_a_race_whose_time_is_up_ends_once_with_two_processes_ticking(
    db_url: str, clock: FakeClock, caplog
):
    first = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    second = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    try:
        chat = FakePlatform(first)
        pushed = pushed_into(chat)
        other: list[Reply] = []

        async def other_push(platform: str, chat_id: str, reply: Reply) -> None:
            other.append(reply)

        second.set_push(other_push)
        await open_race(chat, "ana", "bea", args="5")
        clock.advance(minutes=5)
        handled = await asyncio.gather(first.tick(), second.tick())  # both see the clock run out
        assert sorted(handled) == [0, 1]
        announced = [r.key for r in pushed + other]
        assert announced.count("race.results") == 1 and announced.count("race.time_up") == 1
        assert await first.store.results.count() == 2
        assert await first.tick() == 0 and await second.tick() == 0  # nothing left to end
        # the other process stood aside (its claim refused), it did not fail half-way
        assert not [r for r in caplog.records if r.levelname in ("ERROR", "WARNING")], caplog.text
    finally:
        await first.close()
        await second.close()


async def test_a_race_lobby_is_called_a_race_not_a_table(chat: FakePlatform):
    # on main the race's lobby board read "Solitario table of Ana: ... /join to sit down"
    replies = await chat.say("ana", "/race")
    lobby = next(r for r in replies if r.board is not None)
    assert lobby.key == "race.lobby"
    assert lobby.text.startswith("Solitario race of Ana") and "table" not in lobby.text
