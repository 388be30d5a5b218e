"""Hints that help (issue 26, findings 5 and 6): following ``/hint`` never goes round the stock
for ever, "no move helps" is said with the way out, and at a Cartas Maestras table the hint
explains why only Pass is possible and when to stop in the final phase."""

from __future__ import annotations

import sys

import pytest
from core_fakes import FakePlatform

import engine
from bot.core import Core
from bot.features import hints as hint_feature
from bot.features.timers import computer_move
from engine.solvers.hints import Advice


async def test_following_the_hints_never_turns_the_stock_round_and_round(chat: FakePlatform):
    # Deal 18: on main, after 31 moves the hint said "d" for ever (a 12-card stock and waste
    # go round in five turns).
    await chat.say("ana", "/play solitario 18")
    draws_in_a_row = 0
    for _ in range(150):
        (said,) = await chat.say("ana", "/hint")
        if said.key not in ("hint.text", "hint.text_points"):
            break
        move = said.params["move"]
        draws_in_a_row = draws_in_a_row + 1 if move == "d" else 0
        assert draws_in_a_row <= 5, "the hint sends the player round the stock again"
        replies = await chat.say("ana", f"/move {move}")
        assert not any(r.refusal for r in replies), [r.text for r in replies]
    else:
        pytest.fail("still hinting after 150 moves")
    assert said.key in ("hint.stuck", "game.not_active", "move.no_game"), said.text


@pytest.mark.parametrize("lang", ["en", "es", "it"])
async def test_when_no_move_helps_the_hint_says_so_and_offers_the_way_out(
    chat: FakePlatform, monkeypatch: pytest.MonkeyPatch, lang: str
):
    search = sys.modules["engine.solvers.hints"]
    monkeypatch.setattr(search, "advice", lambda game, player=None: Advice(None, stuck=True))
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    await chat.say("ana", "/play solitario 18")
    (said,) = await chat.say("ana", "/hint")
    assert said.key == "hint.stuck" and said.visibility == "private"
    assert "/resign solitario" in said.text and "Solitario" in said.text


async def test_a_table_hint_says_why_only_pass_is_possible(
    chat: FakePlatform, monkeypatch: pytest.MonkeyPatch
):
    # deal 2 with two seats: the first player holds no master, so Pass is the only move
    monkeypatch.setattr("secrets.randbelow", lambda n: 2)  # the deal random_deal picks
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    (started, *_) = await chat.say("ana", "/start")
    assert "Only a master card can open the board" in started.text
    (said,) = await chat.say("ana", "/hint")
    assert said.key == "hint.only_pass" and said.visibility == "private"
    assert "only a master card can open the board" in said.text
    assert "you hold no master" in said.text
    hand = await chat.core.hand_buttons(chat.request("ana"))
    assert hand is not None and "only a master card can open the board" in hand.text


def _final_phase_game(players: list[str]) -> engine.Game:
    """A Cartas Maestras game played by the computers until its final phase begins."""
    for deal in range(40):
        game = engine.new_game("maestras", deal, players=players)
        while not game.is_over and game.view(None)["phase"] == "main":
            game.play(
                computer_move(game, game.current_player, seed=len(game.moves)), game.current_player
            )
        if game.view(None)["phase"] == "final" and len(game.legal_moves()) > 1:
            return game
    raise AssertionError("no deal reached a final phase with a choice")


def test_the_final_phase_hint_suggests_stop_exactly_when_cards_cannot_change_a_place() -> None:
    game = _final_phase_game(["ana", "bo", "cy"])
    player = game.current_player
    seats = game.view(None)["seats"]
    mine = next(s["masters"] for s in seats if s["player"] == player)
    tied = [s["player"] for s in seats if s["player"] != player and s["masters"] == mine]
    key, params = hint_feature.table_hint("en", game, player)
    if tied:
        assert key == "hint.final_place" and params["tied"] == tied
    else:
        assert key == "hint.stop" and params["stop"] == "stop"
    # the same position with the masters made equal or made different gives the other answer
    view = game.view(player)
    for seat in view["seats"]:
        seat["masters"] = mine if not tied else mine + 1 + len(seat["player"])
    seat_of_player = next(s for s in view["seats"] if s["player"] == player)
    seat_of_player["masters"] = mine
    from bot.core import explain

    assert explain.tie_break_matters(view, player) is (not tied)


async def test_the_final_phase_is_announced_and_the_end_lists_standings_by_place(
    core: Core, chat: FakePlatform
):
    from core_fakes import play_out

    await chat.say("ana", "/challenge")
    for _ in range(3):
        await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    await play_out(core, chat)
    said = "\n".join(r.text for r in chat.replies)
    assert "The main phase is over" in said
    assert "Final phase:" in said or "there is no final phase" in said
    (over,) = [r for r in chat.replies if r.key == "table.over"]
    lines = over.text.splitlines()
    assert lines[1].startswith("Standings (most masters won; a tie on masters goes to")
    places = [int(line.split(".")[0]) for line in lines[2:]]
    assert places == sorted(places) and len(places) == 4 and places[0] == 1
    winner = over.text.split("Winner: ")[1].split(".")[0].split(", ")[0]
    assert lines[2].startswith(f"1. {winner} — ")
    assert all(" master" in line and " card" in line for line in lines[2:])


@pytest.mark.parametrize("lang", ["en", "es", "it"])
async def test_a_main_phase_table_hint_is_a_reasoned_suggestion(
    chat: FakePlatform, monkeypatch: pytest.MonkeyPatch, lang: str
):
    # deal 5 with two seats: the first player holds a master and has several placements
    monkeypatch.setattr("secrets.randbelow", lambda n: 5)  # the deal random_deal picks
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    session = next(s for s in await chat.core.sessions.in_chat("fake", "chat-1") if s.is_table)
    game = session.game
    legal = [str(m) for m in game.legal_moves("ana")]
    assert len(legal) > 1
    (said,) = await chat.say("ana", "/hint")
    assert said.key == "hint.text" and said.visibility == "private"
    expected = hint_feature.table_reason(game, game.parse_move(said.params["move"]), "ana")
    assert said.params["move"] != legal[0]  # on main: the first legal move, "the best move..."
    assert expected[0].startswith("table_")
    from bot import i18n

    assert i18n.t(lang, f"hint.why.{expected[0]}", **expected[1]) in said.text
