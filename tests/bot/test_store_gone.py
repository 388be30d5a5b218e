"""Never acknowledge what cannot be kept (issue 35, finding 8; issue 39): when the SQLite file
is deleted, replaced or damaged under a running bot, or the database cannot be written, moves
are answered "busy, nothing was changed" at once (an SQLite connection would write on to the
unlinked file, and every move would be lost at the next start), readiness turns red naming
the database, liveness stays green, and the bot takes moves again by itself once the file is
back; after a restart every acknowledged move is there."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import aiohttp
from core_fakes import FakeClock, FakePlatform, fake_render

from bot import i18n
from bot.app import open_core
from bot.core import Core
from bot.http import HttpServer
from bot.storage import StorageBusy
from bot.storage.sqlite import sqlite_error


async def start(path: Path) -> tuple[Core, FakePlatform]:
    core = await open_core(
        f"sqlite:///{path}", "es", FakeClock(), renderer=fake_render, sweep_interval=None
    )
    return core, FakePlatform(core)


async def get(server: HttpServer, route: str) -> tuple[int, str]:
    url = f"http://127.0.0.1:{server.port}{route}"
    async with aiohttp.ClientSession() as client, client.get(url) as response:
        return response.status, await response.text()


def backup(path: Path, to: Path) -> None:
    """A consistent copy of the running database (SQLite's backup API)."""
    source, target = sqlite3.connect(path), sqlite3.connect(to)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()


def put_back(copy: Path, path: Path) -> None:
    """What README says to do to put a database back: its old ``-wal`` and ``-shm`` go first
    (they belong to the file that went away), then the copy takes the path."""
    for stale in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        stale.unlink(missing_ok=True)
    os.replace(copy, path)


def move_number(chat: FakePlatform) -> int:
    return int(chat.board().params["move"])


async def test_a_deleted_database_file_stops_every_acknowledgement_until_it_is_back(tmp_path):
    path = tmp_path / "tavolo.db"
    core, chat = await start(path)
    server = await HttpServer.start(core, "127.0.0.1", 0)
    try:
        await chat.say("ana", "/play freecell 1")
        await chat.say("ana", "1a")
        assert move_number(chat) == 1
        assert await get(server, "/readyz") == (200, "database: ok\n")
        backup(path, tmp_path / "copy.db")
        os.remove(path)

        (answer,) = await chat.say("ana", "1b")  # not acknowledged: nothing could keep it
        assert answer.key == "error.busy"
        assert answer.text == i18n.t("es", "error.busy")  # in the chat's language
        status, text = await get(server, "/readyz")
        assert (status, text) == (503, "database: the database file was deleted\n")
        assert await get(server, "/livez") == (200, "ok\n")

        put_back(tmp_path / "copy.db", path)  # the operator puts the database back
        moved = await chat.say("ana", "1b")
        assert moved[-1].board is not None and move_number(chat) == 2
        assert await get(server, "/readyz") == (200, "database: ok\n")
    finally:
        await server.stop()
        await core.close()
    core, chat = await start(path)  # a restart: every acknowledged move is there
    try:
        await chat.say("ana", "/board")
        assert move_number(chat) == 2
    finally:
        await core.close()


async def test_a_replaced_database_file_is_noticed_and_the_new_file_is_used(tmp_path):
    path = tmp_path / "tavolo.db"
    core, chat = await start(path)
    try:
        await chat.say("ana", "/play freecell 1")
        backup(path, tmp_path / "copy.db")
        await chat.say("ana", "1a")  # stored in the old file only
        put_back(tmp_path / "copy.db", path)  # a restore from a backup, while running
        (answer,) = await chat.say("ana", "1b")
        assert answer.key == "error.busy"  # the write went nowhere: not acknowledged
        assert (await core.store.problem()) is None  # the new file is open now
        await chat.say("ana", "/board")
        assert move_number(chat) == 0  # what the file holds, nothing invented
        await chat.say("ana", "1a")
        assert move_number(chat) == 1
    finally:
        await core.close()


async def test_a_damaged_file_answers_busy_turns_readiness_red_and_recovers(tmp_path):
    path = tmp_path / "tavolo.db"
    core, chat = await start(path)
    server = await HttpServer.start(core, "127.0.0.1", 0)
    try:
        await chat.say("ana", "/play freecell 1")
        with open(path, "r+b") as file:
            header = file.read(100)
            file.seek(0)
            file.write(b"\0" * 100)  # its header overwritten (a disk fault, a stray write)
        (answer,) = await chat.say("ana", "1a")
        assert answer.key == "error.busy"  # never "internal error", never acknowledged
        status, text = await get(server, "/readyz")
        assert status == 503 and text.startswith("database: ")
        assert str(tmp_path) not in text
        assert (await get(server, "/livez"))[0] == 200
        with open(path, "r+b") as file:
            file.write(header)  # repaired in place
        assert await get(server, "/readyz") == (200, "database: ok\n")
        await chat.say("ana", "1a")
        assert move_number(chat) == 1
    finally:
        await server.stop()
        await core.close()


async def test_a_database_that_cannot_be_written_turns_readiness_red(tmp_path):
    core, chat = await start(tmp_path / "tavolo.db")
    server = await HttpServer.start(core, "127.0.0.1", 0)
    try:
        await core.store.fetch("PRAGMA query_only = ON")  # every write now fails
        status, text = await get(server, "/readyz")
        assert status == 503 and text.startswith("database: cannot write")
        await core.store.fetch("PRAGMA query_only = OFF")
        assert await get(server, "/readyz") == (200, "database: ok\n")
    finally:
        await server.stop()
        await core.close()


def test_sqlite_reporting_a_damaged_file_is_busy_not_a_crash():
    for words in ("database disk image is malformed", "file is not a database"):
        assert isinstance(sqlite_error(sqlite3.DatabaseError(words)), StorageBusy)


async def test_the_database_check_reads_and_writes_on_either_backend(db_url: str):
    core = await open_core(db_url, "en", FakeClock(), renderer=fake_render, sweep_interval=None)
    try:
        assert await core.store.problem() is None
        version = await core.store.schema_version()
        assert await core.store.problem() is None
        assert await core.store.schema_version() == version  # the write changed nothing
    finally:
        await core.close()
