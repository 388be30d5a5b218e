"""docs/architecture.md's module map matches the code (issue 38): every module of engine/, tools/,
renderer/ and bot/ is named there (by its path, or by its package's folder), and every path the
map names exists. A module added without its line, or moved without the map, fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "renderer", "bot", "tools")


def map_entries() -> list[str]:
    """The paths the module map's first column names (a cell may name several)."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = doc.index("## Module map")
    end = doc.find("\n## ", start + 1)
    rows = re.findall(r"^\| (.+?) \|", doc[start : end if end != -1 else None], re.M)
    return [path for row in rows for path in re.findall(r"`([^`]+)`", row)]


def test_every_module_is_in_the_map_and_every_entry_exists() -> None:
    entries = map_entries()
    assert len(entries) > 50
    folders = [e for e in entries if not e.endswith(".py")]
    unmapped = []
    for package in PACKAGES:
        for module in sorted((ROOT / package).rglob("*.py")):
            path = module.relative_to(ROOT).as_posix()
            if path not in entries and not any(path.startswith(f + "/") for f in folders):
                unmapped.append(path)
    assert unmapped == [], "add these to docs/architecture.md's module map"
    missing = [e for e in entries if not (ROOT / e).exists()]
    assert missing == [], "the module map names what is not there"


def test_the_map_names_no_module_twice() -> None:
    entries = map_entries()
    assert sorted(e for e in set(entries) if entries.count(e) > 1) == []


def test_developer_tools_are_not_shipped() -> None:
    """The gallery, samples and font builder live in tools/, which the wheel (and so the
    container) leaves out and no runtime module imports."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    include = re.search(r"\[tool\.setuptools\.packages\.find\]\ninclude = \[(.*)\]", pyproject)
    assert include is not None
    shipped = re.findall(r'"([^"]+)"', include.group(1))
    assert shipped and not any(name.startswith("tools") for name in shipped)
    importers = [
        module.relative_to(ROOT).as_posix()
        for package in ("engine", "renderer", "bot")
        for module in (ROOT / package).rglob("*.py")
        if re.search(r"^\s*(from tools\b|import tools\b)", module.read_text(encoding="utf-8"), re.M)
    ]
    assert importers == []
