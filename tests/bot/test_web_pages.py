"""The web pages as a reader gets them: home, daily, player, replay and chat pages, the spoiler
rule, 404s in the reader's language, escaping, languages and dates, caching headers, and that
no page shows a platform user id or a chat."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from html import unescape
from pathlib import Path

import pytest
from core_fakes import FakeClock, fake_render
from PIL import Image
from web_fakes import BASE, GROUP, Person, links, main_text, page, web_client

import engine
from bot.app import open_core
from bot.core import Core
from bot.features.daily import DAILY_GAMES

TODAY = "2025-03-14"  # the FakeClock's day


@pytest.fixture
async def core(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Core]:
    """The pages on SQLite (the chat-side tests run on both backends)."""
    core = await open_core(
        f"sqlite:///{tmp_path / 'web.db'}", "en", clock, renderer=fake_render, sweep_interval=None
    )
    core.service.web_base_url = BASE
    yield core
    await core.close()


@pytest.fixture
async def three(core: Core) -> list[Person]:
    """Three players of today's Imaginary Thirteen: Ana 3 cards, Bob 1, Cid 2 (and a name that
    looks like HTML)."""
    people = [
        Person(core, "uid-1001", "Ana"),
        Person(core, "uid-1002", "Bob"),
        Person(core, "uid-1003", "<script>alert(1)</script>"),
    ]
    for person, cards in zip(people, (3, 1, 2), strict=True):
        await person.daily("imaginary13", cards)
    return people


def rows_of(html: str) -> list[list[str]]:
    """The ranking rows of a page: each row's cells as text."""
    body = html[html.find("<tbody>") : html.find("</tbody>")]
    return [
        [
            unescape(re.sub(r"<[^>]+>", "", cell.replace("<br>", "|"))).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


async def test_home_shows_every_games_daily_with_its_top_players_and_links(core: Core, three):
    async with web_client(core) as client:
        status, html = await page(client, "/")
    assert status == 200
    text = main_text(html)
    for game_id in DAILY_GAMES:  # every game with a daily, FreeCell included
        assert engine.game_info(game_id).names["en"] in text
    # one game's daily was played (the fixture's three players); nobody played the others
    nobody = text.count("Nobody has finished it yet today.")
    assert "3 players finished it" in text and nobody == len(DAILY_GAMES) - 1
    assert f'href="/daily/imaginary13/{TODAY}"' in html
    assert "/2025-03-13" not in html  # no challenge yesterday: no link to a missing page
    assert [row[1] for row in rows_of(html)] == ["Ana", "<script>alert(1)</script>", "Bob"]


async def test_a_daily_page_ranks_in_the_games_order_and_escapes_names(core: Core, three):
    async with web_client(core) as client:
        status, html = await page(client, f"/daily/imaginary13/{TODAY}")
    assert status == 200
    # Imaginary Thirteen: more cards first, then fewer moves
    assert [(r[0], r[1], r[2]) for r in rows_of(html)] == [
        ("1", "Ana", "3"),
        ("2", "<script>alert(1)</script>", "2"),
        ("3", "Bob", "1"),
    ]
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert len(links(html, "player")) == 3


async def test_the_deal_and_replays_wait_until_the_day_is_over(core: Core, clock: FakeClock, three):
    async with web_client(core) as client:
        _, html = await page(client, f"/daily/imaginary13/{TODAY}")
        assert links(html, "replay") == [] and "deal.png" not in html
        assert "The deal is shown once the day is over" in html
        assert (await client.get(f"/daily/imaginary13/{TODAY}/deal.png")).status == 404
        rows = await core.store.fetch("SELECT session_id FROM results WHERE player_id = 'uid-1001'")
        session_id = rows[0][0]
        status, replay = await page(client, f"/replay/{session_id}")
        assert status == 200 and "is shown once the challenge it belongs to is over" in replay
        assert ".png" not in replay and ".gif" not in replay
        assert (await client.get(f"/replay/{session_id}/1.png")).status == 404
        assert (await client.get(f"/replay/{session_id}.gif")).status == 404
    clock.advance(days=1)
    async with web_client(core, clock) as client:
        _, html = await page(client, f"/daily/imaginary13/{TODAY}")
        deal = (await core.store.daily.choice("imaginary13", TODAY)).deal
        assert f"Deal {deal}" in html and len(links(html, "replay")) == 3
        image = await client.get(f"/daily/imaginary13/{TODAY}/deal.png")
        assert image.status == 200 and image.content_type == "image/png"
        assert Image.open(io.BytesIO(await image.read())).width <= 1280
        _, home = await page(client, "/")
        assert f'href="/daily/imaginary13/{TODAY}"' in home  # yesterday's, with its deal
        # the new day's page holds its own deal back
        _, today = await page(client, "/daily/imaginary13/2025-03-15")
        assert "deal.png" not in today


async def test_a_replay_steps_through_every_move_with_images_and_the_animation(
    core: Core, clock: FakeClock, three
):
    clock.advance(days=1)
    async with web_client(core, clock) as client:
        _, html = await page(client, f"/daily/imaginary13/{TODAY}")
        first = links(html, "replay")[0]  # Ana's game: 3 cards played
        status, html = await page(client, f"/replay/{first}")
        moves = re.findall(
            r"<li>(?:<strong>|<a [^>]*>)([^<]+)<", html[html.find('class="moves"') :]
        )
        assert status == 200 and len(moves) >= 3
        total = len(moves)
        assert f"After move {total} of {total}: {moves[-1]}" in html  # the end, by default
        assert (
            f'rel="prev" href="/replay/{first}?step={total - 1}"' in html
            and 'rel="next"' not in html
        )
        status, html = await page(client, f"/replay/{first}?step=0")
        assert "The start, before the first of" in html and 'rel="prev"' not in html
        assert f'rel="next" href="/replay/{first}?step=1"' in html
        assert f'src="/replay/{first}/0.png"' in html and f'src="/replay/{first}.gif"' in html
        for step in (0, 1, total):
            image = await client.get(f"/replay/{first}/{step}.png")
            assert image.status == 200 and image.content_type == "image/png"
            assert (await image.read())[:4] == b"\x89PNG"
        gif = await client.get(f"/replay/{first}.gif")
        with Image.open(io.BytesIO(await gif.read())) as frames:
            assert frames.format == "GIF" and frames.n_frames == total + 1
        for bad in (f"?step={total + 1}", "?step=-1", "?step=two"):
            assert (await client.get(f"/replay/{first}{bad}")).status == 404
        assert (await client.get(f"/replay/{first}/{total + 1}.png")).status == 404


async def test_a_player_page_shows_games_streaks_and_recent_games(
    core: Core, clock: FakeClock, three
):
    ana = three[0]
    await ana.say("/play canfield")
    await ana.resign("/resign canfield")
    clock.advance(days=1)
    await ana.daily("imaginary13", 1)
    async with web_client(core, clock) as client:
        _, html = await page(client, "/daily/imaginary13/2025-03-15")
        (ana_id,) = links(html, "player")
        status, html = await page(client, f"/player/{ana_id}")
    assert status == 200
    text = main_text(html)
    assert "Ana" in text and "Daily streak: 2 days now, 2 days at best" in text
    games = {row[0].split("|")[0]: row[1:3] for row in rows_of(html)}
    assert games == {"Canfield": ["1", "0"], "Imaginary Thirteen": ["2", "0"]}
    bests = {row[0].split("|")[0]: row[0].split("|")[1] for row in rows_of(html)}
    assert bests["Imaginary Thirteen"] == "-"  # only resigned games: never a best (issue 26)
    assert text.count("Resigned") == 3
    # yesterday's daily and the Canfield game link their replays; today's daily does not yet
    assert len(links(html, "replay")) == 2


async def test_unknown_addresses_answer_404_in_the_readers_language(core: Core, three):
    (link,) = await three[0].say("/leaderboard web")
    boss = Person(core, "uid-1009", "Boss", admin=True)
    await boss.say("/leaderboard web new")  # the first link is revoked
    bad = [
        "/nothing/here",
        "/daily/poker/2025-03-14",
        "/daily/maestras/2025-03-14",
        "/daily/imaginary13/2025-02-30",
        "/daily/imaginary13/2099-01-01",
        "/daily/imaginary13/yesterday",
        "/daily/imaginary13/2025-03-13",
        "/daily/imaginary13/1999-03-14",
        "/daily/imaginary13/2025-3-14",
        "/player/nobody",
        "/player/uid-1001",
        "/replay/zzzzzzzz",
        "/replay/%3Cscript%3E",
        "/replay/zzzzzzzz/1.png",
        "/replay/zzzzzzzz.gif",
        f"/chat/{link.params['token']}",
        "/chat/" + "a" * 24,
        "/daily/imaginary13/2025-03-14/deal.png",
        "/favicon.ico",
        "/chat/x?period=year",
    ]
    async with web_client(core) as client:
        for path in bad:
            status, html = await page(client, path, lang="es-ES,es;q=0.9,en;q=0.5")
            assert status == 404, path
            assert "Página no encontrada" in html and 'lang="es"' in html, path
        status, html = await page(client, "/player/nobody?lang=it")
        assert status == 404 and "Pagina non trovata" in html


async def test_pages_follow_the_browser_language_and_the_lang_switch(core: Core, three):
    async with web_client(core) as client:
        _, italian = await page(client, f"/daily/imaginary13/{TODAY}", lang="it-IT,it;q=0.9")
        assert "Sfida del giorno" in italian or "sfida del giorno" in italian
        assert "14 marzo 2025" in italian  # Babel's date
        _, spanish = await page(client, f"/daily/imaginary13/{TODAY}?lang=es", lang="it")
        assert "desafío diario" in spanish and "14 de marzo de 2025" in spanish
        # a chosen language stays in the page's links
        assert f'href="/player/{links(spanish, "player")[0]}?lang=es"' in spanish
        assert f'href="/daily/imaginary13/{TODAY}?lang=it"' in spanish  # the switch
        _, english = await page(client, "/", lang="fr-FR,fr;q=0.9")
        assert "Today's daily challenges" in main_text(english) and "March 14, 2025" in english


async def test_pages_are_cached_briefly_with_an_etag(core: Core, three):
    async with web_client(core) as client:
        for path in ("/", f"/daily/imaginary13/{TODAY}", "/static/style.css"):
            response = await client.get(path)
            assert response.status == 200
            # a page is asked for again each time (a 304 when unchanged): a /web hide or a
            # revoked link shows at once; the stylesheet may be kept
            kept = "max-age=" if path.startswith("/static/") else "no-cache"
            assert kept in response.headers["Cache-Control"]
            assert "default-src 'none'" in response.headers["Content-Security-Policy"]
            etag = response.headers["ETag"]
            again = await client.get(path, headers={"If-None-Match": etag})
            assert again.status == 304 and await again.read() == b""
        (link,) = await three[0].say("/leaderboard web")
        response = await client.get(f"/chat/{link.params['token']}")
        assert response.headers["Cache-Control"].startswith("private")
        assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_no_page_shows_a_platform_user_id_or_the_chat(core: Core, clock: FakeClock, three):
    clock.advance(days=1)
    seen: set[str] = set()
    pending = ["/", f"/daily/imaginary13/{TODAY}"]
    async with web_client(core, clock) as client:
        while pending:
            path = pending.pop()
            if path in seen:
                continue
            seen.add(path)
            status, html = await page(client, path)
            assert status == 200, path
            assert "uid-100" not in html and GROUP not in html and "telegram" not in html.lower()
            pending += [f"/player/{p}" for p in links(html, "player")]
            pending += [f"/replay/{r}" for r in links(html, "replay")]
    assert len([p for p in seen if p.startswith("/player/")]) == 3
    assert len([p for p in seen if p.startswith("/replay/")]) == 3


async def test_a_player_without_a_daily_is_not_named_publicly(core: Core, clock: FakeClock):
    eve = Person(core, "uid-2001", "Eve")
    await eve.say("/play canfield")
    await eve.resign("/resign canfield")
    (row,) = await core.store.fetch("SELECT session_id FROM results WHERE player_id = 'uid-2001'")
    async with web_client(core) as client:
        assert (await client.get(f"/replay/{row[0]}")).status == 404
        _, html = await page(client, "/")
        assert "Eve" not in html


async def test_a_race_boards_replay_waits_for_the_round_to_end(core: Core, clock: FakeClock):
    ana, bea = Person(core, "uid-3001", "Ana"), Person(core, "uid-3002", "Bea")
    for person in (ana, bea):
        await person.daily("imaginary13", 0)  # both may be named publicly
    clock.advance(days=1)
    await ana.say("/race 5")
    await bea.say("/join")
    await ana.say("/start")
    await ana.resign()
    rows = await core.store.fetch("SELECT session_id FROM results WHERE game_id = 'solitario'")
    (board,) = [r[0] for r in rows]
    async with web_client(core, clock) as client:
        status, html = await page(client, f"/replay/{board}")
        assert status == 200 and "is shown once" in html and ".png" not in html
    await bea.resign()
    async with web_client(core, clock) as client:
        status, html = await page(client, f"/replay/{board}")
        assert status == 200 and f'src="/replay/{board}/' in html


async def test_odd_addresses_get_a_page_never_a_server_error(core: Core, three):
    odd = ["%00", "..%2F..%2Fetc%2Fpasswd", "é", "🂡", "a" * 300, "%3Cb%3E", "0", "-1", " ", "%25"]
    async with web_client(core) as client:
        for word in odd:
            for path in (
                f"/{word}",
                f"/daily/{word}/{TODAY}",
                f"/daily/imaginary13/{word}",
                f"/player/{word}",
                f"/replay/{word}",
                f"/replay/{word}/0.png",
                f"/chat/{word}",
                f"/replay/{word}?step={word}",
                f"/?lang={word}",
            ):
                response = await client.get(path)
                assert response.status in (200, 404), path
                assert response.content_type == "text/html", path


async def test_a_failure_while_building_a_page_gets_a_short_page_not_a_trace(
    core: Core, three, monkeypatch: pytest.MonkeyPatch
):
    from bot.web import pages

    async def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(pages, "home", broken)
    async with web_client(core) as client:
        status, html = await page(client, "/", lang="it")
    assert status == 503 and "Qualcosa è andato storto" in html
    assert "database" not in html and "Traceback" not in html


async def test_the_page_cache_keeps_a_bounded_number_of_bytes():
    from bot.web import PageCache

    cache = PageCache(entries=10, max_bytes=1000)

    async def value(size: int) -> bytes:
        return b"x" * size

    for index in range(6):
        await cache.get(("image", index), 60, lambda: value(300))
    assert cache.bytes <= 1000 and len(cache._kept) == 3  # the oldest went first
    assert ("image", 5) in cache._kept and ("image", 0) not in cache._kept
    await cache.get(("big",), 60, lambda: value(5000))  # served, never kept
    assert ("big",) not in cache._kept and cache.bytes <= 1000
    builds = []

    async def counted() -> bytes:
        builds.append(1)
        await asyncio.sleep(0.01)
        return b"page"

    # ten readers at once: one build
    await asyncio.gather(*(cache.get(("page",), 60, counted) for _ in range(10)))
    assert len(builds) == 1


async def test_pages_are_read_while_another_program_holds_the_write_lock(
    core: Core, three, tmp_path: Path
):
    import sqlite3

    locker = sqlite3.connect(tmp_path / "web.db", isolation_level=None)
    try:
        locker.execute("BEGIN IMMEDIATE")  # a backup, an operator's sqlite3: writes must wait
        async with web_client(core) as client:
            status, html = await page(client, f"/daily/imaginary13/{TODAY}")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    # the ranking is there; the players' page links wait until their ids can be stored
    assert status == 200
    assert [row[1] for row in rows_of(html)] == ["Ana", "<script>alert(1)</script>", "Bob"]
    assert links(html, "player") == []
    async with web_client(core) as client:
        _, html = await page(client, f"/daily/imaginary13/{TODAY}")
    assert len(links(html, "player")) == 3
