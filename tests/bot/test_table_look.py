"""What a Cartas Maestras table reads like: every play in a line, one name per seat, no empty
or stale tips, move words in the chat's language."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from core_fakes import FakeClock, FakePlatform

import engine
from bot.app import open_core
from bot.core import Core, buttons
from bot.features.table_text import play_lines


def seats_render(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
    """A renderer that tells the test the names it was asked to draw."""
    names = {
        "seats": [seat.get("player") for seat in view.get("seats") or []],
        "current": view.get("current_player"),
        "viewer": view.get("viewer"),
    }
    return b"PNG " + json.dumps(names).encode()


def drawn(reply) -> dict[str, Any]:
    return json.loads(reply.image[4:])


@pytest.fixture
async def core(db_url: str, clock: FakeClock) -> AsyncIterator[Core]:
    core = await open_core(db_url, "en", clock, renderer=seats_render, sweep_interval=None)
    yield core
    await core.close()


async def in_language(chat: FakePlatform, lang: str) -> None:
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")


async def test_an_invitation_for_nobody_has_no_empty_invited_list(chat: FakePlatform):
    (opened, _lobby) = await chat.say("ana", "/challenge")
    assert (
        opened.key == "challenge.opened"
        and "Invited" not in opened.text
        and ": -" not in opened.text
    )
    await chat.say("ana", "/end")
    (opened, _lobby) = await chat.say("ana", "/challenge @bea")
    assert "Invited: bea." in opened.text


@pytest.mark.parametrize("lang", ["en", "es", "it"])
async def test_the_timer_tip_is_given_when_opening_and_not_repeated_when_dealing(
    chat: FakePlatform, lang: str
):
    await in_language(chat, lang)
    (opened, _lobby) = await chat.say("ana", "/challenge")
    assert "/challenge timer=5" in opened.text and "/addbot" in opened.text
    await chat.say("ana", "/addbot")
    started = (await chat.say("ana", "/start"))[0]
    assert started.key == "start.started"
    assert "/challenge" not in started.text and "/addbot" not in started.text  # no longer applies
    assert "3 min" in started.text  # the timer itself is still said


async def test_a_computer_seat_has_its_name_on_the_board_and_in_the_chat(chat: FakePlatform):
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    started = await chat.say("ana", "/start")
    board = next(r for r in started if r.key == "table.caption")
    assert drawn(board)["seats"] == ["Ana", "Computer 1"] and drawn(board)["current"] == "Ana"
    assert "~cpu" not in json.dumps(drawn(board))
    (hand,) = await chat.say("ana", "/hand")
    assert drawn(hand)["viewer"] == "Ana"
    played = await chat.press(
        "ana",
        next(b for b in hand.buttons if buttons.decode(b.id).verb == "mv").id
        if any(buttons.decode(b.id).verb == "mv" for b in hand.buttons)
        else (await chat.press("ana", hand.buttons[0].id))[0].buttons[0].id,
    )
    lines = played[0].text.splitlines()
    assert played[0].key == "tables.plays" and lines[0].startswith(("Ana plays ", "Ana passes."))
    assert any(line.startswith("Computer 1 ") for line in lines[1:])
    assert all("~cpu" not in r.text for r in chat.replies)


@pytest.mark.parametrize("lang", ["en", "es", "it"])
async def test_a_removed_players_seat_is_shown_as_played_for_them(chat: FakePlatform, lang: str):
    await in_language(chat, lang)
    await chat.say("ana", "/challenge @bea @cid")
    await chat.say("bea", "/join")
    await chat.say("cid", "/join")
    await chat.say("ana", "/start")
    kicked = await chat.say("ana", "/kick @bea")
    marked = {"en": "Bea (computer)", "es": "Bea (ordenador)", "it": "Bea (computer)"}[lang]
    assert kicked[0].key == "kick.kicked" and marked not in kicked[0].text  # the news names her
    (board,) = await chat.say("cid", "/board")
    assert drawn(board)["seats"] == ["Ana", marked, "Cid"]
    # her turns are played for her, under that name
    for _ in range(3):
        hand = (await chat.say("ana", "/hand"))[0]
        if hand.key != "hand.yours":
            break
        button = hand.buttons[0]
        if buttons.decode(button.id).verb == "turn":
            button = (await chat.press("ana", button.id))[0].buttons[0]
        replies = await chat.press("ana", button.id)
        plays = next(r for r in replies if r.key == "tables.plays")
        assert any(line.startswith(f"{marked} ") for line in plays.text.splitlines())
        assert "(auto)" not in plays.text
        break


@pytest.mark.parametrize(
    ("lang", "word"),
    [("es", "pasar"), ("es", "Paso"), ("it", "PASSA"), ("it", "pass"), ("en", "Pass")],
)
async def test_pass_typed_in_the_chats_language_is_the_pass_move(
    chat: FakePlatform, lang: str, word: str
):
    await in_language(chat, lang)
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    # The word is read as the pass move (not as chatter, not as bad notation): the rules
    # refuse it when Ana holds a master to open a path with, else she passes.
    passed = {"en": "Ana passes.", "es": "Ana pasa.", "it": "Ana passa."}[lang]
    for line in (word, f"/move {word}"):
        replies = await chat.say("ana", line)
        if replies[0].key == "illegal.must_place":
            assert len(replies) == 1 and replies[0].is_private
        else:
            assert replies[0].key == "tables.plays" and replies[0].text.splitlines()[0] == passed
            break


async def test_another_languages_move_word_is_not_taken(chat: FakePlatform):
    await in_language(chat, "es")
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    assert await chat.say("ana", "passa") == []  # Italian in a Spanish chat: chatter


def test_a_completed_path_is_announced_with_what_it_won():
    game = engine.new_game("maestras", deal=3, players=["ana", "bo"])
    won: list[str] = []
    while not game.is_over and not won:
        player = game.current_player
        before = game.view(player)
        move = str(game.legal_moves()[0])
        game.play(move)
        lines = play_lines("en", game, player.title(), player, move, before)
        assert lines[0].startswith(f"{player.title()} ")
        won = lines[1:]
    assert won, "no path was completed in this deal"
    (line,) = won
    assert " completes path " in line and " wins " in line and "card" in line and "master" in line
    assert "1 cards" not in line and "1 masters" not in line


def test_a_big_hand_is_offered_card_first_then_places_then_rotations_never_cut():
    from types import SimpleNamespace

    from bot.core.keyboards import MAX_BUTTONS, hand_buttons
    from engine.squadratik.notation import parse_notation

    # nine cards, each fitting four paths in four rotations: 144 moves, 36 card-and-place pairs
    legal = [
        parse_notation(f"{slot}{side}{f'r{r}' if r else ''}")
        for slot in range(1, 10)
        for side in "NESW"
        for r in range(4)
    ]
    hand = [{"kind": "normal", "sides": ["R1", "B2", "0", "R3"]}] * 9
    table = SimpleNamespace(record=SimpleNamespace(id="abcd1234", revision=7))
    first = hand_buttons("en", table, legal, None, hand)
    assert len(first) == 9 and all(len(b.id.encode()) <= 64 for b in first)
    assert first[1].label == "Card 2 · R1 B2 R3 …" and buttons.decode(first[1].id).arg == "c2"
    places = hand_buttons("en", table, legal, "c2", hand)
    assert [b.label for b in places] == [f"Card 2 → path {s} …" for s in "NESW"] + ["Cancel"]
    rotations = hand_buttons("es", table, legal, buttons.decode(places[2].id).arg, hand)
    assert [b.label for b in rotations] == [
        "Sin girar",
        "¼ de vuelta",
        "½ vuelta",
        "¾ de vuelta",
        "Cancelar",
    ]
    assert [buttons.decode(b.id).arg for b in rotations[:4]] == ["2S", "2Sr1", "2Sr2", "2Sr3"]
    assert max(len(first), len(places), len(rotations)) <= MAX_BUTTONS


@pytest.mark.parametrize(
    ("lang", "words"), [("es", ("pasar", "parar")), ("it", ("passa", "basta"))]
)
def test_help_names_the_move_words_of_its_language_and_they_are_read(
    lang: str, words: tuple[str, str]
):
    from bot import i18n
    from bot.core.commands import move_word

    text = i18n.help_text(lang, "maestras")
    for word, notation in zip(words, ("pass", "stop"), strict=True):
        line = next(line for line in text.splitlines() if line.startswith(f"• {notation} — "))
        assert f"«{word}»" in line
        assert move_word(lang, word) == notation and move_word(lang, word.upper()) == notation
