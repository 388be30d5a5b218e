"""Discord, end to end: a whole Solitario game won by button presses only (select a pile,
then its target; the one-tap "draw" and "to foundation" buttons), on the one board message."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.core import buttons
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


async def test_a_whole_solitario_game_won_by_button_presses(table: Any) -> None:
    fake = table.fake
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    line = winning_solitario_line()
    await table.slash(alice, general, "play", game="solitario", deal=SOLITARIO_DEAL)
    board = table.board(general)
    assert view_of(board)["deal"] == SOLITARIO_DEAL
    shadow = engine.new_game("solitario", SOLITARIO_DEAL, [str(alice.id)])
    used = set()
    for number, text in enumerate(line, start=1):
        if view_of(board)["is_over"]:
            break  # every card was face up: auto-finish played the rest
        for verb, arg in presses_for(shadow, text):
            await table.press(alice, board, button_for(board.custom_ids, verb, arg))
            used.add(verb)
        shadow.play(text)
        assert view_of(board)["move_number"] == number or view_of(board)["is_over"], text

    assert used == {"mv", "sel", "found"}  # draw, to-foundation and select-then-target all used
    assert len(shadow.moves) < len(line)  # auto-finish did the end of the line
    while not shadow.is_over:  # as the bot does: the first legal card up to a foundation
        shadow.play(next(m for m in shadow.legal_moves() if str(m.dst).startswith("f")))
    final = view_of(board)
    assert final["outcome"] == "won" and final == shadow.view()
    assert table.board(general) is board  # one board message, edited in place all game long
    assert [buttons.decode(i).verb for i in board.custom_ids] == ["again"]  # a won game: play again
    assert not fake.ephemerals(alice)  # no press was refused
    assert fake.channel_messages(general)[-1].content  # the win is announced in the channel
