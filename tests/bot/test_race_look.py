"""What a race board offers and says: no button for what the race refuses, no hints (a race
is ranked, like the daily), each board names its player; /undo at a table."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from core_fakes import FakePlatform

import engine
from bot.core import Core, buttons

DEAL = 1  # opens with 27 (see test_races)


@pytest.fixture(autouse=True)
def solitario_available(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if "solitario" not in engine.GAMES:
        from engine.solitario import Solitario

        monkeypatch.setitem(engine.GAMES, "solitario", Solitario)
    yield


def verbs(reply) -> set[str]:
    return {buttons.decode(b.id).verb for b in reply.buttons}


async def test_a_race_board_has_no_undo_names_its_player_and_refuses_hints(
    core: Core, chat: FakePlatform
):
    core.features["races"].pick_deal = lambda: DEAL
    await chat.say("ana", "/race 5")
    await chat.say("bea", "/join")
    started = await chat.say("ana", "/start")
    boards = started[1:]
    assert [json.loads(b.image[4:])["player"] for b in boards] == ["Ana", "Bea"]
    (board, *_) = await chat.say("ana", "/move 27")
    assert "undo" not in verbs(board) and "resign" in verbs(board)  # moves were played: still none
    assert json.loads(board.image[4:])["player"] == "Ana"
    (hint,) = await chat.say("ana", "/hint")
    assert hint.key == "hint.race" and hint.is_private and hint.text == "No hints in a race."
    assert (await chat.say("ana", "/undo"))[0].key == "undo.not_allowed"


async def test_a_solo_board_keeps_its_undo_and_names_nobody(core: Core, chat: FakePlatform):
    await chat.say("ana", f"/play solitario {DEAL}")
    (board, *_) = await chat.say("ana", "/move 27")
    assert "undo" in verbs(board) and "player" not in json.loads(board.image[4:])
    assert (await chat.say("ana", "/hint"))[0].key.startswith("hint.")


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Undo is not available at the Cartas Maestras table."),
        ("es", "En la mesa de Cartas Maestras no se puede deshacer."),
        ("it", "Al tavolo di Cartas Maestras non si può annullare."),
    ],
)
async def test_undo_at_a_table_says_tables_have_no_undo(chat: FakePlatform, lang: str, text: str):
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    (refused,) = await chat.say("ana", "/undo")
    assert refused.key == "undo.table" and refused.text == text and refused.is_private
    (stranger,) = await chat.say("zed", "/undo")
    assert stranger.key == "move.no_game"  # not seated there: they simply have no game
