"""/hint: a private suggestion with the move's notation and a reason read from what it does;
refused in ranked play; a clear answer when no hint search is installed."""

from __future__ import annotations

import sys
import types

import pytest
from core_fakes import FakePlatform

import engine
from bot.core import Core
from bot.features.hints import REASONS, reason_key


def install_hint(monkeypatch, choose) -> list[tuple[object, object]]:
    """A stand-in for ``engine.solvers.hints`` (its contract: ``hint(game, player) -> move | None``)."""
    calls: list[tuple[object, object]] = []

    def hint(game, player=None):
        calls.append((game, player))
        return choose(game)

    module = types.ModuleType("engine.solvers.hints")
    module.hint = hint  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "engine.solvers.hints", module)
    return calls


def first_to_foundation(game):
    moves = game.legal_moves()
    foundations = {p["id"] for p in game.view(None)["piles"] if p["kind"] == "foundation"}
    return next((m for m in moves if m.dst in foundations), moves[0])


async def test_hint_names_the_move_and_why_privately_and_changes_nothing(
    core: Core, chat: FakePlatform, monkeypatch
):
    calls = install_hint(monkeypatch, first_to_foundation)
    await chat.say("ana", "/play imaginary13 3")
    session = await core.sessions.solo_of("fake", "chat-1", "ana")
    expected = first_to_foundation(session.game)
    (reply,) = await chat.say("ana", "/hint")
    assert reply.is_private and reply.to_user == "ana"
    assert reply.params["move"] == str(expected)
    assert reply.text == f"Hint: {expected} — it puts a card on a foundation."
    assert session.game.moves == []  # the hint searched a copy
    assert calls and calls[0][0] is not session.game and calls[0][1] == "ana"


async def test_no_hint_when_the_search_finds_nothing_and_none_without_a_game(
    chat: FakePlatform, monkeypatch
):
    install_hint(monkeypatch, lambda game: None)
    assert [r.key for r in await chat.say("ana", "/hint")] == ["move.no_game"]
    await chat.say("ana", "/play imaginary13 3")
    assert [r.key for r in await chat.say("ana", "/hint")] == ["hint.none"]


async def test_without_a_hint_search_installed_the_answer_says_so(chat: FakePlatform, monkeypatch):
    monkeypatch.setitem(sys.modules, "engine.solvers.hints", None)  # import fails
    await chat.say("ana", "/play imaginary13 3")
    assert [r.key for r in await chat.say("ana", "/hint")] == ["hint.unavailable"]


async def test_hint_is_refused_in_the_daily_challenge_even_with_a_search(
    chat: FakePlatform, monkeypatch
):
    calls = install_hint(monkeypatch, first_to_foundation)
    await chat.say("ana", "/daily imaginary13")
    (reply,) = await chat.say("ana", "/hint")
    assert reply.key == "hint.ranked" and not calls


def test_reasons_read_from_what_the_move_visibly_does():
    game = engine.new_game("imaginary13", 3)
    to_waste = None
    while to_waste is None:  # play on until the turned card fits no foundation
        moves = game.legal_moves()
        to_waste = next((m for m in moves if m.src == "t" and m.dst.isalpha()), None)
        if to_waste is None:
            home = next(m for m in moves if m.dst.isdigit())
            assert reason_key(game, home) == "foundation"
            game.play(home)
    assert reason_key(game, to_waste) == "waste"
    squadratik = engine.new_game("squadratik", 3)
    assert reason_key(squadratik, squadratik.legal_moves()[0]) == "opens_path"


def test_a_freecell_move_to_a_cell_that_lets_a_card_go_home_says_so_not_that_it_plays_home():
    # deal 1 after two moves: a card to free cell b uncovers a card that goes home by itself
    game = engine.new_game("freecell", 1)
    rng = __import__("random").Random(1)
    for _ in range(2):
        game.play(rng.choice(game.legal_moves()))
    cells = {p["id"] for p in game.view(None)["piles"] if p["kind"] == "cell"}

    def home_cards() -> int:
        piles = game.view(None)["piles"]
        return sum(len(p["cards"]) for p in piles if p["kind"] == "foundation")

    freeing = []
    for move in game.legal_moves():
        before = home_cards()
        game.play(move)
        went_home = home_cards() > before
        game.undo()
        if move.dst in cells and went_home:
            freeing.append(move)
    assert freeing and {reason_key(game, m) for m in freeing} == {"sends_home"}
    foundations = {p["id"] for p in game.view(None)["piles"] if p["kind"] == "foundation"}
    for home in (m for m in game.legal_moves() if m.dst in foundations):
        assert reason_key(game, home) in ("foundation", "wins")


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_the_reasons_a_freecell_hint_gives_name_nothing_freecell_lacks(lang):
    from bot import i18n

    for reason in ("sends_home", "prepares"):
        text = i18n.t(lang, f"hint.why.{reason}").casefold()
        assert not any(w in text for w in ("waste", "descarte", "scarto", "turned", "destapada"))


@pytest.mark.parametrize("game_id", ["imaginary13", "squadratik", "freecell"])
def test_every_legal_move_has_a_reason_and_the_game_is_untouched(game_id):
    game = engine.new_game(game_id, 7)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    before = list(game.moves)
    for move in game.legal_moves():
        assert reason_key(game, move) in REASONS
    assert game.moves == before


async def test_a_freecell_hint_is_the_first_move_of_the_solvers_winning_line(
    core: Core, chat: FakePlatform
):
    from engine.solvers import Budget, solve_game

    await chat.say("ana", "/play freecell 2")
    session = await core.sessions.solo_of("fake", "chat-1", "ana")
    line = solve_game(session.game, Budget(nodes=40_000, seconds=None)).moves
    (reply,) = await chat.say("ana", "/hint")
    assert reply.is_private and reply.params["move"] == line[0]
    assert session.game.moves == []
