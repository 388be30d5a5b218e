"""Storage under a database that cannot take a write now: locked by another process, read-only.

The request gets ``StorageBusy`` within a bounded wait (never a raw sqlite3 error, never a hang),
nothing of it is written, and the next request after the cause is gone works."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from bot.storage import BUSY_TIMEOUT_SECONDS, SessionRecord, Storage, StorageBusy
from bot.storage.records import ACTIVE, SOLO


def _hold_write_lock(path: Path, taken: threading.Event, release: threading.Event) -> None:
    """Another program: takes SQLite's write lock and keeps it until ``release`` (the test
    says when, so however slow the machine the lock is held while the write waits)."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO settings (platform, chat_id, language) VALUES ('x', 'held', 'it')")
    taken.set()
    release.wait(120)
    other.execute("ROLLBACK")
    other.close()


def _session(sid: str) -> SessionRecord:
    return SessionRecord(
        id=sid,
        platform="console",
        chat_id="c",
        kind=SOLO,
        game_id="canfield",
        options={},
        deal=1,
        players=["p"],
        names={"p": "p"},
        creator="p",
        status=ACTIVE,
        faces="francesi",
        created_at="2026-01-01T00:00:00",
        last_active_at="2026-01-01T00:00:00",
    )


async def test_a_write_lock_held_by_another_program_gives_busy_in_bounded_time_then_writes_work(
    tmp_path: Path,
):
    path = tmp_path / "locked.db"
    store = await Storage.open(f"sqlite:///{path}")
    try:
        await store.sessions.insert(_session("s1"))
        taken, release = threading.Event(), threading.Event()
        holder = threading.Thread(target=_hold_write_lock, args=(path, taken, release))
        holder.start()
        try:
            assert await asyncio.to_thread(taken.wait, 60)
            moved = _session("s1")
            moved.revision = 1
            started = time.monotonic()
            with pytest.raises(StorageBusy):
                await store.sessions.record_move(moved, 1, "p", "m1", "2026-01-01T00:00:01")
            waited = time.monotonic() - started
            # it waited for the lock the busy timeout long, and then answered: no hang (a busy
            # machine may add seconds, never minutes)
            assert BUSY_TIMEOUT_SECONDS * 0.8 <= waited < BUSY_TIMEOUT_SECONDS + 20
            # reads are not blocked by the writer (WAL), and nothing of the refused move is there
            assert await store.sessions.moves("s1") == []
            assert (await store.sessions.get("s1")).revision == 0
        finally:
            release.set()
            await asyncio.to_thread(holder.join, 60)
        rec = _session("s1")
        rec.revision = 1
        await store.sessions.record_move(rec, 1, "p", "m1", "2026-01-01T00:00:02")
        assert await store.sessions.moves("s1") == ["m1"]
        assert (
            await store.players.chat_language("x", "held") is None
        )  # the other program rolled back
    finally:
        await store.close()


async def test_a_read_only_database_serves_reads_and_answers_writes_busy(tmp_path: Path):
    path = tmp_path / "ro.db"
    store = await Storage.open(f"sqlite:///{path}")
    await store.players.set_chat_language("console", "c", "es")
    await store.close()
    if os.geteuid() != 0:
        path.chmod(0o444)
        store = await Storage.open(f"sqlite:///{path}")
    else:
        # root writes through file permissions: SQLite's own read-only switch gives the
        # same error (SQLITE_READONLY) a read-only file gives
        store = await Storage.open(f"sqlite:///{path}")
        await store.fetch("PRAGMA query_only = ON")
    try:
        assert await store.players.chat_language("console", "c") == "es"
        with pytest.raises(StorageBusy):
            await store.players.set_chat_language("console", "c", "it")
        with pytest.raises(StorageBusy):
            await store.sessions.insert(_session("s2"))
        assert await store.players.chat_language("console", "c") == "es"
        assert not await store.sessions.exists("s2")
        await store.fetch("PRAGMA query_only = OFF")
        if os.geteuid() == 0:
            await store.players.set_chat_language("console", "c", "it")  # writable again: works
            assert await store.players.chat_language("console", "c") == "it"
    finally:
        await store.close()
        path.chmod(0o644)


async def test_a_closed_connection_is_busy_not_a_driver_error(tmp_path: Path):
    store = await Storage.open(f"sqlite:///{tmp_path / 'gone.db'}")
    await store.backend.db.close()
    await store.backend.reader.close()  # reads have a connection of their own
    with pytest.raises(StorageBusy):
        await store.players.chat_language("console", "c")
    with pytest.raises(StorageBusy):
        await store.players.set_chat_language("console", "c", "it")


@pytest.mark.parametrize("kind", ["folder", "missing folder", "not a database"])
async def test_a_bad_database_path_is_one_line_at_start_without_traceback(
    tmp_path: Path, kind: str
):
    import subprocess
    import sys

    if kind == "folder":
        target = tmp_path
    elif kind == "missing folder":
        target = tmp_path / "nope" / "x.db"
    else:
        target = tmp_path / "junk.db"
        target.write_bytes(b"not sqlite " * 500)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{target}"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--console"],
        input="/quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode != 0
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("tavolo: cannot start:")
    assert "Traceback" not in done.stderr
