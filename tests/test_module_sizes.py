"""Modules of one concept: no module of bot/ passes 500 lines unless its first lines say why
(a comment ``# long: <reason>``). A module that grows past it holds several concepts: split it
(docs/architecture.md's module map names each module's one concept)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 500
REASON = re.compile(r"^# long: \S.{10,}$", re.M)


def long_without_reason(package: Path) -> list[str]:
    found = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + 1
        head = "\n".join(text.splitlines()[:5])
        if lines > MAX_LINES and not REASON.search(head):
            found.append(f"{path.relative_to(package.parent)}: {lines} lines")
    return found


def test_no_bot_module_is_over_500_lines_without_its_reason() -> None:
    assert long_without_reason(ROOT / "bot") == []


def test_the_guard_sees_a_long_module_and_reads_its_reason(tmp_path: Path) -> None:
    body = "x = 1\n" * (MAX_LINES + 1)
    (tmp_path / "long.py").write_text(body, encoding="utf-8")
    (tmp_path / "explained.py").write_text(
        "# long: one table of every command, split would scatter it\n" + body, encoding="utf-8"
    )
    found = [line.split(":")[0] for line in long_without_reason(tmp_path)]
    assert [Path(name).name for name in found] == ["long.py"]
