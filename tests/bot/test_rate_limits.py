"""Fair to every chat (issue 27): a flooder gets a short burst, one "slow down" notice in the
chat's language, then silence until the bucket refills; a chat as a whole has its limit too;
the buckets are shared through the database, so three processes give a flooder no more than
one; a busy database neither stalls the check nor lets the flood through."""

from __future__ import annotations

from pathlib import Path

from core_fakes import FakeClock, FakePlatform, fake_render

from bot import i18n
from bot.app import open_core
from bot.core import Core
from bot.core.limits import Limits
from bot.storage import BUSY_TIMEOUT_SECONDS


class Seconds:
    """The limiter's wall clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def make_core(db_url: str, limits: Limits, seconds: Seconds) -> Core:
    core = await open_core(
        db_url, "en", FakeClock(), renderer=fake_render, sweep_interval=None, limits=limits
    )
    assert core.limiter is not None
    core.limiter.clock = seconds
    return core


async def test_a_flooder_gets_a_burst_one_notice_then_silence_and_others_still_play(db_url: str):
    seconds = Seconds()
    core = await make_core(db_url, Limits(user_burst=5, user_per_minute=30, chat_burst=0), seconds)
    try:
        chat = FakePlatform(core)
        chat.admins.add("ana")
        await chat.say("ana", "/lang es")
        answers = [await chat.say("ana", "/help") for _ in range(300)]
        helped = [a for a in answers if a and a[0].key == "help.text"]
        notices = [a[0] for a in answers if a and a[0].key == "error.slow_down"]
        assert len(helped) == 4  # the burst of 5, /lang included
        assert len(notices) == 1 and notices[0].text == i18n.t("es", "error.slow_down", name="Ana")
        assert notices[0].is_private and notices[0].to_user == "ana"
        assert sum(1 for a in answers if not a) == 300 - 4 - 1  # silence after the notice
        # another player in the same chat is not held back
        assert (await chat.say("bruno", "/help"))[0].key == "help.text"
        # two seconds later one token is back (30 a minute): answered once, then one notice
        seconds.now += 2
        assert (await chat.say("ana", "/help"))[0].key == "help.text"
        assert (await chat.say("ana", "/help"))[0].key == "error.slow_down"
        metrics = core.metrics.exposition().decode()
        assert 'tavolo_rate_limited_total{scope="user"} 297.0' in metrics
        assert 'tavolo_commands_total{command="help",outcome="limited"} 297.0' in metrics
    finally:
        await core.close()


async def test_a_busy_chat_gets_one_chat_notice(db_url: str):
    seconds = Seconds()
    core = await make_core(
        db_url, Limits(user_burst=3, user_per_minute=6, chat_burst=6, chat_per_minute=60), seconds
    )
    try:
        chat = FakePlatform(core)
        answers = [await chat.say(f"user{n}", "/help") for n in range(20)]
        keys = [a[0].key if a else None for a in answers]
        assert keys[:6] == ["help.text"] * 6
        assert keys[6] == "error.slow_down_chat" and keys[7:] == [None] * 13
        other = FakePlatform(core, chat_id="chat-2")  # another chat is its own
        assert (await other.say("user1", "/help"))[0].key == "help.text"
    finally:
        await core.close()


async def test_three_processes_give_a_flooder_no_more_than_one(db_url: str):
    seconds = Seconds()
    limits = Limits(user_burst=6, user_per_minute=12, chat_burst=0)
    cores = [await make_core(db_url, limits, seconds) for _ in range(3)]
    try:
        chats = [FakePlatform(core) for core in cores]
        answered = 0
        for n in range(90):  # the flooder's requests spread over the three processes
            replies = await chats[n % 3].say("ana", "/help")
            answered += bool(replies and replies[0].key == "help.text")
        assert answered == 6
        seconds.now += 10  # 12 a minute: two more tokens
        answered = 0
        for n in range(30):
            replies = await chats[n % 3].say("ana", "/help")
            answered += bool(replies and replies[0].key == "help.text")
        assert answered == 2
    finally:
        for core in cores:
            await core.close()


async def test_a_busy_database_falls_back_to_this_process_bucket(tmp_path: Path):
    import asyncio
    import subprocess
    import time

    path = tmp_path / "t.db"
    seconds = Seconds()
    core = await make_core(f"sqlite:///{path}", Limits(user_burst=3, chat_burst=0), seconds)
    shell = subprocess.Popen(
        ["sqlite3", str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        chat = FakePlatform(core)
        shell.stdin.write(
            "BEGIN IMMEDIATE;\nINSERT INTO schema_version VALUES (-1);\nSELECT 'held';\n"
        )
        shell.stdin.flush()
        assert await asyncio.to_thread(shell.stdout.readline) == "held\n"
        started = time.monotonic()
        keys = []
        for _ in range(10):
            replies = await chat.say("ana", "/help")
            keys.append(replies[0].key if replies else None)
        # no request waited on the lock: ten waits of the busy timeout would take 30 s; the
        # bound is generous for a busy machine (10 answers took up to a few seconds at load 10)
        assert time.monotonic() - started < 10 * BUSY_TIMEOUT_SECONDS / 2
        assert keys == ["help.text"] * 3 + ["error.slow_down"] + [None] * 6
    finally:
        shell.stdin.write("ROLLBACK;\n.quit\n")
        shell.stdin.flush()
        shell.wait(10)
        await core.close()


async def test_without_limits_nothing_is_limited(tmp_path: Path):
    core = await open_core(
        f"sqlite:///{tmp_path / 't.db'}",
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
    )
    try:
        assert core.limiter is None
        chat = FakePlatform(core)
        for _ in range(30):
            assert (await chat.say("ana", "/help"))[0].key == "help.text"
    finally:
        await core.close()
