"""Flood limits and Telegram's refusals: nothing lost, nothing too fast, nothing noisy."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time

import pytest
from fake_telegram import (
    CHAT_SENDING_METHODS,
    TelegramWorld,
    button_revision,
    button_session,
    button_verb,
)

from bot.platforms.telegram.outbox import flood_limits

GROUP, OTHER_GROUP = -100333, -100334
ALICE, BOB = 701, 702


def next_press(data: list[str]) -> str:
    """What an eager player taps next: a move, else "to foundation", else the turned card."""
    for verb in ("mv", "found", "sel"):
        for item in data:
            if button_verb(item) == verb:
                return item
    raise AssertionError(f"no playable button in {data}")


async def start_game(world, chat=GROUP):
    world.fake.user(ALICE, "Alice")
    world.fake.user(BOB, "Bob")
    world.fake.group(chat)
    await world.command(chat, ALICE, "/play imaginary13 1")
    return world.fake.latest_photo(chat)


async def test_fifty_presses_in_five_seconds_keep_every_move_within_the_limits(tmp_path):
    async with TelegramWorld(tmp_path, limits=flood_limits(), strict_limits=True) as world:
        board = await start_game(world)
        session = button_session(board.callback_data()[0])
        # when the bot sends each message, by its own clock: that is where it keeps the limits
        # (when a request reaches Telegram also depends on the machine and the network)
        sent_at: dict[int, list[float]] = {}
        limiter = world.adapter.outbox.limiter
        record = limiter.record

        def recorded(chat_id: int) -> None:
            sent_at.setdefault(chat_id, []).append(time.monotonic())
            record(chat_id)

        limiter.record = recorded
        presses: list[tuple[str, str, float]] = []
        began = time.monotonic()
        for i in range(50):
            board = world.fake.latest_photo(GROUP)
            data = next_press(board.callback_data())
            presses.append(
                (world.fake.press(GROUP, ALICE, board.message_id, data), data, time.monotonic())
            )
            await asyncio.sleep(max(0.0, began + (i + 1) * 0.1 - time.monotonic()))
        # a flood however busy the machine: the group limit (20 a minute) would need 150 s
        assert time.monotonic() - began < 60
        accepted = 0
        answered_at = {
            c.params["callback_query_id"]: c.at for c in world.fake.calls_of("answerCallbackQuery")
        }
        for query_id, data, pressed_at in presses:
            answer = await world.fake.answer_of(query_id)
            answered_at = {
                c.params["callback_query_id"]: c.at
                for c in world.fake.calls_of("answerCallbackQuery")
            }
            # every press answered at once, not queued behind the chat's flood limit: queued at
            # one message a second, the 50th answer would come about 45 s after its press. The
            # bound tells the two apart and leaves a starved machine its seconds.
            assert answered_at[query_id] - pressed_at < 15.0
            if not answer.get("text") and button_verb(data) in ("mv", "found"):
                accepted += 1
        await world.settled()
        game = (await world.core.sessions.get(session)).game
        # every accepted move kept (how many are accepted depends on how fast the board came
        # back between presses, which a busy machine slows: presses on a stale board are refused)
        assert accepted >= 1 and game.move_number == accepted
        shown = world.fake.latest_photo(GROUP)
        assert {button_revision(d) for d in shown.callback_data()} == {
            (await world.core.sessions.get(session)).record.revision
        }  # the board shows the newest state
        # The bot sent nothing faster than the limits...
        for times in sent_at.values():
            assert all(b - a >= 1.0 for a, b in itertools.pairwise(times)), times
            assert all(len([t for t in times if s <= t < s + 60]) <= 20 for s in times)
        # ...and nothing was refused but Telegram's "not modified", when a refused press redrew
        # the board already shown (handled quietly: test_unchanged_board_..._handled_quietly),
        # and the fake's flood guard when a busy machine delivered two requests sent a second
        # apart closer together than 0.9 s (waited out and sent again, as the board shows)
        refused = [c for c in world.fake.calls if c.method in CHAT_SENDING_METHODS and not c.ok]
        harmless = ("not modified", "Too Many Requests")
        assert [c for c in refused if not any(h in (c.error or "") for h in harmless)] == []
        edits = world.fake.calls_of("editMessageMedia")
        assert len(edits) < 10  # coalesced: about one board per second, not one per press


# PTB itself warns while building RetryAfter (its retry_after is to become a timedelta).
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_retry_after_is_waited_out_and_the_board_still_arrives(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        board = await start_game(world)
        world.fake.fail_next(
            "editMessageMedia", 429, "Too Many Requests: retry after 1", retry_after=1
        )
        answer = await world.press(
            GROUP, ALICE, board.message_id, next_press(board.callback_data())
        )
        assert not answer.get("text")
        failed, retried = world.fake.calls_of("editMessageMedia")
        assert not failed.ok and retried.ok
        assert retried.at - failed.at >= 0.95
        assert world.fake.latest_photo(GROUP).edits == 1


async def test_a_deleted_board_is_posted_again_and_then_edited(tmp_path):
    async with TelegramWorld(tmp_path) as world:
        board = await start_game(world)
        data = next_press(board.callback_data())
        world.fake.delete(GROUP, board.message_id)
        await world.press(GROUP, ALICE, board.message_id, data)
        new_board = world.fake.latest_photo(GROUP)
        assert new_board.message_id != board.message_id
        await world.press(GROUP, ALICE, new_board.message_id, next_press(new_board.callback_data()))
        assert world.fake.latest_photo(GROUP).message_id == new_board.message_id
        assert world.fake.latest_photo(GROUP).edits == 1
        assert len(world.fake.calls_of("sendPhoto")) == 2


async def test_unchanged_board_and_removed_bot_are_handled_quietly(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    async with TelegramWorld(tmp_path) as world:
        board = await start_game(world)
        session = button_session(board.callback_data()[0])
        revision = button_revision(board.callback_data()[0])
        # "back" with nothing selected draws the same board: Telegram says "not modified".
        await world.press(GROUP, ALICE, board.message_id, f"v1:back:{session}:{revision}:")
        assert any(
            "not modified" in (c.error or "") for c in world.fake.calls_of("editMessageMedia")
        )
        world.fake.kick(GROUP)
        await world.command(GROUP, ALICE, "/help")
        world.fake.group(OTHER_GROUP)
        await world.command(OTHER_GROUP, BOB, "/help")  # the bot goes on elsewhere
        assert world.fake.bot_messages(OTHER_GROUP)
        assert len(world.fake.calls_of("sendPhoto")) == 1  # nothing re-posted
    noisy = [
        r for r in caplog.records if r.name.startswith("bot.") and r.levelno >= logging.WARNING
    ]
    assert noisy == []
