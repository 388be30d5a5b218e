"""The bot's HTTP server (issue 27): /healthz says whether the database and every configured
platform answer, /metrics serves the core's own Prometheus registry."""

from __future__ import annotations

import asyncio
import sys
import types
from pathlib import Path

import aiohttp
import pytest
from core_fakes import FakeClock, FakePlatform, fake_render

from bot.app import open_core
from bot.core import Core
from bot.http import HttpServer


@pytest.fixture
async def sqlite_core(tmp_path: Path):
    core = await open_core(
        f"sqlite:///{tmp_path / 't.db'}",
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
    )
    yield core
    await core.close()


async def get(server: HttpServer, path: str) -> tuple[int, str]:
    url = f"http://127.0.0.1:{server.port}{path}"
    async with aiohttp.ClientSession() as client, client.get(url) as response:
        return response.status, await response.text()


async def test_healthz_is_200_when_the_database_answers_and_503_naming_a_down_platform(
    sqlite_core: Core,
):
    server = await HttpServer.start(sqlite_core, "127.0.0.1", 0)
    try:
        assert await get(server, "/healthz") == (200, "database: ok\n")
        connected = {"telegram": None}
        sqlite_core.platform_status["telegram"] = lambda: connected["telegram"]
        sqlite_core.platform_status["discord"] = lambda: None
        assert (await get(server, "/healthz"))[0] == 200
        connected["telegram"] = "not polling"
        status, text = await get(server, "/healthz")
        assert (status, text) == (503, "database: ok\ndiscord: ok\ntelegram: not polling\n")
        assert await get(server, "/readyz") == (status, text)  # /healthz is its old name
        assert await get(server, "/livez") == (200, "ok\n")  # a platform down: still alive
    finally:
        await server.stop()


async def test_healthz_is_503_when_the_database_is_closed(tmp_path: Path):
    core = await open_core(
        f"sqlite:///{tmp_path / 't.db'}",
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
    )
    server = await HttpServer.start(core, "127.0.0.1", 0)
    try:
        await core.store.close()
        status, text = await get(server, "/healthz")
        assert status == 503 and text.startswith("database: ")
        assert str(tmp_path) not in text  # names the kind of failure, not where
        assert await get(server, "/livez") == (200, "ok\n")  # the database down: still alive
    finally:
        await server.stop()


async def test_the_server_listens_on_localhost_only_by_default(sqlite_core: Core):
    server = await HttpServer.start(sqlite_core, port=0)
    try:
        (site,) = server.runner.sites
        assert site._server.sockets[0].getsockname()[0] == "127.0.0.1"
    finally:
        await server.stop()


async def test_metrics_count_commands_by_name_and_outcome_and_time_the_replies(sqlite_core: Core):
    chat = FakePlatform(sqlite_core)
    await chat.say("ana", "/help")
    await chat.say("ana", "/help")
    await chat.say("ana", "/play canfield 7")
    await chat.say("ana", "/move zz")  # refused: not a move
    await chat.say("ana", "/nosuchcommand")
    server = await HttpServer.start(sqlite_core, "127.0.0.1", 0)
    try:
        status, text = await get(server, "/metrics")
    finally:
        await server.stop()
    assert status == 200
    assert 'tavolo_commands_total{command="help",outcome="ok"} 2.0' in text
    assert 'tavolo_commands_total{command="play",outcome="ok"} 1.0' in text
    assert 'tavolo_commands_total{command="move",outcome="refused"} 1.0' in text
    assert 'tavolo_commands_total{command="unknown",outcome="refused"} 1.0' in text
    assert "nosuchcommand" not in text  # labels are bounded: what a player typed stays out
    # reply times by command and platform, with buckets up to a minute
    assert 'tavolo_reply_seconds_count{command="help",platform="fake"} 2.0' in text
    assert 'tavolo_reply_seconds_count{command="unknown",platform="fake"} 1.0' in text
    assert 'tavolo_reply_seconds_bucket{command="help",le="60.0",platform="fake"} 2.0' in text
    assert "tavolo_live_sessions 1.0" in text
    assert 'tavolo_render_seconds_count{game="canfield"} 1.0' in text  # the board of /play
    assert "tavolo_database_wait_seconds_count" in text
    # the process and Python, and which build this is
    assert "process_resident_memory_bytes" in text and "python_info{" in text
    assert 'tavolo_build_info{commit="' in text and 'version="0.1.0"' in text


async def test_metrics_count_finished_games_by_game(sqlite_core: Core):
    chat = FakePlatform(sqlite_core)
    await chat.say("ana", "/play canfield 7")
    await chat.say("ana", "/resign")
    await chat.say("bea", "/play squadratik 3")
    await chat.say("bea", "/resign")
    text = sqlite_core.metrics.exposition().decode()
    assert 'tavolo_games_finished_total{game="canfield"} 1.0' in text
    assert 'tavolo_games_finished_total{game="squadratik"} 1.0' in text
    assert "tavolo_live_sessions 0.0" in text


async def test_two_cores_count_apart(tmp_path: Path):
    cores = [
        await open_core(
            f"sqlite:///{tmp_path / f'{n}.db'}",
            "en",
            FakeClock(),
            renderer=fake_render,
            sweep_interval=None,
        )
        for n in range(2)
    ]
    try:
        await FakePlatform(cores[0]).say("ana", "/help")
        assert b'command="help"' in cores[0].metrics.exposition()
        assert b'command="help"' not in cores[1].metrics.exposition()
    finally:
        for core in cores:
            await core.close()


async def test_the_web_pages_are_added_when_bot_web_exists(
    sqlite_core: Core, monkeypatch: pytest.MonkeyPatch
):
    seen = []

    def setup_web(app, core):
        seen.append(core)

        async def page(request):
            from aiohttp import web

            return web.Response(text="a page")

        app.router.add_get("/", page)

    if "bot.web" not in sys.modules:
        fake = types.ModuleType("bot.web")
        fake.setup_web = setup_web  # type: ignore[attr-defined]
        fake.__spec__ = types.SimpleNamespace(name="bot.web")  # type: ignore[assignment]
        monkeypatch.setitem(sys.modules, "bot.web", fake)
    else:
        monkeypatch.setattr(sys.modules["bot.web"], "setup_web", setup_web)
    server = await HttpServer.start(sqlite_core, "127.0.0.1", 0)
    try:
        assert seen == [sqlite_core]
        assert await get(server, "/") == (200, "a page")
        assert (await get(server, "/healthz"))[0] == 200
    finally:
        await server.stop()
    await asyncio.sleep(0)


async def test_the_real_pages_and_the_health_endpoints_share_one_server(sqlite_core: Core):
    server = await HttpServer.start(sqlite_core, "127.0.0.1", 0)
    try:
        assert (await get(server, "/healthz")) == (200, "database: ok\n")
        status, text = await get(server, "/metrics")
        assert status == 200 and "tavolo_commands_total" in text
        assert (await get(server, "/"))[0] == 200  # bot.web's home page
    finally:
        await server.stop()


async def test_database_errors_are_counted_by_kind_and_a_duplicate_is_not_an_error(
    sqlite_core: Core,
):
    assert await sqlite_core.first_delivery("telegram", 1)
    assert not await sqlite_core.first_delivery("telegram", 1)  # asked twice: an answer
    await sqlite_core.store.fetch("PRAGMA query_only = ON")  # writes now fail: busy
    chat = FakePlatform(sqlite_core)
    (answer,) = await chat.say("ana", "/play canfield 7")
    assert answer.key == "error.busy"
    await sqlite_core.store.fetch("PRAGMA query_only = OFF")
    text = sqlite_core.metrics.exposition().decode()
    assert 'tavolo_database_errors_total{kind="busy"}' in text
    assert 'tavolo_database_errors_total{kind="error"}' not in text
    assert 'tavolo_commands_total{command="play",outcome="busy"} 1.0' in text
