"""bot/ reads a game's facts (``engine.game_info``) instead of naming games: at most three
places in the bot's code may spell a game id, each where naming the game is truly the
clearest (a module written for that one game), with a comment saying why. A new game then
needs no edit in bot/ beyond its texts, and this test stops a list of game ids coming back.

The code is read, not run: every string literal of ``bot/**/*.py`` that is a game id counts,
wherever it is (a comparison, a list, a default), except docstrings (their examples)."""

from __future__ import annotations

import ast
from pathlib import Path

import bot
import engine

BOT_DIR = Path(bot.__file__).parent
#: the most game-id literals bot/ may hold
MAX_GAME_IDS = 3


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring nodes of the module, its classes and functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def game_id_literals(source: str, game_ids: set[str]) -> list[tuple[int, str]]:
    """(line, game id) of every game-id string literal outside docstrings."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in game_ids
        and id(node) not in skip
    )


def test_the_counter_sees_every_kind_of_use() -> None:
    source = '''"""Docstring naming solitario is fine."""
def f(game_id):
    """So is canfield here."""
    if game_id == "solitario":
        return ("canfield", "imaginary13")
    return {"maestras": 1}.get(game_id, "x")
'''
    found = game_id_literals(source, set(engine.GAMES))
    assert [g for _, g in found] == ["solitario", "canfield", "imaginary13", "maestras"]


def test_bot_names_at_most_three_game_ids() -> None:
    game_ids = set(engine.GAMES)
    found = [
        f"{path.relative_to(BOT_DIR.parent)}:{line}: {game_id}"
        for path in sorted(BOT_DIR.rglob("*.py"))
        for line, game_id in game_id_literals(path.read_text(encoding="utf-8"), game_ids)
    ]
    assert len(found) <= MAX_GAME_IDS, (
        "game ids in bot/ (read engine.game_info instead):\n" + "\n".join(found)
    )


def test_each_game_id_left_says_why() -> None:
    """Every game id that stays has a comment just above it saying why naming it is clearest."""
    game_ids = set(engine.GAMES)
    for path in sorted(BOT_DIR.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for line, game_id in game_id_literals("\n".join(lines), game_ids):
            above = lines[max(0, line - 4) : line - 1]
            assert any(text.strip().startswith("#") for text in above), f"{path}:{line} {game_id}"
