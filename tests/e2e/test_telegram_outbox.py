"""The Telegram outbox on its own: flood limits (a property over any traffic) and coalescing."""

from __future__ import annotations

import asyncio
import itertools

from hypothesis import given
from hypothesis import strategies as st

from bot.platforms.telegram_outbox import FloodLimiter, FloodLimits, Outbox

LIMITS = FloodLimits(per_chat_interval=1.0, group_per_minute=20, global_per_second=30)


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
    limiter = FloodLimiter(LIMITS, clock)
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
    limiter = FloodLimiter(LIMITS, clock)
    limiter.record(-1)
    assert limiter.delay(-1) == 1.0
    assert limiter.delay(-2) == 0.0


async def test_boards_waiting_their_turn_are_replaced_by_the_newest_and_keep_their_place():
    delivered: list[tuple[int, str]] = []
    gate = asyncio.Event()

    async def deliver(chat_id, item):
        await gate.wait()
        delivered.append((chat_id, item.payload))

    outbox = Outbox(deliver, FloodLimits(per_chat_interval=0.0))
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
