"""A fast player is not told to slow down (issue 35, finding 7), on the fake Discord with the
default rate limits on: a whole Solitario game won by pressing the board's buttons three times
a second (by the limits' clock, moved by the test: 82 presses need not take 27 s), every press
applied, no "slow down", one board edited in place."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.core.limits import Limits, RateLimiter
from tests.e2e.fake_discord import running_table, view_of
from tests.e2e.test_telegram_solitario import (
    SOLITARIO_DEAL,
    button_for,
    presses_for,
    winning_solitario_line,
)


@pytest.fixture
async def table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    async for running in running_table(tmp_path, caplog):
        yield running


async def test_pressing_ones_own_board_fast_is_never_slowed_down(table: Any) -> None:
    # what python -m bot runs with: 8 at once, then 30 a minute per user; 40, 120 per chat
    clock = [1_000_000.0]
    table.core.limiter = RateLimiter(table.core.store, Limits(), clock=lambda: clock[0])
    fake = table.fake
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    await table.slash(alice, general, "play", game="solitario", deal=SOLITARIO_DEAL)
    board = table.board(general)
    shadow = engine.new_game("solitario", SOLITARIO_DEAL, [str(alice.id)])
    presses = 0
    for text in winning_solitario_line():
        if view_of(board)["is_over"]:
            break
        for verb, arg in presses_for(shadow, text):
            await table.press(alice, board, button_for(board.custom_ids, verb, arg))
            presses += 1
            clock[0] += 1 / 3
        shadow.play(text)
    assert presses > 8 + presses / 3 / 2  # well past what the old per-user limit allowed
    assert view_of(board)["outcome"] == "won"
    assert not fake.ephemerals(alice)  # no "slow down", no refusal of any kind
    assert table.board(general) is board
