"""Every session write that can race another process is compare-and-set on the revision or
touches only its own column: a stale copy in memory never overwrites a newer status, move or
board message (two cores on one database stand for two processes)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from core_fakes import fake_render

from bot.app import open_core
from bot.core import Core
from bot.replies import Request
from bot.storage import ENDED, StaleRevision


def req(user: str) -> Request:
    return Request("fake", "chat-1", user, user.capitalize(), True, False)


async def two_cores(db_url: str) -> tuple[Core, Core]:
    return (
        await open_core(db_url, "en", renderer=fake_render, sweep_interval=None),
        await open_core(db_url, "en", renderer=fake_render, sweep_interval=None),
    )


async def test_a_stale_copy_cannot_overwrite_a_status_another_process_stored(db_url: str):
    first, second = await two_cores(db_url)
    try:
        await first.handle_text(req("ana"), "/challenge")
        ((lobby_id,),) = await first.store.fetch("SELECT id FROM sessions WHERE kind = 'table'")
        stale = await first.sessions.get(lobby_id)  # read before the other process's change
        lobby = await second.sessions.get(lobby_id)
        faces = lobby.record.faces  # the table game's own cards
        await second.sessions.end_without_result(lobby, "2026-01-01T00:00:00+00:00")
        stale.record.faces = "francesi"
        assert faces != "francesi"
        with pytest.raises(StaleRevision):
            await first.sessions.save(stale)
        stored = await first.store.sessions.get(lobby_id)
        assert (stored.status, stored.faces) == (ENDED, faces)  # nothing of the stale write
        # the stale copy was dropped: the next read is the stored state, and the chat is free
        assert (await first.sessions.get(lobby_id)).record.status == ENDED
        assert (await first.handle_text(req("bea"), "/challenge"))[0].key == "challenge.opened"
    finally:
        await first.close()
        await second.close()


async def test_a_board_posted_late_does_not_undo_another_processes_move(db_url: str):
    first, second = await two_cores(db_url)
    try:
        await first.handle_text(req("ana"), "/play canfield 7")
        ((game_id, revision),) = await first.store.fetch(
            "SELECT id, revision FROM sessions WHERE kind = 'solo'"
        )
        await first.sessions.get(game_id)  # the first process holds a copy at this revision
        replies = await second.handle_text(req("ana"), "/move d")
        assert replies[0].board is not None
        await first.board_posted(game_id, "m-late")  # the first process's post lands after it
        stored = await first.store.sessions.get(game_id)
        assert stored.revision == revision + 1 and stored.board_message_id == "m-late"
        assert await first.store.sessions.moves(game_id) == ["d"]
        # and the first process plays on from the stored position, the board edited in place
        moved = await first.handle_text(req("ana"), "/move d")
        assert moved[0].board is not None and moved[0].board.message_id == "m-late"
        assert (await first.store.sessions.get(game_id)).revision == revision + 2
    finally:
        await first.close()
        await second.close()


async def test_a_resign_from_a_stale_copy_refuses_instead_of_rewriting_the_game(db_url: str):
    first, second = await two_cores(db_url)
    try:
        await first.handle_text(req("ana"), "/play canfield 7")
        ((game_id,),) = await first.store.fetch("SELECT id FROM sessions WHERE kind = 'solo'")
        stale = await first.sessions.get(game_id)
        await second.handle_text(req("ana"), "/move d")
        with pytest.raises(StaleRevision):
            await first.sessions.resign(stale, datetime(2026, 1, 1, tzinfo=UTC))
        assert (await first.store.sessions.get(game_id)).status == "active"
        assert await first.store.results.count(game_id) == 0
    finally:
        await first.close()
        await second.close()
