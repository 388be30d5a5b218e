"""Several solo games side by side in one chat (a Solitario beside a Canfield beside today's
daily), bare moves that parse but are illegal, and the selection marked on the board image."""

from __future__ import annotations

import json

import pytest
from core_fakes import FakeClock, FakePlatform, play_out

import engine
from bot.core import Core, buttons
from bot.storage import AlreadyExists


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


async def test_a_canfield_opens_beside_a_solitario_but_not_a_second_solitario(
    chat: FakePlatform, clock
):
    solitario, canfield = await open_both(chat, clock)
    assert solitario != canfield
    (refused,) = await chat.say("ana", "/play solitario")
    assert refused.key == "play.already_playing" and refused.is_private
    assert (
        refused.text
        == "You already have a Solitario game here. Finish it or /resign solitario first."
    )
    # another player's games are their own
    (started, _) = await chat.say("bob", "/play solitario 5")
    assert started.key == "play.started"


async def test_a_bare_move_goes_to_the_game_that_reads_it_else_the_last_touched(
    core: Core, chat, clock
):
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


async def test_undo_and_resign_with_two_games_ask_which_and_board_takes_the_game_in_focus(
    core: Core, chat, clock
):
    solitario_id, canfield_id = await open_both(chat, clock)
    await chat.say("ana", "/move 47")  # Solitario's (Canfield has four piles)
    clock.advance(minutes=1)
    solitario = await core.sessions.get(solitario_id)
    assert len(solitario.game.moves) == 1
    # two games open: /undo asks, offering the one game that can take a move back
    (asked,) = await chat.say("ana", "/undo")
    assert asked.key == "focus.which_undo" and [b.label for b in asked.buttons] == [
        "Solitario, move 1"
    ]
    assert len(solitario.game.moves) == 1  # nothing changed yet
    (board,) = await chat.pick("ana", solitario_id)
    assert board.board.session_id == solitario_id and solitario.game.moves == []
    (board,) = await chat.say("ana", "/board canfield")
    assert board.board.session_id == canfield_id
    (board,) = await chat.say("ana", "/board")  # the game last shown
    assert board.board.session_id == canfield_id
    (unknown,) = await chat.say("ana", "/resign poker")
    assert unknown.key == "focus.unknown" and unknown.is_private
    assert unknown.text.startswith("“poker” is neither a game nor a kind of game.")
    assert unknown.text.endswith("say which one: casual, daily, race, table.")
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
    assert (
        none.text
        == "No tienes ninguna partida de Canfield en este chat. Empieza una con /play canfield."
    )
    (nothing,) = await chat.say("ana", "/undo")  # one game left: no question
    assert (
        nothing.key == "undo.nothing" and nothing.text == "No hay nada que deshacer en Solitario."
    )


async def test_the_daily_is_its_own_session_beside_a_casual_game_of_the_same_game(
    core: Core, chat, clock
):
    _, casual = await chat.say("ana", "/play imaginary13 7")
    clock.advance(minutes=1)
    started, daily = await chat.say("ana", "/daily imaginary13")
    assert started.key == "daily.started" and daily.board.session_id != casual.board.session_id
    assert daily.text.startswith("Daily Imaginary Thirteen ·")
    ranked = await core.sessions.get(daily.board.session_id)
    assert ranked.record.ranked
    (refused,) = await chat.say("ana", "/play imaginary13")
    assert refused.key == "play.already_playing"
    # /resign asks which; the daily, once picked, asks Yes/No; the casual game stays open
    (asked,) = await chat.say("ana", "/resign")
    assert asked.key == "focus.which_resign"
    (question,) = await chat.pick("ana", ranked.id)
    assert question.key == "confirm.resign" and ranked.is_open
    await chat.answer("ana")
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
    pick = chat.button(
        lambda b: buttons.decode(b.id).verb == "sel" and buttons.decode(b.id).arg == "4"
    )
    (picked,) = await chat.press("ana", pick.id)
    style = drawn_style(picked)
    assert style["selected"] == "4" and style["targets"] == ["7", "f4"]
    (back,) = await chat.press("ana", chat.button(lambda b: b.label == "Cancel").id)
    assert "selected" not in drawn_style(back)


# Solitario deal 1: a winning line (found by the solver); after its first 77 moves every card
# is face up and stock and waste are empty (after 76, the waste still holds a card).
WINNING_LINE_1 = [
    "wf1",
    "d",
    "d",
    "d",
    "d",
    "d",
    "wf3",
    "d",
    "d",
    "d",
    "d",
    "d",
    "d",
    "d",
    "wf4",
    "41",
    "34",
    "42",
    "74",
    "7f4",
    "6f4",
    "24",
    "41",
    "w2",
    "52",
    "5f2",
    "6f2",
    "1f2",
    "6f1",
    "1f4",
    "4f1",
    "d",
    "wf2",
    "d",
    "d",
    "d",
    "wf4",
    "74",
    "61",
    "6f3",
    "6f2",
    "76",
    "7f2",
    "7f3",
    "1f3",
    "3f3",
    "3f1",
    "1f1",
    "1f4",
    "2f4",
    "1f2",
    "1f4",
    "7f2",
    "1f2",
    "6f2",
    "d",
    "d",
    "d",
    "wf1",
    "d",
    "wf1",
    "2f1",
    "d",
    "d",
    "wf4",
    "w1",
    "wf1",
    "1f1",
    "f21",
    "f13",
    "f14",
    "1f2",
    "54",
    "5f4",
    "5f3",
    "d",
    "wf3",
]


async def near_the_end(core: Core, chat: FakePlatform) -> str:
    """Solitario deal 1 played to one move before every card is face up: its session id."""
    _, board = await chat.say("ana", "/play solitario 1")
    session = await core.sessions.get(board.board.session_id)
    for move in WINNING_LINE_1[:76]:
        await core.sessions.play(session, move, "ana", core.service.clock())
    return session.id


async def test_auto_finish_plays_the_last_cards_as_stored_moves(core: Core, chat: FakePlatform):
    session_id = await near_the_end(core, chat)
    board, end, *_ = await chat.say("ana", f"/move {WINNING_LINE_1[76]}")
    assert end.key == "outcome.won"
    assert (
        buttons.decode(board.buttons[0].id).verb == "again"
        and board.buttons[0].label == "Play again"
    )
    session = await core.sessions.get(session_id)
    stored = await core.store.sessions.moves(session_id)
    assert len(stored) > 77 and stored[:77] == WINNING_LINE_1[:77]
    # every stored move replays to the win the result claims
    replayed = engine.replay("solitario", 1, ["ana"], session.record.options, stored)
    assert replayed.is_over and str(replayed.outcome) == "won"


async def test_auto_finish_can_be_turned_off_per_player_in_every_language(
    core: Core, chat: FakePlatform
):
    (off,) = await chat.say("ana", "/autofinish off")
    assert off.key == "autofinish.off" and off.is_private
    session_id = await near_the_end(core, chat)
    (board,) = await chat.say("ana", f"/move {WINNING_LINE_1[76]}")
    assert len(await core.store.sessions.moves(session_id)) == 77
    assert board.buttons and buttons.decode(board.buttons[0].id).verb != "again"
    # the setting is the player's: another player keeps the default; no word switches it
    assert await core.store.players.autofinish("fake", "bob")
    (on,) = await chat.say("ana", "/autofinish")
    assert on.key == "autofinish.on"
    (bad,) = await chat.say("ana", "/autofinish maybe")
    assert bad.key == "autofinish.usage"
    chat.admins.add("ana")
    for lang, word in (("es", "desactivado"), ("it", "disattivata")):
        await chat.say("ana", f"/lang {lang}")
        (off,) = await chat.say("ana", "/autofinish off")
        assert word in off.text


async def test_play_again_deals_a_new_game_of_the_same_game_and_faces(
    core: Core, chat: FakePlatform, monkeypatch: pytest.MonkeyPatch
):
    # The new deal is random; some deals are over at move 0 (an extra outcome message, and a
    # game that is no longer open): pin it to a live one.
    monkeypatch.setattr("secrets.randbelow", lambda limit: 8)  # the deal random_deal picks
    await chat.say("ana", "/play solitario piacentine 7")
    board, end, *_ = await chat.say("ana", "/resign")
    again = chat.button(lambda b: buttons.decode(b.id).verb == "again", board)
    started, new_board = await chat.press("ana", again.id)
    assert started.key == "play.started" and new_board.board.session_id != board.board.session_id
    fresh = await core.sessions.get(new_board.board.session_id)
    assert (
        fresh.record.game_id == "solitario"
        and fresh.record.faces == "piacentine"
        and fresh.is_active
    )
    # a second press finds the new game open
    (refused,) = await chat.press("ana", again.id)
    assert refused.key == "play.already_playing"
    chat.admins.add("ana")
    await chat.say("ana", "/lang it")
    board, *_ = await chat.say("ana", "/resign")
    assert (
        chat.button(lambda b: buttons.decode(b.id).verb == "again", board).label == "Gioca ancora"
    )


async def test_stats_give_win_rate_and_median_time_of_a_win(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    await near_the_end(core, chat)
    clock.advance(minutes=5, seconds=7)
    await chat.say("ana", f"/move {WINNING_LINE_1[76]}")  # auto-finish wins it
    await chat.say("ana", "/play solitario 2")
    clock.advance(minutes=1)
    await chat.say("ana", "/resign")
    await chat.say("ana", "/play canfield 3")
    await chat.say("ana", "/resign")
    (stats,) = await chat.say("ana", "/stats")
    lines = stats.text.splitlines()
    solitario = lines.index(next(line for line in lines if line.startswith("Solitario")))
    assert lines[solitario + 1] == "  win rate 50%, median time of a win 5:07"
    canfield = lines.index(next(line for line in lines if line.startswith("Canfield")))
    assert lines[canfield + 1] == "  win rate 0%"
    assert stats.params["median_win_seconds"] == {"solitario": 307.0}
    chat.admins.add("ana")
    await chat.say("ana", "/lang it")
    (stats,) = await chat.say("ana", "/stats")
    assert (
        "  percentuale di vittorie 50%, tempo mediano di una vittoria 5:07"
        in stats.text.splitlines()
    )


async def test_play_again_at_a_finished_table_opens_a_lobby_with_the_same_seats(
    core: Core, chat: FakePlatform
):
    await chat.say("ana", "/challenge @bea timer=5")
    await chat.say("bea", "/join")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    await play_out(core, chat)
    board = chat.board()
    again = chat.button(lambda b: buttons.decode(b.id).verb == "rematch", board)
    assert again.label == "Play again"
    (refused,) = await chat.press("cid", again.id)  # not one of its players
    assert refused.key == "game.not_your_game"
    opened, lobby = await chat.press("bea", again.id)
    assert (
        opened.key == "challenge.opened" and opened.mentions == ["ana"] and "5 min" in opened.text
    )
    new = await core.sessions.get(lobby.board.session_id)
    assert (
        new.record.creator == "bea"
        and new.record.players == ["bea", "~cpu1"]
        and new.record.invited == ["ana"]
    )
    assert new.record.status == "lobby"
    (taken,) = await chat.press("ana", again.id)  # the chat's one table is open again
    assert taken.key == "challenge.exists"
    await chat.say("ana", "/join")
    started, *_ = await chat.say("bea", "/start")
    assert started.key == "start.started" and new.record.players == ["bea", "~cpu1", "ana"]


async def test_the_database_holds_one_casual_and_one_ranked_game_per_game(core: Core):
    """What another process would hit: the unique index of migration 6, not the core's check."""
    start = ("fake", "chat-1", "ana", "Ana")
    await core.sessions.new_solo(*start, "canfield", {}, 1, "francesi", "2025-03-14T12:00:00")
    await core.sessions.new_solo(*start, "solitario", {}, 1, "napoletane", "2025-03-14T12:00:00")
    await core.sessions.new_solo(
        *start, "canfield", {}, 2, "francesi", "2025-03-14T12:00:00", ranked=True
    )
    with pytest.raises(AlreadyExists):
        await core.sessions.new_solo(*start, "canfield", {}, 3, "francesi", "2025-03-14T12:00:00")
    with pytest.raises(AlreadyExists):
        await core.sessions.new_solo(
            *start, "canfield", {}, 4, "francesi", "2025-03-14T12:00:00", ranked=True
        )
    assert len(await core.sessions.solos_of("fake", "chat-1", "ana")) == 3
