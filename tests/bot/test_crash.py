"""Killing the bot in the middle of a flood of moves loses nothing it acknowledged.

``python -m bot --console`` reads a flood of move lines from a pipe (five players, each with a
solo game of their own in the console's one chat) and is killed with SIGKILL once it has
printed a number of boards. Every board printed before the kill is an acknowledged move: the
database must hold it (and possibly the one move being answered when the kill came, which was
committed before its board could be printed), the stored moves must be exactly the ones sent,
in order, and ``PRAGMA integrity_check`` must say ``ok``. Then the bot starts again on the same
database and the games go on from where they were stored; a second kill, and a last run to
the end of its input.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [
    ("ana", "imaginary13", 3),
    ("bob", "squadratik", 28),
    ("cy", "imaginary13", 8),
    ("di", "squadratik", 6),
    ("ed", "imaginary13", 21),
]
PLAN_LENGTH = 40
#: "Imaginary Thirteen · deal 3 · move 7 · score 12": the acknowledgement of move 7 of deal 3
ACK = re.compile(r"· deal (\d+) · move (\d+) ·")


def plan(game_id: str, deal: int, player: str) -> list[str]:
    """Up to ``PLAN_LENGTH`` legal moves that never end the game (every board then shows its
    deal number, which tells the players' boards apart)."""
    game = engine.new_game(game_id, deal, [player], {})
    chooser = random.Random(deal)
    moves: list[str] = []
    while len(moves) < PLAN_LENGTH:
        candidates = game.legal_moves()
        chooser.shuffle(candidates)
        for move in candidates:
            game.play(move)
            if not game.is_over:
                moves.append(str(move))
                break
            game.undo()
        else:
            break
    return moves


PLANS = {deal: plan(game_id, deal, player) for player, game_id, deal in PLAYERS}


def stored_moves(db: Path) -> dict[int, list[str]]:
    """Deal -> stored moves of each player's session (read with plain sqlite3, as after a crash)."""
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        found = {}
        for session_id, deal in connection.execute("SELECT id, deal FROM sessions"):
            rows = connection.execute(
                "SELECT notation FROM moves WHERE session_id = ? ORDER BY n", (session_id,)
            )
            found[int(deal)] = [r[0] for r in rows]
    connection.close()
    return found


def run_bot(tmp_path: Path, lines: list[str], kill_after: int | None) -> dict[int, list[int]]:
    """Feed ``lines`` to a console bot; SIGKILL it after ``kill_after`` acknowledged moves
    (None: close its input and let it finish). Returns deal -> move numbers acknowledged."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
    env.update(
        PYTHONPATH=str(ROOT),
        DATABASE_URL=f"sqlite:///{tmp_path / 'tavolo.db'}",
        LOG_LEVEL="WARNING",
    )
    bot = subprocess.Popen(
        [sys.executable, "-m", "bot", "--console"],
        cwd=tmp_path,
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    watchdog = threading.Timer(90, bot.kill)
    watchdog.start()

    def feed() -> None:
        try:
            for line in lines:
                bot.stdin.write(line + "\n")  # type: ignore[union-attr]
            bot.stdin.flush()  # type: ignore[union-attr]
            if kill_after is None:
                bot.stdin.close()  # type: ignore[union-attr]
        except (BrokenPipeError, ValueError):
            pass  # killed while we were still writing: the flood was cut off

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    acknowledged: dict[int, list[int]] = {}
    count = 0
    try:
        for line in bot.stdout:  # type: ignore[union-attr]
            found = ACK.search(line)
            if found and found[2] != "0":  # move 0: the board of a new game
                acknowledged.setdefault(int(found[1]), []).append(int(found[2]))
                count += 1
                if count == kill_after:
                    bot.send_signal(signal.SIGKILL)  # whatever it printed up to now still counts
            assert "(private to" not in line, f"a planned legal move was refused: {line}"
        returncode = bot.wait()
    finally:
        watchdog.cancel()
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        feeder.join(5)
    if kill_after is None:
        assert returncode == 0, bot.stderr.read()  # type: ignore[union-attr]
    else:
        assert returncode == -signal.SIGKILL, "the bot ended before it was killed"
        assert count >= kill_after
    bot.stderr.close()  # type: ignore[union-attr]
    return acknowledged


def flood(done: dict[int, int]) -> list[str]:
    """The players' remaining planned moves, interleaved, each player's first line being
    ``/play`` when they have no game yet."""
    per_player = []
    for player, game_id, deal in PLAYERS:
        lines = [] if deal in done else [f"@{player} /play {game_id} {deal}"]
        lines += [f"@{player} /move {m}" for m in PLANS[deal][done.get(deal, 0) :]]
        per_player.append(lines)
    return [line for group in zip(*_padded(per_player), strict=True) for line in group if line]


def _padded(groups: list[list[str]]) -> list[list[str]]:
    longest = max(len(g) for g in groups)
    return [g + [""] * (longest - len(g)) for g in groups]


def check_after(
    db: Path, acknowledged: dict[int, list[int]], before: dict[int, int]
) -> dict[int, int]:
    """Every acknowledged move is stored, the stored moves are the planned ones in order, and
    each game went on from where it was. Returns deal -> moves stored."""
    stored = stored_moves(db)
    for deal, numbers in acknowledged.items():
        assert numbers == list(range(before.get(deal, 0) + 1, max(numbers) + 1)), (
            "the game did not go on in order"
        )
        assert len(stored[deal]) >= max(numbers), (
            f"deal {deal}: move {max(numbers)} acknowledged, not stored"
        )
    for deal, moves in stored.items():
        assert moves == PLANS[deal][: len(moves)]
        # at most the one move in flight when the kill came is stored but not acknowledged
        assert len(moves) - max(acknowledged.get(deal, [before.get(deal, 0)])) <= 1
    return {deal: len(moves) for deal, moves in stored.items()}


@pytest.mark.slow
def test_sigkill_in_a_flood_of_moves_loses_no_acknowledged_move_and_games_go_on(tmp_path: Path):
    assert all(len(p) >= 30 for p in PLANS.values())
    db = tmp_path / "tavolo.db"
    first = run_bot(tmp_path, flood({}), kill_after=37)
    done = check_after(db, first, {})
    assert len(done) == len(PLAYERS)
    second = run_bot(tmp_path, flood(done), kill_after=41)
    done_again = check_after(db, second, done)
    assert sum(done_again.values()) > sum(done.values())
    last = run_bot(tmp_path, flood(done_again), kill_after=None)
    final = check_after(db, last, done_again)
    assert final == {deal: len(moves) for deal, moves in PLANS.items()}
