"""Daily streaks across UTC midnight (a fake clock, no sleeps) and the numbers of /stats."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from core_fakes import FakeClock, FakePlatform
from hypothesis import given
from hypothesis import strategies as st

from bot.core import Core
from bot.core.web_reads import Streak
from bot.features import daily
from bot.features.streaks import streaks

D = date.fromisoformat


async def finish_daily(chat: FakePlatform, user: str = "ana", game: str = "imaginary13") -> None:
    started, _ = await chat.say(user, f"/daily {game}")
    assert started.key == "daily.started"
    replies = await chat.resign(user)
    assert replies[-1].key == "daily.accepted"


async def streak_of(chat: FakePlatform, user: str = "ana") -> tuple[int, int]:
    (stats,) = await chat.say("viewer", f"/stats @{user.capitalize()}")
    return stats.params["streak"], stats.params["best_streak"]


async def test_a_streak_lives_through_the_next_utc_day_and_breaks_after_it(
    chat: FakePlatform, clock: FakeClock, monkeypatch
):
    # This test is about days, not deals: a smaller solver budget picks each day's deal faster.
    monkeypatch.setitem(daily.NODE_BUDGETS, "imaginary13", 20_000)
    clock.now = clock.now.replace(hour=23, minute=59, second=59)  # 2025-03-14 23:59:59
    await finish_daily(chat)
    assert await streak_of(chat) == (1, 1)
    clock.advance(seconds=1)  # 2025-03-15 00:00:00: no daily yet today, the streak holds
    assert await streak_of(chat) == (1, 1)
    await finish_daily(chat)  # the 15th's challenge, one second after midnight's turn
    assert await streak_of(chat) == (2, 2)
    clock.advance(days=1, hours=23, minutes=59, seconds=59)  # 2025-03-16 23:59:59: still alive
    assert await streak_of(chat) == (2, 2)
    clock.advance(seconds=1)  # 2025-03-17 00:00:00: the whole 16th passed without a daily
    assert await streak_of(chat) == (0, 2)
    await finish_daily(chat)
    assert await streak_of(chat) == (1, 2)


async def test_two_dailies_on_one_day_count_once(chat: FakePlatform):
    await finish_daily(chat, game="imaginary13")
    await finish_daily(chat, game="squadratik")
    assert await streak_of(chat) == (1, 1)


async def test_stats_counts_games_wins_and_best_results(core: Core, chat: FakePlatform):
    await core.store.write(
        [
            (
                "INSERT INTO results (session_id, platform, chat_id, game_id, player_id, player_name, deal, options, "
                "score, tiebreak_move, move_count, moves, outcome, won, ranked, day, finished_at) VALUES "
                "(?, 'fake', 'chat-1', ?, 'ana', 'Ana', 1, '{}', ?, ?, ?, '[]', ?, ?, 0, '2025-03-10', "
                "'2025-03-10T10:00:00')",
                row,
            )
            for row in [
                ("a", "solitario", 185, 97, 120, "stalled", 0),
                ("b", "solitario", 185, 80, 130, "stalled", 0),
                ("c", "solitario", 400, 150, 150, "won", 1),
                ("d", "squadratik", 60, 40, 40, "lost", 0),
                ("e", "squadratik", 20, 46, 46, "played_out", 0),
                ("f", "canfield", 45, 80, 80, "stalled", 0),
            ]
        ]
    )
    await core.store.players.touch("fake", "ana", "Ana", "2025-03-10T10:00:00", chat_id="chat-1")
    (stats,) = await chat.say("bob", "/stats @ana")
    assert stats.params["games"] == {"solitario": 3, "canfield": 1, "squadratik": 2}
    assert stats.params["wins"] == {"solitario": 1, "canfield": 0, "squadratik": 0}
    lines = stats.text.splitlines()
    assert lines[0] == "Statistics of Ana:"
    assert "Solitario: 3 games, 1 won, best 400 points (at move 150)" in lines
    assert "Canfield: 1 game, 0 won, best $45 in 80 moves" in lines
    # El Solitario's best is the better result, not the higher points
    assert "Squadratik: 2 games, 0 won, best Solitario, 20 points" in lines
    assert lines[-1] == "Daily streak: 0 (best 0)"


async def test_stats_of_someone_without_games_and_of_a_stranger(chat: FakePlatform):
    assert [r.key for r in await chat.say("ana", "/stats")] == ["stats.none"]
    assert [r.key for r in await chat.say("ana", "/stats @nobody")] == ["stats.unknown_player"]


def test_streak_examples():
    assert streaks([D("2025-03-14")], today=D("2025-03-14")) == Streak(1, 1)
    assert streaks([D("2025-03-13")], today=D("2025-03-14")) == Streak(1, 1)
    assert streaks([D("2025-03-12")], today=D("2025-03-14")) == Streak(0, 1)
    # across a month and a year end
    days = [D("2024-12-30"), D("2024-12-31"), D("2025-01-01")]
    assert streaks(days, today=D("2025-01-02")) == Streak(3, 3)
    assert streaks([D("2025-02-28"), D("2025-03-01")], today=D("2025-03-01")) == Streak(2, 2)


@given(st.sets(st.integers(0, 60), max_size=40), st.integers(0, 70))
def test_streak_invariants(offsets, today_offset):
    start = D("2025-01-01")
    days = [start + timedelta(days=n) for n in offsets]
    today = start + timedelta(days=today_offset)
    got = streaks([d for d in days if d <= today], today)
    played = sorted(n for n in offsets if n <= today_offset)
    assert 0 <= got.current <= got.best <= len(played)
    # the current streak is exactly the run of days ending today or yesterday
    run, n = 0, today_offset if today_offset in played else today_offset - 1
    while n in played:
        run, n = run + 1, n - 1
    assert got.current == run


@pytest.mark.parametrize(
    ("lang", "query", "said"),
    [
        ("en", "Computer 1", "Computer 1 is a computer player"),
        ("es", "Ordenador 2", "Ordenador 2 es un jugador del ordenador"),
        ("it", "computer 1", "computer 1 è un giocatore del computer"),
    ],
)
async def test_stats_of_a_computer_says_computers_are_not_ranked(
    chat: FakePlatform, lang: str, query: str, said: str
):
    # on main: "I don't know a player called Computer 1", right after playing against it
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    (answer,) = await chat.say("ana", f"/stats {query}")
    assert answer.key == "stats.computer" and answer.text.startswith(said)
    (unknown,) = await chat.say("ana", "/stats Nobody Here")
    assert unknown.key == "stats.unknown_player"
