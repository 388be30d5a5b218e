"""``python -m bot.storage migrate-to URL``: an SQLite bot moves to PostgreSQL and carries on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from core_fakes import FakeClock, FakePlatform, fake_render
from every_table import every_row, play_in_every_table

from bot.app import open_core

ROOT = Path(__file__).resolve().parents[2]


async def test_an_sqlite_database_moves_to_postgresql_and_its_games_go_on(
    tmp_path: Path, pg_server
) -> None:
    sqlite_url = f"sqlite:///{tmp_path / 'old.db'}"
    clock = FakeClock()
    core = await open_core(sqlite_url, "en", clock, renderer=fake_render, sweep_interval=None)
    await play_in_every_table(core)
    before = await every_row(core.store)
    await core.close()
    # every table of the schema has rows to lose (a player's /web hide among them)
    assert all(before.values()), {t: len(r) for t, r in before.items()}

    target = await pg_server.fresh_database()
    done = subprocess.run(
        [sys.executable, "-m", "bot.storage", "migrate-to", target, "--from", sqlite_url],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "copied" in done.stdout

    core = await open_core(target, "en", clock, renderer=fake_render, sweep_interval=None)
    try:
        assert await every_row(core.store) == before
        assert await core.store.web.hidden("fake", "bob")  # /web hide survived the move
        chat = FakePlatform(core)
        moves = (await core.store.fetch("SELECT COUNT(*) FROM moves"))[0][0]
        replies = await chat.say("ana", "/move d")  # the game goes on, in Spanish
        assert any(r.board is not None for r in replies)
        assert (await core.store.fetch("SELECT COUNT(*) FROM moves"))[0][0] == moves + 1
        results = (await core.store.fetch("SELECT COUNT(DISTINCT id) FROM results"))[0][0]
        await chat.resign("ana")  # a new result gets the next id
        after = (await core.store.fetch("SELECT COUNT(DISTINCT id) FROM results"))[0][0]
        assert after == results + 1
    finally:
        await core.close()

    again = subprocess.run(
        [sys.executable, "-m", "bot.storage", "migrate-to", target, "--from", sqlite_url],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert again.returncode == 1
    assert "not empty" in again.stderr and "Traceback" not in again.stderr
