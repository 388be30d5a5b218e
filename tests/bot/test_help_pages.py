"""Help that holds any number of games: ``/help`` names no game list (the same text with six
games or sixty), ``/help games`` gives one line per game over as many messages as they need,
and ``/help <game>`` is that game's own page (moves, card faces, daily, last cards home)."""

from __future__ import annotations

import dataclasses

import pytest
from core_fakes import FakePlatform

import engine
from bot import i18n
from bot.i18n import explanations
from engine.solitario import Solitario

#: one message on Discord (Telegram takes 4,096)
LIMIT = 2000


@pytest.fixture
def sixty_more_games(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Sixty more games with long names (copies of Solitario's facts under other ids)."""
    games = dict(engine.GAMES)
    added = []
    for k in range(60):
        game_id = f"extra{k:02d}"
        info = dataclasses.replace(
            Solitario.info,
            id=game_id,
            names={lang: f"Un Gioco Molto Lungo Numero {k}" for lang in i18n.LANGUAGES},
            aliases=(),
        )
        games[game_id] = type(f"Extra{k}", (Solitario,), {"info": info})
        added.append(game_id)
    monkeypatch.setattr(engine, "GAMES", games)
    monkeypatch.setattr(explanations, "GAME_IDS", tuple(games))
    return added


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_command_list_is_the_same_whatever_the_games(lang: str, sixty_more_games) -> None:
    with_six = i18n.t(lang, "help.commands")
    assert i18n.help_text(lang) == with_six  # nothing in it grows with the games
    assert len(with_six) <= LIMIT
    assert "/help" in with_six and i18n.t(lang, "help.games_word") in with_six


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_games_page_lists_every_game_in_messages_that_fit(lang: str, sixty_more_games) -> None:
    pages = i18n.games_help(lang)
    assert len(pages) > 1 and all(len(page) <= LIMIT for page in pages)
    lines = "\n".join(pages).splitlines()
    for game_id in engine.GAMES:
        info = engine.game_info(game_id)
        assert sum(info.name(lang) in line for line in lines) >= 1, game_id
    assert sum(line.endswith("/play extra59") for line in lines) == 1


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("game_id", list(engine.GAMES))
def test_each_game_has_its_own_page(lang: str, game_id: str) -> None:
    info = engine.game_info(game_id)
    page = i18n.help_text(lang, game_id)
    assert len(page) <= LIMIT
    assert page.startswith(i18n.t(lang, f"help.{game_id}"))
    assert (f"/daily {game_id}" in page) == (info.daily is not None)
    if len(info.faces) > 1:  # the faces, and how to ask for one
        assert ", ".join(info.faces) in page and f"/play {game_id} {info.faces[1]}" in page
    assert ("/autofinish" in page) == info.auto_finish


async def test_help_games_in_the_chats_language(chat: FakePlatform) -> None:
    (listed,) = await chat.say("ana", "/help games", is_group=False)
    assert listed.key == "help.games"
    assert "• FreeCell — to play: /play freecell" in listed.text.splitlines()
    await chat.say("ana", "/lang it", is_group=False)
    (listed,) = await chat.say("ana", "/help giochi", is_group=False)
    assert listed.text.startswith("I giochi")
    (page,) = await chat.say("ana", "/help solitario", is_group=False)
    assert "Sfida del giorno: /daily solitario" in page.text
