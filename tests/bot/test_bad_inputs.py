"""Bad inputs: each gets its own short, specific answer, and nothing stored changes."""

from __future__ import annotations

import pytest
from core_fakes import FakePlatform

from bot.core import Core


async def stored_state(core: Core) -> dict[str, list[tuple]]:
    """Everything a bad input must not change (the players table only records who was seen)."""
    state = {}
    for table in ("sessions", "moves", "results", "settings"):
        state[table] = await core.store.fetch(f"SELECT * FROM {table} ORDER BY 1, 2")
    return state


@pytest.fixture
async def scene(core: Core):
    """chat-1: Ana plays Imaginary Thirteen (one move made). chat-2: Carl's table, alone."""
    one = FakePlatform(core, chat_id="chat-1")
    two = FakePlatform(core, chat_id="chat-2")
    await one.say("ana", "/play imaginary13 3")
    first_board = one.board()
    await one.say("ana", "/move t4")
    await two.say("carl", "/challenge @dan")
    await two.say("dan", "/stats")  # Dan has been seen (but sits nowhere)
    return one, two, first_board


BAD_LINES = [
    # (chat, user, line, expected reply key)
    (1, "ana", "/frobnicate now", "error.unknown_command"),
    (1, "ana", "/play", "play.usage"),
    (1, "bob", "/play poker", "game.unknown"),
    (1, "bob", "/play maestras", "play.use_challenge"),
    (1, "ana", "/play imaginary13 7", "play.already_playing"),
    (1, "bob", "/play imaginary13 99999999999", "play.deal_out_of_range"),
    (1, "bob", "/play freecell 0", "play.deal_out_of_range"),  # Microsoft's deals start at 1
    (1, "bob", "/play freecell 1000001", "play.deal_out_of_range"),
    (1, "bob", "/play imaginary13 sideways", "play.bad_argument"),
    (1, "bob", "/play imaginary13 piacentine", "play.faces_not_offered"),
    (1, "bob", "/play imaginary13 colour=blue", "illegal.unknown_option"),
    (1, "ana", "/move", "move.usage"),
    (1, "ana", "/move zz9", "illegal.bad_notation"),
    (1, "ana", "/move b5", "illegal.waste_empty"),
    (1, "bob", "/move t1", "move.no_game"),
    (1, "bob", "/undo", "move.no_game"),
    (1, "bob", "/resign", "move.no_game"),
    (1, "ana", "/move " + "t" * 600, "error.too_long"),
    (1, "admin", "/lang fr", "lang.unknown"),
    (1, "admin", "/lang", "lang.usage"),
    (1, "ana", "/lang it", "lang.admins_only"),
    (1, "ana", "/rules", "rules.usage"),
    (1, "ana", "/rules chess", "game.unknown"),
    (1, "ana", "/help chess", "game.unknown"),
    (1, "ana", "/join", "table.none"),
    (1, "ana", "/start", "table.none"),
    (1, "ana", "/hand", "hand.no_table"),
    (2, "dan", "/start", "start.not_creator"),
    (2, "carl", "/start", "start.too_few"),
    (2, "ana", "/leave", "leave.not_seated"),
    (2, "ana", "/challenge", "challenge.exists"),
    (2, "carl", "/join", "join.already"),
    (2, "ana", "/end", "end.not_allowed"),
    (2, "carl", "/kick @ghost", "kick.not_seated"),
    (2, "carl", "/kick @carl", "kick.creator"),
    (1, "ana", "/stats @nobody", "stats.unknown_player"),
    # a lone surrogate (JSON can carry "\\ud800"): the database cannot store it as it is
    (1, "ana", "/stats @\ud800", "stats.unknown_player"),
    (1, "ana", "/move \ud800", "illegal.bad_notation"),
    (1, "ana", "/leaderboard forever", "leaderboard.unknown_word"),
    (1, "bob", "/hint", "move.no_game"),
    (1, "ana", "/daily chess", "daily.unknown_game"),
    (2, "ana", "/resign", "move.no_game"),
]


@pytest.mark.parametrize(
    ("chat_no", "user", "line", "key"), BAD_LINES, ids=[f"{r[2][:30]}" for r in BAD_LINES]
)
async def test_bad_line_gets_a_specific_private_answer_and_changes_nothing(
    core, scene, chat_no, user, line, key
):
    one, two, _ = scene
    chat = one if chat_no == 1 else two
    chat.admins.add("admin")
    before = await stored_state(core)
    replies = await chat.say(user, line)
    assert [r.key for r in replies] == [key]
    assert replies[0].is_private and replies[0].to_user == user
    assert replies[0].text and "Traceback" not in replies[0].text
    assert await stored_state(core) == before


async def test_tables_are_refused_in_private_chats(core, scene):
    one, _, _ = scene
    before = await stored_state(core)
    replies = await one.say("bob", "/challenge", is_group=False)
    assert [r.key for r in replies] == ["challenge.groups_only"]
    assert await stored_state(core) == before


async def test_chatter_that_is_not_a_move_gets_no_answer(core, scene):
    one, _, _ = scene
    before = await stored_state(core)
    assert await one.say("ana", "hello there") == []
    assert await one.say("ana", "lol") == []
    assert await stored_state(core) == before


BAD_PRESSES = [
    (
        "stranger presses Ana's board",
        "bob",
        lambda board, sid: board.buttons[0].id,
        "game.not_your_game",
    ),
    ("Ana presses her out-of-date first board", "ana", lambda board, sid: None, "button.stale"),
    ("forged session", "ana", lambda board, sid: "v1:mv:zzzzzzzz:1:t1", "button.unknown"),
    ("garbage id", "ana", lambda board, sid: "'; DROP TABLE sessions; --", "button.unknown"),
    ("unknown verb", "ana", lambda board, sid: f"v1:win:{sid}:1:", "button.unknown"),
    ("over-long id", "ana", lambda board, sid: f"v1:mv:{sid}:1:" + "a" * 80, "button.unknown"),
    (
        "right session, future revision",
        "ana",
        lambda board, sid: f"v1:mv:{sid}:9:t4",
        "button.stale",
    ),
    (
        "select a pile that has no move",
        "ana",
        lambda board, sid: f"v1:sel:{sid}:1:zz",
        "button.stale",
    ),
]


@pytest.mark.parametrize(
    ("what", "user", "make_id", "key"), BAD_PRESSES, ids=[p[0] for p in BAD_PRESSES]
)
async def test_bad_press_gets_a_private_answer_and_changes_nothing(
    core, scene, what, user, make_id, key
):
    one, _, first_board = scene
    board = one.board()
    sid = board.board.session_id
    button_id = make_id(board, sid) or first_board.buttons[0].id
    before = await stored_state(core)
    replies = await one.press(user, button_id)
    assert [r.key for r in replies] == [key]
    assert replies[0].is_private and replies[0].to_user == user
    assert await stored_state(core) == before


async def test_a_board_button_pressed_from_another_chat_is_unknown_there(core, scene):
    one, two, _ = scene
    before = await stored_state(core)
    replies = await two.press("ana", one.board().buttons[0].id)
    assert [r.key for r in replies] == ["button.unknown"]
    assert await stored_state(core) == before
