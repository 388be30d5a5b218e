"""Discord's outbox (issue 27) and its 3-second rule (issue 28), end to end: the real discord.py
client and adapter against the fake Discord.

What goes through the outbox is what a channel gets outside the answer to a user's own
interaction: board edits caused by a command (``/move``), the core's pushes, nudges. These
tests hold the fake's channel writes or make it answer 429s to see the queue as a player
would: another channel is not kept waiting, a board shows its newest state, the queue is
bounded, a ``retry_after`` is waited out. None of them depends on the machine being fast: they
wait for events or poll with generous bounds, and timings are asserted only as lower bounds.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import engine
from bot.core import buttons
from bot.platforms.discord import ACK_BUDGET
from bot.platforms.discord.outbox import discord_limits, discord_outbox
from bot.replies import Reply, Request
from tests.e2e.fake_discord import (
    ACK_DEADLINE_SECONDS,
    FakeChannel,
    FakeMessage,
    Table,
    render_view,
    running_table,
    view_of,
)

GENEROUS = 60.0  # seconds a poll may take on a starved machine before the test gives up


async def until(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` (the event it waits for has no hook of its own)."""
    deadline = time.monotonic() + GENEROUS
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        await asyncio.sleep(0.01)


@pytest.fixture
async def table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    async for running in running_table(tmp_path, caplog):
        yield running


def channel_posts(table: Table, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in table.fake.channel_messages(channel) if m.interaction_id is None]


def writes_to(table: Table, path: str) -> list[tuple[float, int]]:
    """(time, status) of every REST call to ``path``."""
    return [(at, status) for at, _, called, status in table.fake.request_log if called == path]


def first_moves(count: int, deal: int = 23) -> list[str]:
    """``count`` legal moves of Imaginary13 deal ``deal``: each time the first legal one."""
    game = engine.new_game("imaginary13", deal=deal)
    for _ in range(count):
        game.play(game.legal_moves()[0])
    return list(game.moves)


async def a_board(table: Table, room: FakeChannel, deal: int = 23) -> tuple[Any, FakeMessage, str]:
    """Alice's Imaginary13 board in ``room``: (alice, its message, its session id)."""
    alice = table.fake.add_user("alice")
    await table.slash(alice, room, "play", game="imaginary13", deal=deal)
    board = table.board(room)
    action = buttons.decode(board.custom_ids[0])
    assert action is not None
    return alice, board, action.session_id


# ----- fairness ------------------------------------------------------------------------------------
@pytest.fixture
async def busy_table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    """A bot whose overall limit is low enough to bind: channels must take turns under it."""
    async for running in running_table(
        tmp_path, caplog, {"discord_limits": discord_limits(global_per_second=10)}
    ):
        yield running


async def test_a_flooded_channel_delays_another_channels_message_by_one_turn_at_most(
    busy_table: Table,
) -> None:
    table, client = busy_table, busy_table.client
    flooded, quiet = table.fake.add_channel("flooded"), table.fake.add_channel("quiet")
    turns: list[int] = []  # the channel of every message, in the order it took its turn
    record = client.outbox.limiter.record

    def counted(chat_id: int) -> None:
        turns.append(chat_id)
        record(chat_id)

    client.outbox.limiter.record = counted
    for n in range(20):
        await client.push("discord", str(flooded.id), Reply("flood", f"flood {n}"))
    # the first second's share is out: the flooded channel now waits in line for each turn
    await until(lambda: len(turns) >= 10, "the flood's first second")
    await client.push("discord", str(quiet.id), Reply("quiet", "hello, quiet channel"))
    queued_at = len(turns)
    await client.drain()

    # The quiet channel's message took the turn after the next one at most...
    assert turns.index(quiet.id) - queued_at <= 1, turns
    # ...and reached the channel long before the flood had all gone out.
    order = [p for _, m, p, _ in table.fake.request_log if m == "POST" and "/channels/" in p]
    quiet_at = order.index(f"/channels/{quiet.id}/messages")
    assert order[quiet_at + 1 :].count(f"/channels/{flooded.id}/messages") >= 8
    assert [m.content for m in channel_posts(table, quiet)] == ["hello, quiet channel"]
    assert [m.content for m in channel_posts(table, flooded)] == [f"flood {n}" for n in range(20)]


# ----- merging board edits ---------------------------------------------------------------------------
async def test_fifty_edits_of_one_board_wait_as_one_and_the_newest_is_shown(table: Table) -> None:
    fake, client = table.fake, table.client
    room = fake.add_channel("cards")
    line = first_moves(50)
    alice, board, _ = await a_board(table, room)
    edits = f"/channels/{room.id}/messages/{board.id}"

    fake.channel_writes.clear()  # Discord is slow to take channel writes now
    for move in line[:50]:
        # /move edits the board message (not the interaction's own): through the outbox
        answered = await fake.slash(alice, room, "move", text=move)
        assert str(board.id) in fake.messages[answered.response_message_id].content  # its link
    await until(lambda: len(writes_to(table, edits)) == 1, "the first edit on its way")
    assert client.outbox.pending(room.id) == 1  # 49 edits waiting as one
    assert client.outbox.merged == 48
    fake.channel_writes.set()
    await client.drain()

    assert len(writes_to(table, edits)) == 2  # the one on its way, then the newest board
    assert view_of(board)["move_number"] == 50
    assert table.board(room) is board


async def test_an_older_board_never_replaces_a_newer_one_in_the_outbox() -> None:
    """A board made earlier (a smaller stamp) that reaches the outbox later does not replace
    the newer one waiting; and the outbox says which boards it holds, waiting or on their way
    (the adapter then queues a press's board behind them instead of answering with it)."""
    sent: list[str] = []
    gate = asyncio.Event()

    async def deliver(chat_id: int, item: Any) -> None:
        await gate.wait()
        sent.append(item.payload)

    outbox = discord_outbox(deliver)
    older, newer = outbox.stamp(), outbox.stamp()
    outbox.put(1, "text")  # on its way first
    outbox.put(1, "board, newer", coalesce_key="board", seq=newer)
    outbox.put(1, "board, older", coalesce_key="board", seq=older)
    await until(lambda: outbox.pending(1) == 1, "the text on its way")
    assert outbox.holds(1, "board") and not outbox.holds(1, "other") and not outbox.holds(2, "b")
    gate.set()
    await outbox.drain(GENEROUS)
    assert sent == ["text", "board, newer"] and not outbox.holds(1, "board")
    await outbox.close()


def test_what_discord_errors_mean_to_the_outbox() -> None:
    from types import SimpleNamespace

    import discord

    from bot.platforms.discord.outbox import classify, retry_after
    from bot.platforms.outbox import Failure

    def http(error: type[discord.HTTPException], status: int, code: int = 0, **headers: str) -> Any:
        response = SimpleNamespace(status=status, reason="", headers=headers)
        return error(response, {"code": code, "message": "no"})  # type: ignore[arg-type]

    assert classify(discord.RateLimited(12.5)) == Failure("wait", 12.5)
    assert classify(http(discord.HTTPException, 429, **{"Retry-After": "2.5"})) == Failure(
        "wait", 2.5
    )
    assert retry_after(http(discord.HTTPException, 429)) == 1.0  # no figure given at all
    assert classify(http(discord.Forbidden, 403)) == Failure("drop_chat")
    assert classify(http(discord.NotFound, 404, code=10003)) == Failure("drop_chat")
    assert classify(http(discord.NotFound, 404, code=10008)) == Failure("skip")
    assert classify(http(discord.DiscordServerError, 503)) == Failure("retry")
    assert classify(http(discord.HTTPException, 400, code=50035)) == Failure("skip")
    assert classify(OSError("reset")) == Failure("retry")
    assert classify(ValueError("a bug")) is None  # logged with its traceback, skipped


# ----- the bound ------------------------------------------------------------------------------------------
async def test_a_full_channel_queue_drops_its_oldest_texts_and_keeps_the_newest_board(
    table: Table,
) -> None:
    fake, client, core = table.fake, table.client, table.core
    room = fake.add_channel("cards")
    alice, board, _ = await a_board(table, room)
    player = Request("discord", str(room.id), str(alice.id), "alice")
    line = first_moves(5)

    fake.channel_writes.clear()
    moved = await core.handle_text(player, f"/move {line[0]}")
    await client.deliver(moved, player)  # out of band (as a push): the board edit waits
    for n in range(60):
        await client.push("discord", str(room.id), Reply("note", f"note {n}"))
    for move in line[1:5]:
        await client.deliver(await core.handle_text(player, f"/move {move}"), player)
    limit = discord_limits().max_per_chat
    assert client.outbox.pending(room.id) == limit
    assert client.outbox.dropped == 60 + 1 - limit  # the oldest notes; the board merged
    depth = f'tavolo_outbox_depth{{platform="discord"}} {float(limit)}'
    assert depth in core.metrics.exposition().decode()
    fake.channel_writes.set()
    await client.drain()

    texts = [m.content for m in channel_posts(table, room)]
    assert texts == [f"note {n}" for n in range(60 + 1 - limit, 60)]  # the newest ones
    assert view_of(board)["move_number"] == 5  # the player sees the final board
    assert 'tavolo_outbox_depth{platform="discord"} 0.0' in core.metrics.exposition().decode()


# ----- 429 and retry_after -------------------------------------------------------------------------------
async def test_discords_429_is_waited_out_by_discord_py_and_sent_once(table: Table) -> None:
    fake, client = table.fake, table.client
    room = fake.add_channel("cards")
    fake.retry_after = 0.3
    fake.rate_limit_next["POST"] = 1
    await client.push("discord", str(room.id), Reply("note", "after a 429"))
    await client.drain()

    (limited, status), (sent, ok) = writes_to(table, f"/channels/{room.id}/messages")
    assert (status, ok) == (429, 200)
    assert sent - limited >= 0.3  # retried only after retry_after
    assert [m.content for m in channel_posts(table, room)] == ["after a 429"]


async def test_a_429_that_reaches_the_outbox_pauses_its_channel_only(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """A 429 from the edge (no ``Via`` header) is raised by discord.py: the outbox waits its
    ``retry_after`` before trying that channel again, and another channel goes on meanwhile."""
    fake, client = table.fake, table.client
    limited_room, other_room = fake.add_channel("limited"), fake.add_channel("other")
    fake.retry_after = 0.5
    fake.edge_rate_limit_next["POST"] = 1
    await client.push("discord", str(limited_room.id), Reply("note", "first"))
    await client.push("discord", str(limited_room.id), Reply("note", "second"))
    await until(lambda: fake.rate_limited, "the 429")
    await client.push("discord", str(other_room.id), Reply("note", "elsewhere"))
    await client.drain()

    (limited, status), *retried = writes_to(table, f"/channels/{limited_room.id}/messages")
    assert status == 429 and [s for _, s in retried] == [200, 200]
    assert retried[0][0] - limited >= 0.5  # waited out
    ((elsewhere, _),) = writes_to(table, f"/channels/{other_room.id}/messages")
    assert elsewhere < retried[0][0]  # the other channel did not wait for it
    assert [m.content for m in channel_posts(table, limited_room)] == ["first", "second"]
    assert "discord asked to wait 0.5 s" in caplog.text


async def test_discords_per_channel_bucket_is_kept_without_a_429(table: Table) -> None:
    """The fake keeps a bucket of 3 new messages per 0.4 s per channel and says so in its
    ``X-RateLimit-*`` headers; discord.py waits by them, the outbox does not get in its way."""
    fake, client = table.fake, table.client
    room = fake.add_channel("busy")
    fake.channel_bucket = (3, 0.4)
    for n in range(8):
        await client.push("discord", str(room.id), Reply("note", f"note {n}"))
    await client.drain()

    assert fake.bucket_overruns == []
    sent = [at for at, status in writes_to(table, f"/channels/{room.id}/messages")]
    assert len(sent) == 8 and sent[-1] - sent[0] >= 2 * 0.4  # three buckets' worth
    assert [m.content for m in channel_posts(table, room)] == [f"note {n}" for n in range(8)]


# ----- the 3-second rule -----------------------------------------------------------------------------------
async def test_a_slow_core_is_deferred_within_discords_three_seconds(
    tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The rule itself, with Discord's real deadline: while the core is still drawing (held
    until the fake has seen the acknowledgement), the bot defers, and the board follows."""
    caplog.set_level(logging.DEBUG)
    drawing = threading.Event()

    def held_render(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
        drawing.wait(GENEROUS)
        return render_view(game_id, view, **style)

    async for table in running_table(tmp_path, caplog, ack_deadline=ACK_DEADLINE_SECONDS):
        await table.stop_bot()
        table.renderer = held_render
        table.ack_budget = 0.5  # production's is ACK_BUDGET; this leaves the rest of 3 s spare
        await table.start_bot()
        alice, room = table.fake.add_user("alice"), table.fake.add_channel("cards")
        interaction = await table.fake.slash(alice, room, "play", game="imaginary13", deal=5)
        assert interaction.callback_type == 5  # "thinking...", while the board is being drawn
        assert interaction.ack_seconds <= ACK_DEADLINE_SECONDS
        drawing.set()
        await table.client.drain()
        board = table.board(room)
        assert view_of(board)["deal"] == 5 and board.custom_ids
    # production's budget leaves a second of Discord's three for the deferral to travel
    assert ACK_BUDGET <= ACK_DEADLINE_SECONDS - 1.0


# ----- stopping -----------------------------------------------------------------------------------------
async def test_a_clean_stop_sends_what_the_outbox_holds_first(table: Table) -> None:
    room = table.fake.add_channel("cards")
    for n in range(5):
        await table.client.push("discord", str(room.id), Reply("note", f"note {n}"))
    assert table.client.outbox.depth() == 5  # nothing sent yet
    await table.stop_bot()  # as on SIGTERM: the client closes, flushing its outbox first
    assert [m.content for m in channel_posts(table, room)] == [f"note {n}" for n in range(5)]
    await table.start_bot()  # for the fixture, which stops it again
