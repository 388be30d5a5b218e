"""``/board full``: the whole board, however large. Squadratik boards are otherwise drawn for
a phone (what a move needs, the rest of each path counted); the word may come in any of the
three languages, with or without the game named."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from core_fakes import FakeClock, FakePlatform

from bot.app import open_core
from bot.core import Core


def style_render(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
    """A renderer that tells the test what it was asked to draw."""
    return b"PNG " + json.dumps({"game": game_id, "full": style.get("full", False)}).encode()


def drawn(reply) -> dict[str, Any]:
    return json.loads(reply.image[4:])


@pytest.fixture
async def core(db_url: str, clock: FakeClock) -> AsyncIterator[Core]:
    core = await open_core(db_url, "en", clock, renderer=style_render, sweep_interval=None)
    yield core
    await core.close()


async def _table(chat: FakePlatform) -> None:
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "full"), ("es", "completo"), ("it", "intero"), ("en", "table full")]
)
async def test_board_full_asks_for_the_whole_board(chat: FakePlatform, lang: str, words: str):
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    await _table(chat)
    (plain,) = [r for r in await chat.say("ana", "/board") if r.image]
    assert drawn(plain) == {"game": "maestras", "full": False}
    (whole,) = [r for r in await chat.say("ana", f"/board {words}") if r.image]
    assert drawn(whole) == {"game": "maestras", "full": True}
    # the next board is the phone's again
    (again,) = [r for r in await chat.say("ana", "/board") if r.image]
    assert drawn(again)["full"] is False


def test_the_web_replay_shows_the_whole_board():
    # a step of the web page's replay of a long El Solitario game: the whole board (the
    # chat's phone board shows the last card of each path only)
    import renderer
    from bot.web.pages import Replay, step_png
    from tests.renderer.helpers import decode
    from tools import samples

    views = list(samples.long_path_playout("squadratik", samples.LONG_SOLO_DEAL))
    step = max(range(len(views)), key=lambda k: samples.longest_path(views[k]))
    moves = [view["last_move"] for view in views[1:]]
    game = Replay(
        "s1",
        "squadratik",
        samples.LONG_SOLO_DEAL,
        "squadratik_cards",
        {},
        ["you"],
        [],
        moves,
        False,
    )
    page = decode(step_png(game, step, "en"))
    whole = decode(renderer.render("squadratik", views[step], full=True))
    phone = decode(renderer.render("squadratik", views[step]))
    assert page.size == whole.size != phone.size
