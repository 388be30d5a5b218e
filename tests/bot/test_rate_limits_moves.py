"""Rate limits protect the platforms, not from the players (issue 35, finding 7): a player
moving on their own board, pressed or typed, at three actions a second for five minutes is
never told to slow down, whatever the default limits; a flood of commands that post new
messages still is, and so are board actions whose posted messages (here typed moves refused
in the chat) would exceed the limits."""

from __future__ import annotations

from core_fakes import FakeClock, FakePlatform, fake_render
from test_rate_limits import Seconds, make_core

from bot.core.limits import Limits
from bot.replies import Reply

SLOW_DOWN = ("error.slow_down", "error.slow_down_chat")


def button_of(board: Reply, verb: str):
    return next((b for b in board.buttons if b.id.split(":")[1] == verb), None)


async def test_three_moves_a_second_for_five_minutes_are_never_slowed_down(db_url: str):
    seconds = Seconds()
    core = await make_core(db_url, Limits(), seconds)  # the defaults: 8 at once, 30 a minute
    try:
        chat = FakePlatform(core)
        assert (await chat.say("ana", "/play freecell 1"))[-1].board is not None
        answered: list[list[Reply]] = []
        for action in range(3 * 60 * 5):
            board = chat.board()
            step = action % 7
            if step in (0, 3):  # tap a column: its targets are shown
                answered.append(await chat.press("ana", button_of(board, "sel").id))
            elif step == 1:  # tap a target: the move is played
                answered.append(await chat.press("ana", button_of(board, "mv").id))
            elif step == 4:  # changed their mind
                answered.append(await chat.press("ana", button_of(board, "back").id))
            elif step == 5:  # a move typed as plain text
                answered.append(await chat.say("ana", "1a"))
            elif step == 6 and button_of(board, "undo") is not None:  # the Undo button
                answered.append(await chat.press("ana", button_of(board, "undo").id))
            else:  # undo typed
                answered.append(await chat.say("ana", "/undo"))
            seconds.now += 1 / 3
        keys = [r.key for replies in answered for r in replies]
        assert not [k for k in keys if k in SLOW_DOWN]
        assert all(replies for replies in answered)  # nothing silenced either
        # every action was a board edit in place: the game went back and forth as played
        assert all(replies[-1].board is not None for replies in answered)
    finally:
        await core.close()


async def test_a_flood_of_posting_commands_is_still_slowed_down_between_moves(db_url: str):
    seconds = Seconds()
    core = await make_core(db_url, Limits(), seconds)
    try:
        chat = FakePlatform(core)
        await chat.say("ana", "/play freecell 1")
        keys = []
        for _ in range(30):  # /help and /leaderboard in a loop, three a second
            for line in ("/help", "/leaderboard"):
                replies = await chat.say("ana", line)
                keys.append(replies[0].key if replies else None)
                seconds.now += 1 / 3
        answered = [k for k in keys if k not in (None, *SLOW_DOWN)]
        # 7 left after /play, then 30 a minute over the 20 s: 17; one notice per run of refusals
        assert 15 <= len(answered) <= 18
        assert keys.count("error.slow_down") <= keys.count(None)
        # the player's own board still answers: moves are not what the flood spent
        moved = await chat.say("ana", "/move 1a")
        assert moved[-1].board is not None and moved[-1].key not in SLOW_DOWN
    finally:
        await core.close()


async def test_moves_that_post_messages_are_slowed_down_past_the_limits(db_url: str):
    seconds = Seconds()
    core = await make_core(db_url, Limits(user_burst=4, user_per_minute=12, chat_burst=0), seconds)
    try:
        chat = FakePlatform(core)
        await chat.say("ana", "/play freecell 1")
        keys = []
        for _ in range(40):  # an illegal typed move is refused in the chat: a new message
            replies = await chat.say("ana", "/move 1h")
            keys.append(replies[0].key if replies else None)
            seconds.now += 1 / 3
        refusals = [k for k in keys if k not in (None, *SLOW_DOWN)]
        assert keys.count("error.slow_down") >= 1 and keys.count(None) > 0
        # 4 at once, then 12 a minute over 13 s: about 4 + 2.6 (+1 in debt)
        assert 5 <= len(refusals) <= 9
    finally:
        await core.close()


async def test_chatter_next_to_a_game_costs_no_token(db_url: str):
    seconds = Seconds()
    core = await make_core(db_url, Limits(user_burst=3, user_per_minute=6, chat_burst=0), seconds)
    try:
        chat = FakePlatform(core)
        await chat.say("ana", "/play freecell 1")
        for _ in range(30):  # talk in the chat: no command, no move, no answer, no cost
            assert await chat.say("ana", "hello there") == []
            seconds.now += 1 / 3
        assert (await chat.say("ana", "/help"))[0].key == "help.text"
    finally:
        await core.close()


__all__ = ["FakeClock", "fake_render"]


async def test_three_processes_share_one_move_bucket(db_url: str):
    seconds = Seconds()
    limits = Limits(move_burst=5, move_per_minute=60)
    cores = [await make_core(db_url, limits, seconds) for _ in range(3)]
    try:
        chats = [FakePlatform(core) for core in cores]
        await chats[0].say("ana", "/play freecell 1")
        keys = []
        for n in range(30):  # a script's taps, spread over the three processes at once
            replies = await chats[n % 3].say("ana", "/undo" if n % 2 else "1a")
            keys.append(replies[0].key if replies else None)
        assert len([k for k in keys if k not in (None, "error.slow_down")]) == 5
        assert keys.count("error.slow_down") == 1  # one notice in all, then silence
    finally:
        for core in cores:
            await core.close()
