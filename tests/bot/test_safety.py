"""No input crashes the core: numbers from ASCII digits only, forged button ids change
nothing, and a busy database gets "busy, try again" in the chat's language on every entry."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from core_fakes import FakeClock, FakePlatform

from bot.app import open_core
from bot.core import Core, buttons
from bot.platforms import console as console_platform
from bot.storage import StorageBusy

ODD_DIGITS = ["²", "٣", "７", "1²", "¹2"]


def verb_of(button) -> str:
    return buttons.decode(button.id).verb


async def moves_stored(core: Core, session_id: str) -> int:
    rows = await core.store.fetch("SELECT COUNT(*) FROM moves WHERE session_id = ?", (session_id,))
    return int(rows[0][0])


# ----- numbers ------------------------------------------------------------------------------
@pytest.mark.parametrize("word", ODD_DIGITS)
async def test_play_refuses_a_deal_number_not_in_ascii_digits(chat: FakePlatform, word: str):
    replies = await chat.say("ana", f"/play canfield {word}")
    assert [r.key for r in replies] == ["play.bad_argument"]
    assert replies[0].params["arg"] == word
    # nothing was started: a normal /play still works
    assert (await chat.say("ana", "/play canfield 7"))[0].key == "play.started"


@pytest.mark.parametrize("word", ODD_DIGITS)
async def test_race_refuses_minutes_not_in_ascii_digits(chat: FakePlatform, word: str):
    replies = await chat.say("ana", f"/race {word}")
    assert [r.key for r in replies] == ["race.usage"]


@pytest.mark.parametrize("word", ODD_DIGITS)
async def test_challenge_refuses_a_timer_not_in_ascii_digits(chat: FakePlatform, word: str):
    replies = await chat.say("ana", f"/challenge timer={word}")
    assert (
        len(replies) == 1
        and replies[0].key != "error.internal"
        and replies[0].visibility == "private"
    )
    assert (await chat.say("ana", "/join"))[0].key == "table.none"


@pytest.mark.parametrize("word", ["#²", "#٣", "#７"])
async def test_move_by_index_refuses_non_ascii_digits_and_changes_nothing(
    core: Core, chat: FakePlatform, word: str
):
    started = await chat.say("ana", "/play imaginary13 3")
    session_id = started[1].board.session_id
    replies = await chat.say("ana", f"/move {word}")
    assert len(replies) == 1 and replies[0].key.startswith("illegal."), replies[0].key
    assert await moves_stored(core, session_id) == 0
    assert (await chat.say("ana", "/move #0"))[0].key == "board.caption"
    assert await moves_stored(core, session_id) == 1


async def test_console_refuses_a_button_number_not_in_ascii_digits(tmp_path: Path):
    core = await open_core(
        f"sqlite:///{tmp_path / 'c.db'}", sweep_interval=None, renderer=lambda *a, **k: b""
    )
    printed: list[str] = []
    console = console_platform.Console(core, io.StringIO(), out_dir=tmp_path)
    console.print = printed.append  # type: ignore[method-assign]
    try:
        await console.handle_line("/play imaginary13 3")
        shown = list(console.buttons)
        printed.clear()
        await console.handle_line("#²")
        assert printed == ["(#² is not a button number: type # and digits 0-9, e.g. #1)"]
        assert list(console.buttons) == shown  # nothing pressed, same board
        await console.handle_line("#1")
        assert any("move 1" in line for line in printed)
    finally:
        await core.close()


# ----- forged button ids --------------------------------------------------------------------
async def test_forged_lobby_verbs_on_a_solo_game_change_nothing(core: Core, chat: FakePlatform):
    started = await chat.say("ana", "/play imaginary13 3")
    session_id = started[1].board.session_id
    await chat.say("ana", "/move #0")
    before = (await core.sessions.get(session_id)).record.revision
    for verb in ("leave", "join", "start", "hand"):
        for revision in (0, before, before + 1):
            replies = await chat.press("ana", buttons.encode(verb, session_id, revision))
            assert [r.key for r in replies] == ["button.stale"], (verb, revision)
            assert replies[0].visibility == "private"
    session = await core.sessions.get(session_id)
    assert session.is_active and session.record.revision == before
    assert await moves_stored(core, session_id) == 1
    assert (await chat.say("ana", "/board"))[0].key == "board.caption"


async def test_forged_solo_verbs_and_future_revisions_on_a_table_change_nothing(
    core: Core, chat: FakePlatform
):
    await chat.say("ana", "/challenge")
    await chat.say("bea", "/join")
    await chat.say("ana", "/start")
    table = await core.sessions.table_of(chat.platform, chat.chat_id)
    revision = table.record.revision
    for verb, arg in (
        ("sel", "h1"),
        ("found", "*"),
        ("back", ""),
        ("join", ""),
        ("leave", ""),
        ("start", ""),
    ):
        replies = await chat.press("ana", buttons.encode(verb, table.id, revision, arg))
        assert [r.key for r in replies] == ["button.stale"], verb
    # a move id claiming a revision the table has not reached yet
    hand = await core.hand_buttons(chat.request("ana"))
    forged = buttons.decode(hand.buttons[0].id)
    replies = await chat.press("ana", buttons.encode("mv", table.id, revision + 5, forged.arg))
    assert [r.key for r in replies] == ["button.stale"]
    table = await core.sessions.table_of(chat.platform, chat.chat_id)
    assert table.record.revision == revision and table.game.move_number == 0
    assert table.record.players == ["ana", "bea"]


async def test_forged_lobby_ids_with_a_future_or_stale_revision_change_nothing(
    core: Core, chat: FakePlatform
):
    await chat.say("ana", "/challenge")
    table = await core.sessions.table_of(chat.platform, chat.chat_id)
    revision = table.record.revision
    assert [
        r.key for r in await chat.press("bea", buttons.encode("join", table.id, revision + 1))
    ] == ["button.stale"]
    await chat.say("bea", "/join")
    # the creator's start from before Bea sat down does not deal a roster he was not shown
    replies = await chat.press("ana", buttons.encode("start", table.id, revision))
    assert [r.key for r in replies] == ["button.stale"]
    table = await core.sessions.table_of(chat.platform, chat.chat_id)
    assert table.game is None and table.record.players == ["ana", "bea"]
    # ... a start from the lobby as it stands now deals
    start = chat.button(lambda b: verb_of(b) == "start")
    assert (await chat.press("ana", start.id))[0].key == "start.started"


async def test_forged_lobby_verbs_on_a_race_game_change_nothing(core: Core, chat: FakePlatform):
    await chat.say("ana", "/race")
    await chat.say("bea", "/join")
    await chat.say("ana", "/start")
    solo = await core.sessions.solo_of(chat.platform, chat.chat_id, "bea")
    assert solo is not None
    revision = solo.record.revision
    for verb in ("leave", "join", "start"):
        replies = await chat.press("bea", buttons.encode(verb, solo.id, revision))
        assert [r.key for r in replies] == ["button.stale"], verb
    solo = await core.sessions.get(solo.id)
    assert solo.is_active and solo.record.revision == revision


# ----- a busy database ------------------------------------------------------------------------
def busy(*args, **kwargs):
    raise StorageBusy("database is locked")


async def test_busy_database_while_building_the_context_gets_the_busy_answer(
    core: Core, chat: FakePlatform, monkeypatch
):
    chat.admins.add("ana")
    assert (await chat.say("ana", "/lang es"))[0].key == "lang.set"
    (spanish_help,) = await chat.say("ana", "/help")
    with monkeypatch.context() as patch:
        # a player's sighting that cannot be stored refuses nothing by itself: the request
        # goes on (and meets the busy database itself if it writes)
        patch.setattr(core.store.players, "touch", busy)
        assert [(r.key, r.text) for r in await chat.say("ana", "/help")] == [
            ("help.text", spanish_help.text)
        ]
        patch.setattr(core.store.sessions, "insert", busy)
        replies = await chat.say("ana", "/play canfield 7")
        assert [r.key for r in replies] == ["error.busy"]
        assert (
            replies[0].text.startswith("El bot está ocupado") and replies[0].visibility == "private"
        )
    # the chat's language cannot be read either: the default language
    with monkeypatch.context() as patch:
        patch.setattr(core.store.players, "touch", busy)
        # the request's first read (language, open games, focus) and the language alone
        patch.setattr(core.store.focus, "chat_view", busy)
        patch.setattr(core.store.players, "chat_language", busy)
        replies = await chat.say("ana", "/play canfield 7")
        assert [r.key for r in replies] == ["error.busy"] and replies[0].text.startswith(
            "The bot is busy"
        )
    assert (await chat.say("ana", "/play canfield 7"))[0].key == "play.started"


async def test_busy_database_during_a_move_keeps_the_game_and_the_next_move_works(
    core: Core, chat: FakePlatform, monkeypatch
):
    started = await chat.say("ana", "/play imaginary13 3")
    session_id = started[1].board.session_id
    with monkeypatch.context() as patch:
        patch.setattr(core.store.sessions, "record_moves", busy)  # every move goes through it
        assert [r.key for r in await chat.say("ana", "/move #0")] == ["error.busy"]
        board = chat.board()
        assert [r.key for r in await chat.press("ana", board.buttons[0].id)] == ["error.busy"]
    assert await moves_stored(core, session_id) == 0
    assert (await chat.say("ana", "/move #0"))[0].key == "board.caption"
    assert await moves_stored(core, session_id) == 1


async def test_busy_database_on_timer_tick_sweep_and_board_posted_lives_on(
    core: Core, chat: FakePlatform, clock: FakeClock, monkeypatch
):
    await chat.say("ana", "/play imaginary13 3")
    clock.advance(hours=25)
    with monkeypatch.context() as patch:
        patch.setattr(core.store.sessions, "active_solo", busy)
        patch.setattr(core.store.backend, "fetch", busy)  # every store's reads
        patch.setattr(core.store.sessions, "save", busy)
        assert await core.sweep() == 0
        assert await core.tick() == 0
        await core.board_posted(chat.board().board.session_id, "m99")
    assert await core.sweep() == 1
