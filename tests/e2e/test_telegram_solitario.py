"""Telegram, end to end: a whole Solitario game won by button presses only (select a pile,
then its target; the one-tap "draw" and "to foundation" buttons), as a player would.

The winning line comes from the project's verified solver (``engine.solvers.solve``) for a
pinned deal it solves in a few dozen nodes; the helpers here turn each move of that line
into the presses a player makes, and the Discord test uses them too.
"""

from __future__ import annotations

import pytest
from fake_telegram import TelegramWorld, button_session

import engine
from bot.core import buttons
from engine.solvers import Budget, solve

#: Solitario (Klondike, draw three) deal 16: the solver wins it in about 60 nodes, 65 moves
SOLITARIO_DEAL = 16
GROUP = -100777
ALICE = 901


def winning_solitario_line(deal: int = SOLITARIO_DEAL) -> list[str]:
    """The solver's verified winning line of a Solitario deal (node budget: same line on
    every machine)."""
    result = solve("solitario", deal, budget=Budget(nodes=50_000, seconds=None))
    assert result.status == "won", f"deal {deal}: {result.status}"
    return result.moves


def presses_for(game: engine.Game, text: str) -> list[tuple[str, str]]:
    """The (verb, arg) buttons a player presses on the board to play ``text`` now: the draw
    button for the stock, "to foundation" when it sends exactly this card home, else the
    source pile and then its target."""
    move = game.parse_move(text)
    legal = game.legal_moves()
    assert move in legal, (text, [str(m) for m in legal])
    notation = str(legal[legal.index(move)])
    if move.dst is None:
        return [("mv", notation)]
    kinds = {pile["id"]: pile["kind"] for pile in game.view()["piles"]}
    to_foundation = [m for m in legal if kinds.get(str(m.dst)) == "foundation"]
    if to_foundation and to_foundation[0] == move:
        return [("found", "*")]
    return [("sel", str(move.src)), ("mv", notation)]


def button_for(button_ids_shown: list[str], verb: str, arg: str) -> str:
    """The id of the shown button with this verb and argument."""
    for button_id in button_ids_shown:
        action = buttons.decode(button_id)
        if action is not None and (action.verb, action.arg) == (verb, arg):
            return button_id
    raise AssertionError(f"no {verb}:{arg} button among {button_ids_shown}")


@pytest.fixture
async def world(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.group(GROUP)
        yield world


async def test_a_whole_solitario_game_won_by_button_presses(world):
    line = winning_solitario_line()
    await world.command(GROUP, ALICE, f"/play solitario {SOLITARIO_DEAL}")
    board = world.fake.latest_photo(GROUP)
    session_id = button_session(board.callback_data()[0])
    shadow = engine.new_game("solitario", SOLITARIO_DEAL)
    used = set()
    for text in line:
        if not (await world.core.sessions.get(session_id)).is_open:
            break  # every card was face up: auto-finish played the rest
        for verb, arg in presses_for(shadow, text):
            shown = world.fake.latest_photo(GROUP).callback_data()
            answer = await world.press(GROUP, ALICE, board.message_id, button_for(shown, verb, arg))
            assert not answer.get("text"), (text, answer)  # accepted: no refusal shown
            used.add(verb)
        shadow.play(text)
        game = (await world.core.sessions.get(session_id)).game
        assert game is None or list(game.moves) == list(shadow.moves)

    assert used == {"mv", "sel", "found"}  # draw, to-foundation and select-then-target all used
    record = (await world.core.sessions.get(session_id)).record
    stored = await world.core.store.sessions.moves(session_id)
    assert len(shadow.moves) < len(line)  # auto-finish did the end of the line
    assert record.outcome == "won" and stored[: len(shadow.moves)] == line[: len(shadow.moves)]
    assert engine.replay("solitario", SOLITARIO_DEAL, ["p"], {}, stored).outcome == "won"
    final = world.fake.latest_photo(GROUP)
    assert final.message_id == board.message_id  # one board, edited in place all game long
    assert len(world.fake.calls_of("sendPhoto")) == 1
    # a won game has one button left: play again
    assert [buttons.decode(data).verb for data in final.callback_data()] == ["again"]
    assert world.fake.bot_messages(GROUP)[-1].text  # the win is announced in the group
