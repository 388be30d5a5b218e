"""Cartas Maestras ratings: updated when a table ends, per chat and everywhere, in /stats and
through ``ratings.top`` for the leaderboard."""

from __future__ import annotations

from core_fakes import FakePlatform, play_out
from hypothesis import given
from hypothesis import strategies as st

from bot.core import Core
from bot.features import ratings
from bot.features.ratings import Rating, updated


async def play_table(core: Core, chat: FakePlatform, *players: str) -> None:
    await chat.say(players[0], "/challenge " + " ".join(f"@{p}" for p in players[1:]))
    for player in players[1:]:
        await chat.say(player, "/join")
    await chat.say(players[0], "/start")
    await play_out(core, chat)
    assert chat.replies[-1].key == "table.over"


async def test_a_finished_table_rates_its_people_here_and_everywhere(
    core: Core, chat: FakePlatform
):
    assert (await chat.say("ana", "/stats"))[0].key == "stats.none"
    await play_table(core, chat, "ana", "bea", "cid")
    table_id = chat.board().board.session_id
    places = dict(
        await core.store.fetch(
            "SELECT player_id, place FROM results WHERE session_id = ?", (table_id,)
        )
    )
    here = await ratings.top(core.store, "fake", "chat-1", "maestras")
    assert sorted(name for name, _, _ in here) == ["Ana", "Bea", "Cid"]
    assert all(games == 1 for _, _, games in here)
    assert here == await ratings.top(
        core.store, "fake", None, "maestras"
    )  # one chat so far: the same
    best_place = min(places.values())
    assert places[here[0][0].lower()] == best_place  # the first rated is a winner
    other = FakePlatform(core, chat_id="chat-2")
    await play_table(core, other, "ana", "bea")
    assert [
        g for n, _, g in await ratings.top(core.store, "fake", None, "maestras") if n == "Ana"
    ] == [2]
    assert [
        g for n, _, g in await ratings.top(core.store, "fake", "chat-2", "maestras") if n == "Ana"
    ] == [1]
    (stats,) = await chat.say("ana", "/stats")
    assert "rating in this chat" in stats.text and "(1 table)" in stats.text
    assert "rating everywhere" in stats.text and "(2 tables)" in stats.text


async def test_computers_are_not_rated_and_unfinished_tables_change_nothing(
    core: Core, chat: FakePlatform
):
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    await play_out(core, chat)
    assert chat.replies[-1].key == "table.over"
    assert (
        await ratings.top(core.store, "fake", None, "maestras") == []
    )  # one person only: nothing to compare
    await chat.say("ana", "/challenge @bea")
    await chat.say("bea", "/join")
    await chat.say("ana", "/start")
    await chat.say("ana", "/end")
    assert await ratings.top(core.store, "fake", None, "maestras") == []


ratings_in = st.builds(Rating, st.floats(10, 40), st.floats(1, 9), st.integers(0, 50))


@given(st.lists(ratings_in, min_size=2, max_size=8), st.randoms())
def test_better_places_gain_more_and_shared_places_gain_alike(before: list[Rating], rnd) -> None:
    places = list(range(1, len(before) + 1))
    rnd.shuffle(places)
    after = updated(before, places)
    assert [a.games for a in after] == [b.games + 1 for b in before]
    # equal ratings: the better place gains more; a shared place (a tie) gains the same
    same = updated([before[0]] * len(before), places)
    by_place = [r.mu for _, r in sorted(zip(places, same, strict=True))]
    assert by_place == sorted(by_place, reverse=True)
    tied = updated([before[0]] * len(before), [1] * len(before))
    assert max(r.mu for r in tied) - min(r.mu for r in tied) < 1e-9
