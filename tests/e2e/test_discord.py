"""End to end: the real discord.py client, the Discord adapter and the core, against a fake
Discord (gateway websocket + REST on 127.0.0.1). Players act only as Discord users do: slash
commands, autocomplete and button presses; tests read what each user can see.

Boards are drawn by a tiny stand-in renderer that stores the view it was given in the PNG,
so a test can tell exactly which cards every image shows (and to whom).
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.core import buttons
from engine.solvers import WON, Budget, solve
from tests.e2e.fake_discord import Table, running_table, view_of


@pytest.fixture
async def table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    async for running in running_table(tmp_path, caplog):
        yield running


# ----- a winnable deal ------------------------------------------------------------------------------
#: a deal the solver wins in a few hundredths of a second (random playouts took 2.5 s of CPU to
#: come upon a won game: 470 of them)
WON_DEAL = 23


def winning_line(game_id: str = "imaginary13", deal: int = WON_DEAL) -> tuple[int, list[str]]:
    """(deal, moves) of a won game, as the solver plays it."""
    result = solve(game_id, deal, None, Budget(nodes=200_000, seconds=None))
    assert result.status == WON, f"{game_id} deal {deal}: the solver found no win"
    return deal, list(result.moves)


# ----- tests ---------------------------------------------------------------------------------------
async def test_commands_are_synced_to_the_guild_with_translations(table: Table) -> None:
    fake = table.fake
    names = set(fake.command_names())
    wanted = {
        "play",
        "daily",
        "challenge",
        "join",
        "leave",
        "start",
        "move",
        "hand",
        "undo",
        "hint",
        "resign",
        "board",
        "leaderboard",
        "stats",
        "rules",
        "help",
        "lang",
    }
    assert wanted <= names
    assert "global" not in fake.commands  # development sync goes to the one guild
    play = fake._command("play")
    assert play["description_localizations"]["it"]
    assert play["description_localizations"]["es-ES"] != play["description"]
    game_option = next(o for o in play["options"] if o["name"] == "game")
    assert game_option["autocomplete"] is True
    assert game_option["description_localizations"]["es-ES"] == "Juego"
    board = fake._command("leaderboard")
    period = next(o for o in board["options"] if o["name"] == "period")
    assert [c["value"] for c in period["choices"]] == ["today", "week", "all"]


async def test_autocomplete_offers_games_faces_and_languages(table: Table) -> None:
    fake = table.fake
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    games = await fake.autocomplete(alice, general, "play", "game", game="imag")
    assert [c["value"] for c in games] == ["imaginary13"]
    faces = await fake.autocomplete(alice, general, "play", "faces", game="solitario", faces="")
    assert {c["value"] for c in faces} == {"napoletane", "piacentine", "francesi"}
    languages = await fake.autocomplete(
        alice, general, "lang", "language", language="it", locale="it"
    )
    assert [c["value"] for c in languages] == ["it"]


async def test_help_answers_in_the_channel(table: Table) -> None:
    fake = table.fake
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    record = await table.slash(alice, general, "help")
    shown = fake.visible_to(alice, general)
    assert shown and shown[-1].content
    assert record.callback_type == 4  # answered at once, no "thinking"


@pytest.mark.slow
async def test_a_whole_imaginary_thirteen_game_by_slash_commands_and_buttons(table: Table) -> None:
    fake = table.fake
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    general = fake.add_channel("general")
    deal, line = winning_line()
    await table.slash(alice, general, "play", game="imaginary13", deal=deal)
    board = table.board(general)
    assert view_of(board)["deal"] == deal and board.custom_ids

    # A stranger's press is refused privately and changes nothing.
    before = (board.edits, view_of(board)["move_number"])
    await table.press(bob, board, board.custom_ids[0])
    refusal = fake.ephemerals(bob)
    assert len(refusal) == 1 and refusal[0].visible_to == bob.id and refusal[0].content
    assert (board.edits, view_of(board)["move_number"]) == before
    assert refusal[0] not in fake.visible_to(alice)

    # The first moves by buttons: pick the source, then the target.
    for number, move in enumerate(line[:6]):
        select = next(c for c in board.custom_ids if ":sel:" in c and c.endswith(":" + move[0]))
        await table.press(alice, board, select)
        target = next(c for c in board.custom_ids if ":mv:" in c and c.endswith(":" + move))
        await table.press(alice, board, target)
        assert view_of(board)["move_number"] == number + 1

    # A rate limit on the board edit delays it; the move is not lost.
    fake.rate_limit_next["PATCH"] = 1
    for move in line[6:]:
        await table.slash(alice, general, "move", text=move)
    assert fake.rate_limited
    final = view_of(board)
    assert final["outcome"] == "won" and final["move_number"] == len(line)
    assert table.board(general) is board  # one board message, edited in place all along
    assert [buttons.decode(i).verb for i in board.custom_ids] == [
        "again"
    ]  # a finished game: play again
    assert not [m for m in fake.channel_messages(general) if m.ephemeral]


async def test_three_player_cartas_maestras_hands_stay_private(table: Table) -> None:
    fake = table.fake
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    # boards and hands are drawn with the names players read, not their ids
    players = {u.name: u for u in (alice, bob, carol)}
    room = fake.add_channel("cards")
    await table.slash(alice, room, "challenge", player1=bob)
    lobby = next(m for m in fake.channel_messages(room) if any(":join:" in c for c in m.custom_ids))
    await table.press(bob, lobby, next(c for c in lobby.custom_ids if ":join:" in c))
    await table.slash(carol, room, "join")
    lobby = fake.messages[lobby.id]
    start = next(c for c in lobby.custom_ids if ":start:" in c)
    await table.press(alice, lobby, start)
    board = next(
        m
        for m in reversed(fake.channel_messages(room))
        if m.attachments and view_of(m).get("move_number") == 0
    )

    for _turn in range(6):
        current = players[view_of(board)["current_player"]]
        # Their hand came to them privately when their turn came, without asking.
        hand = [m for m in fake.ephemerals(current) if m.custom_ids][-1]
        assert view_of(hand)["viewer"] == current.name
        # Another player asking sees their own waiting hand, with nothing to press.
        other = next(u for u in players.values() if u is not current)
        await table.press(other, board, next(c for c in board.custom_ids if ":hand:" in c))
        asked = fake.ephemerals(other)[-1]
        assert view_of(asked)["viewer"] == other.name and not asked.custom_ids
        moves_before = view_of(board)["move_number"]
        assert len(hand.custom_ids) <= 25
        if ":turn:" in hand.custom_ids[0]:  # a card that fits several ways: the rotation next
            await table.press(current, hand, hand.custom_ids[0])
            hand = [m for m in fake.ephemerals(current) if any(":mv:" in c for c in m.custom_ids)][
                -1
            ]
            assert ":hand:" in hand.custom_ids[-1]  # a way back to the whole hand
        await table.press(current, hand, next(c for c in hand.custom_ids if ":mv:" in c))
        assert view_of(board)["move_number"] == moves_before + 1
        assert not fake.messages[hand.id].custom_ids  # their hand now waits for their next turn

    # Every image with a hand went only to that hand's owner; the channel saw none.
    for message in fake.messages.values():
        view = view_of(message)
        if view is None:
            continue
        if message.visible_to is None:
            assert view["viewer"] is None and view["hand"] == []
        else:
            assert view["viewer"] == fake.users[int(message.visible_to)].name
    assert table.board(room) is board  # the table's one board, edited in place


async def test_old_buttons_work_after_a_restart_in_a_thread(table: Table) -> None:
    fake = table.fake
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    thread = fake.add_channel("alice-plays", thread_of=general)
    await table.slash(alice, thread, "play", game="imaginary13", deal=3)
    board = table.board(thread)
    game = engine.new_game("imaginary13", deal=3)
    first = str(game.legal_moves()[0])
    await table.slash(alice, thread, "move", text=first)
    game.play(first)
    assert view_of(board)["move_number"] == 1

    await table.stop_bot()
    await table.start_bot()

    second = game.legal_moves()[0]
    select = next(c for c in board.custom_ids if ":sel:" in c and c.endswith(":" + str(second.src)))
    await table.press(alice, board, select)
    target = next(c for c in board.custom_ids if ":mv:" in c and c.endswith(":" + str(second)))
    await table.press(alice, board, target)
    assert view_of(board)["move_number"] == 2
    assert table.board(thread) is board


async def test_a_slow_answer_is_deferred_then_delivered(table: Table) -> None:
    """The deferred road, taken for certain: an answer budget of 0 defers every interaction
    first (how Discord's 3 s are kept when the core is slow: test_discord_outbox.py)."""
    fake = table.fake
    alice = fake.add_user("alice")
    general = fake.add_channel("general")
    await table.stop_bot()
    table.ack_budget = 0
    await table.start_bot()
    record = await table.slash(alice, general, "play", game="imaginary13", deal=5)
    assert record.callback_type == 5  # "thinking..." at once
    board = table.board(general)
    assert view_of(board)["deal"] == 5 and board.custom_ids and not board.flags & 128
    select = next(c for c in board.custom_ids if ":sel:" in c)
    pressed = await table.press(alice, board, select)
    assert pressed.callback_type == 6  # a silent acknowledgement, then the edit
    assert board.edits == 1 and any(":back:" in c for c in board.custom_ids)
