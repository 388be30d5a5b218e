"""No hand-kept list of games outside the games themselves: the code of engine/, renderer/,
bot/ and bench/ holds no tuple, list, set or dict (keys) spelling two or more game ids, and
no catalogue text spells out the games: each reads the games' facts (``engine.GAMES``,
``GameInfo``, ``renderer.registry``) or gets them filled in (``{games}``). A new game then
needs no edit in any of them, and this test stops a list coming back.

The code is read, not run (as ``tests/bot/test_game_ids.py`` reads bot/)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "renderer", "bot", "bench")
#: files that may keep one, and why
ALLOWED = {
    # the Squadratik balance tool: code written for each of the deck's two games
    "engine/stats.py",
    # two sample games whose web pages the load bench reads
    "bench/bench_web.py",
}


def game_lists(source: str, game_ids: set[str]) -> list[tuple[int, list[str]]]:
    """(line, game ids) of every collection literal naming two or more game ids."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [key for key in node.keys if key is not None]
        else:
            continue
        named = [i.value for i in items if isinstance(i, ast.Constant) and i.value in game_ids]
        if len(named) >= 2:
            found.append((node.lineno, named))
    return found


def test_the_reader_sees_lists_tuples_sets_and_dict_keys() -> None:
    source = 'A = ("solitario", "canfield")\nB = {"imaginary13": 1, "maestras": 2}\n' \
             'C = [x for x in ["freecell", "squadratik"]]\nD = {"solitario"}\nE = "canfield"\n'  # fmt: skip
    assert [line for line, _ in game_lists(source, set(engine.GAMES))] == [1, 2, 3]


def test_no_code_keeps_a_list_of_games() -> None:
    game_ids = set(engine.GAMES)
    found = [
        f"{path.relative_to(ROOT)}:{line}: {names}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if str(path.relative_to(ROOT)) not in ALLOWED
        for line, names in game_lists(path.read_text(encoding="utf-8"), game_ids)
    ]
    assert not found, "game lists kept by hand (read the games' facts):\n" + "\n".join(found)


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
