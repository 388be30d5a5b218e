"""The web page from the chat, on SQLite and PostgreSQL: the links replies carry, a chat's
private leaderboards link and its revocation, ``/web hide`` and ``/forgetme``."""

from __future__ import annotations

import json

from core_fakes import FakeClock, FakePlatform, play_out
from web_fakes import BASE, Person, links, main_text, page, web_client

from bot.core import Core
from bot.storage import ChatKey


def web_on(core: Core) -> Core:
    core.service.web_base_url = BASE
    return core


async def test_replies_carry_no_link_while_the_web_page_is_off(core: Core):
    ana = Person(core, "uid-1001", "Ana")
    verdict = await ana.daily("imaginary13", 0)
    accepted = next(r for r in verdict if r.key == "daily.accepted")
    assert "http" not in accepted.text
    assert [r.key for r in await ana.say("/leaderboard")] == ["leaderboard.text"]
    assert "http" not in (await ana.say("/stats"))[0].text
    (off,) = await ana.say("/leaderboard web")
    assert off.key == "web.off" and off.is_private


async def test_the_daily_result_leaderboard_and_stats_link_to_their_pages(core: Core):
    web_on(core)
    ana = Person(core, "uid-1001", "Ana")
    verdict = await ana.daily("imaginary13", 1)
    accepted = next(r for r in verdict if r.key == "daily.accepted")
    assert accepted.text.endswith(f"{BASE}/daily/imaginary13/2025-03-14")
    # global: the day's page of the game asked for, or the home page for every game
    table, link = await ana.say("/leaderboard imaginary13 global")
    assert table.key == "leaderboard.text" and link.text.endswith(
        f"{BASE}/daily/imaginary13/2025-03-14"
    )
    assert (await ana.say("/leaderboard global"))[-1].text.endswith(f"{BASE}/")
    # this chat: how to get its private link, then the link itself once it exists
    assert (await ana.say("/leaderboard"))[-1].key == "web.link.ask"
    (given,) = await ana.say("/leaderboard web")
    token = given.params["token"]
    assert f"{BASE}/chat/{token}" in given.text
    assert (await ana.say("/leaderboard week"))[-1].text.endswith(
        f"{BASE}/chat/{token}?period=week"
    )
    # /stats: the player's page (public: Ana finished a daily)
    stats = (await ana.say("/stats"))[0].text
    async with web_client(core) as client:
        status, html = await page(client, "/daily/imaginary13/2025-03-14")
        (public_id,) = links(html, "player")
        assert stats.endswith(f"{BASE}/player/{public_id}")
        assert (await client.get(f"/player/{public_id}")).status == 200


async def test_a_chat_link_shows_the_chat_and_an_admin_revokes_it_for_a_new_one(core: Core):
    web_on(core)
    ana = Person(core, "uid-1001", "Ana")
    boss = Person(core, "uid-1002", "Boss", admin=True)
    stranger = Person(core, "uid-1003", "Zed", chat_id="another-chat")
    await ana.daily("imaginary13", 1)
    (first,) = await ana.say("/leaderboard web")
    (again,) = await ana.say("/leaderboard web")
    assert again.params["token"] == first.params["token"]  # one live link per chat
    assert (await stranger.say("/leaderboard web"))[0].params["token"] != first.params["token"]
    (refused,) = await ana.say("/leaderboard web new")
    assert refused.key == "web.admins_only" and refused.is_private
    (bad,) = await boss.say("/leaderboard web please")
    assert bad.key == "web.leaderboard_usage"
    async with web_client(core) as client:
        status, html = await page(client, f"/chat/{first.params['token']}")
        assert status == 200 and "Ana" in main_text(html)
        (renewed,) = await boss.say("/leaderboard web new")
        assert renewed.key == "web.chat_link_new"
        new_token = renewed.params["token"]
        assert new_token != first.params["token"] and len(new_token) >= 24
        status, html = await page(client, f"/chat/{first.params['token']}?period=week")
        assert status == 404 and "Page not found" in html
        status, html = await page(client, f"/chat/{new_token}?period=all")
        assert status == 200 and "Ana" in main_text(html)
    assert (await ana.say("/leaderboard web"))[0].params["token"] == new_token


async def test_web_hide_takes_a_player_off_public_pages_but_not_their_chats_page(core: Core):
    web_on(core)
    ana = Person(core, "uid-1001", "Ana")
    bob = Person(core, "uid-1002", "Bob")
    await ana.daily("imaginary13", 2)
    await bob.daily("imaginary13", 1)
    (link,) = await ana.say("/leaderboard web")
    async with web_client(core) as client:
        _, html = await page(client, "/daily/imaginary13/2025-03-14")
        ana_id, bob_id = links(html, "player")
    (hidden,) = await ana.say("/web hide")
    assert hidden.key == "web.hidden" and hidden.is_private
    assert (await ana.say("/web"))[0].key == "web.you_are_hidden"
    assert "http" not in (await ana.say("/stats"))[0].text
    async with web_client(core) as client:  # a new server: no page kept from before
        for path in ("/", "/daily/imaginary13/2025-03-14"):
            status, html = await page(client, path)
            assert status == 200 and "Ana" not in html and "Bob" in html
        assert (await client.get(f"/player/{ana_id}")).status == 404
        assert (await client.get(f"/player/{bob_id}")).status == 200
        _, html = await page(client, f"/chat/{link.params['token']}")
        assert "Ana" in main_text(html)  # her own chat's page keeps her
    assert (await ana.say("/web show"))[0].key == "web.shown"
    async with web_client(core) as client:
        assert (await client.get(f"/player/{ana_id}")).status == 200
    (usage,) = await ana.say("/web now")
    assert usage.key == "web.usage"


async def test_web_gives_a_page_only_after_a_daily(core: Core):
    web_on(core)
    cid = Person(core, "uid-1005", "Cid")
    assert (await cid.say("/web"))[0].key == "web.no_page"
    await cid.daily("canfield", 0)
    (mine,) = await cid.say("/web")
    assert mine.key == "web.link.player" and mine.is_private and f"{BASE}/player/" in mine.text


async def test_forgetme_asks_first_then_deletes_and_keeps_shared_games_whole(
    core: Core, clock: FakeClock
):
    web_on(core)
    chat = FakePlatform(core, platform="telegram", chat_id=GROUP_TABLE)
    await chat.say("ana", "/daily imaginary13")
    await chat.resign("ana")
    await chat.say("ana", "/play canfield")
    await chat.say("ana", "/autofinish off")
    # a finished table Ana shared with Bea
    await chat.say("ana", "/challenge @bea")
    await chat.say("bea", "/join")
    await chat.say("ana", "/start")
    await play_out(core, chat)
    (table_id,) = [
        r[0] for r in await core.store.fetch("SELECT id FROM sessions WHERE kind = 'table'")
    ]
    await chat.say("bea", "/daily imaginary13")
    await chat.resign("bea")

    (ask,) = await chat.say("ana", "/forgetme")
    assert ask.key == "forgetme.ask" and ask.is_private and "/forgetme confirm" in ask.text
    (wrong,) = await chat.say("ana", "/forgetme yes")
    assert wrong.key == "forgetme.usage"
    assert await core.store.fetch(
        "SELECT COUNT(*) FROM daily_attempts WHERE player_id = 'ana'"
    ) == [(1,)]
    assert (await core.store.fetch("SELECT COUNT(*) FROM focus WHERE player_id = 'ana'"))[0][0] > 0
    (done,) = await chat.say("ana", "/forgetme confirm")
    assert done.key == "forgetme.done"

    for sql in (
        "SELECT COUNT(*) FROM sessions WHERE creator = 'ana' OR players LIKE '%\"ana\"%'",
        "SELECT COUNT(*) FROM results WHERE player_id = 'ana'",
        "SELECT COUNT(*) FROM daily_attempts WHERE player_id = 'ana'",
        "SELECT COUNT(*) FROM ratings WHERE player_id = 'ana'",
        "SELECT COUNT(*) FROM player_settings WHERE user_id = 'ana'",
        "SELECT COUNT(*) FROM players WHERE user_id = 'ana'",
        "SELECT COUNT(*) FROM web_players WHERE user_id = 'ana'",
        "SELECT COUNT(*) FROM moves WHERE player = 'ana'",
        "SELECT COUNT(*) FROM focus WHERE player_id = 'ana'",
        "SELECT COUNT(*) FROM confirmations WHERE player_id = 'ana'",
    ):
        assert await core.store.fetch(sql) == [(0,)], sql
    # the shared table is whole: two seats, both results, every move, Bea's rating
    table = await core.store.sessions.get(table_id)
    assert len(table.players) == 2 and "bea" in table.players
    former = next(p for p in table.players if p != "bea")
    assert former.startswith("former:") and table.names[former] == "a former player"
    places = await core.store.fetch(
        "SELECT player_id, place FROM results WHERE session_id = ?", (table_id,)
    )
    assert sorted(p for p, _ in places) == sorted(["bea", former])
    assert await core.store.ratings.get("telegram", "*", "maestras", "bea") is not None
    # Bea's replay of the table names the seat "a former player", in the reader's language
    async with web_client(core, clock) as client:
        status, html = await page(client, f"/replay/{table_id}", lang="es")
        assert status == 200 and "un antiguo jugador" in main_text(html)
        assert "Bea" in main_text(html)
        # Bea's page: her table rating, the number /stats shows
        (bea_page,) = links(html, "player")
        _, html = await page(client, f"/player/{bea_page}")
        rating = await core.store.ratings.get("telegram", "*", "maestras", "bea")
        shown = round((rating.mu - 3 * rating.sigma) * 10)
        assert f"Cartas Maestras rating: {shown} over 1 table" in main_text(html)
    # /stats of Ana now knows nothing of her
    assert (await chat.say("ana", "/stats"))[0].key == "stats.none"


async def test_forgetme_refuses_while_the_player_sits_at_an_open_table(core: Core):
    chat = FakePlatform(core)
    await chat.say("ana", "/challenge @bea")
    await chat.say("bea", "/join")
    (refused,) = await chat.say("bea", "/forgetme confirm")
    assert refused.key == "forgetme.at_table"
    table = json.loads((await core.store.fetch("SELECT players FROM sessions"))[0][0])
    assert table == ["ana", "bea"]


GROUP_TABLE = "group-77"


async def test_two_processes_making_a_chats_first_link_at_once_give_the_same_link(core: Core):
    import asyncio

    made = await asyncio.gather(
        *(
            core.store.web.chat_link_made("telegram", "g-5", "2025-03-14T12:00:00+00:00")
            for _ in range(4)
        )
    )
    assert len(set(made)) == 1
    assert await core.store.web.chat_of_link(made[0]) == ChatKey("telegram", "g-5")
