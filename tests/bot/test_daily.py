"""Daily challenges: the day's deal (same everywhere, proven winnable), one ranked attempt per
player and day, casual replays, no undo or hints in ranked play, verified results."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import date
from itertools import islice

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render

import engine
from bot.app import open_core
from bot.core import Core, buttons
from bot.core.session import iso
from bot.features.daily import (
    ACCEPTED,
    NODE_BUDGETS,
    PLAYING,
    REFUSED,
    ClaimedResult,
    add_attempt,
    candidates,
    choose,
    daily_choice,
    settle,
    verify,
)
from bot.features.daily_share import share_text
from bot.storage import DailyAttempt
from engine.cards import FRENCH_52, full_deck

DAY = date(2025, 3, 14)  # the FakeClock's day


@pytest.mark.parametrize("game", ["imaginary13", "squadratik", "freecell"])
def test_the_days_deal_is_the_same_when_chosen_twice_and_its_line_replays_to_a_win(game):
    day = date(2025, 3, 3)  # on this day the second candidate is Imaginary Thirteen's deal
    first, second = choose(game, day), choose(game, day)
    assert first is not None and second is not None
    if game == "imaginary13":
        # the first candidate was not proven winnable, so the choice moved on to the next one
        assert first.candidate == 1 and first.deal == list(islice(candidates(game, day), 2))[1]
    # everything but the wall time spent: candidate, deal, line and solver nodes
    assert replace(first, seconds=0) == replace(second, seconds=0)
    replayed = engine.replay(game, first.deal, None, {}, first.line)
    wins = {"squadratik": {"completo", "played_out"}}.get(game, {"won"})
    assert str(replayed.outcome) in wins and first.best in wins


def test_each_game_and_day_has_its_own_candidates():
    firsts = {
        (g, d): next(candidates(g, date(2025, 3, d)))
        for g in ("imaginary13", "canfield")
        for d in (14, 15)
    }
    assert len(set(firsts.values())) == 4
    # pinned: the same numbers on every machine and Python version
    assert next(candidates("imaginary13", DAY)) == 639946839


async def test_every_chat_on_every_platform_gets_the_days_stored_deal(core: Core, clock: FakeClock):
    tg = FakePlatform(core, platform="telegram", chat_id="g1")
    dc = FakePlatform(core, platform="discord", chat_id="c9")
    one = (await tg.say("ana", "/daily imaginary13"))[1]
    two = (await dc.say("bob", "/daily i13"))[1]
    stored = await daily_choice(core.store, "imaginary13", DAY, clock.now)
    assert one.params["deal"] == two.params["deal"] == stored.deal
    rows = await core.store.fetch("SELECT game_id, day, deal, nodes, seconds, chosen_at FROM daily")
    assert rows == [
        ("imaginary13", "2025-03-14", stored.deal, stored.nodes, stored.seconds, iso(clock.now))
    ]


async def test_one_ranked_attempt_then_a_casual_replay_of_the_same_deal(
    core: Core, chat: FakePlatform
):
    started, board = await chat.say("ana", "/daily imaginary13")
    assert started.key == "daily.started" and started.params["ranked"] is True
    assert "ranked" in started.text and "no undo" in started.text
    ranked = await core.sessions.get(board.board.session_id)
    assert ranked.record.ranked
    # while it goes on, /daily in another chat is refused (a replay there would show the deal)
    other = FakePlatform(core, chat_id="chat-2")
    assert [r.key for r in await other.say("ana", "/daily imaginary13")] == ["daily.in_progress"]
    await chat.resign("ana")
    again, casual_board = await chat.say("ana", "/daily imaginary13")
    assert (
        again.key == "daily.casual_started"
        and again.params["ranked"] is False
        and "unranked" in again.text
    )
    casual = await core.sessions.get(casual_board.board.session_id)
    assert not casual.record.ranked and casual.record.deal == ranked.record.deal
    attempt = await core.store.daily.attempt("fake", "ana", "imaginary13", "2025-03-14")
    assert attempt.session_id == ranked.id and attempt.status == ACCEPTED
    # the storage itself refuses a second attempt for the same player, game and day
    assert not await add_attempt(
        core.store,
        DailyAttempt(
            "fake", "ana", "imaginary13", "2025-03-14", "x", "c", PLAYING, "2025-03-14T13:00:00"
        ),
    )


async def test_undo_and_hint_are_refused_in_ranked_play(core: Core, chat: FakePlatform):
    _, board = await chat.say("ana", "/daily imaginary13")
    assert "undo" not in {buttons.decode(b.id).verb for b in board.buttons}
    session = await core.sessions.get(board.board.session_id)
    first = str(session.game.legal_moves()[0])
    (after, *_) = await chat.say("ana", f"/move {first}")
    assert "undo" not in {buttons.decode(b.id).verb for b in after.buttons}
    (undo,) = await chat.say("ana", "/undo")
    assert undo.key == "undo.not_allowed" and undo.is_private
    (hint,) = await chat.say("ana", "/hint")
    assert hint.key == "hint.ranked" and hint.text == "No hints in the daily challenge."
    assert session.game.moves == [first]


async def test_a_won_daily_is_verified_ranked_and_shared_without_cards(
    core: Core, chat: FakePlatform, clock
):
    choice = await daily_choice(core.store, "imaginary13", DAY, clock.now)
    await chat.say("ana", "/daily imaginary13")
    for move in choice.line:
        replies = await chat.say("ana", f"/move {move}")
    keys = [r.key for r in replies]
    assert keys[-2:] == ["outcome.won", "daily.accepted"]
    share = replies[-1].params["share"]
    assert share.splitlines()[0] == "Tavolo daily · Imaginary Thirteen · 2025-03-14"
    assert f"Won · 88/88 cards · {len(choice.line)} moves" in share and "🏆" in share
    assert not has_card_code(share) and not any(move in share.split() for move in choice.line)
    (lb,) = await chat.say("bob", "/leaderboard imaginary13")
    assert re.search(rf"1  Ana\s+88\s+{len(choice.line)}", lb.text)


async def test_a_won_freecell_daily_is_verified_ranked_and_shared(
    core: Core, chat: FakePlatform, clock
):
    choice = await daily_choice(core.store, "freecell", DAY, clock.now)
    assert choice.best == "won"  # the day's deal is proven winnable
    await chat.say("ana", "/daily freecell")
    for move in choice.line:
        replies = await chat.say("ana", f"/move {move}")
    assert [r.key for r in replies][-2:] == ["outcome.won", "daily.accepted"]
    share = replies[-1].params["share"]
    assert share.splitlines()[0] == "Tavolo daily · FreeCell · 2025-03-14"
    assert f"Won · 52/52 cards · {len(choice.line)} moves" in share and not has_card_code(share)
    # a second player's lost attempt ranks after the win, with the cards it got home
    await chat.say("bob", "/daily freecell")
    await chat.resign("bob")
    (lb,) = await chat.say("cy", "/leaderboard freecell")
    assert lb.text.index("Ana") < lb.text.index("Bob")
    assert re.search(rf"1  Ana\s+52\s+{len(choice.line)}", lb.text)


def has_card_code(text: str) -> bool:
    codes = {str(card) for card in full_deck(FRENCH_52)}
    return any(word.strip("·,.") in codes for word in text.split())


async def test_a_result_that_does_not_replay_to_its_claim_is_refused_and_not_ranked(
    core: Core, chat: FakePlatform
):
    _, board = await chat.say("ana", "/daily imaginary13")
    session = await core.sessions.get(board.board.session_id)
    played = [str(m) for m in session.game.legal_moves()[:1]]
    await chat.say("ana", f"/move {played[0]}")
    # a forged finish: the session is over and claims a full win with the real move list
    await core.store.write(
        [
            ("UPDATE sessions SET status = 'over', outcome = 'won' WHERE id = ?", (session.id,)),
            (
                "INSERT INTO results (session_id, platform, chat_id, game_id, player_id, player_name, deal, options, "
                "score, tiebreak_move, move_count, moves, outcome, won, ranked, day, finished_at) VALUES "
                "(?, 'fake', 'chat-1', 'imaginary13', 'ana', 'Ana', ?, '{}', 88, 1, 1, ?, 'won', 1, 1, '2025-03-14', "
                "'2025-03-14T12:05:00')",
                (session.id, session.record.deal, json.dumps(played)),
            ),
        ]
    )
    assert await settle(core.store, session.id) == REFUSED
    assert await core.store.fetch(
        "SELECT ranked FROM results WHERE session_id = ?", (session.id,)
    ) == [(0,)]
    (lb,) = await chat.say("bob", "/leaderboard imaginary13")
    assert lb.key == "leaderboard.empty"  # neither on the daily board nor among free games
    # and the player cannot try again ranked: the attempt is spent
    assert (await chat.say("ana", "/daily imaginary13"))[0].key == "daily.casual_started"


def test_verify_names_what_does_not_match():
    game = engine.new_game("imaginary13", 5)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    moves = list(game.moves)
    honest = ClaimedResult("imaginary13", 5, {}, ["p"], moves, game.score, "resigned", 3, 3)
    assert verify(honest, moves, 5) is None
    assert verify(honest, moves, 6) == "deal"
    assert verify(honest, moves[:2], 5) == "moves"
    assert (
        verify(ClaimedResult("imaginary13", 5, {}, ["p"], ["zz"], 0, "resigned", 1, 1), ["zz"], 5)
        == "replay"
    )
    assert (
        verify(ClaimedResult("imaginary13", 5, {}, ["p"], moves, game.score, "won", 3, 3), moves, 5)
        == "outcome"
    )
    assert (
        verify(ClaimedResult("imaginary13", 5, {}, ["p"], moves, 80, "resigned", 3, 3), moves, 5)
        == "score"
    )
    assert (
        verify(
            ClaimedResult("imaginary13", 5, {}, ["p"], moves, game.score, "resigned", 4, 3),
            moves,
            5,
        )
        == "move_count"
    )


async def test_a_daily_started_before_midnight_counts_for_its_own_day(
    core: Core, chat: FakePlatform, clock
):
    clock.now = clock.now.replace(hour=23, minute=59, second=30)
    _, board = await chat.say("ana", "/daily imaginary13")
    clock.advance(minutes=1)  # 00:00:30 of the next UTC day
    await chat.resign("ana")
    attempt = await core.store.daily.attempt("fake", "ana", "imaginary13", "2025-03-14")
    assert attempt.session_id == board.board.session_id and attempt.status == ACCEPTED
    # the new day has a new deal and a new ranked attempt
    started, new_board = await chat.say("ana", "/daily imaginary13")
    assert started.key == "daily.started" and "2025-03-15" in started.text
    assert new_board.params["deal"] != board.params["deal"]


async def test_bad_daily_lines_get_specific_answers(chat: FakePlatform):
    assert [r.key for r in await chat.say("ana", "/daily")] == ["daily.usage"]
    assert [r.key for r in await chat.say("ana", "/daily maestras")] == ["daily.unknown_game"]
    assert [r.key for r in await chat.say("ana", "/daily imaginary13 sideways")] == [
        "daily.bad_argument"
    ]


def test_share_text_in_every_language_names_no_card():
    game = engine.new_game("squadratik", 3)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    for lang in ("en", "es", "it"):
        text = share_text(
            lang, "squadratik", "2025-03-14", str(game.outcome), game.score, game.moves, 3
        )
        assert len(text.splitlines()) == 3 and not has_card_code(text)
        assert not any(move in text for move in set(game.moves) if len(move) > 2)


async def test_restart_keeps_the_days_deal_and_the_spent_attempt(db_url: str, clock: FakeClock):
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    _, board = await chat.say("ana", "/daily imaginary13")
    await core.close()
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    await chat.resign("ana")
    assert (await chat.say("ana", "/daily imaginary13"))[0].key == "daily.casual_started"
    assert chat.board().params["deal"] == board.params["deal"]
    await core.close()


async def test_todays_daily_deal_cannot_be_rehearsed_with_play_before_the_ranked_attempt(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    choice = await daily_choice(core.store, "imaginary13", DAY, clock.now)
    (refused,) = await chat.say("ana", f"/play imaginary13 {choice.deal}")
    assert refused.key == "daily.deal_reserved" and refused.is_private
    assert await core.store.fetch("SELECT id FROM sessions WHERE game_id = 'imaginary13'") == []
    # any other deal is free to play
    other = await chat.say("bob", f"/play imaginary13 {choice.deal + 1}")
    assert other[0].key == "play.started"
    # once her ranked attempt is over, the deal is hers to replay as she likes
    await chat.say("ana", "/daily imaginary13")
    await chat.resign("ana")
    started = await chat.say("ana", f"/play imaginary13 {choice.deal}")
    assert started[0].key == "play.started" and started[0].params["deal"] == choice.deal


@pytest.mark.slow
def test_one_days_four_deals_are_pinned():
    """The day's deal of each game on the FakeClock's day, with the shipped node budgets
    (``NODE_BUDGETS``): every machine and every process must pick these. A change of the
    budgets or of a solver's search order moves them: re-pin on purpose, never by accident
    (players of one day compare their results on one deal)."""
    chosen = {game: choose(game, DAY) for game in NODE_BUDGETS}  # every game with a daily
    assert {game: (c.deal, c.candidate, c.best) for game, c in chosen.items() if c is not None} == {
        "solitario": (297431073, 0, "won"),
        "canfield": (226515125, 2, "won"),
        "imaginary13": (639946839, 0, "won"),
        "squadratik": (284143242, 0, "played_out"),
        "freecell": (939298, 0, "won"),  # Microsoft's numbers: 1-1,000,000
    }
    for game, choice in chosen.items():
        assert choice is not None
        assert str(engine.replay(game, choice.deal, None, {}, choice.line).outcome) == choice.best
