""" "Could it have been won?": after a lost, stalled or resigned Solitario, Canfield, Imaginary
Thirteen or FreeCell game the solver's answer arrives as a pushed follow-up, ``/replay solution`` animates
its winning line, and nothing is said while a daily challenge on that deal runs in the chat.

Deals: Solitario 29 (40 cards) is won and Solitario 20 is proven lost (pinned in
``tests/engine/test_pile_solvers.py``)."""

from __future__ import annotations

import asyncio
import io
import threading

from core_fakes import DrawSpy, FakeClock, FakePlatform, fake_render
from PIL import Image

import engine
from bot.app import open_core
from bot.core import Core
from bot.features import solutions as solutions_module
from bot.replies import Reply
from bot.storage import DailyChoice

WON_DEAL, LOST_DEAL = 29, 20


def pushed_into(chat: FakePlatform) -> list[Reply]:
    got: list[Reply] = []

    async def push(platform: str, chat_id: str, reply: Reply) -> None:
        got.append(reply)

    chat.core.set_push(push)
    return got


async def answers(core: Core) -> None:
    await core.features["solutions"].wait()


async def test_a_won_deal_resigned_at_once_could_have_been_won_and_replays_its_solution(
    core: Core, chat: FakePlatform, draw_spy: DrawSpy
):
    pushed = pushed_into(chat)
    await chat.say("ana", f"/play solitario {WON_DEAL}")
    ended = await chat.resign("ana")
    assert "solution.verdict" not in [r.key for r in ended]  # never holds up the end reply
    await answers(core)
    [verdict] = pushed
    assert verdict.key == "solution.verdict" and not verdict.is_private
    assert verdict.params["start"] == "won"
    assert verdict.text.startswith("Ana, could Solitario deal 29 have been won? Yes")
    assert "/replay solution" in verdict.text

    [shown] = await chat.say("ana", "/replay solution")
    assert shown.key == "replay.solution" and shown.image_name == "replay.gif"
    line = shown.params["line"]
    with Image.open(io.BytesIO(shown.image)) as gif:
        assert gif.is_animated and gif.n_frames == len(line) + 1  # the start, then every move
    assert draw_spy.views[0]["move_number"] == 0
    assert draw_spy.views[-1]["outcome"] == "won"  # the last frame is the won deal
    assert str(engine.replay("solitario", WON_DEAL, None, {}, line).outcome) == "won"


async def test_from_where_the_player_stopped_too(core: Core, chat: FakePlatform):
    pushed = pushed_into(chat)
    await chat.say("ana", f"/play solitario {WON_DEAL}")
    await chat.say("ana", "/move d")
    await chat.resign("ana")
    await answers(core)
    [verdict] = pushed
    assert (verdict.params["start"], verdict.params["stopped"]) == ("won", "won")
    assert "From where you stopped: yes" in verdict.text.splitlines()[1]


async def test_a_lost_deal_could_not_be_won_in_every_language(core: Core, chat: FakePlatform):
    pushed = pushed_into(chat)
    chat.admins.add("ana")
    assert (await chat.say("ana", "/lang it"))[0].key == "lang.set"
    await chat.say("ana", f"/play solitario {LOST_DEAL}")
    await chat.resign("ana")
    await answers(core)
    [verdict] = pushed
    assert verdict.params["start"] == "lost" and verdict.params["solution"] == 0
    assert "No: questa smazzata non si poteva vincere" in verdict.text
    assert "/replay solution" not in verdict.text  # nothing to show
    [refused] = await chat.say("ana", "/replay soluzione")
    assert refused.key == "replay.solution_lost" and refused.is_private


async def test_no_answer_while_the_deal_is_a_daily_challenge_in_progress(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    pushed = pushed_into(chat)
    await core.store.daily.store_choice(
        DailyChoice("solitario", clock().date().isoformat(), WON_DEAL, 0, "won", ["x"]),
        clock().isoformat(),
    )
    started = await chat.say("ana", "/daily solitario")
    assert started[0].key == "daily.started"
    await chat.resign("ana")
    await answers(core)
    assert pushed == []  # Bea may still play today's deal: no spoiler
    [refused] = await chat.say("ana", "/replay solution")
    assert refused.is_private and refused.key in ("replay.daily_today", "replay.solution_wait")


async def test_no_answer_for_el_solitario_and_no_solution_before_a_game(
    core: Core, chat: FakePlatform
):
    pushed = pushed_into(chat)
    [nothing] = await chat.say("ana", "/replay solution")
    assert nothing.key == "replay.solution_none" and nothing.is_private
    await chat.say("ana", "/play squadratik 5")
    await chat.resign("ana")
    await answers(core)
    assert pushed == []  # El Solitario is not asked


async def test_closing_the_core_drops_the_answers_not_yet_given(db_url: str, clock: FakeClock):
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    pushed = pushed_into(chat)
    busy = threading.Event()
    solutions_module._executor.submit(busy.wait, 30)  # the solver's worker is busy meanwhile
    try:
        for player in ("ana", "bea", "cid"):
            await chat.say(player, "/play canfield 13")
            await chat.resign(player)
        found = core.features["solutions"]
        assert len(found.pending) == 3  # queued behind the busy worker
        await core.close()
        assert not found.pending
    finally:
        busy.set()
    await asyncio.sleep(0.05)
    assert pushed == []  # the queued searches never ran


async def test_a_resigned_freecell_deal_could_have_been_won_and_replays_its_solution(
    core: Core, chat: FakePlatform, draw_spy: DrawSpy
):
    pushed = pushed_into(chat)
    await chat.say("ana", "/play freecell 2")
    await chat.say("ana", "/move 1a")
    await chat.resign("ana")
    await answers(core)
    [verdict] = pushed
    assert (verdict.params["start"], verdict.params["stopped"]) == ("won", "won")
    assert verdict.text.startswith("Ana, could FreeCell deal 2 have been won? Yes")
    [shown] = await chat.say("ana", "/replay solution")
    line = shown.params["line"]
    assert str(engine.replay("freecell", 2, None, {}, line).outcome) == "won"
    assert draw_spy.views[-1]["outcome"] == "won"


async def test_the_verdict_never_arrives_before_the_game_over_reply(
    core: Core, chat: FakePlatform, monkeypatch
):
    # an answer known at once (a second look, or an easy deal) was pushed while the adapter
    # was still sending the game-over replies: the console printed the verdict between the
    # last board and "you resigned"
    said: list[str] = []

    async def push(platform: str, chat_id: str, reply: Reply) -> None:
        said.append(reply.key)

    chat.core.set_push(push)

    async def at_once(self, rec, played):
        return solutions_module.Analysis("won", ["d"], "lost", [])

    monkeypatch.setattr(solutions_module.Solutions, "analysis_of", at_once)
    await chat.say("ana", f"/play solitario {WON_DEAL}")
    for reply in await core.handle_text(chat.request("ana"), "/resign"):
        await asyncio.sleep(0.01)  # an adapter sends one message at a time
        said.append(reply.key)
    await answers(core)
    assert said[-1] == "solution.verdict" and "outcome.resigned" in said, said


async def test_microsofts_deal_11982_could_not_be_won_within_the_usual_budget(
    core: Core, chat: FakePlatform
):
    # every position of the deal is searched within the 2 s an answer may take (in C)
    pushed = pushed_into(chat)
    chat.admins.add("ana")
    await chat.say("ana", "/lang es")
    await chat.say("ana", "/play freecell 11982")
    await chat.resign("ana")
    await answers(core)
    [verdict] = pushed
    assert verdict.params["start"] == "lost" and verdict.params["solution"] == 0
    assert verdict.text.startswith("Ana, ¿se podía ganar el reparto 11982 de FreeCell? No:")
    assert "/replay" not in verdict.text
