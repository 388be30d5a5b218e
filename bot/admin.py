"""The operator's commands of ``python -m bot``: ``migrate``, ``backup PATH`` and ``restore
PATH``, each on the database of ``DATABASE_URL`` (README, "Deploying").

    python -m bot migrate               # apply pending migrations (the release step)
    python -m bot backup backups/x.db   # a copy of the database, safe while the bot runs
    python -m bot restore backups/x.db  # that copy back (stop the bot first)

Each prints one line saying what it did and returns 0, or prints why it could not on stderr
and returns 2; URLs are printed without their password.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.redact import redact
from bot.settings import Settings
from bot.storage import DEFAULT_DATABASE_URL, Storage, StorageError, redacted
from bot.storage.backup import backup, restore
from bot.storage.migrations import LATEST


async def _migrate(settings: Settings) -> tuple[int, ...]:
    database_url = settings.database_url
    store = await Storage.open(
        database_url, create_parent=database_url == DEFAULT_DATABASE_URL, pool=settings.pool
    )
    try:
        return store.applied_migrations
    finally:
        await store.close()


def migrate(settings: Settings) -> int:
    """Apply the pending migrations once (each logged as it is applied)."""
    where = redacted(settings.database_url)
    try:
        applied = asyncio.run(_migrate(settings))
    except StorageError as error:
        print(redact(f"tavolo: cannot migrate: {error}"), file=sys.stderr)
        return 2
    if applied:
        print(
            f"{where}: applied {len(applied)} migrations ({applied[0]}-{applied[-1]}); "
            f"schema at version {LATEST}"
        )
    else:
        print(f"{where}: schema already at version {LATEST}, nothing to apply")
    return 0


def make_backup(settings: Settings, path: str) -> int:
    """A backup of the database in ``path``."""
    try:
        made = backup(settings.database_url, Path(path))
    except StorageError as error:
        print(redact(f"tavolo: cannot back up: {error}"), file=sys.stderr)
        return 2
    version = "" if made.schema_version is None else f", schema version {made.schema_version}"
    print(f"backed up {redacted(settings.database_url)} to {path} ({made.size} bytes{version})")
    return 0


def restore_backup(settings: Settings, path: str, replace: bool) -> int:
    """The backup at ``path`` restored into the database."""
    try:
        done = restore(Path(path), settings.database_url, replace)
    except StorageError as error:
        print(redact(f"tavolo: cannot restore: {error}"), file=sys.stderr)
        return 2
    where = redacted(settings.database_url)
    if done.schema_version is not None and done.schema_version < LATEST:
        after = f"; it is at schema version {done.schema_version}: run `python -m bot migrate`"
    else:
        after = ""
    print(f"restored {path} into {where}{after}")
    return 0
