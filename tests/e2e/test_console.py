"""``python -m bot --console`` driven like a terminal: lines in, replies and image paths out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_console(tmp_path: Path, lines: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "DATABASE_URL")
    }
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )


def test_console_plays_prints_images_and_presses_buttons(tmp_path: Path):
    result = run_console(
        tmp_path,
        [
            "/play imaginary13 3",
            "#2",  # the turned card...
            "#3",  # ...to its only target (numbers stay with their action: #2 is still t)
            "@bob #2",
            "/frobnicate",
            "/challenge",
            "@bob /join",
            "/start",
            "/hand",
        ],
        "--console",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0].startswith("Tavolo console: type /help for the commands")  # it never looks hung
    assert out[1] == "Player starts Imaginary Thirteen, deal 3."  # a name, not "you starts"
    images = [Path(line) for line in out if line.startswith("out/console/")]
    assert len(images) >= 4
    for image in images:
        assert (tmp_path / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert any(line.startswith("[1] ") for line in out)
    assert "(private to bob) This is not your game." in out
    assert "(private to you) I don't know /frobnicate. Try /help." in out
    assert "The cards are dealt! Turn order: Player, bob." in out
    assert any(line.startswith("(private to you) Your hand.") for line in out)
    assert (tmp_path / "data" / "tavolo.db").exists()


def test_without_tokens_the_console_starts_and_a_game_survives_a_restart(tmp_path: Path):
    first = run_console(tmp_path, ["/play imaginary13 3", "/move t4"])
    assert first.returncode == 0, first.stderr
    second = run_console(tmp_path, ["/board"])
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines()[1] == "Imaginary Thirteen · deal 3 · move 1 · score 1"
    # the second run's image does not overwrite the first run's: numbering goes on
    first_images = [line for line in first.stdout.splitlines() if line.startswith("out/console/")]
    second_images = [line for line in second.stdout.splitlines() if line.startswith("out/console/")]
    assert first_images and second_images and not set(first_images) & set(second_images)
    assert second_images[0].startswith(f"out/console/{len(first_images) + 1:04d}-")
    assert all((tmp_path / image).exists() for image in first_images + second_images)


def test_an_unusable_database_stops_with_a_clear_message(tmp_path: Path):
    (tmp_path / "bad.db").write_bytes(b"not a database " * 300)
    env_file = tmp_path / ".env"
    env_file.write_text(f"DATABASE_URL=sqlite:///{tmp_path / 'bad.db'}\nTELEGRAM_TOKEN=\n")
    result = run_console(tmp_path, ["/help"])
    assert result.returncode == 2
    assert "cannot start" in result.stderr and "not a usable SQLite database" in result.stderr


def test_the_banner_is_in_the_default_language(tmp_path: Path):
    env_file = tmp_path / ".env"
    env_file.write_text("DEFAULT_LANGUAGE=es\n")
    result = run_console(tmp_path, ["/play canfield 3"], "--console")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Consola de Tavolo: escribe /help")
    assert lines[1] == "Jugador empieza Canfield, reparto 3."


def test_a_freecell_deal_is_won_in_the_console_with_bare_moves(tmp_path: Path):
    from engine.solvers import Budget, solve

    line = solve("freecell", 2, budget=Budget(nodes=20_000, seconds=None)).moves
    result = run_console(tmp_path, ["/play freecell 2", "ab", *line, "/stats"], "--console")
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[1] == "Player starts FreeCell, deal 2."
    assert "(private to you) Cards don't move from one free cell to another." in out
    assert f"Player wins FreeCell! Score 52 in {len(line)} moves." in out
    assert any(line.startswith("FreeCell: 1 game, 1 won") for line in out)


def test_every_line_gets_an_answer_and_names_the_right_game(tmp_path: Path):
    result = run_console(
        tmp_path,
        [
            "xyz",
            "/play solitario 1",  # deal 1 opens with 27
            "xyz",
            "w9",
            "99",
            "2 7",  # spaces inside a move do not matter
            "/replay table",
            "/play freecell -5",
            "/challenge",
            "@ana /join",
            "@bea /race 5",  # Player plays Solitario: bea opens the race
            "@cid /join",
            "@cid /join race",
        ],
        "--console",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    private = "(private to you) "
    assert (
        private
        + (
            "“xyz” is not a command, and you have no game here to read it as a move. Commands "
            "start with /: /help lists them, /play solitario starts a game."
        )
        in out
    )
    assert (
        private
        + (
            "“w9” is not a move in Solitario. /help solitario shows its moves; /help lists every "
            "command."
        )
        in out
    )
    assert any(line.startswith(private + "“xyz” is not a move in Solitario.") for line in out)
    assert any(
        line.startswith(private + "“99” is not a move")
        and line.endswith("To press button 99, type #99.")
        for line in out
    )
    assert "Solitario · deal 1 · move 1 · score 5" in out  # "2 7" was played as 27
    assert private + "You have no finished game here that “table” names yet." in out
    assert (
        private + "I don't understand “-5”. Use /play freecell [deal number, 1 to 1,000,000]."
        in out
    )
    # a race beside the table, each message naming its own
    assert "ana sits down (2 at the table)." in out
    assert any(line.startswith("bea opens a Solitario race") for line in out)
    assert (
        "(private to cid) A race and a table are both open here: say which, /join race or "
        "/join table."
    ) in out
    assert "cid joins the race (2 racers)." in out
    assert not any("already has a table" in line for line in out)
