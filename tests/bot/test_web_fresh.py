"""What the web pages keep never outlives a change (issue 35): after ``/leaderboard web new``
or ``/web hide`` in one process, every process's next answer is without it, whatever page
it kept in memory and whatever ``ETag`` the reader sends; and no link on any page leads off
the site, whatever address was typed. On SQLite and PostgreSQL, two processes on one
database."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack

import pytest
from aiohttp.test_utils import TestClient
from core_fakes import FakeClock, fake_render
from web_fakes import BASE, Person, links, main_text, page, web_client
from yarl import URL

from bot.app import open_core
from bot.core import Core

DAY = "/daily/imaginary13/2025-03-14"


@pytest.fixture
async def second(db_url: str, clock: FakeClock) -> AsyncIterator[Core]:
    """Another bot process on the same database."""
    other = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    yield other
    await other.close()


async def _clients(stack: AsyncExitStack, *cores: Core) -> list[TestClient]:
    return [await stack.enter_async_context(web_client(c)) for c in cores]


async def test_a_revoked_chat_link_is_gone_at_once_in_every_process(core: Core, second: Core):
    core.service.web_base_url = BASE
    ana = Person(core, "uid-1001", "Ana")
    boss = Person(core, "uid-1002", "Boss", admin=True)
    await ana.daily("imaginary13", 1)
    (link,) = await ana.say("/leaderboard web")
    old = f"/chat/{link.params['token']}"
    async with AsyncExitStack() as stack:
        clients = await _clients(stack, core, second)
        etags = []
        for client in clients:  # each process builds the page and keeps it
            response = await client.get(old)
            assert response.status == 200 and "Ana" in main_text(await response.text())
            assert "no-cache" in response.headers["Cache-Control"]
            etags.append(response.headers["ETag"])
        await boss.say("/leaderboard web new")  # in the first process
        for client, etag in zip(clients, etags, strict=True):
            assert (await client.get(old)).status == 404
            again = await client.get(old, headers={"If-None-Match": etag})
            assert again.status == 404 and "Ana" not in await again.text()


async def test_web_hide_takes_effect_on_the_next_request_in_every_process(core: Core, second: Core):
    ana, bob = Person(core, "uid-1001", "Ana"), Person(core, "uid-1002", "Bob")
    await ana.daily("imaginary13", 2)
    await bob.daily("imaginary13", 1)
    async with AsyncExitStack() as stack:
        clients = await _clients(stack, core, second)
        kept = []
        for client in clients:
            response = await client.get(DAY)
            html = await response.text()
            assert "Ana" in main_text(html)
            ana_id = links(html, "player")[0]
            assert (await client.get(f"/player/{ana_id}")).status == 200
            kept.append((response.headers["ETag"], ana_id))
        await ana.say("/web hide")
        for client, (etag, ana_id) in zip(clients, kept, strict=True):
            response = await client.get(DAY, headers={"If-None-Match": etag})
            assert response.status == 200  # not 304: the page changed
            assert "Ana" not in main_text(await response.text())
            assert "Bob" in main_text(await response.text())
            assert (await client.get(f"/player/{ana_id}")).status == 404
        await ana.say("/web show")
        for client, (_, ana_id) in zip(clients, kept, strict=True):
            assert (await client.get(f"/player/{ana_id}")).status == 200


async def test_a_page_that_did_not_change_is_still_a_304(core: Core):
    ana = Person(core, "uid-1001", "Ana")
    await ana.daily("imaginary13", 1)
    async with web_client(core) as client:
        response = await client.get(DAY)
        again = await client.get(DAY, headers={"If-None-Match": response.headers["ETag"]})
        assert again.status == 304


@pytest.mark.parametrize(
    "path",
    [
        "//evil.example/x",
        "///evil.example/x",
        "/\\evil.example/x",
        "/%5Cevil.example",
        "/%09/evil.example",
        "//evil.example/daily/imaginary13/2025-03-14",
    ],
)
async def test_no_link_on_a_page_leads_off_the_site(core: Core, path: str):
    async with web_client(core) as client:
        url = URL(str(client.make_url("/")).rstrip("/") + path, encoded=True)
        response = await client.session.get(url, headers={"Accept-Language": "en"})
        html = await response.text()
    assert response.status == 404 and "Page not found" in html
    hrefs = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert hrefs and any("lang=es" in h for h in hrefs)  # the language links are there
    for href in hrefs:
        # a path on this site: one slash, no backslash or blank a browser would read as one
        assert href.startswith("/") and not href.startswith("//"), href
        assert "\\" not in href and not re.search(r"\s", href), href
        assert URL(href).host is None, href


async def test_the_language_links_keep_a_normal_address(core: Core):
    ana = Person(core, "uid-1001", "Ana")
    await ana.daily("imaginary13", 1)
    async with web_client(core) as client:
        _, html = await page(client, DAY)
    assert f'href="{DAY}?lang=es"' in html
