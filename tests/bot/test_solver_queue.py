"""The "could it have been won?" work is bounded (issue 39, bounded memory): games finished
faster than the solver answers piled up without a limit, each with its future and a copy of
its moves. Now a fixed number wait, one a player; past that the game-over reply says the solver
is busy and ``/replay solution`` asks again later, and that is bounded too."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest
from core_fakes import FakePlatform

from bot.core import Core
from bot.features import solutions as solutions_module
from bot.replies import Reply


@pytest.fixture
def worker_busy() -> Iterator[threading.Event]:
    """The solver's worker thread held busy: every search queued behind it waits."""
    busy = threading.Event()
    solutions_module._executor.submit(busy.wait, 30)
    yield busy
    busy.set()


def pushed_into(chat: FakePlatform) -> list[Reply]:
    got: list[Reply] = []

    async def push(platform: str, chat_id: str, reply: Reply) -> None:
        got.append(reply)

    chat.core.set_push(push)
    return got


def _keys(replies: list[Reply]) -> list[str]:
    return [reply.key for reply in replies]


async def test_past_the_limit_the_game_over_reply_says_the_solver_is_busy_in_the_chats_language(
    core: Core, chat: FakePlatform, worker_busy: threading.Event, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(solutions_module, "WAITING_LIMIT", 2)
    pushed = pushed_into(chat)
    chat.admins.add("ana")
    await chat.say("ana", "/lang es")
    for player in ("ana", "bea"):
        await chat.say(player, "/play canfield 13")
        assert "solution.busy" not in _keys(await chat.resign(player))
    await chat.say("cid", "/play canfield 13")
    ended = await chat.resign("cid")
    (busy,) = [reply for reply in ended if reply.key == "solution.busy"]
    assert busy.text.startswith("Cid, el solucionador está ocupado") and not busy.is_private
    assert "/replay solution" in busy.text
    found = core.features["solutions"]
    assert len(found.pending) == 2  # cid's game is not queued
    # /replay solution is bounded the same way: busy, nothing queued, privately
    (again,) = await chat.say("cid", "/replay solution")
    assert again.key == "replay.solution_busy" and again.is_private
    assert "/replay solution" in again.text and len(found.pending) == 2
    worker_busy.set()
    await found.wait()
    assert [reply.key for reply in pushed] == ["solution.verdict"] * 2  # ana's and bea's
    (answer,) = await chat.say("cid", "/replay solution")
    assert answer.key in ("replay.solution", "replay.solution_lost", "replay.solution_unknown")


async def test_one_waiting_game_a_player(
    core: Core, chat: FakePlatform, worker_busy: threading.Event
):
    pushed = pushed_into(chat)
    await chat.say("ana", "/play canfield 13")
    assert "solution.busy" not in _keys(await chat.resign("ana"))
    await chat.say("ana", "/play solitario 29")
    (busy,) = [reply for reply in await chat.resign("ana") if reply.key == "solution.busy"]
    assert busy.text.startswith("Ana, the solver is busy")
    await chat.say("bea", "/play solitario 29")  # another player's game still waits its turn
    assert "solution.busy" not in _keys(await chat.resign("bea"))
    found = core.features["solutions"]
    assert len(found.pending) == 2
    worker_busy.set()
    await found.wait()
    assert len([reply for reply in pushed if reply.key == "solution.verdict"]) == 2


async def test_replay_solution_of_a_game_on_its_way_waits_for_that_search(
    core: Core, chat: FakePlatform, worker_busy: threading.Event, monkeypatch: pytest.MonkeyPatch
):
    searched: list[int] = []
    real = solutions_module.analyse

    def counting(*args: object) -> solutions_module.Analysis:
        searched.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(solutions_module, "analyse", counting)
    pushed_into(chat)
    await chat.say("ana", "/play solitario 29")
    await chat.resign("ana")
    asking = asyncio.create_task(chat.say("ana", "/replay solution"))
    await asyncio.sleep(0.05)
    worker_busy.set()
    (shown,) = await asking
    assert shown.key == "replay.solution"
    await core.features["solutions"].wait()
    assert searched == [1]  # one search answered both the verdict and the replay
