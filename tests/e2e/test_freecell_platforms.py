"""FreeCell end to end on both platforms' fake servers: a whole Microsoft deal won by button
presses only (select a column or cell, then its target; the one-tap "to foundation"), the
cards that are safe going home by themselves, on one board message edited in place.

The line is the solver's verified winning line of a pinned deal (a node budget: the same
line on every machine); the presses a player makes for each move come from the Solitario
tests' helpers, which read only the legal moves and the view."""

from __future__ import annotations

import html
from typing import Any

import pytest
from fake_telegram import TelegramWorld, button_session

import engine
from bot.core import buttons
from engine.solvers import Budget, solve
from tests.e2e.fake_discord import running_table, view_of
from tests.e2e.test_telegram_solitario import button_for, presses_for

#: Microsoft FreeCell deal 2: the solver wins it in about 150 positions, 50 moves
DEAL = 2
GROUP = -100999
ALICE = 911


def winning_line() -> list[str]:
    result = solve("freecell", DEAL, budget=Budget(nodes=20_000, seconds=None))
    assert result.status == "won"
    return result.moves


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.group(GROUP)
        yield world


async def test_telegram_a_whole_freecell_deal_won_by_button_presses(world):
    line = winning_line()
    await world.command(GROUP, ALICE, f"/play freecell {DEAL}")
    board = world.fake.latest_photo(GROUP)
    session_id = button_session(board.callback_data()[0])
    shadow = engine.new_game("freecell", DEAL)
    used = set()
    for text in line:
        for verb, arg in presses_for(shadow, text):
            shown = world.fake.latest_photo(GROUP).callback_data()
            answer = await world.press(GROUP, ALICE, board.message_id, button_for(shown, verb, arg))
            assert not answer.get("text"), (text, answer)  # accepted: no refusal shown
            used.add(verb)
        shadow.play(text)
    assert used == {"sel", "mv", "found"}
    record = (await world.core.sessions.get(session_id)).record
    stored = await world.core.store.sessions.moves(session_id)
    assert record.outcome == "won" and stored == line  # the player's moves only
    assert engine.replay("freecell", DEAL, None, {}, stored).score == 52
    final = world.fake.latest_photo(GROUP)
    assert final.message_id == board.message_id and len(world.fake.calls_of("sendPhoto")) == 1
    assert [buttons.decode(data).verb for data in final.callback_data()] == ["again"]
    assert world.fake.bot_messages(GROUP)[-1].text  # the win is announced in the group


async def test_telegram_a_refused_freecell_move_says_why_and_changes_nothing(world):
    await world.command(GROUP, ALICE, f"/play freecell {DEAL}")
    board = world.fake.latest_photo(GROUP)
    edits = board.edits
    await world.command(GROUP, ALICE, "/move ab")
    said = html.unescape(world.fake.bot_messages(GROUP)[-1].text)  # sent as HTML
    assert said == "Cards don't move from one free cell to another."
    assert world.fake.latest_photo(GROUP).edits == edits


@pytest.fixture
async def table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    async for running in running_table(tmp_path, caplog):
        yield running


async def test_discord_a_whole_freecell_deal_won_by_button_presses(table: Any) -> None:
    fake = table.fake
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    line = winning_line()
    await table.slash(alice, general, "play", game="freecell", deal=DEAL)
    board = table.board(general)
    assert view_of(board)["deal"] == DEAL and view_of(board)["game"] == "freecell"
    shadow = engine.new_game("freecell", DEAL, [str(alice.id)])
    for number, text in enumerate(line, start=1):
        for verb, arg in presses_for(shadow, text):
            await table.press(alice, board, button_for(board.custom_ids, verb, arg))
        shadow.play(text)
        assert view_of(board)["move_number"] == number, text
    final = view_of(board)
    assert final["outcome"] == "won" and final == shadow.view()
    assert table.board(general) is board  # one board message, edited in place all game long
    assert [buttons.decode(i).verb for i in board.custom_ids] == ["again"]
    assert not fake.ephemerals(alice)  # no press was refused
