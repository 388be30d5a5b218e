"""Cartas Maestras tables: open, join, start, turns, private hands, to the end."""

from __future__ import annotations

from core_fakes import FakePlatform

from bot.core import Core, buttons


def verb_of(button) -> str:
    return buttons.decode(button.id).verb


async def seat(chat: FakePlatform, *players: str) -> None:
    await chat.say(players[0], "/challenge " + " ".join(f"@{p}" for p in players[1:]))
    for player in players[1:]:
        await chat.say(player, "/join")


async def test_creator_deals_and_turns_follow_creator_then_joining_order(
    core: Core, chat: FakePlatform
):
    await chat.say("bea", "/stats")  # Bea has been seen: the invitation can mention her
    replies = await chat.say("ana", "/challenge @bea @cid")
    assert replies[0].key == "challenge.opened" and replies[0].mentions == ["bea"]
    lobby = replies[1]
    assert {verb_of(b) for b in lobby.buttons} == {"join", "leave", "start"}
    await chat.press("cid", chat.button(lambda b: verb_of(b) == "join").id)  # cid presses Join
    await chat.say("bea", "/join")
    replies = await chat.say("ana", "/start")
    assert [r.key for r in replies] == ["start.started", "table.caption", "table.turn"]
    assert replies[0].params["players"] == "Ana, Cid, Bea"
    assert replies[2].mentions == ["ana"]
    # the public board shows no hand, only a button to see one's own hand privately
    assert [verb_of(b) for b in replies[1].buttons] == ["hand"]


async def test_hands_are_only_ever_private_and_only_the_player_to_move_acts(
    core: Core, chat: FakePlatform
):
    await seat(chat, "ana", "bea")
    await chat.say("ana", "/start")
    hand = await core.hand_buttons(chat.request("ana"))
    assert hand.is_private and hand.to_user == "ana" and hand.key == "hand.yours" and hand.buttons
    (bea_hand,) = await chat.say("bea", "/hand")
    assert bea_hand.is_private and bea_hand.to_user == "bea" and bea_hand.key == "hand.wait"
    assert bea_hand.buttons == []
    assert await core.hand_buttons(chat.request("zed")) is None
    (refused,) = await chat.press("bea", hand.buttons[0].id)
    assert refused.key == "game.not_your_turn" and refused.is_private
    (stranger,) = await chat.press("zed", hand.buttons[0].id)
    assert stranger.key == "game.not_your_game"
    replies = await chat.press("ana", hand.buttons[0].id)
    # a person's play is announced in the chat too: who, which card, where
    assert [r.key for r in replies] == ["tables.plays", "table.caption", "table.turn"]
    assert replies[0].text == "Ana passes." or (
        replies[0].text.startswith("Ana plays ") and " on path " in replies[0].text
    )
    assert replies[2].mentions == ["bea"]
    assert all(r.visibility == "channel" for r in replies)


async def test_a_table_is_played_to_the_end_with_hand_buttons(core: Core, chat: FakePlatform):
    await seat(chat, "ana", "bea", "cid")
    await chat.say("ana", "/start")
    for _ in range(600):
        turn = chat.replies[-1]
        if turn.key != "table.turn":
            break
        player = turn.mentions[0]
        hand = await core.hand_buttons(chat.request(player))
        await chat.press(player, hand.buttons[0].id)
    assert chat.replies[-1].key == "table.over"
    assert await core.store.results.count() == 3
    (board,) = await chat.say("ana", "/leaderboard maestras all")
    assert board.key == "leaderboard.text" and "masters" in board.text
    assert (await chat.say("ana", "/challenge"))[
        0
    ].key == "challenge.opened"  # the chat is free again


async def test_lobby_leave_kick_and_end(core: Core, chat: FakePlatform):
    await seat(chat, "ana", "bea", "cid")
    assert (await chat.say("bea", "/leave"))[0].key == "leave.left"
    assert (await chat.say("ana", "/kick @cid"))[0].key == "kick.kicked"
    assert (await chat.say("ana", "/start"))[0].key == "start.too_few"
    assert (await chat.say("ana", "/end"))[0].key == "end.ended"
    assert (await chat.say("bea", "/join"))[0].key == "table.none"


async def test_one_table_per_chat_and_at_most_eight_players(chat: FakePlatform):
    await seat(chat, "p0", *[f"p{i}" for i in range(1, 8)])
    assert (await chat.say("p8", "/join"))[0].key == "join.full"
    assert (await chat.say("p8", "/challenge"))[0].key == "challenge.exists"
    assert (await chat.say("p0", "/start"))[0].key == "start.started"
    assert (await chat.say("p8", "/join"))[0].key == "join.started"
    # leaving a started game: the seat stays (the engine keeps it) and passes by itself
    (asked,) = await chat.say("p1", "/leave")  # asks first: the game cannot be rejoined
    assert asked.key == "confirm.leave"
    assert (await chat.answer("p1"))[0].key == "tables.left_game"
