"""Fixtures for the bot core tests: a core on a temporary database with a test clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from core_fakes import DrawSpy, FakeClock, FakePlatform, fake_render

import renderer
from bot.app import open_core
from bot.core import Core
from bot.features import replays


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["sqlite", "postgres"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Every core test runs on both backends: an SQLite file, and a fresh PostgreSQL database
    (given back when the test is done, for a later test to have emptied)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tavolo.db'}"
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
