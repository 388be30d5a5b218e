"""Repository hygiene that CI would otherwise only reveal on a clean clone."""

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).parent


def test_test_modules_have_unique_names():
    # The test folders are not packages, so pytest refuses two modules with one basename
    # (a stale __pycache__ can hide it locally; a fresh clone fails at collection).
    names = Counter(path.name for path in TESTS.rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []


def test_the_secrets_file_and_local_data_are_never_committed():
    # Tokens live in .env; games in data/. Both must stay out of git whatever else changes.
    ignored = (TESTS.parent / ".gitignore").read_text().split()
    assert {".env", "data/", ".venv/", "out/"} <= set(ignored)
