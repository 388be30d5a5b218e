"""What a Cartas Maestras move stores besides the move (issue 27, CPU per command): the table's
play state (turn clock, timeouts, who left) travels with the moves instead of in reads and
commits of its own, and stays right when timeouts, departures and other processes change it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render

from bot.app import open_core
from bot.core import Core
from bot.core.session import Session
from bot.replies import Reply
from bot.storage import (
    ACTIVE,
    TABLE,
    SessionRecord,
    StaleRevision,
    Storage,
    StorageBusy,
    TablePlay,
)


async def _start_against_the_computer(
    core: Core, chat: FakePlatform, challenge: str = "/challenge"
) -> Session:
    """Ana opens a table, adds the computer and starts: the table, its game dealt."""
    for text in (challenge, "/addbot", "/start"):
        await chat.say("ana", text)
    table = await core.sessions.table_of(chat.platform, chat.chat_id)
    assert table is not None and table.game is not None
    return table


async def _stored_play(core: Core, table_id: str) -> TablePlay:
    play = await core.store.play.table(table_id)
    assert play is not None
    return play


async def test_a_move_answered_by_the_computer_stores_the_turn_clock_with_the_answer(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    table_id = (await _start_against_the_computer(core, chat, "/challenge timer=5")).id
    for _ in range(3):
        clock.advance(minutes=1)
        hand = await core.hand_buttons(chat.request("ana"))
        replies = await chat.press("ana", hand.buttons[0].id)
        assert replies[0].key == "tables.plays" and replies[-1].key == "table.turn"
        stored = await _stored_play(core, table_id)
        # Ana's five minutes start when the computer has answered, not before
        assert stored.deadline == (clock() + timedelta(minutes=5)).isoformat(timespec="seconds")
        assert stored.computers == ["~cpu1"] and stored.departed == []
    clock.advance(minutes=5)
    assert await core.tick() == 1  # the stored clock runs out: Ana times out


async def test_a_timeout_the_computer_answers_keeps_its_count(db_url: str, clock: FakeClock):
    drawn: list[dict] = []  # the views boards are drawn from

    def spy(game_id: str, view: dict, **style: object) -> bytes:
        drawn.append(view)
        return fake_render(game_id, view, **style)

    core = await open_core(db_url, "en", clock, renderer=spy, sweep_interval=None)
    pushed: list[Reply] = []

    async def push(platform: str, chat_id: str, reply: Reply) -> None:
        pushed.append(reply)

    core.set_push(push)
    try:
        chat = FakePlatform(core)
        table_id = (await _start_against_the_computer(core, chat)).id
        for count in (1, 2):
            pushed.clear()
            clock.advance(minutes=3)
            assert await core.tick() == 1
            keys = [r.key for r in pushed]
            # Ana's timeout, then the computer's answer at once: Ana to play again
            assert keys == ["tables.timed_out", "tables.plays", "table.caption", "table.turn"]
            assert pushed[0].params["count"] == count
            assert (await _stored_play(core, table_id)).timeouts == {"ana": count}
            # the board of the answer shows her timeouts in a row
            assert {s["player"]: s["timeouts"] for s in drawn[-1]["seats"]}["Ana"] == count
        # her own move ends the run: stored with the computer's answer
        hand = await core.hand_buttons(chat.request("ana"))
        await chat.press("ana", hand.buttons[0].id)
        assert (await _stored_play(core, table_id)).timeouts == {"ana": 0}
        assert {s["player"]: s["timeouts"] for s in drawn[-1]["seats"]}["Ana"] == 0
    finally:
        await core.close()


async def test_a_busy_database_stores_neither_the_move_nor_the_computers_answer(
    core: Core, chat: FakePlatform, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
):
    table = await _start_against_the_computer(core, chat)
    moves, revision = list(table.game.moves), table.record.revision
    play = await _stored_play(core, table.id)

    async def busy(*args: object, **kwargs: object) -> None:
        raise StorageBusy("locked")

    with monkeypatch.context() as patch:
        patch.setattr(core.store.sessions, "record_moves", busy)
        hand = await core.hand_buttons(chat.request("ana"))
        replies = await chat.press("ana", hand.buttons[0].id)
        assert [r.key for r in replies] == ["error.busy"]
    # nothing played, in memory or stored: Ana is still to move, her buttons still work
    assert table.game.moves == moves and table.record.revision == revision
    assert await core.store.sessions.moves(table.id) == moves
    assert await _stored_play(core, table.id) == play
    clock.advance(minutes=1)
    replies = await chat.press("ana", hand.buttons[0].id)
    assert replies[0].key == "tables.plays" and replies[-1].mentions == ["ana"]
    assert await core.store.sessions.moves(table.id) == table.game.moves
    assert len(table.game.moves) == len(moves) + 2


async def test_a_move_that_loses_the_race_to_another_process_is_stored_the_long_way(
    core: Core, chat: FakePlatform, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
):
    table = await _start_against_the_computer(core, chat)
    hand = await core.hand_buttons(chat.request("ana"))
    await chat.press("ana", hand.buttons[0].id)  # this process now knows the play state
    stored = core.store.sessions.record_moves
    tries: list[list[str]] = []

    async def first_one_stale(rec: object, moves: list, *args: object, **kwargs: object) -> object:
        tries.append([m.player for m in moves])
        if len(tries) == 1:  # as when another process stored a move of the table first
            raise StaleRevision("session moved on")
        return await stored(rec, moves, *args, **kwargs)

    monkeypatch.setattr(core.store.sessions, "record_moves", first_one_stale)
    clock.advance(minutes=1)
    hand = await core.hand_buttons(chat.request("ana"))
    replies = await chat.press("ana", hand.buttons[0].id)
    # together first; after the reload, the move alone and then the computer's answer
    assert tries == [["ana", "~cpu1"], ["ana"], ["~cpu1"]]
    assert replies[0].key == "tables.plays" and replies[-1].mentions == ["ana"]
    assert [p for p, _ in replies[0].params["moves"]] == ["~cpu1"]
    assert await core.store.sessions.moves(table.id) == table.game.moves
    play = await _stored_play(core, table.id)
    assert play.deadline == (clock() + timedelta(minutes=3)).isoformat(timespec="seconds")


async def test_a_player_who_left_through_another_process_is_played_for_here(
    db_url: str, clock: FakeClock
):
    """Two cores on one database stand for two processes: Bea leaves through one, whose
    departure moves no revision; Ana's next move through the other still plays Bea's seat by
    itself, and the table is no longer Bea's game there."""
    here = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    there = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    try:
        chat_here, chat_there = FakePlatform(here), FakePlatform(there)
        await chat_here.say("ana", "/challenge @bea @cid")
        await chat_here.say("bea", "/join")
        await chat_here.say("cid", "/join")
        await chat_here.say("ana", "/start")
        # this process has the table in memory, at the revision the other will leave it at
        hand = await here.hand_buttons(chat_here.request("ana"))
        assert (await chat_here.press("ana", hand.buttons[0].id))[-1].mentions == ["bea"]
        hand = await here.hand_buttons(chat_here.request("bea"))
        await chat_here.press("bea", hand.buttons[0].id)
        hand = await here.hand_buttons(chat_here.request("cid"))
        await chat_here.press("cid", hand.buttons[0].id)
        # Ana to play; Bea leaves through the other process
        assert (await chat_there.leave("bea"))[0].key == "tables.left_game"
        table = await here.sessions.table_of("fake", "chat-1")
        assert table is not None and table.game is not None
        hand = await here.hand_buttons(chat_here.request("ana"))
        replies = await chat_here.press("ana", hand.buttons[0].id)
        # Ana's play and Bea's auto-played seat, then Cid's turn
        plays = next(r for r in replies if r.key == "tables.plays")
        assert [player for player, _ in plays.params["moves"]] == ["bea"]
        assert replies[-1].key == "table.turn" and replies[-1].mentions == ["cid"]
        assert table.game.current_player == "cid"
        # here too the table is no longer Bea's game: her move is refused as nobody's
        assert (await chat_here.say("bea", "/move 1N"))[0].key == "move.no_game"
    finally:
        await there.close()
        await here.close()


def _table_record(sid: str) -> SessionRecord:
    return SessionRecord(
        id=sid,
        platform="fake",
        chat_id="t",
        kind=TABLE,
        game_id="maestras",
        options={},
        deal=1,
        players=["ana", "~cpu1"],
        names={"ana": "Ana", "~cpu1": "Computer 1"},
        creator="ana",
        status=ACTIVE,
        faces="squadratik_cards",
        created_at="2026-01-01T00:00:00",
        last_active_at="2026-01-01T00:00:00",
    )


async def test_a_moves_play_state_is_stored_and_read_with_it_or_not_at_all(db_url: str):
    store = await Storage.open(db_url)
    try:
        rec = _table_record("t1")
        await store.sessions.insert(rec)
        await store.play.save_table(TablePlay("t1", 180, computers=["~cpu1"]))
        rec.revision += 1
        read = await store.sessions.record_move(
            rec, 1, "ana", "pass", "2026-01-01T00:00:01", read_table=True
        )
        assert read == TablePlay("t1", 180, computers=["~cpu1"])
        rec.revision += 1
        clock = TablePlay("t1", 180, "2026-01-01T00:03:02", {"ana": 0}, [], ["~cpu1"])
        assert (
            await store.sessions.record_move(
                rec, 2, "~cpu1", "pass", "2026-01-01T00:00:02", table=clock
            )
            is None
        )
        assert await store.play.table("t1") == clock
        # a stale copy: neither its move nor its play state is stored
        stale = _table_record("t1")
        stale.revision = 2
        with pytest.raises(StaleRevision):
            await store.sessions.record_move(
                stale,
                2,
                "ana",
                "pass",
                "2026-01-01T00:00:03",
                table=TablePlay("t1", 180, "2026-01-01T09:00:00", {}, ["ana"], ["~cpu1"]),
            )
        assert await store.play.table("t1") == clock
        assert await store.sessions.moves("t1") == ["pass", "pass"]
    finally:
        await store.close()


async def test_the_views_a_table_keeps_are_left_as_the_game_gives_them(
    tmp_path: Path, clock: FakeClock
):
    """A table's views are built once per position and handed to every reader (the play's
    line, the computer's choice, the board's hooks, the real renderer, the private hand):
    none of them may change what it was handed."""
    core = await open_core(
        f"sqlite:///{tmp_path / 'views.db'}", "en", clock, renderer=None, sweep_interval=None
    )
    try:
        chat = FakePlatform(core)
        table = await _start_against_the_computer(core, chat)
        for _ in range(4):
            hand = await core.hand_buttons(chat.request("ana"))
            assert hand.image is not None  # drawn by the real renderer
            replies = await chat.press("ana", hand.buttons[0].id)
            board = next(r for r in replies if r.board is not None)
            assert board.image is not None and board.image.startswith(b"\x89PNG")
            kept = dict(table._views)
            assert None in kept  # the board's
            for viewer, view in kept.items():
                assert view == table.game.view(viewer), viewer
    finally:
        await core.close()


async def test_the_chats_read_says_who_left_its_started_table(core: Core, chat: FakePlatform):
    await chat.say("ana", "/challenge @bea @cid")
    await chat.say("bea", "/join")
    await chat.say("cid", "/join")
    lobby = await core.sessions.table_of(chat.platform, chat.chat_id)
    assert lobby is not None
    table_id = lobby.id
    view = await core.store.focus.chat_view("fake", "chat-1", "ana")
    assert view.departed == {}  # a lobby: nobody left a game
    await chat.say("ana", "/start")
    view = await core.store.focus.chat_view("fake", "chat-1", "ana")
    assert view.departed == {table_id: []} and [s.id for s in view.open_sessions] == [table_id]
    await chat.leave("bea")
    view = await core.store.focus.chat_view("fake", "chat-1", "ana")
    assert view.departed == {table_id: ["bea"]}
    # Bea's own games here: none (her seat plays by itself); Ana's: the table
    assert (await chat.say("bea", "/board"))[0].key == "move.no_game"
    assert (await chat.say("ana", "/board"))[0].board.session_id == table_id
