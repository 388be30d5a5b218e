"""``python -m bot migrate``: the release step. A database left at an older schema is migrated
once, each migration logged, its rows kept; a bot process that may not migrate it itself
(``AUTO_MIGRATE``, off by default on PostgreSQL) stops with the command to run, changing
nothing. On SQLite and PostgreSQL alike."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage.base import statements
from bot.storage.migrations import LATEST, migration_name, migrations
from bot.storage.migrations.dialect import POSTGRES, SQLITE
from bot.storage.postgres import PostgresBackend
from bot.storage.sqlite import SqliteBackend

ROOT = Path(__file__).resolve().parents[2]
#: the schema the old database is left at: before the web page's tables (m010)
OLD = 9


async def database_at(url: str, version: int) -> None:
    """The database at ``url`` migrated up to ``version`` only (an older Tavolo's), with a
    chat's language stored in it."""
    if url.startswith("sqlite"):
        backend: SqliteBackend | PostgresBackend = await SqliteBackend.connect(url[10:])
        dialect = SQLITE
    else:
        backend = await PostgresBackend.connect(url)
        dialect = POSTGRES
    try:
        async with backend.transaction() as tx:
            await tx.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            for number, script in migrations(dialect)[:version]:
                for statement in statements(script):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
            await tx.execute(
                "INSERT INTO settings (platform, chat_id, language) VALUES ('fake', 'chat-1', 'it')"
            )
    finally:
        await backend.close()


async def version_and_language(url: str) -> tuple[int, list[tuple[str, ...]]]:
    if url.startswith("sqlite"):
        backend: SqliteBackend | PostgresBackend = await SqliteBackend.connect(url[10:])
    else:
        backend = await PostgresBackend.connect(url)
    try:
        version = (await backend.fetch("SELECT MAX(version) FROM schema_version"))[0][0]
        return version, await backend.fetch("SELECT platform, chat_id, language FROM settings")
    finally:
        await backend.close()


def tavolo(cwd: Path, *arguments: str, **settings: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGUMENTS`` with only ``settings`` set (no .env, no stray token)."""
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_TOKEN", "_URL", "MIGRATE"))}
    env.update(settings, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "bot", *arguments],
        cwd=cwd,
        env=env,
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(params=["sqlite", "postgresql"])
async def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'tavolo.db'}"
    else:
        url = await request.getfixturevalue("pg_server").fresh_database(migrated=False)
    await database_at(url, OLD)
    return url


async def test_migrate_applies_each_pending_migration_once_and_logs_it(
    old_database: str, tmp_path: Path
) -> None:
    url = old_database
    # a chat platform's process on the old schema, not allowed to migrate it: stops, says how
    refused = tavolo(tmp_path, AUTO_MIGRATE="0", DATABASE_URL=url, TELEGRAM_TOKEN="123:abc")
    assert refused.returncode == 2, refused.stderr
    assert f"schema version {OLD}" in refused.stderr
    assert "run `python -m bot migrate`" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert await version_and_language(url) == (OLD, [("fake", "chat-1", "it")])

    done = tavolo(tmp_path, "migrate", DATABASE_URL=url)
    assert done.returncode == 0, done.stderr
    assert f"applied {LATEST - OLD} migrations ({OLD + 1}-{LATEST})" in done.stdout
    logged = [line for line in done.stderr.splitlines() if "applying migration" in line]
    assert [line.split("applying migration ")[1] for line in logged] == [
        f"{n} ({migration_name(n)})" for n in range(OLD + 1, LATEST + 1)
    ]
    assert logged[0].endswith("applying migration 10 (m010_web)")
    assert await version_and_language(url) == (LATEST, [("fake", "chat-1", "it")])

    again = tavolo(tmp_path, "migrate", DATABASE_URL=url)
    assert again.returncode == 0, again.stderr
    assert f"already at version {LATEST}, nothing to apply" in again.stdout
    assert "applying migration" not in again.stderr


async def test_the_console_migrates_an_old_database_itself_unless_told_not_to(
    old_database: str, tmp_path: Path
) -> None:
    url = old_database
    told_not_to = tavolo(tmp_path, "--console", AUTO_MIGRATE="0", DATABASE_URL=url)
    assert told_not_to.returncode == 2
    assert "python -m bot migrate" in told_not_to.stderr
    assert (await version_and_language(url))[0] == OLD

    played = tavolo(tmp_path, "--console", DATABASE_URL=url)  # end of input: the console ends
    assert played.returncode == 0, played.stderr
    assert "applying migration 10 (m010_web)" in played.stderr
    assert await version_and_language(url) == (LATEST, [("fake", "chat-1", "it")])


def test_a_postgresql_bot_process_does_not_migrate_by_default_and_sqlite_does() -> None:
    from bot.settings import Settings

    sqlite = {"TELEGRAM_TOKEN": "123:abc"}
    postgres = {**sqlite, "DATABASE_URL": "postgresql://db/t"}
    assert Settings.from_mapping(sqlite).migrates_itself(console=False)
    assert not Settings.from_mapping(postgres).migrates_itself(console=False)
    assert Settings.from_mapping({**postgres, "AUTO_MIGRATE": "1"}).migrates_itself(console=False)
    with pytest.raises(ValueError, match="AUTO_MIGRATE must be 1 or 0"):
        Settings.from_mapping({"AUTO_MIGRATE": "sometimes"})


def test_a_new_database_is_created_in_one_logged_step(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    done = tavolo(tmp_path, "migrate", DATABASE_URL=url)
    assert done.returncode == 0, done.stderr
    assert f"applied {LATEST} migrations (1-{LATEST})" in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(f"its schema created at version {LATEST}")
