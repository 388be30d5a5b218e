"""Players' trust (issue 26, findings 1-3): every command acts on the game the player means,
nothing ranked is lost by one keystroke, and the daily is always reachable beside a casual
game of the same game. Each test replays what a new player met on the console."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render

from bot.app import open_core
from bot.core import Core, buttons
from bot.platforms.console import Console


def verb(button) -> str:
    return buttons.decode(button.id).verb


def drawn_style(reply) -> dict:
    """What the fake renderer was asked to draw for a board reply."""
    return json.loads(reply.image[len(b"PNG ") :])


async def open_table(chat: FakePlatform, player: str = "alice") -> str:
    """A started Cartas Maestras table of ``player`` and one computer: its session id."""
    await chat.say(player, "/challenge maestras")
    await chat.say(player, "/addbot")
    replies = await chat.say(player, "/start")
    return next(r for r in replies if r.board is not None).board.session_id


# ----- finding 1: the wrong game, silently --------------------------------------------------
async def test_resign_with_a_daily_and_a_table_open_asks_which_and_changes_nothing(
    core: Core, chat: FakePlatform
):
    _, daily = await chat.say("alice", "/daily solitario")
    table_id = await open_table(chat)
    (asked,) = await chat.say("alice", "/resign")
    assert asked.key == "focus.which_resign"
    assert [b.label for b in asked.buttons] == [
        "Daily Solitario, move 0",
        "Cartas Maestras table, move 0",
    ]
    assert (await core.sessions.get(daily.board.session_id)).is_active
    assert (await core.sessions.get(table_id)).is_active
    # picking the table asks Yes/No (it cannot be taken back); No keeps everything
    (question,) = await chat.pick("alice", table_id)
    assert question.key == "confirm.resign" and "Cartas Maestras table" in question.text
    (kept,) = await chat.answer("alice", yes=False)
    assert kept.text == "The Cartas Maestras table goes on: nothing changed."
    assert (await core.sessions.get(daily.board.session_id)).is_active
    assert (await core.sessions.get(table_id)).is_active


async def test_undo_at_a_table_never_takes_back_a_move_of_an_old_solo_game(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    _, board = await chat.say("alice", "/play imaginary13 3")
    await chat.say("alice", "/move t4")
    solo = await core.sessions.get(board.board.session_id)
    clock.advance(minutes=20)
    await open_table(chat)
    (asked,) = await chat.say("alice", "/undo")
    assert asked.key == "focus.which_undo"
    assert [b.label for b in asked.buttons] == ["Imaginary Thirteen, move 1"]
    assert len(solo.game.moves) == 1  # untouched until she picks it
    # named in words, the table answers for itself
    (refused,) = await chat.say("alice", "/undo table")
    assert refused.text == "Undo is not available at the Cartas Maestras table."


async def test_after_daily_canfield_a_bare_d_plays_on_the_daily_and_resign_canfield_asks(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    _, casual = await chat.say("alice", "/play canfield 3")
    clock.advance(minutes=1)
    _, daily = await chat.say("alice", "/daily canfield")
    (board,) = await chat.say("alice", "d")
    assert board.board.session_id == daily.board.session_id
    assert board.text.startswith("Daily Canfield ·")
    ranked = await core.sessions.get(daily.board.session_id)
    kept = await core.sessions.get(casual.board.session_id)
    assert len(ranked.game.moves) == 1 and kept.game.moves == []
    # the casual board shown again: now "d" goes there, whatever was touched last
    clock.advance(minutes=1)
    await chat.say("alice", "/board canfield casual")
    (board,) = await chat.say("alice", "d")
    assert board.board.session_id == casual.board.session_id and len(kept.game.moves) == 1
    (asked,) = await chat.say("alice", "/resign canfield")
    assert asked.key == "focus.which_resign" and len(asked.buttons) == 2
    assert ranked.is_active and kept.is_active


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Nothing to undo in Canfield."),
        ("es", "No hay nada que deshacer en Canfield."),
        ("it", "Non c'è niente da annullare in Canfield."),
    ],
)
async def test_nothing_to_undo_says_of_which_game(chat: FakePlatform, lang: str, text: str):
    chat.admins.add("alice")
    await chat.say("alice", f"/lang {lang}")
    await chat.say("alice", "/play canfield 3")
    (refused,) = await chat.say("alice", "/undo")
    assert refused.key == "undo.nothing" and refused.text == text and refused.is_private


async def test_the_focus_is_stored_so_another_process_sends_the_move_to_the_same_game(
    tmp_path: Path, clock: FakeClock
):
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first = await open_core(url, "en", clock, renderer=fake_render, sweep_interval=None)
    second = await open_core(url, "en", clock, renderer=fake_render, sweep_interval=None)
    try:
        one, two = FakePlatform(first), FakePlatform(second)
        _, casual = await one.say("alice", "/play canfield 3")
        clock.advance(minutes=1)
        _, daily = await one.say("alice", "/daily canfield")
        clock.advance(minutes=1)
        await one.say("alice", "/board canfield casual")  # focus: the casual game
        (board,) = await two.say("alice", "d")  # another process reads the same focus
        assert board.board.session_id == casual.board.session_id
    finally:
        await first.close()
        await second.close()


# ----- finding 2: one keystroke loses a ranked game -----------------------------------------
async def test_a_bare_resign_of_the_daily_asks_and_a_yes_after_a_minute_does_nothing(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    _, daily = await chat.say("alice", "/daily solitario")
    session = await core.sessions.get(daily.board.session_id)
    (question,) = await chat.say("alice", "/resign")
    assert question.key == "confirm.resign" and session.is_active
    assert [verb(b) for b in question.buttons] == ["yes", "no"]
    clock.advance(seconds=61)
    (late,) = await chat.answer("alice")
    assert late.key == "confirm.expired" and late.is_private
    assert (
        late.text
        == "No answer within a minute counts as No: nothing changed, your Daily Solitario goes on."
    )
    assert (await core.sessions.get(session.id)).is_active
    # a second press of the same Yes finds nothing to answer
    (again,) = await chat.answer("alice")
    assert again.key == "confirm.answered"
    # asked again and answered in time, it resigns
    await chat.say("alice", "/resign")
    board, end, *_ = await chat.answer("alice")
    assert end.key == "outcome.resigned" and not (await core.sessions.get(session.id)).is_open


async def test_the_boards_resign_button_always_asks_and_only_its_player_answers(
    core: Core, chat: FakePlatform
):
    _, board = await chat.say("alice", "/play solitario 5")  # a casual game
    session = await core.sessions.get(board.board.session_id)
    resign = chat.button(lambda b: verb(b) == "resign", board)
    (question,) = await chat.press("alice", resign.id)
    assert question.key == "confirm.resign" and session.is_active
    (refused,) = await chat.press("bob", question.buttons[0].id)
    assert refused.key == "confirm.not_yours" and session.is_active
    (kept,) = await chat.answer("alice", yes=False)
    assert kept.key == "confirm.kept" and session.is_active


async def test_leaving_a_table_game_asks_first(core: Core, chat: FakePlatform):
    table_id = await open_table(chat)
    (question,) = await chat.say("alice", "/leave")
    assert question.key == "confirm.leave"
    assert (await core.sessions.get(table_id)).is_active
    left, *_ = await chat.answer("alice")
    assert left.key == "tables.left_game"


async def test_a_question_asked_by_one_process_is_answered_in_another(
    tmp_path: Path, clock: FakeClock
):
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first = await open_core(url, "en", clock, renderer=fake_render, sweep_interval=None)
    second = await open_core(url, "en", clock, renderer=fake_render, sweep_interval=None)
    try:
        one, two = FakePlatform(first), FakePlatform(second)
        _, daily = await one.say("alice", "/daily canfield")
        (question,) = await one.say("alice", "/resign")
        yes = question.buttons[0]
        board, end, *_ = await two.press("alice", yes.id)
        assert end.key == "outcome.resigned"
        assert (await second.sessions.get(daily.board.session_id)).record.status == "over"
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize(
    ("lang", "start"),
    [
        ("en", "Resign your Daily Canfield, Alice? It cannot be taken back."),
        ("es", "¿Abandonar tu Canfield diario, Alice? No se puede deshacer."),
        ("it", "Abbandonare il tuo Canfield del giorno, Alice? Non si può annullare."),
    ],
)
async def test_the_question_reads_in_every_language(chat: FakePlatform, lang: str, start: str):
    chat.admins.add("alice")
    await chat.say("alice", f"/lang {lang}")
    await chat.say("alice", "/daily canfield")
    (question,) = await chat.say("alice", "/resign")
    assert question.text.startswith(start)
    labels = [b.label for b in question.buttons]
    assert labels == {"en": ["Yes", "No"], "es": ["Sí", "No"], "it": ["Sì", "No"]}[lang]


class Screen:
    """The console as a player uses it: lines in, the printed buttons by number out."""

    def __init__(self, core: Core, tmp_path: Path) -> None:
        self.out = io.StringIO()
        self.console = Console(core, self.out, out_dir=tmp_path / "images")

    async def type(self, line: str) -> None:
        await self.console.handle_line(line)

    def numbers(self) -> dict[int, str]:
        return {n: verb(b) for n, b in self.console.buttons.items()}


async def test_console_numbers_stay_with_their_action_so_repeated_numbers_never_resign(
    core: Core, tmp_path: Path
):
    screen = Screen(core, tmp_path)
    await screen.type("/play solitario 5")
    first = dict(screen.console.buttons)
    resign_number = next(n for n, v in screen.numbers().items() if v == "resign")
    card_numbers = [n for n, v in screen.numbers().items() if v in ("sel", "mv", "found")]
    seen_actions: dict[int, set[str]] = {}
    # a player pressing again and again the numbers they used for cards
    for _ in range(12):
        for number in card_numbers:
            if number not in screen.console.buttons:
                continue
            await screen.type(f"#{number}")
            for shown, action in screen.numbers().items():
                seen_actions.setdefault(shown, set()).add(action)
    # the card numbers never meant Undo or Resign, and Resign kept its number
    for number in card_numbers:
        assert not seen_actions.get(number, set()) & {"undo", "resign"}, number
    assert seen_actions[resign_number] == {"resign"}
    assert all(first[n].label == screen.console.buttons[n].label for n in (resign_number,))
    session = next(iter(core.sessions._live.values()))
    assert session.is_active  # never resigned


# ----- finding 3: the daily beside a casual game of the same game ---------------------------
async def test_the_daily_is_reachable_beside_a_casual_game_and_marked_as_ranked(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    _, casual = await chat.say("alice", "/play solitario 5")
    clock.advance(minutes=1)
    _, daily = await chat.say("alice", "/daily solitario")
    assert daily.text.startswith("Daily Solitario ·")
    assert drawn_style(daily)["badge"] == "Daily challenge"
    assert "badge" not in drawn_style(casual)
    clock.advance(minutes=1)
    await chat.say("alice", "/board solitario casual")  # focus the casual game
    (board,) = await chat.say("alice", "/board daily")
    assert board.board.session_id == daily.board.session_id
    (board,) = await chat.say("alice", "d")
    assert board.board.session_id == daily.board.session_id
    (board,) = await chat.say("alice", "/move d")
    assert board.board.session_id == daily.board.session_id
    # /board solitario: two games of that name, so it asks
    (asked,) = await chat.say("alice", "/board solitario")
    assert asked.key == "focus.which_board" and len(asked.buttons) == 2
    # /daily solitario with the daily open shows it again instead of "finish it first"
    await chat.say("alice", "/board solitario casual")
    shown, board = await chat.say("alice", "/daily solitario")
    assert shown.key == "focus.daily_again" and board.board.session_id == daily.board.session_id
    (board,) = await chat.say("alice", "d")
    assert board.board.session_id == daily.board.session_id


async def test_board_maestras_and_board_table_show_the_tables_board_again(
    chat: FakePlatform, clock: FakeClock
):
    await chat.say("alice", "/play canfield 3")
    table_id = await open_table(chat)
    await chat.say("alice", "/board canfield")
    for words in ("/board maestras", "/board table", "/board cartasmaestras"):
        (board,) = await chat.say("alice", words)
        assert board.board.session_id == table_id, words
    (none,) = await chat.say("alice", "/board daily")
    assert none.key == "focus.none_named" and "Canfield, Cartas Maestras table" in none.text


@pytest.mark.parametrize(
    ("lang", "daily_word", "table_word", "caption"),
    [
        ("en", "daily", "table", "Daily Canfield ·"),
        ("es", "diaria", "mesa", "Canfield diario ·"),
        ("it", "giornaliera", "tavolo", "Canfield del giorno ·"),
    ],
)
async def test_games_are_named_in_the_chats_words(
    chat: FakePlatform, lang: str, daily_word: str, table_word: str, caption: str
):
    chat.admins.add("alice")
    await chat.say("alice", f"/lang {lang}")
    await chat.say("alice", "/daily canfield")
    table_id = await open_table(chat)
    (board,) = await chat.say("alice", f"/board {daily_word}")
    assert board.text.startswith(caption)
    (board,) = await chat.say("alice", f"/board {table_word}")
    assert board.board.session_id == table_id


async def test_a_move_several_games_read_and_the_focus_does_not_asks_which_and_plays_nothing(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    _, casual = await chat.say("alice", "/play canfield 3")
    clock.advance(minutes=1)
    _, daily = await chat.say("alice", "/daily canfield")
    await open_table(chat)  # the table is in focus now, and it does not read "d"
    (asked,) = await chat.say("alice", "d")
    assert asked.key == "focus.which_move" and asked.text.startswith("Alice, “d” fits")
    assert [b.label for b in asked.buttons] == ["Daily Canfield, move 0", "Canfield, move 0"]
    ranked = await core.sessions.get(daily.board.session_id)
    kept = await core.sessions.get(casual.board.session_id)
    assert ranked.game.moves == [] and kept.game.moves == []
    (board,) = await chat.pick("alice", kept.id)
    assert board.board.session_id == kept.id and kept.game.moves == ["d"]
    assert ranked.game.moves == []
    (board,) = await chat.say("alice", "d")  # the picked game is in focus now
    assert board.board.session_id == kept.id and len(kept.game.moves) == 2


async def test_leaving_a_race_under_way_resigns_ones_board_after_a_yes(
    core: Core, chat: FakePlatform
):
    core.features["races"].pick_deal = lambda: 5
    await chat.say("alice", "/race")
    await chat.say("bob", "/join")
    replies = await chat.say("alice", "/start")
    board = next(r for r in replies if r.board is not None and "alice" in r.mentions)
    session = await core.sessions.get(board.board.session_id)
    (question,) = await chat.say("alice", "/leave")
    assert question.key == "confirm.resign" and "Solitario race" in question.text
    assert session.is_active
    _, end, *_ = await chat.answer("alice")
    assert end.key == "outcome.resigned" and not session.is_open


async def test_a_hint_with_several_games_open_says_of_which_game(chat: FakePlatform, clock):
    await chat.say("alice", "/play canfield 3")
    clock.advance(minutes=1)
    await chat.say("alice", "/play imaginary13 3")
    (hint,) = await chat.say("alice", "/hint")
    assert hint.text.startswith("Imaginary Thirteen: ")
    await chat.say("alice", "/board canfield")
    (hint,) = await chat.say("alice", "/hint")
    assert hint.text.startswith("Canfield: ")


@pytest.mark.parametrize("lang", ["en", "es", "it"])
async def test_a_table_played_to_its_end_beside_a_casual_game_and_a_daily_keeps_each_apart(
    core: Core, chat: FakePlatform, clock: FakeClock, lang: str
):
    chat.admins.add("alice")
    await chat.say("alice", f"/lang {lang}")
    _, casual = await chat.say("alice", "/play canfield 3")
    clock.advance(minutes=1)
    _, daily = await chat.say("alice", "/daily solitario")
    table_id = await open_table(chat)
    table = await core.sessions.get(table_id)
    draws = 0
    for _ in range(400):
        if not table.is_active:
            break
        hand = await core.hand_buttons(chat.request("alice"))
        if hand is not None and hand.buttons:
            await chat.press("alice", hand.buttons[0].id)
        # between turns alice draws on her daily, shown again by its words
        await chat.say(
            "alice", "/board " + {"en": "daily", "es": "diaria", "it": "giornaliera"}[lang]
        )
        (board,) = await chat.say("alice", "d")
        assert board.board.session_id == daily.board.session_id
        draws += 1
        table = await core.sessions.get(table_id)
    assert not table.is_active
    over = next(r for r in reversed(chat.replies) if r.key == "table.over")
    assert over.text
    ranked = await core.sessions.get(daily.board.session_id)
    assert ranked.is_active and len(ranked.game.moves) == draws
    kept = await core.sessions.get(casual.board.session_id)
    assert kept.is_active and kept.game.moves == []


@pytest.mark.parametrize(
    ("lang", "resign", "leave"),
    [
        (
            "en",
            "Resign the Cartas Maestras table, Alice?",
            "Leave the Cartas Maestras table, Alice?",
        ),
        (
            "es",
            "¿Abandonar la mesa de Cartas Maestras, Alice?",
            "¿Dejar la mesa de Cartas Maestras, Alice?",
        ),
        (
            "it",
            "Abbandonare il tavolo di Cartas Maestras, Alice?",
            "Lasciare il tavolo di Cartas Maestras, Alice?",
        ),
    ],
)
async def test_table_questions_have_their_article_and_capital(
    chat: FakePlatform, lang: str, resign: str, leave: str
):
    # on main: "Alice, ¿abandonar mesa de Cartas Maestras?", "Alice, abbandonare tavolo di ..."
    chat.admins.add("alice")
    await chat.say("alice", f"/lang {lang}")
    await chat.say("alice", "/challenge")
    await chat.say("alice", "/addbot")
    await chat.say("alice", "/start")
    (question,) = await chat.say("alice", "/resign")
    assert question.text.startswith(resign), question.text
    await chat.answer("alice", yes=False)
    (question,) = await chat.say("alice", "/leave")
    assert question.text.startswith(leave), question.text
