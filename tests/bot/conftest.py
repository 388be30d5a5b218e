"""Fixtures for the bot core tests: a core on a temporary database with a test clock."""

from __future__ import annotations

import asyncio
import concurrent.futures
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from core_fakes import DrawSpy, FakeClock, FakePlatform, fake_render

import renderer
from bot.app import open_core
from bot.core import Core
from bot.features import replays
from bot.storage import Storage


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite database migrated once per test process: each test gets a copy of the file,
    which is the database migrating a new file gives, at a fraction of the cost (the
    migrations' writes and their waits on the disk, per test)."""
    path = tmp_path_factory.mktemp("sqlite-template") / "tavolo.db"

    async def migrate() -> None:
        store = await Storage.open(f"sqlite:///{path}")
        await store.close()

    # in a thread of its own: the fixture may be set up from inside a running event loop
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, migrate()).result(timeout=120)
    # closed cleanly, the database is this one file (no write-ahead log left beside it)
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture(params=["sqlite", "postgres"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Every core test runs on both backends: an SQLite file (a copy of the migrated
    template), and a fresh PostgreSQL database (given back when the test is done, for a later
    test to have emptied)."""
    if request.param == "sqlite":
        path = tmp_path / "tavolo.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    server = request.getfixturevalue("pg_server")
    url = await server.fresh_database()
    yield url
    server.give_back(url)


@pytest.fixture
async def core(db_url: str, clock: FakeClock) -> AsyncIterator[Core]:
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    yield core
    await core.close()


@pytest.fixture
def chat(core: Core) -> FakePlatform:
    return FakePlatform(core)


@pytest.fixture
def draw_spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[DrawSpy]:
    """``renderer.draw`` replaced by a spy inside replays (and their cache emptied)."""
    spy = DrawSpy()
    monkeypatch.setattr(renderer, "draw", spy)
    replays._cache.clear()
    yield spy
    replays._cache.clear()
