"""What a command costs in trips to the database (issue 27, CPU per command): a read is one
hand-off to SQLite's thread, a transaction of queued statements one, a ``/move`` two (its
reads and its write); queued statements still commit together or not at all, on both
backends; and the threads that draw boards hand results back and stay bounded."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import aiosqlite.core
import pytest
from core_fakes import FakeClock, fake_render

from bot.app import open_core
from bot.core.handoff import Workers
from bot.replies import Request
from bot.storage import ACTIVE, SOLO, SessionRecord, StaleRevision, Storage
from bot.storage.limits import Bucket


def _record(sid: str) -> SessionRecord:
    return SessionRecord(
        id=sid,
        platform="fake",
        chat_id="c",
        kind=SOLO,
        game_id="canfield",
        options={},
        deal=1,
        players=["ana"],
        names={"ana": "Ana"},
        creator="ana",
        status=ACTIVE,
        faces="francesi",
        created_at="2026-01-01T00:00:00",
        last_active_at="2026-01-01T00:00:00",
    )


@pytest.fixture
def handoffs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every hand-off to an aiosqlite connection's thread from now on (the function's name)."""
    seen: list[str] = []
    hand_off = aiosqlite.core.Connection._execute

    async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(getattr(fn, "__name__", repr(fn)))
        return await hand_off(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.core.Connection, "_execute", counted)
    return seen


async def test_queued_statements_commit_together_or_not_at_all(db_url: str):
    store = await Storage.open(db_url)
    try:
        rec = _record("s1")
        await store.sessions.insert(rec)
        rec.revision = 1
        await store.sessions.record_move(rec, 1, "ana", "s", "2026-01-01T00:00:01")
        # a copy one revision behind: its move is refused whole, nothing of it is stored
        stale = _record("s1")
        stale.revision = 1
        with pytest.raises(StaleRevision):
            await store.sessions.record_move(stale, 1, "ana", "w1", "2026-01-01T00:00:02")
        assert await store.sessions.moves("s1") == ["s"]
        assert await store.sessions.revision("s1") == 1
        # a queued statement that fails undoes the ones queued before it in its transaction
        with pytest.raises(StaleRevision):
            async with store.backend.transaction() as tx:
                tx.add("UPDATE sessions SET faces = ? WHERE id = ?", ("napoletane", "s1"))
                tx.add(
                    "UPDATE sessions SET deal = 9 WHERE id = ? AND revision = 7",
                    ("s1",),
                    expect=1,
                    refuse=lambda: StaleRevision("moved on"),
                )
        stored = await store.sessions.get("s1")
        assert stored is not None and (stored.faces, stored.deal) == ("francesi", 1)
        # queued statements and a statement whose answer is read run in order
        async with store.backend.transaction() as tx:
            tx.add("UPDATE sessions SET deal = 5 WHERE id = ?", ("s1",))
            rows = await tx.fetch("SELECT deal FROM sessions WHERE id = ?", ("s1",))
            tx.add("UPDATE sessions SET deal = 6 WHERE id = ?", ("s1",))
            read_back = tx.add("SELECT deal FROM sessions WHERE id = ?", ("s1",), returning=True)
        assert rows == [(5,)] and read_back.rows == [(6,)]
    finally:
        await store.close()


async def test_a_user_over_the_limit_draws_nothing_from_the_chats_bucket(db_url: str):
    store = await Storage.open(db_url)
    try:
        ana, bo = Bucket("user", "fake:ana", 1.0, 0.0), Bucket("user", "fake:bo", 9.0, 0.0)
        chat = Bucket("chat", "fake:c", 5.0, 0.0)  # five requests in all, no refill
        assert await store.limits.take_tokens([ana, chat], 100.0) == [0, 0]
        assert await store.limits.take_tokens([ana, chat], 100.0) == [1]  # the notice
        assert await store.limits.take_tokens([ana, chat], 100.0) == [2]  # silence
        # the chat lost nothing to ana's refused requests: four more for anyone, then none
        for _ in range(4):
            assert await store.limits.take_tokens([bo, chat], 100.0) == [0, 0]
        assert await store.limits.take_tokens([bo, chat], 100.0) == [0, 1]
    finally:
        await store.close()


async def test_reads_and_transactions_are_one_handoff_each(tmp_path: Path, handoffs: list[str]):
    store = await Storage.open(f"sqlite:///{tmp_path / 'trips.db'}")
    try:
        handoffs.clear()
        assert await store.players.chat_language("fake", "c") is None
        assert len(handoffs) == 1  # was three: execute, fetchall, closing the cursor
        handoffs.clear()
        await store.sessions.insert(_record("s1"))
        assert len(handoffs) == 1  # BEGIN, the insert and COMMIT together
        handoffs.clear()
        buckets = [Bucket("user", "fake:ana", 2.0, 1.0), Bucket("chat", "fake:c", 9.0, 1.0)]
        assert await store.limits.take_tokens(buckets, 100.0) == [0, 0]
        assert len(handoffs) == 1  # a request's tokens: was seven a bucket (PRAGMAs, BEGIN...)
        handoffs.clear()
        view = await store.focus.chat_view("fake", "c", "ana")
        assert len(handoffs) == 1
        assert (view.language, [s.id for s in view.open_sessions], view.focus) == (
            None,
            ["s1"],
            None,
        )
    finally:
        await store.close()


async def test_a_move_typed_or_pressed_is_one_read_and_one_write(
    tmp_path: Path, handoffs: list[str]
):
    core = await open_core(
        f"sqlite:///{tmp_path / 'move.db'}",
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
    )
    try:
        req = Request("fake", "c", "ana", "Ana")
        await core.handle_text(req, "/play canfield 3")
        handoffs.clear()
        replies = await core.handle_text(req, "/move s")
        assert replies[0].key == "board.caption", replies[0].text
        # the chat's language, open games and the player's focus; then the move, stored
        assert len(handoffs) == 2
        session = await core.sessions.solo_of("fake", "c", "ana")
        assert session is not None and session.game is not None
        assert await core.store.sessions.moves(session.id) == [str(session.game.moves[0])]
        # a button: the pressed game's revision is read with the rest
        draw = next(b for b in replies[0].buttons if b.key == "pile:s")
        handoffs.clear()
        pressed = await core.handle_button(req, draw.id)
        assert pressed[0].key == "board.caption" and len(handoffs) == 2
        assert len(await core.store.sessions.moves(session.id)) == 2
        # the same button again: the board moved on, the press is refused, nothing stored
        again = await core.handle_button(req, draw.id)
        assert again[0].key == "button.stale"
        assert len(await core.store.sessions.moves(session.id)) == 2
    finally:
        await core.close()


async def test_a_table_move_with_the_computers_answer_is_two_trips(
    tmp_path: Path, handoffs: list[str]
):
    core = await open_core(
        f"sqlite:///{tmp_path / 'table.db'}",
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
    )
    try:
        req = Request("fake", "g", "ana", "Ana")
        for text in ("/challenge", "/addbot", "/start"):
            await core.handle_text(req, text)
        table = await core.sessions.table_of("fake", "g")
        # (a computer seated first has played its opening move already)
        assert table is not None and table.game is not None
        assert table.game.current_player == "ana"
        for _ in range(3):
            move = str(table.game.legal_moves("ana")[0])
            handoffs.clear()
            replies = await core.handle_text(req, f"/move {move}")
            assert "tables.plays" in [r.key for r in replies]
            # the chat view (with who left the table: whose game it is); then the move, the
            # computer's answer and the play state it leaves (Ana's turn clock), stored in
            # one transaction. Was six: three reads, and three commits of their own.
            assert len(handoffs) == 2, handoffs
            assert table.game.moves[-2] == move and table.game.current_player == "ana"
            stored = await core.store.sessions.moves(table.id)
            assert stored == list(table.game.moves)
            play = await core.store.play.table(table.id)
            assert play is not None and play.deadline is not None and play.computers == ["~cpu1"]
    finally:
        await core.close()


async def test_the_drawing_threads_return_results_and_errors_and_stay_bounded():
    workers = Workers("test-draw", 2)
    loop_thread = threading.get_ident()
    assert await workers.run(lambda: threading.get_ident()) != loop_thread
    with pytest.raises(ZeroDivisionError):
        await workers.run(lambda: 1 / 0)
    # two calls at once run side by side (each waits for the other to start)
    both = threading.Barrier(2, timeout=30)
    assert await asyncio.gather(workers.run(both.wait), workers.run(both.wait)) in ([0, 1], [1, 0])
    # many at once: never more threads than the bound, every call answered in turn
    assert await asyncio.gather(*(workers.run(pow, n, 2) for n in range(20))) == [
        n * n for n in range(20)
    ]
    assert len(workers._threads) == 2
    workers.in_place = True
    assert await workers.run(lambda: threading.get_ident()) == loop_thread
