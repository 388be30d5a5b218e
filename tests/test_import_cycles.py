"""No import cycle among the modules of bot/, engine/ and renderer/.

The code is read, not run. Counted: every import statement anywhere in a module: at its top
level, under ``if TYPE_CHECKING:`` (a cycle of type-only imports is still two modules that
cannot be understood apart), under ``try``, and inside functions and methods. A function-level
import cannot deadlock module initialisation, but it still ties the two modules together: the
core once reached the composition root ``bot.app`` (which imports every feature, which import
the core) from inside ``Core``; now whoever builds a core hands it its features
(``bot.app.open_core``). Importing ``a.b.c`` also runs the package ``a.b``'s ``__init__``, so
it counts as an import of each enclosing package that is not an enclosing package of the
importer itself (those are already loading).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "engine", "renderer")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of the module, at any depth."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` its imports load."""
    paths = {module_name(p, root): p for pkg in packages for p in (root / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        is_package = path.name == "__init__.py"
        own_package = name if is_package else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = own_package.split(".")[: len(own_package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                # ``from pkg import mod`` loads pkg.mod when it is a module, else only pkg
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base for a in node.names
                ]
            for target in targets:
                parts = target.split(".")
                for depth in range(1, len(parts) + 1):
                    loaded = ".".join(parts[:depth])
                    enclosing = name == loaded or name.startswith(loaded + ".")
                    if loaded in paths and loaded != name and not enclosing:
                        graph[name].add(loaded)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_bot_engine_and_renderer_have_no_import_cycle():
    graph = import_graph(ROOT)
    assert "bot.core.dispatch" in graph and "bot.features.tables" in graph
    assert cycles(graph) == []


def test_the_core_imports_no_feature_and_engine_and_renderer_never_import_bot():
    graph = import_graph(ROOT)
    for module, imported in graph.items():
        if module.startswith("bot.core"):
            assert not {
                m for m in imported if m.startswith(("bot.features", "bot.app", "bot.platforms"))
            }, module
        if module.startswith(("engine", "renderer")):
            assert not {m for m in imported if m.startswith("bot")}, module


def test_the_walker_finds_a_cycle_through_type_checking_and_a_package_init(tmp_path: Path):
    (tmp_path / "bot" / "core").mkdir(parents=True)
    (tmp_path / "bot" / "__init__.py").write_text("")
    (tmp_path / "bot" / "core" / "__init__.py").write_text("from bot.core.dispatch import Core\n")
    (tmp_path / "bot" / "core" / "dispatch.py").write_text(
        "from bot import feature\nclass Core: ...\n"
    )
    (tmp_path / "bot" / "core" / "context.py").write_text("")
    (tmp_path / "bot" / "feature.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.core.context import Ctx\n"
    )
    graph = import_graph(tmp_path, ("bot",))
    assert graph["bot.feature"] == {"bot.core", "bot.core.context"}
    assert cycles(graph) == [["bot.core", "bot.core.dispatch", "bot.feature"]]


def test_the_walker_counts_an_import_inside_a_method(tmp_path: Path):
    """The shape the core once had: a lazy import of the composition root from a method."""
    (tmp_path / "bot" / "core").mkdir(parents=True)
    (tmp_path / "bot" / "__init__.py").write_text("")
    (tmp_path / "bot" / "core" / "__init__.py").write_text("")
    (tmp_path / "bot" / "core" / "dispatch.py").write_text(
        "class Core:\n    def __init__(self):\n        from bot.app import wire\n"
    )
    (tmp_path / "bot" / "app.py").write_text(
        "from bot.core.dispatch import Core\ndef wire(): ...\n"
    )
    graph = import_graph(tmp_path, ("bot",))
    assert graph["bot.core.dispatch"] == {"bot.app"}
    assert cycles(graph) == [["bot.app", "bot.core.dispatch"]]
    # the core handed its wiring by the root instead: no cycle
    (tmp_path / "bot" / "core" / "dispatch.py").write_text(
        "class Core:\n    def __init__(self, wiring):\n        wiring()\n"
    )
    assert cycles(import_graph(tmp_path, ("bot",))) == []
