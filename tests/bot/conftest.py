"""Fixtures for the bot core tests: a core on a temporary database with a test clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render

from bot.core import Core


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tavolo.db'}"


@pytest.fixture
async def core(db_url: str, clock: FakeClock) -> AsyncIterator[Core]:
    core = await Core.create(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    yield core
    await core.close()


@pytest.fixture
def chat(core: Core) -> FakePlatform:
    return FakePlatform(core)
