"""Which games race and which are played at a table is read from the games' facts
(``GameInfo.races``, ``GameInfo.table``), never from a game id in bot/: a second game that
races, registered here for the test only, is dealt to every racer by ``/race <game>``; a game
that cannot race is refused in words; ``/challenge`` opens a table of the game whose facts say
it is played at one."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import pytest
from core_fakes import FakePlatform

import engine
from bot.core import Core
from bot.core.session import Session
from engine.gameinfo import Column, GameInfo, Ranking, by_score_then_fewer_moves
from engine.solitario import Solitario
from engine.squadratik.maestras import CartasMaestras


class SpeedSolitario(Solitario):
    """A second game that races: Solitario's rules and scoring under another id and name."""

    info: ClassVar[GameInfo] = dataclasses.replace(
        Solitario.info,
        id="speedsol",
        names={"en": "Speed Solitario", "es": "Solitario Veloz", "it": "Solitario Veloce"},
        aliases=("speed",),
        daily=None,
        solver=None,
        could_have_won=False,
    )


class OtherTable(CartasMaestras):
    """A table game under another id: the one ``/challenge`` opens once Maestras is gone."""

    info: ClassVar[GameInfo] = dataclasses.replace(
        CartasMaestras.info,
        id="othertable",
        names={"en": "Other Table", "es": "Otra Mesa", "it": "Altro Tavolo"},
    )


@pytest.fixture
def two_race_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(engine.GAMES, SpeedSolitario.game_id, SpeedSolitario)


async def game_of(core: Core, session_id: str) -> tuple[str, int]:
    session = await core.sessions.get(session_id)
    assert session is not None
    return session.record.game_id, session.record.deal


async def test_race_names_a_second_race_game_and_deals_it_to_every_racer(
    core: Core, chat: FakePlatform, two_race_games: None
) -> None:
    opened = await chat.say("ana", "/race speed 5")
    assert opened[0].key == "race.opened"
    assert "opens a Speed Solitario race" in opened[0].text
    await chat.say("bea", "/join")
    await chat.say("cid", "/join")
    started = await chat.say("ana", "/start")
    assert started[0].key == "race.started"
    boards = [r.board for r in started[1:] if r.board is not None]
    assert len(boards) == 3
    games = {await game_of(core, board.session_id) for board in boards}
    assert games == {("speedsol", started[0].params["deal"])}  # one game, one deal, for all
    # its boards are race boards: no undo, as on a Solitario race
    assert (await chat.say("bea", "/undo"))[0].key == "undo.not_allowed"


async def test_race_without_a_game_word_still_deals_the_first_game_that_races(
    core: Core, chat: FakePlatform, two_race_games: None
) -> None:
    opened = await chat.say("ana", "/race")
    assert "opens a Solitario race" in opened[0].text
    await chat.say("bea", "/join")
    started = await chat.say("ana", "/start")
    boards = [r.board for r in started[1:] if r.board is not None]
    assert {(await game_of(core, b.session_id))[0] for b in boards} == {"solitario"}
    # a race lobby of either game is "the race": the chat holds one
    assert (await chat.say("cid", "/race speed"))[0].key == "race.exists"


async def test_a_game_that_cannot_race_is_refused_in_the_chats_words(
    core: Core, chat: FakePlatform, two_race_games: None
) -> None:
    refused = (await chat.say("ana", "/race canfield 5"))[0]
    assert refused.key == "race.not_a_race_game"
    assert "Canfield can't be raced" in refused.text
    assert "solitario (Solitario), speedsol (Speed Solitario)" in refused.text
    assert await core.sessions.in_chat(chat.platform, chat.chat_id) == []  # nothing opened
    chat.admins.add("ana")
    await chat.say("ana", "/lang it")
    refused = (await chat.say("ana", "/race freecell"))[0]
    assert refused.key == "race.not_a_race_game" and "gara a FreeCell" in refused.text
    # with two games that race, the usage names them
    usage = (await chat.say("ana", "/race fast"))[0]
    assert usage.key == "race.usage_games" and "speedsol (Solitario Veloce)" in usage.text


async def test_with_todays_games_race_takes_no_game_word_and_refuses_a_solo_game(
    chat: FakePlatform,
) -> None:
    assert (await chat.say("ana", "/race fast"))[0].key == "race.usage"  # as before
    refused = (await chat.say("ana", "/race canfield"))[0]
    assert refused.key == "race.not_a_race_game"
    assert refused.text.endswith("Games you can race: solitario (Solitario).")


async def test_end_and_join_name_the_race_by_its_game(
    chat: FakePlatform, two_race_games: None
) -> None:
    await chat.say("ana", "/race speedsol")
    await chat.say("ana", "/challenge")
    assert (await chat.say("bea", "/join speed"))[0].key == "race.joined"
    assert (await chat.say("ana", "/end speedsol"))[0].key == "race.ended"
    assert (await chat.say("ana", "/end table"))[0].key == "end.ended"


async def test_challenge_opens_a_table_of_the_game_whose_facts_say_table(
    core: Core, chat: FakePlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(engine.GAMES, CartasMaestras.game_id)
    monkeypatch.setitem(engine.GAMES, OtherTable.game_id, OtherTable)
    opened = await chat.say("ana", "/challenge")
    assert "Other Table" in opened[0].text
    await chat.say("bea", "/join")
    started = await chat.say("ana", "/start")
    assert any(r.board is not None for r in started), [
        (r.key, r.text[:200], r.board) for r in started
    ]
    (table,) = [s for s in await core.sessions.in_chat(chat.platform, chat.chat_id) if s.is_table]
    assert table.record.game_id == "othertable" and table.game is not None


async def test_without_a_game_that_races_or_a_table_game_the_commands_say_so(
    chat: FakePlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(engine.GAMES, Solitario.game_id)
    monkeypatch.delitem(engine.GAMES, CartasMaestras.game_id)
    assert (await chat.say("ana", "/race"))[0].key == "race.no_game"
    assert (await chat.say("ana", "/challenge"))[0].key == "challenge.no_game"


def test_only_a_solo_game_of_points_ranked_by_the_scoring_move_may_race() -> None:
    names = {"en": "X", "es": "X", "it": "X"}
    race_ranking = Solitario.info.ranking
    GameInfo(id="x", names=names, points=True, ranking=race_ranking, races=True)
    with pytest.raises(ValueError, match="race"):  # no points
        GameInfo(id="x", names=names, ranking=race_ranking, races=True)
    with pytest.raises(ValueError, match="race"):  # ranked without the scoring move
        fewer_moves = Ranking(by_score_then_fewer_moves, (Column.SCORE, Column.MOVES))
        GameInfo(id="x", names=names, points=True, ranking=fewer_moves, races=True)
    with pytest.raises(ValueError, match="race"):  # a table game
        GameInfo(id="x", names=names, points=True, ranking=race_ranking, table=True, races=True)


async def test_two_processes_opening_races_of_two_games_leave_one_race(
    core: Core, chat: FakePlatform, two_race_games: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unique index holds one race per chat and game: a Solitario race opened by another
    process between this process's check and its insert is seen after it, and ``/race speed``
    gives way."""
    new_table = core.sessions.new_table

    async def another_process_first(*args: Any, **kwargs: Any) -> Session:
        monkeypatch.setattr(core.sessions, "new_table", new_table)
        await new_table(chat.platform, chat.chat_id, "bea", "Bea", "solitario", [], args[-1])
        return await new_table(*args, **kwargs)

    monkeypatch.setattr(core.sessions, "new_table", another_process_first)
    assert (await chat.say("ana", "/race speed"))[0].key == "race.exists"
    open_here = await core.sessions.in_chat(chat.platform, chat.chat_id)
    assert [(s.record.game_id, s.record.creator) for s in open_here] == [("solitario", "bea")]
