"""A database with rows in every table, and every table's rows read back: for the tests that
copy a whole database (``migrate-to``, backup and restore) and must lose nothing."""

from __future__ import annotations

import time
from typing import Any

from core_fakes import FakePlatform

from bot.core import Core
from bot.storage import Confirmation, PlayerKey, RatingRecord, StorageBase
from bot.storage.migrations.dialect import SQLITE


async def play_in_every_table(core: Core) -> FakePlatform:
    """Games played as players do (a language, solo games, a daily, a finished game, a race,
    a table, a player forgotten), then what chat traffic leaves behind through the stores: a claim, a handled
    update, a private hand message's origin, a Yes/No question, a rate bucket, a hidden web
    player and a chat's web link."""
    chat = FakePlatform(core)
    chat.admins.add("ana")
    await chat.say("ana", "/lang es")
    await chat.say("ana", "/play canfield 3")
    await chat.say("ana", "/move d")
    await chat.say("ana", "/autofinish off")
    await chat.say("bob", "/play imaginary13 3")
    await chat.resign("bob")
    await chat.say("cleo", "/daily freecell")
    await chat.say("dan", "/race")
    await chat.say("fay", "/join")
    await chat.say("dan", "/start")
    table = FakePlatform(core, chat_id="chat-2")
    await table.say("eve", "/challenge")
    await table.say("eve", "/addbot")
    await table.say("eve", "/start")
    await chat.say("gil", "/play imaginary13 5")
    await chat.say("gil", "/forgetme confirm")  # the web pages' generation moves on
    store = core.store
    now = time.time()
    await store.claims.take("sweep", "process-1", 30, now)
    await store.updates.first_delivery("fake", 1001, now)
    await store.updates.remember_private_message("fake", "dm-ana", "m7", "chat-1", now)
    session_id = next(iter(chat.boards))
    await store.focus.ask(
        Confirmation("q1", "fake", "chat-1", "ana", session_id, "resign", now + 60)
    )
    await store.limits.take_token("user", "fake:ana", 8, 0.5, now)
    await store.web.public_ids([PlayerKey("fake", "bob")])
    await store.web.set_hidden("fake", "bob", True)
    await store.web.chat_link_made("fake", "chat-1", "2026-11-27T12:00:00")
    await store.ratings.save([RatingRecord("fake", "chat-1", "cartas", "ana", "Ana", 25.0, 8.3, 1)])
    return chat


async def every_row(store: StorageBase) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the schema (``schema_version`` aside), as the database itself lists
    them, with all its rows, in one order."""
    if store.dialect == SQLITE:
        listed = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    else:
        listed = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    tables = sorted(row[0] for row in await store.fetch(listed) if row[0] != "schema_version")
    return {
        table: sorted(await store.fetch(f"SELECT * FROM {table}"), key=repr) for table in tables
    }
