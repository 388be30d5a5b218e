"""Each game's own deal numbers (``GameInfo.deals``): FreeCell's are Microsoft's 1-1,000,000.
``/play <game> <deal>`` takes any of them and refuses the others in the chat's language;
random deals and the daily's candidates stay inside them."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

import engine
from bot.core.commands import random_deal
from bot.features.daily import candidates


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "FreeCell has no deal 1000001: its deals go from 1 to 1,000,000."),
        ("es", "FreeCell no tiene el reparto 1000001: sus repartos van del 1 al 1.000.000."),
        ("it", "FreeCell non ha la smazzata 1000001: le sue smazzate vanno da 1 a 1.000.000."),
    ],
)
async def test_a_deal_outside_the_games_own_is_refused_in_the_chats_language(chat, lang, words):
    chat.admins.add("admin")
    await chat.say("admin", f"/lang {lang}")
    (refusal,) = await chat.say("ana", "/play freecell 1000001")
    assert refusal.key == "play.deal_out_of_range" and refusal.is_private
    assert refusal.text == words
    assert await chat.core.store.fetch("SELECT COUNT(*) FROM sessions") == [(0,)]


async def test_microsofts_numbers_start_the_deal_players_quote(chat):
    await chat.say("ana", "/play freecell 11982")
    await chat.say("bob", "/play freecell 1000000")
    rows = await chat.core.store.fetch("SELECT creator, deal FROM sessions ORDER BY creator")
    assert [tuple(row) for row in rows] == [("ana", 11982), ("bob", 1_000_000)]


def test_random_deals_and_the_dailys_candidates_stay_in_each_games_range():
    for game_id, cls in engine.GAMES.items():
        deals = cls.info.deals
        assert all(random_deal(game_id) in deals for _ in range(200)), game_id
        if cls.info.daily is None:
            continue
        for offset in range(30):
            day = date(2026, 11, 1) + timedelta(days=offset)
            stream = candidates(game_id, day)
            assert all(next(stream) in deals for _ in range(10)), (game_id, day)
    freecell = candidates("freecell", date(2026, 11, 25))
    assert max(next(freecell) for _ in range(200)) <= 1_000_000
