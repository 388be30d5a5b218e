"""``/forgetme confirm`` leaves no trace (issue 35, findings 2 and 3), on SQLite and PostgreSQL.

A player plays every kind of game (the six games, a daily, a race, a lobby joined and left, an
invitation, games in their private chat), then forgets: afterwards no column of any table (the
schema is read from the database, not listed here) holds their platform id or their name, no
page, replay or ETag served from a cache shows them, the log never carried their raw id, and
forgetting does not open a second ranked attempt at the day's daily."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render, play_out
from web_fakes import BASE, main_text, page, web_client

from bot import i18n, logs
from bot.app import open_core
from bot.core import Core
from bot.core.limits import Limits
from bot.features import replays
from bot.replies import Reply, Request
from bot.storage import Storage
from bot.storage.migrations.dialect import POSTGRES

#: the player: a platform id and a name no other value of the tests contains
ZORA = "731955024681"
NAME = "Zoraquintavalle"
GROUP = "-100555"
OTHER_GROUP = "-100777"


class Chat(FakePlatform):
    """A Telegram-like chat whose people have ids unlike their names (Zora's id is digits)."""

    def __init__(self, core: Core, chat_id: str) -> None:
        super().__init__(core, platform="telegram", chat_id=chat_id)

    def request(self, user: str, is_group: bool = True) -> Request:
        name = NAME if user == ZORA else user.capitalize()
        return Request(self.platform, self.chat_id, user, name, is_group, user in self.admins)


@pytest.fixture
async def limited_core(db_url: str, clock: FakeClock) -> AsyncIterator[Core]:
    """The bot with its rate limits on, high enough never to refuse a test: their buckets are
    stored per user and per chat."""
    core = await open_core(
        db_url,
        "en",
        clock,
        renderer=fake_render,
        sweep_interval=None,
        limits=Limits(10_000, 1e6, 10_000, 1e6),
    )
    core.service.web_base_url = BASE
    yield core
    await core.close()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The seat names of every replay GIF drawn (the GIF holds them); the cache starts empty."""
    seen: list[list[str]] = []

    def draw(game_id: str, deal: int, players: list[str], *args: Any, **style: Any) -> bytes:
        seen.append(list(players))
        return b"GIF89a" + json.dumps(players).encode()

    monkeypatch.setattr(replays, "draw_replay", draw)
    replays._cache.clear()
    yield seen
    replays._cache.clear()


async def columns(store: Storage) -> list[tuple[str, str]]:
    """(table, column) of every table of the database, read from its own catalogue."""
    if store.dialect == POSTGRES:
        rows = await store.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        )
        return [(str(t), str(c)) for t, c in rows]
    found = []
    tables = await store.fetch("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    for (table,) in tables:
        for row in await store.fetch(f"PRAGMA table_info({table})"):
            found.append((str(table), str(row[1])))
    return found


async def traces(store: Storage, *needles: str) -> list[str]:
    """``table.column`` of every column that holds one of ``needles`` anywhere in a value."""
    found = []
    for table, column in await columns(store):
        for needle in needles:
            rows = await store.fetch(
                f'SELECT COUNT(*) FROM {table} WHERE LOWER(CAST("{column}" AS TEXT)) LIKE ?',
                (f"%{needle.lower()}%",),
            )
            if rows[0][0]:
                found.append(f"{table}.{column} holds {needle}")
    return found


def keys(replies: list[Reply]) -> list[str]:
    return [r.key for r in replies]


async def play_everything(core: Core, group: Chat, other: Chat, private: Chat) -> str:
    """Zora plays every kind of game; returns the id of the table she shared with Bea."""
    # a casual game of every solo game, one move each where there is one, resigned
    for game in ("solitario", "canfield", "imaginary13", "squadratik", "freecell"):
        started = await group.say(ZORA, f"/play {game}")
        assert started[-1].board is not None, keys(started)
        await group.resign(ZORA)
    await group.say(ZORA, "/autofinish off")
    # both finish a daily (so the web page may name them) and Zora asks for her page
    for player in (ZORA, "bea"):
        assert (await group.say(player, "/daily imaginary13"))[0].key == "daily.started"
        await group.resign(player)
    await group.say(ZORA, "/web show")
    # a Cartas Maestras table with Bea, played to its end
    opened = await group.say(ZORA, "/challenge @bea")
    assert opened[0].key == "challenge.opened", keys(opened)
    await group.say("bea", "/join")
    await group.say(ZORA, "/start")
    await play_out(core, group)
    table_id = str(opened[-1].board.session_id)
    # a race with Bea, to its end
    group.core.features["races"].pick_deal = lambda: 1
    await group.say(ZORA, "/race 5")
    await group.say("bea", "/join")
    started = await group.say(ZORA, "/start")
    assert started[0].key == "race.started", keys(started)
    await group.say(ZORA, "/move d")
    await group.resign(ZORA)
    await group.resign("bea")
    assert await core.tick() == 1
    # a lobby Bea opens: Zora joins and leaves (her name stays with the lobby)
    await group.say("bea", "/challenge")
    assert keys(await group.say(ZORA, "/join"))[0] != "table.none"
    await group.leave(ZORA)
    # an invitation from Cid in another group, still open
    await other.say(ZORA, "/help")
    invited = await other.say("cid", f"/challenge @{NAME}")
    assert invited[0].mentions == [ZORA], invited[0].text
    # her private chat: a game, its language, its leaderboard link, a private hand message
    await private.say(ZORA, "/lang it", is_group=False)
    await private.say(ZORA, "/play canfield", is_group=False)
    await private.say(ZORA, "/leaderboard web", is_group=False)
    await core.remember_private_message("telegram", ZORA, "4242", GROUP)
    # a question she left unanswered: resigning the daily she practises below is asked first
    await group.say(ZORA, "/replay")
    return table_id


async def test_forgetting_leaves_no_trace_in_any_column_cache_or_log(
    limited_core: Core, clock: FakeClock, drawn: list[list[str]]
):
    core = limited_core
    group, other, private = Chat(core, GROUP), Chat(core, OTHER_GROUP), Chat(core, ZORA)
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(logs.JsonFormatter())
    logs._install_context_factory()
    logging.getLogger().addHandler(handler)
    level = logging.getLogger().level
    logging.getLogger().setLevel(logging.INFO)
    try:
        table_id = await play_everything(core, group, other, private)
        # the daily: ranked, resigned, then practised (a pending Yes/No question is left)
        started = await group.say(ZORA, "/daily freecell")
        assert started[0].key == "daily.started"
        await group.resign(ZORA)
        assert (await group.say(ZORA, "/daily freecell"))[0].key == "daily.casual_started"
        await group.say(ZORA, "/hint")
        # a line logged while her private chat's request is being handled names the chat
        await private.say(ZORA, "/help", is_group=False)
        logging.getLogger("tavolo.test").warning("a line while handling a request")
        assert '"chat_id": "' in written.getvalue().splitlines()[-1]

        before = await traces(core.store, ZORA, NAME)
        assert any(t.startswith("sessions.names") for t in before), before
        assert any(t.startswith("sessions.invited") for t in before), before
        assert any(t.startswith("rate_buckets.") for t in before), before
        # Bea's /replay of the table (the GIF names the seats) and its web page, both cached
        (gif,) = [r for r in await group.say("bea", "/replay maestras") if r.image]
        assert NAME in json.loads(gif.image[6:])
        async with web_client(core, clock) as client:
            status, html = await page(client, f"/replay/{table_id}")
            assert status == 200 and NAME in main_text(html)
            etag = (await client.get(f"/replay/{table_id}")).headers["ETag"]

            (done,) = await group.say(ZORA, "/forgetme confirm")
            assert done.key == "forgetme.done"
            assert await traces(core.store, ZORA, NAME) == []

            status, html = await page(client, f"/replay/{table_id}")
            assert status == 200 and NAME not in html and "a former player" in main_text(html)
            again = await client.get(f"/replay/{table_id}", headers={"If-None-Match": etag})
            assert again.status == 200 and NAME not in await again.text()
        (gif,) = [r for r in await group.say("bea", "/replay maestras") if r.image]
        assert NAME not in gif.image.decode("latin-1") and NAME not in gif.text
        assert not [key for key in replays._cache if NAME in repr(key)]
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger().setLevel(level)

    assert await traces(core.store, ZORA, NAME) == []
    assert ZORA not in written.getvalue() and NAME not in written.getvalue()
    # nothing in this process's memory still holds her (another process reloads: see below)
    for session in list(core.sessions._live.values()):
        assert ZORA not in session.record.players and ZORA not in session.record.names
        assert ZORA not in session.record.invited and session.record.creator != ZORA


async def test_a_copy_in_another_processes_memory_is_not_served_after_forgetting(
    db_url: str, clock: FakeClock
):
    first = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    second = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    try:
        one, two = Chat(first, GROUP), Chat(second, GROUP)
        await one.say("bea", "/challenge")
        await one.say(ZORA, "/join")
        await one.leave(ZORA)
        (lobby,) = [s for s in await first.store.fetch("SELECT id FROM sessions")]
        held = await second.sessions.get(lobby[0])  # the lobby in the second process's memory
        assert held is not None and ZORA in held.record.names
        await one.say(ZORA, "/play solitario")
        (solo,) = await first.store.fetch("SELECT id FROM sessions WHERE kind = 'solo'")
        assert await second.sessions.get(solo[0]) is not None
        assert (await one.say(ZORA, "/forgetme confirm"))[0].key == "forgetme.done"
        # the second process serves neither the deleted game nor the lobby's old names
        assert await second.sessions.get(solo[0]) is None
        fresh = await second.sessions.get(lobby[0])
        assert fresh is not None and ZORA not in fresh.record.names
        assert (await two.say("bea", "/join"))[0].key != "error.internal"
    finally:
        await first.close()
        await second.close()


async def test_forgetting_never_buys_a_second_ranked_daily(core: Core, clock: FakeClock):
    core.service.web_base_url = BASE
    group = Chat(core, GROUP)
    assert (await group.say(ZORA, "/daily freecell"))[0].key == "daily.started"
    await group.resign(ZORA)
    practice = await group.say(ZORA, "/daily freecell")
    assert practice[0].key == "daily.casual_started"
    await group.say(ZORA, "/hint")
    await group.say(ZORA, "/undo")
    await group.resign(ZORA)
    (done,) = await group.say(ZORA, "/forgetme confirm")
    assert done.key == "forgetme.done"
    # what is kept for the day names nobody
    assert await traces(core.store, ZORA, NAME) == []

    (again, board) = await group.say(ZORA, "/daily freecell")
    assert again.params["ranked"] is False
    assert again.key == "daily.forgotten_practice"
    # she was told when she forgot, and now, what she gets instead
    assert done.text.endswith(i18n.t("en", "forgetme.daily_kept"))
    assert again.text == i18n.t(
        "en", "daily.forgotten_practice", name=NAME, game="FreeCell", day="2025-03-14"
    )
    assert board.board is not None
    assert await core.store.fetch("SELECT COUNT(*) FROM daily_attempts") == [(0,)]
    # the day's page does not list her
    await group.resign(ZORA)
    async with web_client(core, clock) as client:
        status, html = await page(client, "/daily/freecell/2025-03-14")
        assert status == 200 and NAME not in html
    # she may play the deal freely now (it is no longer reserved for a ranked attempt)
    deal = (await core.store.daily.choice("freecell", "2025-03-14")).deal
    assert (await group.say(ZORA, f"/play freecell {deal}"))[0].key != "daily.deal_reserved"
    # in Spanish and Italian the player is told the same in their language
    for lang in ("es", "it"):
        assert i18n.t(lang, "daily.forgotten_practice", name=NAME, game="FreeCell", day="x") != (
            i18n.t("en", "daily.forgotten_practice", name=NAME, game="FreeCell", day="x")
        )


async def test_the_database_refuses_a_second_ranked_attempt_after_forgetting(
    limited_core: Core,
):
    """Two processes may race: the unique index, not a check in memory, keeps one attempt."""
    from bot.storage import AlreadyExists, DailyAttempt

    store = limited_core.store
    first = DailyAttempt("telegram", ZORA, "freecell", "2025-03-14", "s1", GROUP, "playing", "t")
    await store.daily.add_attempt(first)
    await store.web.forget_player("telegram", ZORA, "a former player", "2025-03-14")
    second = DailyAttempt("telegram", ZORA, "freecell", "2025-03-14", "s2", GROUP, "playing", "t")
    with pytest.raises(AlreadyExists):
        await store.daily.add_attempt(second)
    # another player, or the same player on another day or game, is not held back
    await store.daily.add_attempt(
        DailyAttempt("telegram", "bea", "freecell", "2025-03-14", "s3", GROUP, "playing", "t")
    )
    await store.daily.add_attempt(
        DailyAttempt("telegram", ZORA, "canfield", "2025-03-14", "s4", GROUP, "playing", "t")
    )


async def test_the_mark_of_a_ranked_daily_goes_once_the_day_after_is_over(
    core: Core, clock: FakeClock
):
    group = Chat(core, GROUP)
    assert (await group.say(ZORA, "/daily freecell"))[0].key == "daily.started"
    await group.resign(ZORA)
    await group.say(ZORA, "/forgetme confirm")
    marks = "SELECT COUNT(*) FROM daily_ranked"
    clock.advance(days=1)  # tomorrow (UTC): still kept
    await core.sweep()
    assert await core.store.fetch(marks) == [(1,)]
    clock.advance(days=1)  # the day after: the idle sweep lets it go
    await core.sweep()
    assert await core.store.fetch(marks) == [(0,)]


async def test_forgetting_from_a_direct_message_forgets_that_chat_too(limited_core: Core):
    """On Discord a direct-message channel has an id of its own: asked from there, /forgetme
    deletes that chat's rows too (its games, language, link and rate bucket)."""
    dm = FakePlatform(limited_core, platform="discord", chat_id="dm-5551234")
    await dm.say("zora", "/lang es", is_group=False)
    await dm.say("zora", "/play canfield", is_group=False)
    await dm.say("zora", "/leaderboard web", is_group=False)
    assert await traces(limited_core.store, "dm-5551234")
    (done,) = await dm.say("zora", "/forgetme confirm", is_group=False)
    assert done.key == "forgetme.done"
    assert await traces(limited_core.store, "dm-5551234", "zora") == []
