"""The core on a real SQLite lock (issue 14): another program holds the write lock, or the
database is read-only. The player gets the busy answer in the chat's language, nothing is
half-written, reads still work, and the next command after the cause is gone works."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

from core_fakes import FakeClock, FakePlatform, fake_render

from bot import i18n
from bot.app import open_core
from bot.storage import BUSY_TIMEOUT_SECONDS


def hold_write_lock(path: Path, taken: threading.Event, release: threading.Event) -> None:
    """Another program: takes SQLite's write lock with a second connection until ``release``
    (the test says when, so however slow the machine the lock is held while the move waits)."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    taken.set()
    release.wait(120)
    other.execute("ROLLBACK")
    other.close()


async def test_a_move_under_another_programs_write_lock_is_answered_busy_in_spanish_then_works(
    tmp_path: Path,
):
    path = tmp_path / "tavolo.db"
    core = await open_core(
        f"sqlite:///{path}", "en", FakeClock(), renderer=fake_render, sweep_interval=None
    )
    chat = FakePlatform(core)
    try:
        chat.admins.add("ana")
        assert (await chat.say("ana", "/lang es"))[0].key == "lang.set"
        await chat.say("ana", "/play canfield 7")
        game_id = chat.board().board.session_id
        before = await core.store.sessions.get(game_id)
        taken, release = threading.Event(), threading.Event()
        holder = threading.Thread(target=hold_write_lock, args=(path, taken, release))
        holder.start()
        try:
            assert await asyncio.to_thread(taken.wait, 60)
            started = time.monotonic()
            (answer,) = await chat.say("ana", "/move d")
            # an answer, not a hang (a busy machine may add seconds, never minutes)
            assert time.monotonic() - started < BUSY_TIMEOUT_SECONDS + 20
            assert answer.key == "error.busy" and answer.text == i18n.t("es", "error.busy")
            # nothing half-written: no move, the session as it was
            assert await core.store.sessions.moves(game_id) == []
            after = await core.store.sessions.get(game_id)
            assert (after.revision, after.status) == (before.revision, before.status)
            assert holder.is_alive()  # the lock was still held when the player was answered
        finally:
            release.set()
            await asyncio.to_thread(holder.join, 60)
        moved = await chat.say("ana", "/move d")
        assert moved[0].board is not None
        assert await core.store.sessions.moves(game_id) == ["d"]
    finally:
        await core.close()


async def test_a_read_only_database_answers_writes_busy_and_still_serves_help(tmp_path: Path):
    core = await open_core(
        f"sqlite:///{tmp_path / 'tavolo.db'}",
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
    )
    chat = FakePlatform(core)
    try:
        chat.admins.add("ana")
        assert (await chat.say("ana", "/lang it"))[0].key == "lang.set"
        await chat.say("ana", "/play canfield 7")
        game_id = chat.board().board.session_id
        (italian_help,) = await chat.say("ana", "/help")
        await core.store.fetch("PRAGMA query_only = ON")  # the file became read-only
        (answer,) = await chat.say("ana", "/move d")
        assert answer.key == "error.busy" and answer.text == i18n.t("it", "error.busy")
        assert await core.store.sessions.moves(game_id) == []
        # reads work, for a known player and for one never seen before (their sighting waits)
        for user in ("ana", "bruno"):
            (help_reply,) = await chat.say(user, "/help")
            assert (help_reply.key, help_reply.text) == ("help.text", italian_help.text)
        await core.store.fetch("PRAGMA query_only = OFF")
        assert (await chat.say("ana", "/move d"))[0].board is not None
    finally:
        await core.close()
