"""Leaderboards: each game's order and ties exactly as the seeds say, the today/week/all windows,
here/global scope, and who in the chat has not played today's daily yet.

Results are inserted by hand (as the bot stores them), so every tie is deliberate."""

from __future__ import annotations

import itertools
from datetime import date, timedelta

from core_fakes import FakePlatform
from hypothesis import given
from hypothesis import strategies as st

import engine
from bot.core import Core
from bot.features.daily import ACCEPTED, REFUSED
from bot.features.leaderboards import rank, since_day
from bot.storage import Entry

TODAY = date(2025, 3, 14)  # the FakeClock's day
_ids = itertools.count(1)


async def add_result(
    core: Core,
    player: str,
    game: str,
    score: int,
    *,
    tiebreak: int = 50,
    moves: int = 80,
    outcome: str = "lost",
    day: date = TODAY,
    ranked: bool = True,
    status: str = ACCEPTED,
    chat: str = "chat-1",
    platform: str = "fake",
    masters: int | None = None,
    won: bool = False,
) -> None:
    """One finished game as the bot stores it; ranked ones get an attempt of that day."""
    session = f"s{next(_ids)}"
    statements = [
        (
            "INSERT INTO results (session_id, platform, chat_id, game_id, player_id, player_name, deal, options, "
            "score, tiebreak_move, move_count, moves, outcome, won, ranked, day, finished_at, masters) "
            "VALUES (?, ?, ?, ?, ?, ?, 1, '{}', ?, ?, ?, '[]', ?, ?, ?, ?, ?, ?)",
            (
                session,
                platform,
                chat,
                game,
                player,
                player.capitalize(),
                score,
                tiebreak,
                moves,
                outcome,
                int(won),
                int(ranked),
                day.isoformat(),
                f"{day.isoformat()}T12:00:00",
                masters,
            ),
        )
    ]
    if ranked:
        statements.append(
            (
                "INSERT INTO daily_attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    platform,
                    player,
                    game,
                    day.isoformat(),
                    session,
                    chat,
                    status,
                    f"{day.isoformat()}T11:00:00",
                ),
            )
        )
    await core.store.write(statements)


async def board(chat: FakePlatform, line: str = "/leaderboard") -> str:
    (reply,) = await chat.say("viewer", line)
    assert reply.key in ("leaderboard.text", "leaderboard.empty")
    return reply.text


def rows_of(text: str, title: str) -> list[list[str]]:
    """The table rows under a board's title: [place, name, column, column]."""
    lines = text.splitlines()
    start = lines.index(title) + 2  # title, then the header row
    rows = []
    for line in lines[start:]:
        if not line or not line[0].isdigit():
            break
        rows.append(line.split())
    return rows


async def test_solitario_equal_scores_are_ordered_by_the_earlier_score_move(
    core: Core, chat: FakePlatform
):
    await add_result(core, "ana", "solitario", 185, tiebreak=97, moves=99)
    await add_result(core, "bob", "solitario", 185, tiebreak=60, moves=140)
    await add_result(core, "cy", "solitario", 200, tiebreak=150, moves=150)
    await add_result(core, "dee", "solitario", 185, tiebreak=60, moves=61)
    rows = rows_of(await board(chat, "/leaderboard solitario"), "Solitario · daily challenge")
    # a tie on score and score move is a shared place; total moves do not matter in Solitario
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("1", "Cy", "200", "150"),
        ("2", "Bob", "185", "60"),
        ("2", "Dee", "185", "60"),
        ("4", "Ana", "185", "97"),
    ]


async def test_canfield_equal_dollars_are_ordered_by_fewer_moves(core: Core, chat: FakePlatform):
    await add_result(core, "ana", "canfield", 40, moves=120, tiebreak=10)
    await add_result(core, "bob", "canfield", 40, moves=90, tiebreak=80)
    await add_result(core, "cy", "canfield", -50, moves=3)
    rows = rows_of(await board(chat, "/leaderboard canfield"), "Canfield · daily challenge")
    assert [(r[1], r[2], r[3]) for r in rows] == [
        ("Bob", "$40", "90"),
        ("Ana", "$40", "120"),
        ("Cy", "-$50", "3"),
    ]  # as the board writes it


async def test_imaginary_thirteen_by_cards_played_then_fewer_moves(core: Core, chat: FakePlatform):
    await add_result(core, "ana", "imaginary13", 88, moves=130, outcome="won")
    await add_result(core, "bob", "imaginary13", 88, moves=128, outcome="won")
    await add_result(core, "cy", "imaginary13", 60, moves=20)
    rows = rows_of(
        await board(chat, "/leaderboard imaginary13"), "Imaginary Thirteen · daily challenge"
    )
    assert [r[1] for r in rows] == ["Bob", "Ana", "Cy"]


async def test_squadratik_by_result_then_points(core: Core, chat: FakePlatform):
    await add_result(core, "ana", "squadratik", 30, outcome="played_out")
    await add_result(core, "bob", "squadratik", 12, outcome="completo")
    await add_result(core, "cy", "squadratik", 90, outcome="lost")
    await add_result(core, "dee", "squadratik", 44, outcome="played_out")
    rows = rows_of(await board(chat, "/leaderboard squadratik"), "Squadratik · daily challenge")
    assert [(r[1], r[2], r[3]) for r in rows] == [
        ("Bob", "Completo", "12"),
        ("Dee", "Solitario", "44"),
        ("Ana", "Solitario", "30"),
        ("Cy", "Lost", "90"),
    ]


async def test_cartas_maestras_by_wins_then_masters(core: Core, chat: FakePlatform):
    for player, won, masters in [
        ("ana", True, 2),
        ("bob", False, 3),
        ("ana", False, 0),
        ("cy", True, 3),
    ]:
        await add_result(core, player, "maestras", masters, ranked=False, won=won, masters=masters)
    text = await board(chat, "/leaderboard maestras")
    rows = rows_of(text, "Cartas Maestras")
    assert [(r[1], r[2], r[3]) for r in rows] == [
        ("Cy", "1", "3"),
        ("Ana", "1", "2"),
        ("Bob", "0", "3"),
    ]


async def test_today_week_and_all_windows(core: Core, chat: FakePlatform):
    await add_result(core, "ana", "imaginary13", 50, day=TODAY)
    await add_result(
        core, "bob", "imaginary13", 70, day=TODAY - timedelta(days=6)
    )  # still this week
    await add_result(core, "cy", "imaginary13", 80, day=TODAY - timedelta(days=7))  # last week
    title = "Imaginary Thirteen · daily challenge"
    assert [r[1] for r in rows_of(await board(chat, "/leaderboard imaginary13 today"), title)] == [
        "Ana"
    ]
    assert [r[1] for r in rows_of(await board(chat, "/leaderboard imaginary13 week"), title)] == [
        "Bob",
        "Ana",
    ]
    assert [r[1] for r in rows_of(await board(chat, "/leaderboard all imaginary13"), title)] == [
        "Cy",
        "Bob",
        "Ana",
    ]


async def test_here_counts_this_chat_and_global_every_chat_of_every_platform(
    core: Core, chat: FakePlatform
):
    await add_result(core, "ana", "imaginary13", 50)
    await add_result(core, "bob", "imaginary13", 70, chat="chat-2")
    await add_result(core, "cy", "imaginary13", 60, platform="telegram", chat="chat-1")
    title = "Imaginary Thirteen · daily challenge"
    here = await board(chat, "/leaderboard imaginary13 here")
    assert "this chat" in here.splitlines()[0]
    assert [r[1] for r in rows_of(here, title)] == ["Ana"]
    everywhere = await board(chat, "/leaderboard global imaginary13")
    assert [r[1] for r in rows_of(everywhere, title)] == ["Bob", "Cy", "Ana"]


async def test_each_player_once_with_their_best_result(core: Core, chat: FakePlatform):
    await add_result(core, "ana", "imaginary13", 40, day=TODAY - timedelta(days=1))
    await add_result(core, "ana", "imaginary13", 66, day=TODAY - timedelta(days=2))
    await add_result(core, "bob", "imaginary13", 50, day=TODAY - timedelta(days=1))
    rows = rows_of(
        await board(chat, "/leaderboard imaginary13 week"), "Imaginary Thirteen · daily challenge"
    )
    assert [(r[1], r[2]) for r in rows] == [("Ana", "66"), ("Bob", "50")]


async def test_refused_and_casual_results_stay_off_the_daily_board(core: Core, chat: FakePlatform):
    await add_result(core, "ana", "imaginary13", 88, status=REFUSED)
    await add_result(core, "bob", "imaginary13", 30)
    await add_result(core, "cy", "imaginary13", 70, ranked=False)
    text = await board(chat, "/leaderboard imaginary13")
    assert [r[1] for r in rows_of(text, "Imaginary Thirteen · daily challenge")] == ["Bob"]
    assert [r[1] for r in rows_of(text, "Imaginary Thirteen · free games")] == ["Cy"]


async def test_the_daily_board_names_who_in_the_chat_has_not_played_today(
    core: Core, chat: FakePlatform
):
    await add_result(core, "ana", "imaginary13", 50)
    await add_result(core, "bob", "canfield", 10, ranked=False)  # known here, no daily today
    await add_result(
        core, "cy", "imaginary13", 50, day=TODAY - timedelta(days=1)
    )  # played yesterday only
    await add_result(core, "zed", "imaginary13", 50, chat="elsewhere")  # not known in this chat
    for user in ("ana", "bob", "cy", "zed"):
        await core.store.players.touch("fake", user, user.capitalize(), "2025-03-14T10:00:00")
    text = await board(chat, "/leaderboard imaginary13")
    assert "Not played today yet: Bob, Cy" in text
    assert "Zed" not in text


async def test_the_board_is_a_padded_text_table_and_an_empty_one_says_so(
    core: Core, chat: FakePlatform
):
    assert await board(chat) == "No finished games for this leaderboard yet."
    await add_result(core, "ana", "imaginary13", 8)
    await add_result(core, "bartholomew", "imaginary13", 77)
    (reply,) = await chat.say("viewer", "/leaderboard")
    assert reply.params["preformatted"] is True
    lines = reply.text.splitlines()
    header = lines.index("#  player       cards  moves")
    # numbers right-aligned under their header, names padded to the longest
    assert lines[header + 1 : header + 3] == [
        "1  Bartholomew     77     80",
        "2  Ana              8     80",
    ]


@st.composite
def entries(draw):
    players = draw(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=12))
    return [
        Entry(
            p,
            p,
            draw(st.integers(-50, 3)),
            draw(st.integers(0, 3)),
            draw(st.integers(0, 3)),
            draw(st.sampled_from(["won", "lost", "played_out", "completo"])),
        )
        for p in players
    ]


@given(
    entries(),
    st.sampled_from([g for g, cls in engine.GAMES.items() if cls.info.ranking]),  # ranked games
    st.randoms(),
)
def test_ranking_is_one_best_row_per_player_in_order_whatever_the_insert_order(rows, game, rnd):
    placed = rank(game, rows)
    assert len({e.player for _, e in placed}) == len(placed) == len({e.player for e in rows})
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    again = rank(game, shuffled)
    assert [(p, e.player) for p, e in again] == [(p, e.player) for p, e in placed]
    places = [p for p, _ in placed]
    assert places == sorted(places) and places[0] == 1
    for index, (place, _) in enumerate(placed):
        assert place == index + 1 or place == placed[index - 1][0]


def test_windows_start_on_the_right_day():
    assert since_day("today", TODAY) == "2025-03-14"
    assert since_day("week", TODAY) == "2025-03-08"  # seven days: the 8th to the 14th
    assert since_day("all", TODAY) == ""
