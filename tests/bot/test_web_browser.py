"""Every page in a real browser (headless Chromium) at a phone's 390 px and a desktop's
1280 px, in English, Spanish and Italian: the page shows what it should, its images load, and
nothing is wider than the screen.

With ``TAVOLO_WEB_SCREENS=1`` in the environment, a screenshot of each page, language and width
lands in ``out/web-screens/`` to be looked at (``TAVOLO_WEB_SCREENS=1 .venv/bin/python -m pytest
tests/bot/test_web_browser.py``). ``make test`` takes none: 42 whole-page screenshots were a
third of this test's CPU, and no assertion reads them."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp import web
from chromium import browser
from core_fakes import FakeClock, FakePlatform, fake_render, play_out
from web_fakes import BASE, Person, links, page

from bot.app import open_core
from bot.web import setup_web

SCREENS = Path(__file__).resolve().parents[2] / "out" / "web-screens"
#: screenshots only when asked for (they are for people to look at; the asserts read the page)
TAKE_SCREENS = os.environ.get("TAVOLO_WEB_SCREENS", "") not in ("", "0")
WIDTHS = (390, 1280)
#: the words each page shows in each language (its heading), beside the players' names
HEADINGS = {
    "home": {
        "en": "Today's daily challenges",
        "es": "Desafíos diarios de hoy",
        "it": "Le sfide del giorno",
    },
    "daily": {"en": "daily challenge", "es": "desafío diario", "it": "sfida del giorno"},
    "player": {"en": "Ana", "es": "Ana", "it": "Ana"},
    "replay": {"en": "replay", "es": "repetición", "it": "replay"},
    "table": {"en": "replay", "es": "repetición", "it": "replay"},
    "chat": {
        "en": "This chat's leaderboards",
        "es": "Clasificaciones de este chat",
        "it": "Classifiche di questa chat",
    },
    "missing": {"en": "Page not found", "es": "Página no encontrada", "it": "Pagina non trovata"},
}


@dataclass
class Site:
    base: str
    paths: dict[str, str]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """A real server on a free port with yesterday's dailies played (deals and replays shown),
    a long name, a finished Cartas Maestras table and a chat link."""
    clock = FakeClock()
    core = await open_core(
        f"sqlite:///{tmp_path / 'site.db'}", "en", clock, renderer=fake_render, sweep_interval=None
    )
    core.service.web_base_url = BASE
    ana = Person(core, "uid-1001", "Ana")
    long = Person(core, "uid-1002", "Bartholomew-Alexandrovich Wolfeschlegelsteinhausen")
    await ana.daily("solitario", 25)
    await long.daily("solitario", 10)
    await ana.daily("imaginary13", 3)
    await ana.daily("squadratik", 4)
    chat = FakePlatform(core, platform="telegram", chat_id="group-9")
    await chat.say("ana", "/daily canfield")
    await chat.resign("ana")
    await chat.say("ana", "/challenge @bea")
    await chat.say("bea", "/join")
    await chat.say("ana", "/start")
    await play_out(core, chat)
    table_id = (await core.store.fetch("SELECT id FROM sessions WHERE kind = 'table'"))[0][0]
    (link,) = await ana.say("/leaderboard web")
    clock.advance(days=1)
    await ana.daily("solitario", 5)  # today's: listed, its deal held back
    app = web.Application()
    setup_web(app, core, clock)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    server = web.TCPSite(runner, "127.0.0.1", 0)
    await server.start()
    port = runner.addresses[0][1]
    base = f"http://127.0.0.1:{port}"
    from aiohttp import ClientSession

    async with ClientSession(base) as client:
        _, html = await page(client, "/daily/solitario/2025-03-14")  # type: ignore[arg-type]
        player = links(html, "player")[0]
        replay = links(html, "replay")[0]
    paths = {
        "home": "/",
        "daily": "/daily/solitario/2025-03-14",
        "player": f"/player/{player}",
        "replay": f"/replay/{replay}?step=1",
        "table": f"/replay/{table_id}",
        "chat": f"/chat/{link.params['token']}?period=week",
        "missing": "/daily/solitario/2099-01-01",
    }
    yield Site(base, paths)
    await runner.cleanup()
    await core.close()


@pytest.mark.slow
async def test_every_page_fits_a_phone_and_a_desktop_in_every_language(site: Site):
    async with browser() as tab:
        for lang in ("en", "es", "it"):
            for name, path in site.paths.items():
                joiner = "&" if "?" in path else "?"
                # one load per page and language, looked at in each width in turn (the
                # window resized: the page is laid out again, its media queries too)
                await tab.open(f"{site.base}{path}{joiner}lang={lang}", WIDTHS[0])
                for width in WIDTHS:
                    await tab.resize(width)
                    where = f"{name} {lang} {width}px"
                    heading = await tab.evaluate("document.querySelector('h1').innerText")
                    assert HEADINGS[name][lang].lower() in heading.lower(), where
                    assert await tab.evaluate("document.documentElement.lang") == lang, where
                    fits = await tab.evaluate(
                        "document.documentElement.scrollWidth <= window.innerWidth"
                    )
                    assert fits, where
                    images = await tab.evaluate(
                        "Array.from(document.images).filter(i => i.loading !== 'lazy')"
                        ".map(i => i.complete && i.naturalWidth > 0 && "
                        "i.getBoundingClientRect().right <= window.innerWidth + 0.5)"
                    )
                    assert all(images), where
                    if name in ("daily", "replay", "table"):
                        assert images, where  # the deal, the board after a move
                    if TAKE_SCREENS:
                        await tab.screenshot(SCREENS / f"{name}-{lang}-{width}.png")
            # the long name wraps inside the screen instead of widening the page
            await tab.open(f"{site.base}{site.paths['daily']}?lang={lang}", 390)
            text = await tab.evaluate("document.querySelector('main').innerText")
            assert "Wolfeschlegelsteinhausen" in text


async def test_links_on_a_phone_are_big_enough_to_tap(site: Site):
    async with browser() as tab:
        await tab.open(f"{site.base}{site.paths['replay']}", 390)
        heights = await tab.evaluate(
            "Array.from(document.querySelectorAll('.pager a, .button, .langs a'))"
            ".map(a => a.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 40
