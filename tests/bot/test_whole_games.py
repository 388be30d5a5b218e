"""Whole games won through the bot, by typed commands and by buttons only.

The winning move lists come from the project's solver at test time (``engine.solvers``, which
verifies every line by replay), so no long move list is pinned here; the deals are pinned.
"""

from __future__ import annotations

import pytest
from core_fakes import FakePlatform

import engine
from bot.app import open_core
from bot.core import Core, buttons
from engine.solvers import Budget, solve

#: (game, deal) pairs the solver wins within a small budget
WINNABLE = [("solitario", 1), ("canfield", 2), ("imaginary13", 1), ("imaginary13", 5)]


def winning_line(game_id: str, deal: int) -> list[str]:
    result = solve(game_id, deal, budget=Budget(nodes=200_000, seconds=20))
    assert result.status == "won", f"{game_id} deal {deal}: the solver found no win"
    return list(result.moves)


def _arg_plays(arg: str, notation: str, legal: list) -> bool:
    if arg.startswith("#"):
        return str(legal[int(arg[1:])]) == notation
    return arg == notation


async def press_move(chat: FakePlatform, user: str, mirror, notation: str) -> None:
    """Play ``notation`` with buttons only: one tap when the board has it, else source then
    target, as a player would."""
    legal = mirror.legal_moves()
    board = chat.board()
    direct = [
        b
        for b in board.buttons
        if buttons.decode(b.id).verb == "mv"
        and _arg_plays(buttons.decode(b.id).arg, notation, legal)
    ]
    if not direct:
        src = str(mirror.parse_move(notation).src)
        select = chat.button(
            lambda b: buttons.decode(b.id).verb == "sel" and buttons.decode(b.id).arg == src
        )
        (targets,) = await chat.press(user, select.id)
        direct = [
            b
            for b in targets.buttons
            if buttons.decode(b.id).verb == "mv"
            and _arg_plays(buttons.decode(b.id).arg, notation, legal)
        ]
    assert direct, f"no button plays {notation}"
    await chat.press(user, direct[0].id)
    mirror.play(notation)


@pytest.mark.parametrize(("game_id", "deal"), WINNABLE)
async def test_a_whole_game_won_by_buttons(core: Core, chat: FakePlatform, game_id: str, deal: int):
    line = winning_line(game_id, deal)
    mirror = engine.new_game(game_id, deal, ["ana"])
    await chat.say("ana", "/autofinish off")  # every move of the line by a button
    await chat.say("ana", f"/play {game_id} {deal}")
    for notation in line:
        await press_move(chat, "ana", mirror, notation)
    assert chat.replies[-1].key == "outcome.won"
    sid = chat.board().board.session_id
    assert await core.store.sessions.moves(sid) == [str(mirror.parse_move(n)) for n in line]
    (board,) = await chat.say("bob", f"/leaderboard {game_id}")
    assert "Ana" in board.text and str(mirror.score) in board.text


@pytest.mark.parametrize(("game_id", "deal"), WINNABLE[:2])
async def test_a_whole_game_won_by_commands_with_a_restart_halfway(
    db_url, clock, game_id: str, deal: int
):
    from core_fakes import fake_render

    line = winning_line(game_id, deal)
    half = len(line) // 2
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    await chat.say("ana", "/autofinish off")  # every move of the line typed
    await chat.say("ana", f"/play {game_id} {deal}")
    for notation in line[:half]:
        (board,) = await chat.say("ana", f"/move {notation}")
        assert board.key == "board.caption"
    await core.close()
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    try:
        chat = FakePlatform(core)
        for notation in line[half:]:
            replies = await chat.say("ana", f"/move {notation}")
        assert [r.key for r in replies] == ["board.caption_over", "outcome.won"]
        assert await core.store.results.count() == 1
    finally:
        await core.close()
