"""No layer knows a game by its id: the code of engine/, renderer/, bot/ and bench/ holds no
comparison with a game id (``view["game"] == "canfield"``, ``game_id in ("a", "b")``, a
``case "freecell":``, ``WHERE game_id = 'maestras'`` in SQL), no dict keyed by one, no entry
stored under one (``TABLE["freecell"] = ...``), no tuple, list or set of two or more, and no
text (a docstring, a doctest's output) listing two or more; no catalogue text spells out the
games. Each reads the games' facts instead (``engine.GAMES``, ``GameInfo``, the view,
``renderer.registry``) or gets them filled in (``{games}``), so a new game needs no edit in
any of them, and this test stops a branch coming back. There is no list of files excused.

A game's own modules name their game (``GameInfo(id="golf")``, a doctest that plays it):
naming is not branching, and only the forms above are read as branches. A game's own package
may name its own classes (the Squadratik balance tool's ``ElSolitario``): a name, not a literal
compared. bot/ names no game at all (``tests/bot/test_game_ids.py``).

Storage migrations are not read: each is the record of how stored rows were rewritten once,
on their day, and is never edited after it shipped.

The code is read, not run (as ``tests/bot/test_game_ids.py`` reads bot/)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "renderer", "bot", "bench")
#: rewrites of stored rows, frozen once shipped (see the module docstring)
HISTORY = ROOT / "bot" / "storage" / "migrations"


def game_branches(source: str, game_ids: set[str]) -> list[tuple[int, str]]:
    """(line, what) of every place ``source`` knows a game by its id."""
    alternatives = "|".join(map(re.escape, sorted(game_ids)))
    listed = re.compile(rf"""(['"])(?:{alternatives})\1\s*,\s*(['"])(?:{alternatives})\2""")
    sql_compared = re.compile(rf"""\w\s+(?:=|<>|!=|IN\s*\()\s*'(?:{alternatives})'""", re.I)

    def is_id(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Constant) and node.value in game_ids

    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(
            is_id(side) for side in (node.left, *node.comparators)
        ):
            found.append((node.lineno, "a comparison with a game id"))
        elif isinstance(node, ast.Dict) and any(is_id(key) for key in node.keys):
            found.append((node.lineno, "a dict keyed by a game id"))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            if is_id(node.slice):
                found.append((node.lineno, "an entry stored under a game id"))
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            if sum(map(is_id, node.elts)) >= 2:
                found.append((node.lineno, "a list of game ids"))
        elif isinstance(node, ast.MatchValue) and is_id(node.value):
            found.append((node.lineno, "a case of a game id"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if listed.search(node.value):
                found.append((node.lineno, "a text listing game ids"))
            if sql_compared.search(node.value):
                found.append((node.lineno, "SQL comparing with a game id"))
    return sorted(found)


def test_the_reader_sees_every_kind_of_branch() -> None:
    source = (
        'A = ("solitario", "canfield")\n'
        'B = {"imaginary13": 1}\n'
        'C = [x for x in ["freecell", "squadratik"]]\n'
        'if view["game"] == "canfield": pass\n'
        'if "maestras" != game_id: pass\n'
        'match game_id:\n    case "freecell": pass\n'
        'TABLE["freecell"] = 1\n'
        "def f():\n    '''>>> sorted(GAMES)\n    ['canfield', 'freecell']\n    '''\n"
        "SQL = \"SELECT 1 FROM results WHERE game_id = 'maestras'\"\n"
        "SQL2 = \"WHERE game_id IN ('squadratik', 'x')\"\n"
        # not branches: a name, one id in a set, a call, a keyword argument's repr
        'D = {"solitario"}\nE = "canfield"\nF = new_game("freecell", 1)\n'
        "G = \"PlayArgs(game_id='solitario')\"\n"
    )
    lines = [line for line, _ in game_branches(source, set(engine.GAMES))]
    assert lines == [1, 2, 3, 4, 5, 7, 8, 10, 13, 14]


def test_no_code_knows_a_game_by_its_id() -> None:
    game_ids = set(engine.GAMES)
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if HISTORY not in path.parents
        for line, what in game_branches(path.read_text(encoding="utf-8"), game_ids)
    ]
    assert not found, "code that knows a game by its id (read its facts):\n" + "\n".join(found)


def test_no_catalogue_text_spells_out_the_games() -> None:
    words = {w for cls in engine.GAMES.values() for w in (cls.info.id, *cls.info.names.values())}
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    game = rf"\b(?:{alternatives})\b"
    # two games one after the other: "solitario, canfield", "Solitario y Canfield"
    listed = re.compile(rf"{game}\s*(?:,|;| and | y | e | or | o )\s*{game}", re.IGNORECASE)
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sorted((ROOT / "bot" / "i18n" / "locales").rglob("*.po"))
        for match in listed.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found, "fill in {games} (the games' facts) instead:\n" + "\n".join(found)
