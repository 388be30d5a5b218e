"""bot/ reads a game's facts (``engine.game_info``) instead of naming games: no place in the
bot's code spells a game id, not even the features written around one game (a race deals the
games whose facts say ``races``, a table the first game played at a ``table``). A new game
then needs no edit in bot/ beyond its texts, and this test stops a game id coming back.
There is no quota and no list of files excused.

The code is read, not run: every string literal of ``bot/**/*.py`` that is a game id counts,
wherever it is (a comparison, a list, a default), except docstrings (their examples)."""

from __future__ import annotations

import ast
from pathlib import Path

import bot
import engine

BOT_DIR = Path(bot.__file__).parent


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


def test_bot_names_no_game_id() -> None:
    game_ids = set(engine.GAMES)
    found = [
        f"{path.relative_to(BOT_DIR.parent)}:{line}: {game_id}"
        for path in sorted(BOT_DIR.rglob("*.py"))
        for line, game_id in game_id_literals(path.read_text(encoding="utf-8"), game_ids)
    ]
    assert not found, "game ids in bot/ (read engine.game_info instead):\n" + "\n".join(found)
