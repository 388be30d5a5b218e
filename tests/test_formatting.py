"""The formatter is not fought: a `# fmt: skip` or `# fmt: off` says why, on the line above.

The only good reason is a table that reads better aligned by hand; the comment above says so,
e.g. ``# table: one row per suit, columns aligned (fmt: skip)``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "renderer", "bot", "tests", "bench", "tools")
DIRECTIVE = re.compile(r"#\s*fmt:\s*(skip|off)\b")
REASON = re.compile(r"^\s*#\s*table\b.*\S", re.IGNORECASE)


def _unexplained() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines):
                if not DIRECTIVE.search(line) or path == Path(__file__).resolve():
                    continue
                above = lines[number - 1] if number else ""
                if not REASON.match(above):
                    found.append(f"{path.relative_to(ROOT)}:{number + 1}")
    return found


def test_every_formatter_exception_is_a_table_with_its_reason() -> None:
    unexplained = _unexplained()
    assert not unexplained, (
        "`# fmt: skip`/`# fmt: off` without a '# table: <why>' comment on the line above "
        "(let ruff format the code instead): " + ", ".join(unexplained)
    )


def test_the_guard_sees_an_unexplained_skip() -> None:
    # the pattern itself, on a made-up line: a bare skip is caught, an explained one is not
    assert DIRECTIVE.search("x = (1,  2)  # fmt: skip")
    assert not REASON.match("x = 1")
    assert REASON.match("# table: rows aligned by suit")
