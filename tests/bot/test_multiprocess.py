"""Several bot processes on one database (SQLite file or PostgreSQL): the database holds the
rules, so racing processes give one game, one table, and every acknowledged move stored once."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from core_fakes import fake_render

from bot.core import Core
from bot.replies import Request

WORKER = Path(__file__).with_name("mp_worker.py")
PROCESSES = 3
LIMIT_SECONDS = 150


def run_processes(url: str, scenario: str, tracebacks_allowed: bool = False) -> list[dict]:
    """Start the workers, let them act at one moment, collect their answers (bounded wait)."""
    start_at = time.time() + 4.0  # after every worker has opened the database
    workers = [
        subprocess.Popen([sys.executable, str(WORKER), url, scenario, str(i), str(start_at)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
        for i in range(PROCESSES)
    ]
    outputs = []
    try:
        for worker in workers:
            out, err = worker.communicate(timeout=LIMIT_SECONDS)
            assert worker.returncode == 0, err[-3000:]
            if not tracebacks_allowed:
                assert "Traceback" not in err, err[-3000:]
            outputs.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
    return outputs


# The workers run on the real clock (an older test clock would make their games look idle).


async def test_three_processes_start_the_same_players_game_at_once_one_game(db_url: str):
    core = await Core.create(db_url, "en", renderer=fake_render, sweep_interval=None)
    await core.close()
    answers = await asyncio.to_thread(run_processes, db_url, "play", True)
    core = await Core.create(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        games = await core.store.fetch("SELECT id FROM sessions WHERE kind = 'solo' AND status = 'active'")
        assert len(games) == 1
        started = [a for a in answers if "play.started" in a["keys"]]
        assert len(started) == 1, answers
        losers = [a for a in answers if "play.started" not in a["keys"]]
        # the losing insert gets the refusal a player gets when asking twice
        assert all(a["keys"] == ["play.already_playing"] for a in losers), answers
    finally:
        await core.close()


async def test_three_players_open_a_table_at_once_from_three_processes_one_table(db_url: str):
    core = await Core.create(db_url, "en", renderer=fake_render, sweep_interval=None)
    await core.close()
    answers = await asyncio.to_thread(run_processes, db_url, "challenge")
    core = await Core.create(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        tables = await core.store.fetch("SELECT id FROM sessions WHERE kind = 'table' AND status = 'lobby'")
        assert len(tables) == 1
        opened = [a for a in answers if "challenge.opened" in a["keys"]]
        refused = [a for a in answers if "challenge.exists" in a["keys"]]
        assert (len(opened), len(refused)) == (1, PROCESSES - 1), answers
    finally:
        await core.close()


@pytest.mark.slow
async def test_three_processes_flood_moves_into_ten_shared_games_each_acknowledged_move_stored_once(db_url: str):
    core = await Core.create(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        deals = iter(range(1, 1000))
        for s in range(10):
            player = f"p{s}"
            while not await core.store.fetch("SELECT 1 FROM sessions WHERE creator = ? AND status = 'active'", (player,)):
                # some deals are over at move 0 (no move at all): take the next
                await core.handle_text(Request("fake", "chat-1", player, player, True, False), f"/play canfield {next(deals)}")
    finally:
        await core.close()
    answers = await asyncio.to_thread(run_processes, db_url, "flood")
    core = await Core.create(db_url, "en", renderer=fake_render, sweep_interval=None)
    try:
        for s in range(10):
            player = f"p{s}"
            acknowledged = sum(a["acks"][player] for a in answers)
            (session_id, revision), = await core.store.fetch(
                "SELECT id, revision FROM sessions WHERE creator = ? AND status = 'active'", (player,))  # fmt: skip
            moves = await core.store.fetch("SELECT n FROM moves WHERE session_id = ? ORDER BY n", (session_id,))
            assert [n for (n,) in moves] == list(range(1, acknowledged + 1))
            session = await core.sessions.get(session_id)
            assert session.game.move_number == acknowledged == revision
        # none refused merely for being concurrent: 'd' is always legal in Canfield
        assert all(a["acks"][f"p{s}"] == 20 for a in answers for s in range(10)), answers
    finally:
        await core.close()
