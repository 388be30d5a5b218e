"""The web pages through the bot's own HTTP server (``bot.http``, the one with ``/healthz`` and
``/metrics``): it adds them when it starts, on the same port."""

from __future__ import annotations

from aiohttp import ClientSession
from web_fakes import BASE, Person, links

from bot.core import Core
from bot.http import HttpServer


async def test_the_bots_http_server_serves_the_pages_beside_healthz(core: Core):
    core.service.web_base_url = BASE
    await Person(core, "uid-4001", "Ana").daily("imaginary13", 1)
    server = await HttpServer.start(core, "127.0.0.1", 0)
    try:
        async with ClientSession(f"http://127.0.0.1:{server.port}") as client:
            async with client.get("/healthz") as response:
                assert response.status == 200
            async with client.get("/", headers={"Accept-Language": "it"}) as response:
                home = await response.text()
                assert response.status == 200 and "Le sfide del giorno" in home
            async with client.get("/daily/imaginary13/2025-03-14") as response:
                daily = await response.text()
                assert response.status == 200 and "Ana" in daily and links(daily, "player")
            async with client.get("/no/such/page") as response:
                assert response.status == 404 and "Page not found" in await response.text()
    finally:
        await server.stop()
