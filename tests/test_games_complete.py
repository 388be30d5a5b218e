"""Every game in ``engine.GAMES`` is complete in every layer: its facts (``GameInfo``), its
drawing, and its texts in the three catalogues. A new game that forgets one fails here, by
name, before a player meets the gap."""

from __future__ import annotations

import pytest

import engine
import renderer
from bot import i18n
from engine.gameinfo import LANGUAGES, Column, GameInfo, Result, normal_word
from renderer import registry

GAME_IDS = list(engine.GAMES)


def test_game_ids_are_the_class_facts() -> None:
    for game_id, cls in engine.GAMES.items():
        assert cls.info.id == cls.game_id == game_id
        assert engine.game_info(game_id) is cls.info
        assert (cls.min_players, cls.max_players) == (cls.info.min_players, cls.info.max_players)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_info_is_complete(game_id: str) -> None:
    info = engine.game_info(game_id)
    assert isinstance(info, GameInfo)
    for lang in LANGUAGES:
        assert info.names[lang].strip(), f"{game_id} has no {lang} name"
    assert 1 <= info.min_players <= info.max_players
    assert info.table == (info.max_players > 1), "a table game seats several players"
    assert info.faces, "at least the default faces"
    if not info.table:
        assert info.ranking is not None, "a solo game ranks its results"
        assert info.ranking.columns and all(isinstance(c, Column) for c in info.ranking.columns)
    if info.daily is not None:
        assert info.solver is not None, "a daily deal is proven by the solver"
        assert info.daily.node_budget > 0 and info.daily.proofs
    if info.could_have_won:
        assert info.solver is not None
    if info.races:  # a race ranks by the move that reached the score: the view must carry it
        assert "score_move" in engine.new_game(game_id, 1).view()
    # a game that ends "stalled" has the exact stall search's hooks (engine.stall)
    assert info.stalls == hasattr(engine.GAMES[game_id], "_progress_baseline")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_solver_named_exists(game_id: str) -> None:
    from engine.solvers import SOLVABLE, Budget, solve

    info = engine.game_info(game_id)
    if info.solver is None:
        assert game_id not in SOLVABLE
        return
    assert game_id in SOLVABLE
    result = solve(game_id, 1, budget=Budget(nodes=200, seconds=None))
    assert result.status in ("won", "lost", "unknown")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_hint_named_exists_and_suggests_a_legal_move(game_id: str) -> None:
    import importlib

    from engine.solvers.hints import SCORERS, hint

    info = engine.game_info(game_id)
    if info.hint_scorer is not None:
        assert info.hint_scorer in SCORERS, f"{game_id}: no scorer {info.hint_scorer!r}"
    if info.hint_from_solver:
        assert info.solver is not None
        assert callable(importlib.import_module(f"engine.solvers.{info.solver}").plan)
    game = engine.new_game(game_id, deal=1, players=[f"p{i}" for i in range(info.min_players)])
    assert hint(game) in game.legal_moves()


def test_words_name_one_game_each() -> None:
    owner: dict[str, str] = {}
    for game_id in GAME_IDS:
        for word in engine.game_info(game_id).words:
            assert word == normal_word(word)
            assert owner.setdefault(word, game_id) == game_id, (
                f"{word!r} names both {owner[word]} and {game_id}"
            )
            assert engine.by_word(word).id == game_id


def test_players_words_find_their_game() -> None:
    assert engine.by_word("Trece Imaginario").id == "imaginary13"
    assert engine.by_word("tredici-immaginario").id == "imaginary13"
    assert engine.by_word("  KLONDIKE ").id == "solitario"
    assert engine.by_word("Cartas Maestras").id == "maestras"
    assert engine.by_word("maestras").id == "maestras"
    assert engine.by_word("el solitario").id == "squadratik"
    assert engine.by_word("poker") is None
    assert engine.by_word("") is None
    with pytest.raises(engine.BadSetup):
        engine.game_info("poker")


def test_rankings_order_results_as_the_rules_say() -> None:
    def best(game_id: str, *results: Result) -> Result:
        ranking = engine.game_info(game_id).ranking
        assert ranking is not None
        return min(results, key=ranking.key)

    # Solitario: higher score, then the earlier move at which it was reached
    early, late = Result("stalled", 185, 97, 40), Result("stalled", 185, 60, 50)
    assert best("solitario", late, early) is early
    assert best("solitario", early, Result("won", 190, 300, 290)).score == 190
    # Canfield and Imaginary Thirteen: higher score, then fewer moves
    for game_id in ("canfield", "imaginary13"):
        assert best(game_id, Result("lost", 20, 90), Result("lost", 20, 80)).moves == 80
        assert best(game_id, Result("lost", 20, 10), Result("lost", 25, 80)).score == 25
    # El Solitario: completo > played out > anything else, then more points
    completo, played_out = Result("completo", 10, 46), Result("played_out", 90, 46)
    lost = Result("lost", 120, 30)
    assert best("squadratik", lost, played_out, completo) is completo
    assert best("squadratik", lost, played_out) is played_out
    assert best("squadratik", lost, Result("resigned", 130, 3)).score == 130


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_has_a_drawing(game_id: str) -> None:
    assert game_id in registry.drawn_games()
    info = engine.game_info(game_id)
    players = [f"p{i}" for i in range(info.min_players)]
    game = engine.new_game(game_id, deal=1, players=players)
    for faces in info.faces:
        png = renderer.render(game_id, game.view(None), faces=faces, lang="it")
        assert png[:4] == b"\x89PNG"


def test_a_drawing_is_registered_once() -> None:
    with pytest.raises(ValueError, match="already has a drawing"):
        registry.register("solitario", lambda view: None, lambda view: None)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_has_its_texts(game_id: str, lang: str) -> None:
    info = engine.game_info(game_id)
    assert i18n.t(lang, f"help.{game_id}").strip()
    assert i18n.t(lang, f"rules.{game_id}").strip()
    assert i18n.game_name(lang, game_id) == info.names[lang]
    if info.ranking is not None:
        header = i18n.t(lang, f"lb.cols.{game_id}").split("|")
        assert len(header) == len(info.ranking.columns), f"lb.cols.{game_id} in {lang}"
        assert f"stats.best.{game_id}" in i18n.keys(lang), "the best result on /stats"
    if info.daily is not None:
        assert f"daily.share_result.{game_id}" in i18n.keys(lang), "the daily's share text"
