"""Several solo games side by side in one chat (a Solitario beside a Canfield beside today's
daily), bare moves that parse but are illegal, and the selection marked on the board image."""

from __future__ import annotations

import json

from core_fakes import FakeClock, FakePlatform

from bot.core import Core, buttons


def drawn_style(reply) -> dict:
    """What the fake renderer was asked to draw for a board reply."""
    return json.loads(reply.image[len(b"PNG ") :])


async def open_both(chat: FakePlatform, clock: FakeClock) -> tuple[str, str]:
    """Solitario deal 5, then (a minute later) Canfield deal 3: their session ids."""
    _, solitario = await chat.say("ana", "/play solitario 5")
    clock.advance(minutes=1)
    _, canfield = await chat.say("ana", "/play canfield 3")
    clock.advance(minutes=1)
    return solitario.board.session_id, canfield.board.session_id


async def test_a_canfield_opens_beside_a_solitario_but_not_a_second_solitario(chat: FakePlatform, clock):
    solitario, canfield = await open_both(chat, clock)
    assert solitario != canfield
    (refused,) = await chat.say("ana", "/play solitario")
    assert refused.key == "play.already_playing" and refused.is_private
    assert refused.text == "You already have a Solitario game here. Finish it or /resign solitario first."
    # another player's games are their own
    (started, _) = await chat.say("bob", "/play solitario 5")
    assert started.key == "play.started"


async def test_a_bare_move_goes_to_the_game_that_reads_it_else_the_last_touched(core: Core, chat, clock):
    solitario_id, canfield_id = await open_both(chat, clock)
    solitario = await core.sessions.get(solitario_id)
    canfield = await core.sessions.get(canfield_id)
    # "rf" is Canfield notation only (its reserve): it goes to Canfield whichever was touched last
    (board,) = await chat.say("ana", "rf")
    assert board.board.session_id == canfield_id and board.text.startswith("Canfield")
    assert len(canfield.game.moves) == 1 and solitario.game.moves == []
    clock.advance(minutes=1)
    # "wf" reads in both: the most recently touched game takes it (Canfield), and its
    # refusal (an empty waste) names the game, since two are open
    (refusal,) = await chat.say("ana", "wf")
    assert refusal.is_private and refusal.text.startswith("Canfield: ")
    # "47" is Solitario's only (Canfield has four piles); then "wf" goes to Solitario and is played
    await chat.say("ana", "/move 47")
    clock.advance(minutes=1)
    (board,) = await chat.say("ana", "wf")
    assert board.board.session_id == solitario_id and len(solitario.game.moves) == 2
    # chatter stays unanswered
    assert await chat.say("ana", "hello") == []


async def test_buttons_act_on_their_own_board(core: Core, chat: FakePlatform, clock):
    solitario_id, canfield_id = await open_both(chat, clock)
    solitario_board = chat.boards[solitario_id]
    draw = chat.button(lambda b: b.label == "Draw", solitario_board)
    await chat.press("ana", draw.id)
    solitario = await core.sessions.get(solitario_id)
    canfield = await core.sessions.get(canfield_id)
    assert len(solitario.game.moves) == 1 and canfield.game.moves == []


async def test_undo_resign_and_board_take_the_last_touched_game_or_the_one_named(core: Core, chat, clock):
    solitario_id, canfield_id = await open_both(chat, clock)
    await chat.say("ana", "/move 47")  # Solitario's (Canfield has four piles)
    clock.advance(minutes=1)
    solitario = await core.sessions.get(solitario_id)
    assert len(solitario.game.moves) == 1
    (board,) = await chat.say("ana", "/undo")
    assert board.board.session_id == solitario_id and solitario.game.moves == []
    (board,) = await chat.say("ana", "/board canfield")
    assert board.board.session_id == canfield_id
    (unknown,) = await chat.say("ana", "/resign poker")
    assert unknown.key == "game.unknown" and unknown.is_private
    (none,) = await chat.say("ana", "/hint imaginary13")
    assert none.key == "move.no_game_named" and "Imaginary Thirteen" in none.text
    board, end, *_ = await chat.say("ana", "/resign canfield")
    assert board.board.session_id == canfield_id and "resigned the Canfield" in end.text
    assert (await core.sessions.get(canfield_id)).record.status != "active"
    assert (await core.sessions.get(solitario_id)).record.status == "active"
    # the Spanish answer names the game too
    chat.admins.add("ana")
    await chat.say("ana", "/lang es")
    (none,) = await chat.say("ana", "/undo canfield")
    assert none.text == "No tienes ninguna partida de Canfield en este chat. Empieza una con /play canfield."


async def test_the_daily_is_its_own_session_beside_a_casual_game_of_the_same_game(core: Core, chat, clock):
    _, casual = await chat.say("ana", "/play imaginary13 7")
    clock.advance(minutes=1)
    started, daily = await chat.say("ana", "/daily imaginary13")
    assert started.key == "daily.started" and daily.board.session_id != casual.board.session_id
    ranked = await core.sessions.get(daily.board.session_id)
    assert ranked.record.ranked
    (refused,) = await chat.say("ana", "/play imaginary13")
    assert refused.key == "play.already_playing"
    # /resign acts on the most recent (the daily); the casual game stays open
    await chat.say("ana", "/resign")
    assert not ranked.is_open
    assert (await core.sessions.get(casual.board.session_id)).is_open
    # the casual replay of the daily is a casual game: refused while the casual one is open
    (refused,) = await chat.say("ana", "/daily imaginary13")
    assert refused.key == "play.already_playing"


async def test_a_bare_move_that_parses_but_is_illegal_is_refused_like_move(chat: FakePlatform):
    await chat.say("ana", "/play canfield 3")
    (bare,) = await chat.say("ana", "wf")  # the waste is empty at the start
    (typed,) = await chat.say("ana", "/move wf")
    assert bare.is_private and bare.key == typed.key and bare.text == typed.text
    assert bare.text.startswith("There is no card") or bare.key.startswith("illegal.")
    assert await chat.say("ana", "wow") == []
    assert await chat.say("ana", "ok then") == []


async def test_a_chosen_pile_and_its_targets_are_marked_on_the_board(chat: FakePlatform):
    _, board = await chat.say("ana", "/play solitario 5")
    assert "selected" not in drawn_style(board)
    pick = chat.button(lambda b: buttons.decode(b.id).verb == "sel" and buttons.decode(b.id).arg == "4")
    (picked,) = await chat.press("ana", pick.id)
    style = drawn_style(picked)
    assert style["selected"] == "4" and style["targets"] == ["7", "f4"]
    (back,) = await chat.press("ana", chat.button(lambda b: b.label == "Cancel").id)
    assert "selected" not in drawn_style(back)
