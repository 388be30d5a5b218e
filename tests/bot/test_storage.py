"""Storage: migrations, WAL, durable writes and clear start-up errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, Storage, StorageError


async def test_a_new_database_is_migrated_to_the_latest_schema_in_wal_mode(tmp_path: Path):
    store = await Storage.open(f"sqlite:///{tmp_path / 'new.db'}")
    try:
        assert await store.schema_version() == MIGRATIONS[-1][0]
        async with store._db.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"
    finally:
        await store.close()


async def test_reopening_keeps_data_and_does_not_migrate_twice(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'keep.db'}"
    store = await Storage.open(url)
    await store.players.set_chat_language("telegram", "42", "es")
    await store.close()
    store = await Storage.open(url)
    try:
        assert await store.players.chat_language("telegram", "42") == "es"
        async with store._db.execute("SELECT COUNT(*) FROM schema_version") as cursor:
            assert (await cursor.fetchone())[0] == len(MIGRATIONS)
    finally:
        await store.close()


async def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path):
    bad = tmp_path / "garbage.db"
    bad.write_bytes(b"this is not sqlite at all, " * 200)
    with pytest.raises(StorageError, match="not a usable SQLite database"):
        await Storage.open(f"sqlite:///{bad}")


async def test_a_corrupted_database_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "corrupt.db"
    store = await Storage.open(f"sqlite:///{path}")
    for i in range(300):
        await store.players.set_chat_language("fake", f"chat-{i}", "en")
    await store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await store.close()
    data = bytearray(path.read_bytes())
    # Overwrite the middle of the file (table pages), keeping the header valid.
    for offset in range(4096 + 100, min(len(data), 4096 * 4), 7):
        data[offset] = 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(StorageError):
        await Storage.open(f"sqlite:///{path}")


async def test_a_missing_folder_is_a_clear_error_unless_asked_to_create_it(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}"
    with pytest.raises(StorageError, match="folder of the database does not exist"):
        await Storage.open(url)
    store = await Storage.open(url, create_parent=True)
    await store.close()
    assert (tmp_path / "no" / "such" / "dir.db").exists()


async def test_a_database_from_a_newer_program_is_refused(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'future.db'}"
    store = await Storage.open(url)
    await store._db.execute("INSERT INTO schema_version (version) VALUES (999)")
    await store._db.commit()
    await store.close()
    with pytest.raises(StorageError, match="newer"):
        await Storage.open(url)


async def test_a_url_of_an_unknown_database_is_refused():
    with pytest.raises(StorageError, match="DATABASE_URL"):
        await Storage.open("mysql://somewhere/db")
