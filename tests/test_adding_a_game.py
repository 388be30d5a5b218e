"""The guide is executable: Golf (``tests/adding_a_game/``) is added exactly as
``docs/adding-a-game.md`` says, with its own files and the guide's one registration line per
layer, then played to its end in the console, drawn, hinted, ranked on a leaderboard and run
as a daily challenge. When the guide or the code it describes changes, this test says so."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

from engine.pilegame import PileGame
from engine.solvers import Budget, Counter
from tests.adding_a_game import golf_solver
from tests.adding_a_game.golf import Golf

ROOT = Path(__file__).resolve().parents[1]
GAME_DIR = ROOT / "tests" / "adding_a_game"
GUIDE = ROOT / "docs" / "adding-a-game.md"
DEAL = 9  # a deal the solver wins


def registration_lines() -> list[str]:
    """The lines the guide's "Register it" block tells a new game to add, one per layer."""
    text = GUIDE.read_text(encoding="utf-8")
    block = re.search(r"## Register it.*?```python\n(.*?)```", text, re.S)
    assert block, "the guide has a 'Register it' section with a python block"
    return [line for line in block.group(1).splitlines() if line and not line.startswith("#")]


def test_the_launcher_registers_the_game_with_the_guides_lines_and_nothing_else() -> None:
    launcher = (GAME_DIR / "console.py").read_text(encoding="utf-8")
    lines = registration_lines()
    assert len(lines) == 2  # engine and renderer; bot/ reads both
    for line in lines:
        assert line in launcher, f"the guide's line is not what the test runs: {line}"
    # the guide's files are the game's files
    text = GUIDE.read_text(encoding="utf-8")
    for name in ("golf.py", "golf_solver.py", "golf.po"):
        assert name in text


def the_guides_pile_game_writes() -> set[str]:
    """The names the guide's "The rules" list says a pile game writes (each item's lead)."""
    text = GUIDE.read_text(encoding="utf-8")
    section = re.search(r"## 1\. The rules.*?\n\n(.*?)\nThe base does the rest", text, re.S)
    assert section, "the guide lists what a pile game writes, then what the base does"
    leads = re.findall(r"^- (.*?):", section.group(1), re.M)
    return {name for lead in leads for name in re.findall(r"`(\w+)`", lead)}


def test_golf_writes_only_its_rules_the_pile_game_base_does_the_rest() -> None:
    """Golf overrides nothing of the base (engine.pilegame.PileGame, engine.game.Game) but
    what the guide says a pile game writes: no undo, listing, view or text machinery."""
    assert issubclass(Golf, PileGame)
    writes = the_guides_pile_game_writes()
    assert {"_generate", "_check", "_do", "_won", "_pile_views", "PILE_ROWS"} <= writes
    base = {name for cls in PileGame.__mro__ for name in vars(cls) if not name.startswith("__")}
    # set on every subclass by Game.__init_subclass__ and by the abc machinery
    set_for_it = {"game_id", "min_players", "max_players", "_abc_impl"}
    overridden = (set(vars(Golf)) & base) - set_for_it
    assert overridden <= writes, f"Golf writes the base's {sorted(overridden - writes)}"
    # and it writes the rules: the hooks the base cannot do without
    assert {"_setup", "parse_move", "_generate", "_check", "_do", "_won", "score"} <= overridden


def locales_with_the_game(where: Path) -> Path:
    """bot/i18n/locales as it would be with Golf's catalogues added: every shipped file, and
    ``<lang>/golf.po``."""
    for lang_dir in (ROOT / "bot" / "i18n" / "locales").iterdir():
        if not lang_dir.is_dir():
            continue
        target = where / lang_dir.name
        target.mkdir(parents=True)
        for po in lang_dir.glob("*.po"):
            (target / po.name).symlink_to(po)
        (target / "golf.po").symlink_to(GAME_DIR / "locales" / lang_dir.name / "golf.po")
    return where


def run_with_golf(tmp_path: Path, lines: list[str], *pytest_args: str) -> list[str]:
    """The console (or pytest, with ``pytest_args``) with Golf added, fed ``lines``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "DATABASE_URL")
    }
    env["PYTHONPATH"] = str(ROOT)
    locales = locales_with_the_game(tmp_path / "locales")
    result = subprocess.run(
        [sys.executable, "-m", "tests.adding_a_game.console", str(locales), *pytest_args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    return result.stdout.splitlines()


def run_console(tmp_path: Path, lines: list[str]) -> list[str]:
    return run_with_golf(tmp_path, lines)


def test_golf_passes_the_checks_every_game_passes(tmp_path: Path) -> None:
    """tests/test_games_complete.py with Golf among the games: its facts, solver, hint,
    drawing and texts in every language."""
    out = run_with_golf(
        tmp_path,
        [],
        "-rA",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        str(ROOT / "tests" / "test_games_complete.py"),
        "-k",
        "golf",
    )
    passed = {line.split("::")[1].split("[")[0] for line in out if line.startswith("PASSED ")}
    assert {
        "test_info_is_complete",
        "test_the_solver_named_exists",
        "test_every_game_has_its_texts",
        "test_the_hint_named_exists_and_suggests_a_legal_move",
        "test_every_game_has_a_drawing",
    } <= passed, out[-10:]


def test_golf_plays_to_its_end_draws_hints_ranks_and_runs_as_a_daily(tmp_path: Path) -> None:
    found = golf_solver.search(Golf(DEAL), Counter(Budget(nodes=50_000, seconds=None)))
    assert found.status == "won"
    # the first position of the line where only the stock can be turned: a hint there
    game, only_draw = Golf(DEAL), None
    for index, move in enumerate(found.moves):
        if only_draw is None and [str(m) for m in game.legal_moves()] == ["d"]:
            only_draw = index
        game.play(move)
    assert only_draw is not None
    moves = [f"/move {move}" for move in found.moves]
    out = run_console(
        tmp_path,
        [
            f"/play golf {DEAL}",
            "/hint",
            "/move 9",
            *moves[:only_draw],
            "/hint",
            *moves[only_draw:],
            "/leaderboard golf",
            "/stats",
            "/daily golf",
            "/lang es",
            "/help golf",
        ],
    )
    assert out[1] == f"Player starts Golf, deal {DEAL}."
    first, turn = [line for line in out if line.startswith("(private to you) Hint: ")]
    assert first.split(": ")[1].split(" — ")[0] in {str(m) for m in Golf(DEAL).legal_moves()}
    # a stock turn is explained as one, even when the turned card lands on the foundation
    assert turn == "(private to you) Hint: d — nothing better is open: turn the stock."
    assert "(private to you) I don't understand “9”. /help shows the move notation." in out
    assert f"Player wins Golf! Score 35 in {len(found.moves)} moves." in out
    # the leaderboard ranks the result under Golf's own columns (lb.cols.golf)
    board = out.index("Golf · free games")
    assert out[board + 1].split() == ["#", "player", "cards", "moves"]
    assert out[board + 2].split() == ["1", "Player", "35", str(len(found.moves))]
    assert f"Golf: 1 game, 1 won, best 35 cards in {len(found.moves)} moves" in out
    assert any(line.startswith("Player starts the daily challenge of Golf (") for line in out)
    assert any(line.startswith("Daily Golf · deal ") for line in out)
    # its page in another language, from its own catalogue
    assert "• 3 — la carta de arriba de la columna 3 a la fundación" in out
    assert "Desafío diario: /daily golf" in out
    # every board is drawn: the first shows the seven columns of five under the stock and
    # the foundation, and keeps its size through the game (PileBoard's steady fan)
    images = [tmp_path / line for line in out if line.startswith("out/console/")]
    assert len(images) >= len(found.moves) + 2
    sizes = {Image.open(image).size for image in images[: len(found.moves)]}  # before the end
    assert len(sizes) == 1 and next(iter(sizes))[0] > 700
