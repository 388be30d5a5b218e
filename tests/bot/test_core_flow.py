"""Playing through the core as players do: boards, buttons, restarts, double presses, idling."""

from __future__ import annotations

import asyncio

from core_fakes import FakeClock, FakePlatform, fake_render

import engine
from bot.app import open_core
from bot.core import Core, buttons


def verb_of(button) -> str:
    return buttons.decode(button.id).verb


async def test_play_posts_a_board_with_an_image_and_buttons_then_edits_it(chat: FakePlatform):
    replies = await chat.say("ana", "/play imaginary13 3")
    assert [r.key for r in replies] == ["play.started", "board.caption"]
    board = replies[1]
    assert board.image.startswith(b"PNG") and board.board.message_id is None
    assert {verb_of(b) for b in board.buttons} >= {"found", "sel", "resign"}
    assert all(len(b.id.encode()) <= 64 for b in board.buttons)
    replies = await chat.say("ana", "/move t4")
    assert replies[0].key == "board.caption" and replies[0].params["move"] == 1
    # the adapter posted the first board as m1: the next board edits it in place
    assert replies[0].board.message_id == "m1"


async def test_select_then_target_buttons_play_the_move(chat: FakePlatform):
    await chat.say("ana", "/play imaginary13 3")
    select = chat.button(lambda b: verb_of(b) == "sel" and b.id.endswith(":t"))
    (targets,) = await chat.press("ana", select.id)
    assert targets.board.message_id == "m1"  # the same message, now showing the targets
    target = chat.button(lambda b: buttons.decode(b.id).arg == "t4", targets)
    (after,) = await chat.press("ana", target.id)
    assert after.params["move"] == 1
    back = chat.button(lambda b: verb_of(b) == "sel", after)
    (shown,) = await chat.press("ana", back.id)
    (restored,) = await chat.press("ana", chat.button(lambda b: verb_of(b) == "back", shown).id)
    assert [b.id for b in restored.buttons] == [b.id for b in after.buttons]


async def test_plain_text_move_is_played_only_for_someone_with_a_game(chat: FakePlatform):
    await chat.say("ana", "/play imaginary13 3")
    (board,) = await chat.say("ana", "t4")
    assert board.params["move"] == 1
    assert await chat.say("bob", "t4") == []


async def test_a_whole_game_by_buttons_ends_with_a_stored_result_and_leaderboard(
    core: Core, chat: FakePlatform
):
    await chat.say("ana", "/play imaginary13 11")
    for _ in range(400):
        board = chat.board()
        if [verb_of(b) for b in board.buttons] == ["again"]:  # over: only "play again" is left
            break
        one_tap = [b for b in board.buttons if verb_of(b) == "found"]
        if one_tap:
            await chat.press("ana", one_tap[0].id)
            continue
        select = [b for b in board.buttons if verb_of(b) == "sel"]
        (targets,) = await chat.press("ana", select[0].id)
        await chat.press("ana", next(b for b in targets.buttons if verb_of(b) == "mv").id)
    end = chat.replies[-1]
    assert end.key in {"outcome.won", "outcome.lost"}
    assert await core.store.results.count() == 1
    (board,) = await chat.say("bob", "/leaderboard imaginary13")
    assert board.key == "leaderboard.text" and "Ana" in board.text
    (stats,) = await chat.say("bob", "/stats @Ana")
    assert stats.key == "stats.text" and "1 game," in stats.text
    assert (await chat.say("ana", "/move t1"))[0].key == "move.no_game"


async def test_after_a_restart_the_game_continues_and_old_buttons_still_work(
    db_url: str, clock: FakeClock
):
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    await chat.say("ana", "/play imaginary13 5")
    for _ in range(3):
        await chat.press("ana", chat.button(lambda b: verb_of(b) == "found").id)
    moves_before = engine.replay(
        "imaginary13",
        5,
        ["ana"],
        {},
        await core.store.sessions.moves(chat.board().board.session_id),
    ).moves
    old_board = chat.board()
    await core.close()

    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    try:
        again = FakePlatform(core)
        (board,) = await again.say("ana", "/board")
        assert board.params["move"] == 3 and board.board.session_id == old_board.board.session_id
        assert [b.id for b in board.buttons] == [b.id for b in old_board.buttons]
        old_select = next(b for b in old_board.buttons if verb_of(b) == "sel")
        (targets,) = await again.press("ana", old_select.id)
        assert targets.key == "board.caption"
        (after,) = await again.press(
            "ana", next(b for b in targets.buttons if verb_of(b) == "mv").id
        )
        assert after.params["move"] == 4
        sid = after.board.session_id
        assert (await core.store.sessions.moves(sid))[:3] == moves_before
    finally:
        await core.close()


async def test_two_presses_of_one_button_at_once_apply_the_move_once(
    core: Core, chat: FakePlatform
):
    await chat.say("ana", "/play imaginary13 5")
    press = chat.button(lambda b: verb_of(b) == "found")
    first, second = await asyncio.gather(chat.press("ana", press.id), chat.press("ana", press.id))
    keys = sorted(r.key for r in first + second)
    assert keys == ["board.caption", "button.stale"]
    assert len(await core.store.sessions.moves(chat.board().board.session_id)) == 1


async def test_undo_takes_a_move_back_and_old_boards_stay_out_of_date(
    core: Core, chat: FakePlatform
):
    await chat.say("ana", "/play imaginary13 5")
    before_move = chat.board()
    await chat.press("ana", chat.button(lambda b: verb_of(b) == "found").id)
    (undone,) = await chat.say("ana", "/undo")
    assert undone.params["move"] == 0
    assert await core.store.sessions.moves(undone.board.session_id) == []
    # Same move number as the first board, but a different board revision: refused.
    (stale,) = await chat.press("ana", before_move.buttons[0].id)
    assert stale.key == "button.stale"


async def test_resign_stores_the_result_and_frees_the_player(core: Core, chat: FakePlatform):
    await chat.say("ana", "/play imaginary13 5")
    replies = await chat.say("ana", "/resign")
    assert [r.key for r in replies] == ["board.caption_over", "outcome.resigned"]
    assert await core.store.results.count() == 1
    assert (await chat.say("ana", "/play imaginary13 6"))[0].key == "play.started"


async def test_idle_solo_games_end_as_resigned_after_24_hours(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    pushed = []

    async def push(platform, chat_id, reply):
        pushed.append((platform, chat_id, reply.key))

    core.set_push(push)
    _, ana_board = await chat.say("ana", "/play imaginary13 5")
    await chat.say("bob", "/play imaginary13 5")
    clock.advance(hours=20)
    await chat.say("bob", "/move t1")  # an illegal move is not activity...
    await chat.press("bob", chat.button(lambda b: verb_of(b) == "found").id)  # ...a move is
    clock.advance(hours=5)
    assert await core.sweep() == 1
    assert pushed == [("fake", "chat-1", "game.expired_notice")]
    assert await core.store.results.count() == 1
    # Ana comes back: she is told her game expired, not that she never had one
    (expired,) = await chat.say("ana", "/board")
    assert expired.key == "game.expired" and expired.is_private
    assert expired.text.startswith(
        "Your Imaginary Thirteen game here was ended after 24 hours without a move"
    )
    assert (await chat.press("ana", ana_board.buttons[0].id))[0].key == "game.expired"
    clock.advance(hours=20)  # Bob's game idles too: ended when he comes back, before the sweep
    assert (await chat.say("bob", "/move t1"))[0].key == "game.expired"
    assert await core.store.results.count() == 2
    # once a newer game of hers here ended the ordinary way, "no game" is the answer again
    await chat.say("ana", "/play canfield 2")
    await chat.say("ana", "/resign")
    assert (await chat.say("ana", "/undo"))[0].key == "move.no_game"


async def test_a_press_on_a_board_idle_for_24_hours_ends_its_game_first(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    await chat.say("ana", "/play imaginary13 5")
    clock.advance(hours=24)  # the sweep has not run yet
    replies = await chat.press("ana", chat.button(lambda b: verb_of(b) == "found").id)
    assert [r.key for r in replies] == ["game.expired"]
    assert await core.store.results.count() == 1
    assert await core.store.sessions.moves(chat.board().board.session_id) == []


async def test_language_is_per_chat_and_set_by_admins(chat: FakePlatform):
    chat.admins.add("ana")
    (reply,) = await chat.say("ana", "/lang it")
    assert reply.key == "lang.set" and "italiano" in reply.text
    replies = await chat.say("bob", "/play imaginary13 3")
    assert replies[0].text == "Bob inizia Tredici Immaginario, smazzata 3."
    (private,) = await chat.say("bob", "/lang es", is_group=False)
    assert private.key == "lang.set"


async def test_command_list_names_every_command_in_the_language(core: Core):
    names = [name for name, _ in core.command_list("es")]
    assert names[:2] == ["play", "move"] and "leaderboard" in names
    assert all(text for _, text in core.command_list("it"))


async def test_commands_addressed_to_the_bot_by_name_are_understood(chat: FakePlatform):
    (reply,) = await chat.say("ana", "/help@TavoloBot")
    assert reply.key == "help.text" and "/play" in reply.text
