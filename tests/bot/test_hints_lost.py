"""``/hint`` when no move helps in FreeCell (issue 35, finding 6): on deal 11982 the hints went
``1a``, ``a1``, ``1a``... for ever; now the hint says the deal cannot be won from here and
offers ``/resign``, after which the bot answers whether it could have been won."""

from __future__ import annotations

import sys

import pytest
from core_fakes import FakePlatform

from bot.core import Core
from bot.replies import Reply
from engine.solvers.hints import Advice


@pytest.mark.parametrize("lang", ["en", "es", "it"])
async def test_freecell_11982_hint_says_it_cannot_be_won_and_offers_resign(
    chat: FakePlatform, lang: str
):
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    await chat.say("ana", "/play freecell 11982")
    for move in ("54", "61", "78", "1a"):  # the hints main gave before "a1", "1a", "a1"...
        await chat.say("ana", f"/move {move}")
    (said,) = await chat.say("ana", "/hint")
    assert said.key == "hint.lost" and said.visibility == "private", said.text
    assert "/resign freecell" in said.text and "FreeCell" in said.text


@pytest.mark.parametrize(
    ("advice", "key"),
    [
        (Advice(None, stuck=True, back=True), "hint.back"),
        (Advice(None, stuck=True), "hint.stuck_no_new"),
    ],
)
async def test_a_freecell_with_no_move_that_helps_says_why_not_the_stock(
    chat: FakePlatform, monkeypatch: pytest.MonkeyPatch, advice: Advice, key: str
):
    search = sys.modules["engine.solvers.hints"]
    monkeypatch.setattr(search, "advice", lambda game, player=None: advice)
    await chat.say("ana", "/play freecell 5")
    (said,) = await chat.say("ana", "/hint")
    assert said.key == key and "/resign freecell" in said.text
    assert "stock" not in said.text  # FreeCell has none


async def test_resigning_as_the_hint_offers_answers_whether_it_could_have_been_won(
    core: Core, chat: FakePlatform
):
    pushed: list[Reply] = []

    async def push(platform: str, chat_id: str, reply: Reply) -> None:
        pushed.append(reply)

    core.set_push(push)
    await chat.say("ana", "/play freecell 11982")
    (said,) = await chat.say("ana", "/hint")
    assert said.key == "hint.lost"
    await chat.say("ana", "/resign freecell")
    await core.features["solutions"].wait()
    [verdict] = pushed
    assert verdict.key == "solution.verdict" and verdict.params["start"] == "lost"
