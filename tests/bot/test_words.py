"""Counted words and money read right in every language: plurals through the catalogues'
plural forms, Canfield dollars as the board draws them, the race's untimed option named in
each language and accepted in all."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from core_fakes import FakePlatform

import engine
from bot import i18n
from bot.core import Core
from renderer.boards import _header_texts


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "1 game", "2 games"),
        ("es", "1 partida", "2 partidas"),
        ("it", "1 partita", "2 partite"),
    ],
)
def test_counted_words_take_the_languages_plural_form(lang: str, one: str, two: str) -> None:
    line = i18n.t(lang, "stats.game_line", game="Canfield", games=1, wins=0, best="-")
    assert one in line
    assert two in i18n.t(lang, "stats.game_line", game="Canfield", games=2, wins=0, best="-")
    assert i18n.t(lang, "count.moves", count=1) != i18n.t(lang, "count.moves", count=2).replace(
        "2", "1"
    )


def test_no_message_says_1_followed_by_a_plural() -> None:
    for lang, plural in (("en", "moves"), ("es", "jugadas"), ("it", "mosse")):
        text = i18n.t(lang, "stats.best.canfield", dollars=5, moves=1)
        assert f"1 {plural}" not in text and "1 " in text


@pytest.mark.parametrize("amount", [-40, -1, 0, 52])
def test_canfield_money_is_written_as_the_board_draws_it(amount: int) -> None:
    view = {"game": "canfield", "deal": 3, "score": amount, "move_number": 0}
    board = _header_texts(view, "en", None)[1]
    for lang in i18n.LANGUAGES:
        money = i18n.t(lang, "lb.dollars", dollars=amount)
        assert money in board.split()  # the same text as on the board
        assert "$-" not in money and "US$" not in money


@pytest.fixture(autouse=True)
def solitario_available(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if "solitario" not in engine.GAMES:
        from engine.solitario import Solitario

        monkeypatch.setitem(engine.GAMES, "solitario", Solitario)
    yield


async def test_stats_say_one_game_and_never_call_a_resigned_game_a_best(chat: FakePlatform) -> None:
    # issue 26, finding 8: /stats showed "best Resigned, 0 points"
    await chat.say("ana", "/play canfield 3")
    await chat.resign("ana")
    await chat.say("ana", "/play squadratik 3")
    await chat.resign("ana")
    (stats,) = await chat.say("ana", "/stats")
    assert "Canfield: 1 game, 0 won (no best yet" in stats.text
    assert "Squadratik: 1 game, 0 won (no best yet" in stats.text
    assert "Resigned" not in stats.text and "best -$45" not in stats.text
    # the best of a played game still reads as the board writes money, counted in words
    assert i18n.t("en", "stats.best.canfield", dollars=-45, moves=1) == "-$45 in 1 move"


@pytest.mark.parametrize(
    ("lang", "own"), [("en", "untimed"), ("es", "sin-tiempo"), ("it", "senza-tempo")]
)
def test_help_names_the_untimed_race_in_each_language(lang: str, own: str) -> None:
    race_line = next(line for line in i18n.help_text(lang).splitlines() if line.startswith("/race"))
    assert f"[{own}]" in race_line
    assert f"[{own}]" in i18n.t(lang, "race.usage", max=120)


@pytest.mark.parametrize("lang", ["en", "es", "it"])
@pytest.mark.parametrize("word", ["untimed", "sin-tiempo", "senza-tempo", "Senza-Tempo"])
async def test_every_spelling_of_untimed_opens_an_untimed_race(
    core: Core, chat: FakePlatform, lang: str, word: str
):
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    (opened, *_) = await chat.say("ana", f"/race {word}")
    assert opened.key == "race.opened_senza_tempo"
    assert "senza tempo" not in opened.text or lang == "it"  # the option in the chat's words


@pytest.mark.parametrize(
    ("lang", "one"), [("en", "1 minute on"), ("es", "1 minuto con"), ("it", "1 minuto sulla")]
)
async def test_a_one_minute_race_says_one_minute(chat: FakePlatform, lang: str, one: str) -> None:
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    (opened, *_) = await chat.say("ana", "/race 1")
    assert opened.key == "race.opened" and one in opened.text
