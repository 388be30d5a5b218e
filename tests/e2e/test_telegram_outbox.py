"""The Telegram outbox (the shared outbox with Telegram's limits) on its own: flood limits (a property over any traffic) and coalescing."""

from __future__ import annotations

import asyncio
import itertools

from hypothesis import given
from hypothesis import strategies as st

from bot.platforms.outbox import RateLimiter
from bot.platforms.telegram.outbox import flood_limits, telegram_outbox

LIMITS = flood_limits(per_chat_interval=1.0, group_per_minute=20, global_per_second=30)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@given(
    st.lists(
        st.tuples(st.sampled_from([-1, -2, -3, 7, 8]), st.floats(0, 3, allow_nan=False)),
        min_size=1,
        max_size=300,
    )
)
def test_no_traffic_ever_breaks_the_flood_limits(traffic):
    clock = Clock()
    limiter = RateLimiter(LIMITS, clock)
    sent: list[tuple[float, int]] = []
    for chat, gap in traffic:
        clock.now += gap
        while (wait := limiter.delay(chat)) > 0:
            clock.now += wait
        limiter.record(chat)
        sent.append((clock.now, chat))
    for chat in {c for _, c in sent}:
        times = [t for t, c in sent if c == chat]
        assert all(b - a >= LIMITS.per_chat_interval - 1e-9 for a, b in itertools.pairwise(times))
        if chat < 0:
            assert all(len([t for t in times if s <= t < s + 60]) <= 20 for s in times)
    all_times = [t for t, _ in sent]
    assert all(len([t for t in all_times if s <= t < s + 1]) <= 30 for s in all_times)


def test_a_limited_chat_does_not_wait_for_another():
    clock = Clock()
    limiter = RateLimiter(LIMITS, clock)
    limiter.record(-1)
    assert limiter.delay(-1) == 1.0
    assert limiter.delay(-2) == 0.0


async def test_boards_waiting_their_turn_are_replaced_by_the_newest_and_keep_their_place():
    delivered: list[tuple[int, str]] = []
    gate = asyncio.Event()

    async def deliver(chat_id, item):
        await gate.wait()
        delivered.append((chat_id, item.payload))

    outbox = telegram_outbox(deliver, flood_limits(per_chat_interval=0.0))
    outbox.put(-5, "first message")
    outbox.put(-5, "board 1", coalesce_key="board:s")
    outbox.put(-5, "text after board 1")
    outbox.put(-5, "board 2", coalesce_key="board:s")
    item = outbox.put(-5, "board 3", coalesce_key="board:s")
    outbox.put(-6, "another chat")
    gate.set()
    await outbox.drain(5)
    assert [p for c, p in delivered if c == -5] == [
        "first message",
        "board 3",
        "text after board 1",
    ]
    assert (-6, "another chat") in delivered
    assert item.coalesced == 2
    await outbox.close()


async def test_a_flooded_chat_queue_is_bounded_and_other_chats_are_served_in_turn():
    """Issue 27: one chat with far more waiting than it may receive keeps at most
    ``max_per_chat`` (its board stays, its oldest texts go), and a chat that speaks once
    meanwhile is not made to wait behind it."""
    delivered: list[tuple[float, int, str]] = []
    loop = asyncio.get_running_loop()
    started = loop.time()

    async def deliver(chat_id, item):
        delivered.append((loop.time() - started, chat_id, item.payload))

    limits = flood_limits(
        per_chat_interval=0.05, group_per_minute=10_000, global_per_second=40, max_per_chat=10
    )
    outbox = telegram_outbox(deliver, limits)
    outbox.put(-1, "board", coalesce_key="board:s")
    for n in range(200):
        outbox.put(-1, f"text {n}")
    assert outbox.pending(-1) == 10 and outbox.depth() == 10 and outbox.dropped == 191
    await asyncio.sleep(0.12)
    outbox.put(-2, "hello")
    await outbox.drain(5)
    flooded = [p for _, c, p in delivered if c == -1]
    assert flooded[0] == "board" and flooded[1:] == [f"text {n}" for n in range(191, 200)]
    (when,) = [t for t, c, _ in delivered if c == -2]
    assert when < 0.12 + 0.1  # served at once, not after the flooded chat's queue
    assert outbox.depth() == 0 and outbox._queues == {}  # nothing kept for quiet chats
    await outbox.close()


async def test_ready_chats_share_the_overall_limit_in_turn():
    clock_sent: list[int] = []

    async def deliver(chat_id, item):
        await asyncio.sleep(0.001)  # a call to Telegram
        clock_sent.append(chat_id)

    outbox = telegram_outbox(
        deliver, flood_limits(per_chat_interval=0.0, group_per_minute=10_000, global_per_second=5)
    )
    for chat in (-1, -2, -3):
        for n in range(5):
            outbox.put(chat, f"{chat}:{n}")
    await outbox.drain(10)
    # in any second's five messages, no chat had to wait while another was sent twice over
    for start in range(0, 15, 3):
        assert sorted(clock_sent[start : start + 3]) == [-3, -2, -1], clock_sent
    await outbox.close()
