"""/replay through the core: an animated GIF of the sender's last finished game in the chat,
one frame for the start and one per move, the public board only, and held back while it
would spoil a daily challenge or a race that is still going on."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from core_fakes import DrawSpy, FakeClock, FakePlatform, play_out
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import engine
import renderer
from bot.app import open_core
from bot.core import Core
from bot.features import replays
from bot.replies import Reply
from bot.storage import DailyChoice


def frames_of(reply: Reply) -> int:
    assert reply.image is not None and reply.image[:6] == b"GIF89a"
    with Image.open(io.BytesIO(reply.image)) as gif:
        assert gif.format == "GIF" and gif.is_animated == (gif.n_frames > 1)
        return int(gif.n_frames)


async def play_first_moves(chat: FakePlatform, user: str, count: int) -> list[str]:
    """The first legal move, ``count`` times, typed as /move; returns the notation played."""
    played = []
    for _ in range(count):
        session = await chat.core.sessions.solo_of(chat.platform, chat.chat_id, user)
        assert session is not None and session.game is not None
        move = str(session.game.legal_moves()[0])
        replies = await chat.say(user, f"/move {move}")
        assert not replies[0].is_private, replies[0].text
        played.append(move)
    return played


async def test_a_finished_game_gives_a_gif_with_the_start_and_one_frame_per_move(
    chat: FakePlatform,
):
    await chat.say("ana", "/play canfield 3")
    played = await play_first_moves(chat, "ana", 4)
    await chat.resign("ana")
    [reply] = await chat.say("ana", "/replay")
    assert reply.key == "replay.solo" and not reply.is_private  # everyone in the chat sees it
    assert reply.image_name == "replay.gif"
    assert frames_of(reply) == len(played) + 1
    assert reply.params["moves"] == 4 and reply.params["deal"] == 3
    assert reply.text == "Replay of Ana's Canfield, deal 3: 4 moves."


async def test_without_a_finished_game_the_answer_says_so_privately(chat: FakePlatform):
    [none] = await chat.say("ana", "/replay")
    assert none.key == "replay.none" and none.is_private and none.image is None
    await chat.say("ana", "/play imaginary13 2")  # still being played: nothing to replay yet
    assert (await chat.say("ana", "/replay"))[0].key == "replay.none"
    [unknown] = await chat.say("ana", "/replay poker")
    # words name a game as everywhere (a game or a kind): "poker" is neither, and says so
    assert unknown.key == "focus.unknown" and unknown.is_private and "poker" in unknown.text
    assert (await chat.say("ana", "/replay canfield 2"))[0].key == "replay.usage"


async def test_the_latest_game_of_the_sender_in_this_chat_is_replayed(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    await chat.say("ana", "/play canfield 3")
    await play_first_moves(chat, "ana", 2)
    await chat.resign("ana")
    clock.advance(minutes=5)
    await chat.say("ana", "/play imaginary13 4")
    await play_first_moves(chat, "ana", 1)
    await chat.resign("ana")

    latest = (await chat.say("ana", "/replay"))[0]
    assert latest.params["game"] == "Imaginary Thirteen" and frames_of(latest) == 2
    older = (await chat.say("ana", "/replay canfield"))[0]
    assert older.params["game"] == "Canfield" and frames_of(older) == 3
    none_yet = (await chat.say("ana", "/replay squadratik"))[0]
    assert none_yet.key == "replay.none_of_game" and none_yet.is_private
    # Bob has played nothing; Ana's games are not his, and another chat has none of hers.
    assert (await chat.say("bob", "/replay"))[0].key == "replay.none"
    elsewhere = FakePlatform(core, chat_id="chat-2")
    assert (await elsewhere.say("ana", "/replay"))[0].key == "replay.none"


async def test_a_table_replay_draws_only_the_public_board(
    core: Core, chat: FakePlatform, draw_spy: DrawSpy
):
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    await play_out(core, chat)
    table_id = chat.board().board.session_id
    moves = await core.store.sessions.moves(table_id)

    [reply] = await chat.say("ana", "/replay")
    assert reply.key == "replay.table" and reply.params["players"] == "Ana, Computer 1"
    assert frames_of(reply) == len(moves) + 1 == len(draw_spy.views)
    # Every frame is the table as the channel sees it: no viewer, no hand, nobody's cards.
    assert all(view["viewer"] is None and view["hand"] == [] for view in draw_spy.views)
    assert all("hand" not in style for style in draw_spy.styles)
    rec = await core.store.sessions.get(table_id)
    # the same game, its seats named as the chat names them (not "~cpu1")
    final = engine.replay("maestras", rec.deal, ["Ana", "Computer 1"], rec.options, moves).view(
        None
    )
    assert draw_spy.views[-1] == final
    assert (
        engine.replay("maestras", rec.deal, rec.players, rec.options, moves).returns()
        == engine.replay("maestras", rec.deal, ["Ana", "Computer 1"], rec.options, moves).returns()
    )


async def test_todays_daily_deal_is_replayed_only_the_next_day(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    today = clock.now.date().isoformat()
    await core.store.daily.store_choice(DailyChoice("canfield", today, 3, 0, "won"), today)
    # today's deal can only be played as the ranked attempt (no rehearsal with /play)
    assert (await chat.say("ana", "/daily canfield"))[0].key == "daily.started"
    await play_first_moves(chat, "ana", 1)
    await chat.resign("ana")
    [held] = await chat.say("ana", "/replay")
    assert held.key == "replay.daily_today" and held.is_private and held.image is None
    clock.advance(days=1)
    assert frames_of((await chat.say("ana", "/replay"))[0]) == 2


async def test_a_race_is_replayed_once_every_board_is_finished(
    core: Core, chat: FakePlatform, draw_spy: DrawSpy
):
    core.features["races"].pick_deal = lambda: 1
    await chat.say("ana", "/race 5")
    await chat.say("bea", "/join")
    await chat.say("ana", "/start")
    await chat.say("ana", "/move d")
    await chat.resign("ana")
    [held] = await chat.say("ana", "/replay")
    assert held.key == "replay.race_running" and held.is_private
    await chat.resign("bea")  # the last board ends the round
    [reply] = await chat.say("ana", "/replay")
    assert reply.key == "replay.solo" and frames_of(reply) == 2


async def test_a_drawing_failure_is_a_private_apology(
    chat: FakePlatform, monkeypatch: pytest.MonkeyPatch
):
    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise MemoryError("out of memory while drawing")

    monkeypatch.setattr(replays, "draw_replay", broken)
    replays._cache.clear()
    await chat.say("ana", "/play canfield 5")
    await chat.resign("ana")
    [reply] = await chat.say("ana", "/replay")
    assert reply.key == "replay.failed" and reply.is_private and reply.image is None


@settings(max_examples=12)
@given(
    game_id=st.sampled_from([g for g, cls in engine.GAMES.items() if not cls.info.table]),
    deal=st.integers(0, 10_000),
    length=st.integers(0, 12),
)
def test_every_frame_is_the_position_after_that_many_moves(
    game_id: str, deal: int, length: int
) -> None:
    """Property: frame k of a replay is the public view after the first k stored moves."""
    spy = DrawSpy()
    original = renderer.draw
    renderer.draw = spy  # type: ignore[assignment]
    try:
        reply, expected = asyncio.run(_finish_and_replay(game_id, deal, length))
    finally:
        renderer.draw = original  # type: ignore[assignment]
    assert frames_of(reply) == len(expected) == len(spy.views)
    assert spy.views == expected


async def _finish_and_replay(
    game_id: str, deal: int, length: int
) -> tuple[Reply, list[dict[str, Any]]]:
    from core_fakes import fake_render

    core = await open_core("sqlite:///:memory:", renderer=fake_render, sweep_interval=None)
    try:
        chat = FakePlatform(core)
        await chat.say("ana", f"/play {game_id} {deal}")
        session = await core.sessions.solo_of("fake", "chat-1", "ana")
        game = engine.new_game(game_id, deal, ["Ana"])  # the replay names its seat, no id
        expected = [game.view(None)]
        while (
            session is not None
            and session.game is not None
            and not session.game.is_over
            and len(game.moves) < length
        ):
            move = str(session.game.legal_moves()[0])
            await chat.say("ana", f"/move {move}")
            game.play(move)
            expected.append(game.view(None))
        if session is not None and session.is_active:
            await chat.resign("ana")
        replays._cache.clear()
        [reply] = await chat.say("ana", "/replay")
        return reply, expected
    finally:
        await core.close()
