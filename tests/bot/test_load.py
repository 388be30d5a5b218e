"""Many players at once through the core: nothing acknowledged is lost, no reply crosses over.

The full size (1,000 players x 20 moves) runs in ``make bench`` (``bench/bench_core.py``);
here 100 players make 10 moves each, all at the same time, ten to a chat.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from core_fakes import FakeClock, FakePlatform

import engine
from bench.bench_core import (
    PLAYERS_PER_CHAT,
    LoadPlayer,
    cheap_render,
    drive_all,
    load_check,
    stored_problems,
)
from bot.app import open_core
from bot.core import Core


@pytest.mark.slow
async def test_100_players_10_moves_each_at_once_every_acknowledged_move_is_stored():
    report = await load_check(players=100, moves=10)
    assert report["problems"] == [] and report["problem_count"] == 0
    assert report["acknowledged_moves"] == 100 * 10
    assert report["integrity"] == ["ok"]


async def test_a_lost_or_invented_move_is_noticed(tmp_path: Path):
    """The load check's own check fails when storage and acknowledgements disagree."""
    core = await open_core(
        f"sqlite:///{tmp_path / 't.db'}",
        "en",
        FakeClock(),
        renderer=cheap_render,
        sweep_interval=None,
    )
    try:
        crowd = [LoadPlayer(core, i) for i in range(3)]
        await drive_all(crowd, 4)
        assert await stored_problems(core, crowd) == []
        victim = crowd[1]
        session_id = next(iter(victim.acknowledged))
        await core.store._db.execute(
            "DELETE FROM moves WHERE session_id = ? AND n = 2", (session_id,)
        )
        await core.store._db.commit()
        assert len(await stored_problems(core, crowd)) == 1
        victim.acknowledged[session_id].append("t1")
        crowd[0].acknowledged[next(iter(crowd[0].acknowledged))].pop()
        assert len(await stored_problems(core, crowd)) == 2
    finally:
        await core.close()


async def test_neighbours_in_one_chat_each_get_their_own_boards_while_moving_together(
    tmp_path: Path,
):
    core = await open_core(
        f"sqlite:///{tmp_path / 't.db'}",
        "en",
        FakeClock(),
        renderer=cheap_render,
        sweep_interval=None,
    )
    try:
        crowd = [LoadPlayer(core, i) for i in range(PLAYERS_PER_CHAT)]  # all in chat-0
        assert len({p.request.chat_id for p in crowd}) == 1
        await drive_all(crowd, 1)
        sessions = [next(iter(p.acknowledged)) for p in crowd]
        assert len(set(sessions)) == PLAYERS_PER_CHAT
        # everyone asks for their board at once: each gets their own
        replies = await asyncio.gather(*(core.handle_text(p.request, "/board") for p in crowd))
        assert [r[0].board.session_id for r in replies] == sessions
        assert [r[0].params["move"] for r in replies] == [1] * PLAYERS_PER_CHAT
        # one player's move does not touch a neighbour's game
        await crowd[0].step()
        (neighbour,) = await core.handle_text(crowd[1].request, "/board")
        assert neighbour.params["move"] == 1
        assert await stored_problems(core, crowd) == []
    finally:
        await core.close()


#: every solo game
SOLO = [game_id for game_id, cls in engine.GAMES.items() if not cls.info.table]


def dead_deal() -> tuple[str, int]:
    """A solo game and deal that is over before its first move (load runs met one)."""
    for deal in range(200_000):
        for game_id in SOLO:
            if engine.new_game(game_id, deal, ["p"], {}).is_over:
                return game_id, deal
    raise AssertionError("no dead deal found")


async def test_a_deal_dead_from_the_start_does_not_trap_the_player(core: Core):
    game_id, deal = dead_deal()
    chat = FakePlatform(core)
    started, board, ended = await chat.say("ana", f"/play {game_id} {deal}")
    assert board.key == "board.caption_over" and [b.label for b in board.buttons] == ["Play again"]
    # the channel reads how it ended, as after a last move
    outcome = engine.new_game(game_id, deal, ["ana"]).outcome
    assert (
        ended.key == f"outcome.{outcome}" and ended.params["name"] == "Ana" and not ended.is_private
    )
    # finished and stored at once: the player may start another game, nothing is left open
    assert (await chat.say("ana", "/board"))[0].key == "move.no_game"
    assert (await chat.say("ana", "/resign"))[0].key == "move.no_game"
    assert (await chat.say("ana", f"/play {game_id} {deal + 1}"))[0].key == "play.started"
    assert await core.store.results.count(board.board.session_id) == 1


async def test_a_neighbour_reading_the_chat_while_a_dead_deal_is_stored_does_not_trap_its_player(
    core: Core,
):
    # The race the load test met on a cold start: another player's command loads the chat's
    # open games between the dead deal's insert and its results; it must never see it open.
    game_id, deal = dead_deal()
    chat = FakePlatform(core)
    finish = core.store.sessions.finish
    seen_open: list[list[str]] = []

    async def neighbour_reads_first(rec, results):
        seen_open.append([s.id for s in await core.sessions.in_chat(rec.platform, rec.chat_id)])
        await finish(rec, results)

    core.store.sessions.finish = neighbour_reads_first
    try:
        await chat.say("ana", f"/play {game_id} {deal}")
    finally:
        core.store.sessions.finish = finish
    assert seen_open == [[]]
    assert (await chat.say("ana", f"/play {game_id} {deal + 1}"))[0].key == "play.started"
