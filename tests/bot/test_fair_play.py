"""Fair ranked play (issue 35): computers play at tables but are never ranked, on any board
or page; a race board the clock ended is "Time up" with its place, not "Resigned". On SQLite
and PostgreSQL."""

from __future__ import annotations

from core_fakes import FakeClock, FakePlatform, play_out
from web_fakes import BASE, Person, main_text, page, web_client

from bot.core import Core
from bot.replies import Reply


async def _table_against_the_computer(core: Core, chat: FakePlatform) -> None:
    """Ana plays a whole table against one computer seat."""
    for text in ("/challenge", "/addbot", "/start"):
        await chat.say("ana", text)
    await play_out(core, chat)


async def test_a_computer_is_never_on_a_leaderboard(core: Core, chat: FakePlatform):
    await _table_against_the_computer(core, chat)
    for line in ("/leaderboard maestras", "/leaderboard maestras global", "/leaderboard all"):
        board = (await chat.say("bea", line))[0]
        assert board.key == "leaderboard.text", (line, board.text)
        assert "Ana" in board.text and "Computer" not in board.text, (line, board.text)
    # the chat's own web page: the same board
    core.service.web_base_url = BASE
    (given,) = await chat.say("ana", "/leaderboard web")
    async with web_client(core) as client:
        status, html = await page(client, f"/chat/{given.params['token']}")
    assert status == 200
    assert "Ana" in main_text(html) and "Computer" not in main_text(html)
    # and asking for the computer's numbers says it has none, as before
    assert (await chat.say("bea", "/stats Computer 1"))[0].key == "stats.computer"


async def test_a_computer_winning_a_table_takes_no_place_from_people(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    # several tables: whoever wins them, the board counts only people's wins, numbered 1, 2...
    for _ in range(3):
        await _table_against_the_computer(core, chat)
        clock.advance(minutes=1)
    (board,) = await chat.say("ana", "/leaderboard maestras")
    rows = [line.split() for line in board.text.splitlines() if line[:1].isdigit()]
    assert [row[1] for row in rows] == ["Ana"] and rows[0][0] == "1"


async def test_a_race_board_the_clock_ended_is_time_up_with_its_place(core: Core, clock: FakeClock):
    core.service.web_base_url = BASE
    ana, bea = Person(core, "uid-1001", "Ana"), Person(core, "uid-1002", "Bea")
    await ana.daily("imaginary13", 1)  # a finished daily: Ana has a public page
    core.features["races"].pick_deal = lambda: 1  # deal 1 opens with 27 (+5 points)

    async def nowhere(platform: str, chat_id: str, reply: Reply) -> None:
        return None

    core.set_push(nowhere)
    await ana.say("/race 5")
    await bea.say("/join")
    await ana.say("/start")
    await bea.say("/move 27")
    await ana.say("/move d")
    clock.advance(minutes=5)
    assert await core.tick() == 1  # the clock ends both boards as they stand
    ana_stats = (await ana.say("/stats"))[0].text
    assert "Races: 1, 0 won; last: place 2 of 2, Time up" in ana_stats, ana_stats
    assert "Races: 1, 1 won; last: place 1 of 2, Time up" in (await bea.say("/stats"))[0].text
    assert "Resigned" not in ana_stats
    # her page: the race board says it was a race, its place, and that time was up
    async with web_client(core, clock) as client:
        public_id = ana_stats.rsplit("/player/", 1)[1]
        status, html = await page(client, f"/player/{public_id}")
    assert status == 200
    shown = main_text(html)
    assert "Solitario · race, place 2 of 2 Time up" in shown, shown
    # a board its player resigned in a race still says so
    await ana.say("/race 5")
    await bea.say("/join")
    await ana.say("/start")
    await ana.say("/move 27")
    await bea.resign()
    clock.advance(minutes=5)
    await core.tick()
    assert "last: place 2 of 2, Resigned" in (await bea.say("/stats"))[0].text


async def test_a_race_ended_by_hand_leaves_its_boards_resigned_not_time_up(
    core: Core, clock: FakeClock
):
    ana, bea = Person(core, "uid-1001", "Ana"), Person(core, "uid-1002", "Bea")
    core.features["races"].pick_deal = lambda: 1
    await ana.say("/race 5")
    await bea.say("/join")
    started = await ana.say("/start")
    boards = [r.board.session_id for r in started if r.board is not None]
    await ana.say("/move 27")
    assert (await ana.say("/end"))[0].key == "race.ended"
    for session_id in boards:  # no clock ran out: given up as they stood, and not ranked
        result = await core.store.results.first(session_id)
        assert result is not None and result.outcome == "resigned" and result.place is None
    assert "Races:" not in (await ana.say("/stats"))[0].text
