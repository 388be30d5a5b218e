"""The web page reads the features only through ``bot.core.web_reads.WebReads``: no module
under ``bot/web/`` imports a feature (at any depth, type-only imports included), and the
features modules that the table and race split made stay one concept each (their size:
tests/test_module_sizes.py)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    """Every module an import statement of ``path`` names, anywhere in it."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_nothing_under_bot_web_imports_a_feature() -> None:
    modules = sorted((ROOT / "bot" / "web").rglob("*.py"))
    assert modules, "bot/web has Python modules"
    reaching = {
        path.relative_to(ROOT).as_posix(): sorted(
            name
            for name in imported_modules(path)
            if name == "bot.features" or name.startswith("bot.features.")
        )
        for path in modules
    }
    assert {path: names for path, names in reaching.items() if names} == {}


def test_the_guard_sees_a_feature_import(tmp_path: Path) -> None:
    # the check above reads every form the web page once used
    module = tmp_path / "m.py"
    module.write_text(
        "from bot.features import web as links\n"
        "def f():\n    from bot.features.tables import is_computer\n",
        encoding="utf-8",
    )
    found = imported_modules(module)
    assert "bot.features.web" in found and "bot.features.tables" in found
