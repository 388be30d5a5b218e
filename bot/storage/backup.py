"""Backing up the bot's database and restoring it (``python -m bot backup PATH``, ``python -m
bot restore PATH``).

SQLite: SQLite's online backup, page by page into a new file, a consistent copy of one moment
taken while the bot goes on playing (in WAL mode a reader blocks no writer), checked
(``PRAGMA integrity_check``) before it replaces ``PATH``. Restoring writes the backup's pages
into the database file through the same API, so the file is never seen half-written.

PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore`` (PostgreSQL's client tools, at the
server's major version or newer, on ``PATH``); the password goes to them in ``PGPASSWORD``,
never on a command line another user could read.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

from bot.storage.backend import BUSY_TIMEOUT_SECONDS
from bot.storage.base import database_path, is_postgres_url
from bot.storage.errors import StorageError
from bot.storage.migrations import LATEST

#: how long pg_dump or pg_restore may run before it is stopped (a hung server must not hang
#: the operator's command forever)
PG_TOOL_SECONDS = 3600


@dataclass(frozen=True, slots=True)
class Copied:
    """What a backup or a restore wrote: its size in bytes and (SQLite) its schema version."""

    size: int
    schema_version: int | None = None


def _schema_version(connection: sqlite3.Connection, what: str) -> int:
    try:
        (version,) = connection.execute("SELECT MAX(version) FROM schema_version").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{what} is not a Tavolo database ({exc})") from exc
    return int(version or 0)


def _checked(connection: sqlite3.Connection, what: str) -> int:
    """The schema version of a database that passes SQLite's integrity check."""
    try:
        rows = connection.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{what} is not a usable SQLite database ({exc})") from exc
    if [r[0] for r in rows] != ["ok"]:
        raise StorageError(f"{what} is corrupt (integrity check: {rows[0][0]})")
    return _schema_version(connection, what)


def backup_sqlite(database_url: str, target: Path) -> Copied:
    """A consistent copy of the SQLite database at ``database_url`` in ``target`` (replaced
    only once the copy is complete and checked), safe while the bot runs."""
    source_path = database_path(database_url)
    if not Path(source_path).is_file():
        raise StorageError(f"there is no database at {source_path}")
    if not target.parent.is_dir():
        raise StorageError(f"the folder of the backup does not exist: {target.parent}")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(source_path, timeout=BUSY_TIMEOUT_SECONDS)
    try:
        copy = sqlite3.connect(partial)
        try:
            # all pages in one step: one read transaction, one moment's database; in WAL mode
            # the bot's writes go on meanwhile (they land after that moment)
            source.backup(copy)
            # one self-contained file (the bot's own file is in WAL mode; a backup needs none)
            copy.execute("PRAGMA journal_mode=DELETE").fetchall()
            version = _checked(copy, "the backup")
        finally:
            copy.close()
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise StorageError(f"cannot back up {source_path}: {exc}") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    os.replace(partial, target)
    return Copied(target.stat().st_size, version)


def restore_sqlite(backup: Path, database_url: str, replace: bool = False) -> Copied:
    """The backup ``backup`` written over the SQLite database at ``database_url`` (stop the
    bot first). A database that has games is replaced only with ``replace``."""
    target_path = database_path(database_url)
    if not backup.is_file():
        raise StorageError(f"there is no backup at {backup}")
    source = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    try:
        version = _checked(source, f"the backup {backup}")
        if version > LATEST:
            raise StorageError(
                f"the backup {backup} has schema version {version}, newer than "
                f"this program's {LATEST}: restore it with that version"
            )
        if not Path(target_path).parent.is_dir():
            raise StorageError(
                f"the folder of the database does not exist: {Path(target_path).parent}"
            )
        target = sqlite3.connect(target_path, timeout=BUSY_TIMEOUT_SECONDS)
        try:
            if not replace and _has_games(target):
                raise StorageError(
                    f"{target_path} already has games: back it up, then restore "
                    "with --replace to write the backup over it"
                )
            source.backup(target)
            target.execute("PRAGMA journal_mode=WAL").fetchall()
        finally:
            target.close()
    except sqlite3.Error as exc:
        raise StorageError(f"cannot restore {backup} into {target_path}: {exc}") from exc
    finally:
        source.close()
    return Copied(Path(target_path).stat().st_size, version)


def _has_games(connection: sqlite3.Connection) -> bool:
    try:
        return bool(connection.execute("SELECT COUNT(*) FROM sessions").fetchone()[0])
    except sqlite3.OperationalError:
        return False  # a new, empty file: no sessions table yet


def libpq_command(database_url: str) -> tuple[str, dict[str, str]]:
    """A PostgreSQL URL for libpq's tools without its password, and the environment that
    carries it (``PGPASSWORD``).

    >>> libpq_command("postgresql://bot:s3cret@db:5432/tavolo")
    ('postgresql://bot@db:5432/tavolo', {'PGPASSWORD': 's3cret'})
    >>> libpq_command("postgresql:///tavolo?host=/run/pg&password=s3cret")
    ('postgresql:///tavolo?host=%2Frun%2Fpg', {'PGPASSWORD': 's3cret'})
    >>> libpq_command("postgresql://db/tavolo")
    ('postgresql://db/tavolo', {})
    """
    parts = urlsplit(database_url)
    env: dict[str, str] = {}
    netloc = parts.netloc
    if "@" in netloc:
        credentials, _, host = netloc.rpartition("@")
        user, colon, password = credentials.partition(":")
        if colon:
            env["PGPASSWORD"] = password
        netloc = f"{user}@{host}" if user else host
    query = []
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key == "password":
            env["PGPASSWORD"] = value
        else:
            query.append((key, value))
    # by hand: urlunsplit drops the // of a URL with no host (a unix socket's)
    rest = f"?{urlencode(query)}" if query else ""
    return f"{parts.scheme}://{netloc}{parts.path}{rest}", env


def _pg_tool(name: str, arguments: list[str], database_url: str) -> None:
    tool = shutil.which(name)
    if tool is None:
        raise StorageError(
            f"{name} is not installed here: install PostgreSQL's client tools "
            "(the server's major version or newer), or run it where the server is "
            '(README, "Deploying")'
        )
    url, secret = libpq_command(database_url)
    try:
        done = subprocess.run(
            [tool, *arguments, "--dbname", url],
            capture_output=True,
            text=True,
            env={**os.environ, **secret},
            timeout=PG_TOOL_SECONDS,
        )
    except subprocess.TimeoutExpired as exc:
        raise StorageError(f"{name} did not finish in {PG_TOOL_SECONDS} s") from exc
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise StorageError(f"{name} failed: {lines[-1]}")


def backup(database_url: str, target: Path) -> Copied:
    """A backup of the bot's database in ``target``: SQLite's online backup, or ``pg_dump``'s
    custom format for PostgreSQL."""
    if not is_postgres_url(database_url):
        return backup_sqlite(database_url, target)
    partial = target.with_name(target.name + ".partial")
    try:
        _pg_tool("pg_dump", ["--format=custom", "--no-owner", "--file", str(partial)], database_url)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)
    return Copied(target.stat().st_size)


def restore(backup_path: Path, database_url: str, replace: bool = False) -> Copied:
    """``backup_path`` restored into the bot's database (stop the bot first): SQLite's backup
    written back, or ``pg_restore`` (with ``replace``, what the backup holds is dropped and made
    again first; without it the target must be empty)."""
    if not is_postgres_url(database_url):
        return restore_sqlite(backup_path, database_url, replace)
    if not backup_path.is_file():
        raise StorageError(f"there is no backup at {backup_path}")
    arguments = ["--no-owner", "--single-transaction", "--exit-on-error"]
    if replace:
        arguments += ["--clean", "--if-exists"]
    _pg_tool("pg_restore", [*arguments, str(backup_path)], database_url)
    return Copied(backup_path.stat().st_size)
