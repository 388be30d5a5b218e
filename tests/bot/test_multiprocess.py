"""Several bot processes on one database (SQLite file or PostgreSQL): the database holds the
rules, so racing processes give one game, one table, and every acknowledged move stored once."""

from __future__ import annotations

import asyncio
import multiprocessing
import subprocess
import sys
from multiprocessing.connection import Connection
from pathlib import Path

import mp_worker
import pytest
from core_fakes import fake_render
from mp_worker import MOVES, SESSIONS

from bot.app import open_core
from bot.replies import Request
from bot.storage import Claim, Storage

PROCESSES = 3
LIMIT_SECONDS = 150
#: the workers are forked from a server process that imported the bot once (mp_worker.py).
#: The server starts in the repository's root without this process's sys.path (Python 3.11
#: ignores it): it finds the worker by its path from the root, which puts tests/bot on its
#: path, and then under the name the workers are pickled with.
FORKS = multiprocessing.get_context("forkserver")
FORKS.set_forkserver_preload(["tests.bot.mp_worker", "mp_worker"])


def run_processes(url: str, scenario: str, tracebacks_allowed: bool = False) -> list[dict]:
    """Start the workers, let them act at one moment (when every one has its database open),
    collect their answers (bounded waits: a stuck worker is killed)."""
    lines = [FORKS.Pipe() for _ in range(PROCESSES)]
    workers = [
        FORKS.Process(target=mp_worker.run_in_child, args=(url, scenario, i, child), daemon=True)
        for i, (_, child) in enumerate(lines)
    ]
    for worker in workers:
        worker.start()
    for _, child in lines:
        child.close()  # the workers hold their ends: a dead worker's line ends at once

    def receive(line: Connection) -> tuple:
        assert line.poll(LIMIT_SECONDS), f"a worker said nothing in {LIMIT_SECONDS} s"
        try:
            return line.recv()
        except EOFError:
            return ("died",)

    outputs = []
    try:
        # each says "ready" once open (a worker that failed says why instead)
        said = [receive(line) for line, _ in lines]
        for (line, _), first in zip(lines, said, strict=True):
            if first == ("ready",):
                line.send("go")
        assert said == [("ready",)] * PROCESSES, said
        for line, _ in lines:
            result = receive(line)
            assert result[0] == "done", "\n".join(map(str, result))[-3000:]
            answers, err = result[1], result[2]
            if not tracebacks_allowed:
                assert "Traceback" not in err, err[-3000:]
            outputs.append(answers)
        for worker in workers:
            worker.join(LIMIT_SECONDS)
            assert worker.exitcode == 0, worker.exitcode
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.kill()
                worker.join(30)
        for line, _ in lines:
            line.close()
    return outputs


# The workers run on the real clock (an older test clock would make their games look idle).


async def test_three_processes_start_the_same_players_game_at_once_one_game(db_url: str):
    core = await open_core(db_url, "en", renderer=fake_render, sweep_interval=None)
    await core.close()
    answers = await asyncio.to_thread(run_processes, db_url, "play", True)
    core = await open_core(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        games = await core.store.fetch(
            "SELECT id FROM sessions WHERE kind = 'solo' AND status = 'active'"
        )
        assert len(games) == 1
        started = [a for a in answers if "play.started" in a["keys"]]
        assert len(started) == 1, answers
        losers = [a for a in answers if "play.started" not in a["keys"]]
        # the losing insert gets the refusal a player gets when asking twice
        assert all(a["keys"] == ["play.already_playing"] for a in losers), answers
    finally:
        await core.close()


async def test_three_players_open_a_table_at_once_from_three_processes_one_table(db_url: str):
    core = await open_core(db_url, "en", renderer=fake_render, sweep_interval=None)
    await core.close()
    answers = await asyncio.to_thread(run_processes, db_url, "challenge")
    core = await open_core(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        tables = await core.store.fetch(
            "SELECT id FROM sessions WHERE kind = 'table' AND status = 'lobby'"
        )
        assert len(tables) == 1
        opened = [a for a in answers if "challenge.opened" in a["keys"]]
        refused = [a for a in answers if "challenge.exists" in a["keys"]]
        assert (len(opened), len(refused)) == (1, PROCESSES - 1), answers
    finally:
        await core.close()


@pytest.mark.slow
async def test_three_processes_flood_moves_into_ten_shared_games_each_acknowledged_move_stored_once(
    db_url: str,
):
    core = await open_core(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        deals = iter(range(1, 1000))
        for s in range(SESSIONS):
            player = f"p{s}"
            while not await core.store.fetch(
                "SELECT 1 FROM sessions WHERE creator = ? AND status = 'active'", (player,)
            ):
                # some deals are over at move 0 (no move at all): take the next
                await core.handle_text(
                    Request("fake", "chat-1", player, player, True, False),
                    f"/play canfield {next(deals)}",
                )
    finally:
        await core.close()
    answers = await asyncio.to_thread(run_processes, db_url, "flood")
    core = await open_core(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        for s in range(SESSIONS):
            player = f"p{s}"
            acknowledged = sum(a["acks"][player] for a in answers)
            ((session_id, revision),) = await core.store.fetch(
                "SELECT id, revision FROM sessions WHERE creator = ? AND status = 'active'",
                (player,),
            )
            moves = await core.store.fetch(
                "SELECT n FROM moves WHERE session_id = ? ORDER BY n", (session_id,)
            )
            assert [n for (n,) in moves] == list(range(1, acknowledged + 1))
            session = await core.sessions.get(session_id)
            assert session.game.move_number == acknowledged == revision
        # none refused merely for being concurrent: 'd' is always legal in Canfield
        assert all(a["acks"][f"p{s}"] == MOVES for a in answers for s in range(SESSIONS)), answers
    finally:
        await core.close()


async def test_a_turn_timeout_with_three_processes_running_fires_once(db_url: str):
    core = await open_core(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        chat = [Request("fake", "chat-1", u, u.capitalize(), True, False) for u in ("ana", "bea")]
        await core.handle_text(chat[0], "/challenge @bea")
        await core.handle_text(chat[1], "/join")
        await core.handle_text(chat[0], "/start")
        ((table_id,),) = await core.store.fetch(
            "SELECT id FROM sessions WHERE kind = 'table' AND status = 'active'"
        )
        # Ana's turn timer ran out long ago: every process's next tick sees it
        await core.store.write(
            [
                (
                    "UPDATE table_play SET deadline = ? WHERE session_id = ?",
                    ("2000-01-01T00:00:00+00:00", table_id),
                )
            ]
        )
        assert await core.store.sessions.moves(table_id) == []
    finally:
        await core.close()
    answers = await asyncio.to_thread(run_processes, db_url, "tick")
    core = await open_core(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        assert len(await core.store.sessions.moves(table_id)) == 1, (
            answers
        )  # one timeout move stored
        announcements = [k for a in answers for k in a["pushed"] if k == "tables.timed_out"]
        assert len(announcements) == 1, answers
        assert sorted(a["handled"] for a in answers) == [0, 0, 1]
        assert await core.store.claims.get(f"timeout:{table_id}") is None  # released after the work
    finally:
        await core.close()


HOLDER = """
import asyncio, sys, time
sys.path[:0] = [{root!r}]
from bot.storage import Storage

async def main():
    store = await Storage.open({url!r})
    assert await store.claims.take("sweep", "doomed", {lease})
    print("held", flush=True)
    await asyncio.sleep(600)  # killed while holding the claim

asyncio.run(main())
"""


async def test_a_claim_held_by_a_killed_process_is_taken_over_after_its_lease(db_url: str):
    lease = 3.0
    store = await Storage.open(db_url)
    try:
        code = HOLDER.format(root=str(Path(__file__).resolve().parents[2]), url=db_url, lease=lease)
        holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        try:
            assert (await asyncio.to_thread(holder.stdout.readline)).strip() == "held"
        finally:
            holder.kill()
            holder.wait(timeout=30)
        dead_claim = await store.claims.get("sweep")
        assert dead_claim is not None
        held_by, expires_at = dead_claim.holder, dead_claim.expires_at
        assert held_by == "doomed"
        # Moments are given against the lease the dead holder took, not read off the clock: a
        # busy machine may take seconds between its claim and ours (its lease is 3 s).
        # The dead holder's lease still runs: the work is not done twice meanwhile.
        assert not await store.claims.take(
            "sweep", store.claims.holder, lease, now=expires_at - 0.5
        )
        store.claims.clock = lambda: expires_at - 0.5
        async with store.claims.hold("sweep") as mine:
            assert not mine
        # its lease over, the next process to ask takes the claim over
        assert await store.claims.take("sweep", store.claims.holder, lease, now=expires_at)
        assert await store.claims.get("sweep") == Claim(
            "sweep", store.claims.holder, expires_at + lease
        )
    finally:
        await store.close()
