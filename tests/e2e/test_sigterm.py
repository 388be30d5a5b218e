"""SIGTERM (issue 27): the bot stops taking updates, finishes what it has in hand, flushes and
closes the database within a bound, and exits 0; every move it acknowledged is stored."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_sigterm_stops_the_console_cleanly_and_keeps_every_acknowledged_move(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_"))}
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=f"sqlite:///{tmp_path / 'tavolo.db'}")
    bot = subprocess.Popen(
        [sys.executable, "-m", "bot", "--console"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    try:
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write("/play canfield 7\n/move d\n/move d\n")
        bot.stdin.flush()
        images = 0
        deadline = time.monotonic() + 60
        while images < 3 and time.monotonic() < deadline:
            line = bot.stdout.readline()
            images += line.strip().endswith(".png")
        assert images == 3  # the game's board and two moves acknowledged
        started = time.monotonic()
        bot.send_signal(signal.SIGTERM)  # stdin stays open: a terminal nobody types in
        code = bot.wait(timeout=20)
        assert code == 0
        assert time.monotonic() - started < 15
    finally:
        if bot.poll() is None:
            bot.kill()
    stderr = bot.stderr.read() if bot.stderr else ""
    assert "Traceback" not in stderr
    db = sqlite3.connect(tmp_path / "tavolo.db")
    try:
        moves = [row[0] for row in db.execute("SELECT notation FROM moves ORDER BY n")]
    finally:
        db.close()
    assert moves == ["d", "d"]
    assert (
        not (tmp_path / "tavolo.db-wal").exists()
        or (tmp_path / "tavolo.db-wal").stat().st_size == 0
    )
