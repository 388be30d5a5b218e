"""What a new player reads, found by playing every game in the console in en, es and it with a
casual game, a daily and a table open at once (issue 26, "Done when"): each test replays one
thing that confused or misled in that session."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from core_fakes import FakePlatform

from bot import i18n
from bot.app import open_core
from bot.core import Core
from bot.platforms.console import Console


async def open_table(chat: FakePlatform, player: str = "alice") -> str:
    """A started Cartas Maestras table of ``player`` and one computer: its session id."""
    await chat.say(player, "/challenge maestras")
    await chat.say(player, "/addbot")
    replies = await chat.say(player, "/start")
    return next(r for r in replies if r.board is not None).board.session_id


# "mesa de Cartas Maestras sigue: ...", "tavolo di Cartas Maestras continua: ...": a game's name
# (with its article where a sentence needs one: "La mesa de Cartas Maestras sigue")
# in words starts lower case in Spanish and Italian ("mesa de", "gara di"), so where it begins a
# sentence or a button the message must write it with a capital, as English does.
@pytest.mark.parametrize(
    ("lang", "table", "kept"),
    [
        ("en", "Cartas Maestras table", "The Cartas Maestras table goes on: nothing changed."),
        ("es", "Mesa de Cartas Maestras", "La mesa de Cartas Maestras sigue: no ha cambiado nada."),
        (
            "it",
            "Tavolo di Cartas Maestras",
            "Il tavolo di Cartas Maestras continua: non è cambiato nulla.",
        ),
    ],
)
async def test_a_games_name_that_starts_a_sentence_or_a_button_has_a_capital(
    chat: FakePlatform, lang: str, table: str, kept: str
):
    chat.admins.add("alice")
    await chat.say("alice", f"/lang {lang}")
    await chat.say("alice", "/daily solitario")
    await open_table(chat)
    # the hint at the table starts with the table's name (several games are open)
    (hint,) = await chat.say("alice", "/hint")
    assert hint.text.startswith(f"{table}: ")
    # which game to resign: one button per game, each a name with its capital
    (asked,) = await chat.say("alice", "/resign")
    assert [b.label.split(",")[0] for b in asked.buttons][-1] == table
    assert all(b.label[0].isupper() for b in asked.buttons)
    # /leave at the table asks; No keeps the game and says so
    (question,) = await chat.say("alice", "/leave")
    assert question.key == "confirm.leave"
    (answer,) = await chat.answer("alice", yes=False)
    assert answer.text == kept


# With a casual game and the daily open, "/hint" on the daily said only "No hints in the daily
# challenge." (which daily?), and at a table "Hint: pass. Only Pass: ..." named no game, while
# every other hint does when several games are open.
async def test_every_hint_answer_names_the_game_when_several_are_open(chat: FakePlatform):
    await chat.say("alice", "/play canfield 3")
    await chat.say("alice", "/daily solitario")
    (refused,) = await chat.say("alice", "/hint")
    assert refused.text == "Daily Solitario: No hints in the daily challenge."
    await chat.say("alice", "/board canfield")
    (hint,) = await chat.say("alice", "/hint")
    assert hint.text.startswith("Canfield: Hint: ")


# "/replay solution" before any finished game: "Aún no tienes ninguna partida terminada de
# Solitario, Canfield o Imaginary Thirteen": an English game name in Spanish and Italian, and
# FreeCell (whose lost deals the solver answers too) missing.
@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "You have no finished Solitario, Canfield, Imaginary Thirteen, or FreeCell game"),
        ("es", "ninguna partida terminada de Solitario, Canfield, Trece Imaginario o FreeCell "),
        ("it", "nessuna partita finita di Solitario, Canfield, Tredici Immaginario o FreeCell "),
    ],
)
async def test_replay_solution_names_every_solvable_game_in_the_chats_language(
    chat: FakePlatform, lang: str, text: str
):
    chat.admins.add("alice")
    await chat.say("alice", f"/lang {lang}")
    (nothing,) = await chat.say("alice", "/replay solution")
    assert nothing.key == "replay.solution_none" and text in nothing.text
    (usage,) = await chat.say("alice", "/replay canfield 2")
    assert usage.key == "replay.usage" and "FreeCell" in usage.text
    assert lang == "en" or "Imaginary" not in usage.text


# An Italian player typed "/leaderboard freecell settimana" and got back only
# "/leaderboard [gioco] [today|week|all] [here|global]": the period and place words were English
# only, and the refusal did not say which word was not understood.
@pytest.mark.parametrize(
    ("lang", "words", "title"),
    [
        ("es", "solitario semana global", "Clasificación · últimos 7 días · global"),
        ("it", "solitario settimana ovunque", "Classifica · ultimi 7 giorni · ovunque"),
        ("en", "solitario week global", "Leaderboard · last 7 days · everywhere"),
    ],
)
async def test_leaderboard_reads_period_and_place_in_the_chats_words(
    chat: FakePlatform, lang: str, words: str, title: str
):
    chat.admins.add("alice")
    await chat.say("alice", f"/lang {lang}")
    await chat.say("alice", "/play solitario 3")
    await chat.resign("alice")
    (board,) = await chat.say("bob", f"/leaderboard {words}")
    assert board.key == "leaderboard.text" and board.text.startswith(title)
    assert "Alice" in board.text
    (refused,) = await chat.say("bob", "/leaderboard solitario forever")
    assert refused.key == "leaderboard.unknown_word" and "forever" in refused.text
    assert refused.text.endswith(i18n.t(lang, "leaderboard.usage"))


# In the console after "/lang es", "#99" with no such button printed "(no button #99)" and "#x"
# "(#x is not a button number: ...)": the console's own answers stayed English.
@pytest.mark.parametrize(
    ("lang", "no_button", "not_a_number"),
    [
        ("es", "(no hay botón #42:", "(#x no es un número de botón:"),
        ("it", "(nessun pulsante #42:", "(#x non è un numero di pulsante:"),
    ],
)
async def test_the_consoles_own_answers_are_in_the_chats_language(
    tmp_path: Path, lang: str, no_button: str, not_a_number: str
):
    core = await open_core(
        f"sqlite:///{tmp_path / 'c.db'}", sweep_interval=None, renderer=lambda *a, **k: b""
    )
    out = io.StringIO()
    console = Console(core, out, out_dir=tmp_path)
    try:
        await console.handle_line(f"/lang {lang}")
        await console.handle_line("/play imaginary13 3")
        start = out.tell()
        await console.handle_line("#42")
        await console.handle_line("#x")
        printed = out.getvalue()[start:].splitlines()
        assert printed[0].startswith(no_button) and printed[1].startswith(not_a_number)
    finally:
        await core.close()


# With a daily El Solitario and a table open (the game in focus just finished), /hint answered
# for the table ("Mesa de Cartas Maestras: Pista: 3N") and typing that very move asked "«3N»
# fits more than one of your games here: which?", forty times in a row: the game a hint was
# given for is the game the player's next move means.
async def test_the_move_a_hint_suggests_goes_to_the_game_the_hint_was_for(
    core: Core, chat: FakePlatform, monkeypatch: pytest.MonkeyPatch
):
    # a table deal where Alice's first hint is a plain "<card><side>" El Solitario reads too
    monkeypatch.setattr("secrets.randbelow", lambda _: 0)  # the deal random_deal picks
    await chat.say("alice", "/daily squadratik")
    table_id = await open_table(chat)
    await chat.say("alice", "/play imaginary13 3")
    await chat.say("alice", "/resign imaginary13")  # the game in focus ends
    (hint,) = await chat.say("alice", "/hint")
    assert hint.text.startswith("Cartas Maestras table: ")
    move = hint.params["move"]
    assert re.fullmatch(r"\d[NESW][nesw]?(r\d)?", move)  # a placement, maybe turned
    replies = await chat.say("alice", move)
    assert not any(r.key == "focus.which_move" for r in replies)
    assert (await core.sessions.get(table_id)).game.move_number >= 1


# "/undo" with a FreeCell just dealt, the daily and a table: "None of your games here can take a
# move back: Daily Canfield, FreeCell, Cartas Maestras table." FreeCell can take moves back; it
# had none yet. The answer must not say a casual game forbids undo.
@pytest.mark.parametrize("lang", ["en", "es", "it"])
async def test_nothing_to_undo_anywhere_says_why_without_blaming_the_casual_game(
    chat: FakePlatform, lang: str
):
    chat.admins.add("alice")
    await chat.say("alice", f"/lang {lang}")
    await chat.say("alice", "/play freecell 3")
    await chat.say("alice", "/daily canfield")
    await chat.say("alice", "d")
    (refused,) = await chat.say("alice", "/undo")
    assert refused.key == "undo.none_here" and "FreeCell" in refused.text
    reasons = {"en": "no move yet", "es": "sin jugadas", "it": "senza mosse"}
    assert reasons[lang] in refused.text
    # one move later FreeCell is the game to take it back from
    (hint,) = await chat.say("alice", "/hint freecell")
    await chat.say("alice", f"/move {hint.params['move']}")
    (asked,) = await chat.say("alice", "/undo")
    assert asked.key == "focus.which_undo" and "FreeCell" in asked.buttons[0].label


@pytest.mark.parametrize(
    ("lang", "player"), [("en", "Player"), ("es", "Jugador"), ("it", "Giocatore")]
)
async def test_the_consoles_default_player_is_named_in_the_chats_language(
    tmp_path: Path, lang: str, player: str
):
    # on main the console's player was "Player" after /lang es and /lang it
    core = await open_core(
        f"sqlite:///{tmp_path / 'c.db'}", sweep_interval=None, renderer=lambda *a, **k: b""
    )
    out = io.StringIO()
    console = Console(core, out, out_dir=tmp_path)
    try:
        await console.handle_line(f"/lang {lang}")
        start = out.tell()
        await console.handle_line("/daily canfield")
        printed = out.getvalue()[start:]
        assert player in printed
        others = {"Player", "Jugador", "Giocatore"} - {player}
        assert not any(other in printed for other in others), printed
    finally:
        await core.close()


async def test_a_number_with_no_button_says_which_numbers_work(tmp_path: Path):
    # under "which game do you want to resign?" (buttons #7 and #8) "#0" answered only
    # "(no button #0)": the numbers shown and the numbers accepted must agree, and it says so
    core = await open_core(
        f"sqlite:///{tmp_path / 'c.db'}", sweep_interval=None, renderer=lambda *a, **k: b""
    )
    out = io.StringIO()
    console = Console(core, out, out_dir=tmp_path)
    try:
        await console.handle_line("/play canfield 3")
        await console.handle_line("/daily solitario")
        await console.handle_line("/resign")
        shown = sorted(console.buttons)
        assert len(shown) == 2
        start = out.tell()
        await console.handle_line("#0")
        said = out.getvalue()[start:].strip()
        assert said.startswith("(no button #0: press #")
        assert all(f"#{n}" in said for n in shown)
        # and a listed number does what it says: it picks a game
        start = out.tell()
        await console.handle_line(f"#{shown[0]}")
        assert "no button" not in out.getvalue()[start:]
    finally:
        await core.close()
