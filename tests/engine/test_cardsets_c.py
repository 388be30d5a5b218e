"""The exact pass of the Klondike card-set search in C (``engine.solvers._cardsets``) against
the pure-Python one: the same answers, lines and node counts, and both against a search of
every legal move with no pruning.

``make test`` installs the project with a C compiler at hand, so the compiled module must be
there; the Python path is checked by switching the C one off (``TAVOLO_PURE_PYTHON=1``, or the
module missing).
"""

import random

import pytest
from pile_helpers import choose_path

import engine
from engine.solitario import Solitario
from engine.solvers import (
    LOST,
    UNKNOWN,
    WON,
    Budget,
    Counter,
    klondike,
    solve,
    solve_game,
)
from engine.solvers.klondike import CardSetSearch
from tests.engine.sweeps import both_passes_case, exact_pass


def both_passes(game, monkeypatch, nodes):
    in_c = exact_pass(game, monkeypatch, True, nodes)
    in_python = exact_pass(game, monkeypatch, False, nodes)
    return in_c, in_python


def test_the_compiled_module_was_built_and_is_used(monkeypatch):
    assert klondike._cardsets is not None, "engine/solvers/_cardsets.c did not build"
    choose_path(monkeypatch, True)
    assert klondike.compiled()

    def no_python(self):
        raise AssertionError("the exact pass ran in Python")

    monkeypatch.setattr(CardSetSearch, "_dfs", no_python)
    game = engine.new_game("solitario", 4, None, {"cards": 52})
    assert CardSetSearch(game, Counter(Budget(nodes=200_000, seconds=None))).run()


def test_the_python_path_runs_when_asked_or_when_the_module_is_missing(monkeypatch):
    game = engine.new_game("solitario", 2, None, {"cards": 40})
    expected = exact_pass(game, monkeypatch, True, 100_000)
    assert expected[0] == WON
    calls = []
    original = CardSetSearch._dfs

    def counting(self):
        calls.append(1)
        return original(self)

    monkeypatch.setattr(CardSetSearch, "_dfs", counting)
    assert exact_pass(game, monkeypatch, False, 100_000) == expected
    assert len(calls) == expected[2]  # one Python _dfs call per node
    # a machine without a C compiler: no module at all
    monkeypatch.setattr(klondike, "_cardsets", None)
    choose_path(monkeypatch, True)
    assert not klondike.compiled()
    calls.clear()
    counter = Counter(Budget(nodes=100_000, seconds=None))
    search = CardSetSearch(game, counter)
    assert search.run()
    assert (search.path, counter.nodes) == (expected[1], expected[2]) == (expected[1], len(calls))
    # and the whole solver answers
    assert solve("solitario", 2, {"cards": 40}, Budget(nodes=300_000, seconds=None)).status == WON


# (cards, deal, node budget, what the exact pass answers within it)
DEALS = [
    (40, 2, 100_000, WON),
    (40, 24, 100_000, LOST),
    (40, 36, 100_000, LOST),  # lost at the first node: nothing to do after the safe moves
    (40, 18, 40_000, UNKNOWN),
    (52, 4, 100_000, WON),
    (52, 7, 100_000, WON),
    (52, 8, 100_000, LOST),
    (52, 10, 40_000, UNKNOWN),
    (52, 21, 40_000, UNKNOWN),
]


@pytest.mark.parametrize(("cards", "deal", "nodes", "status"), DEALS)
def test_c_and_python_search_the_same_positions_in_the_same_order(
    monkeypatch, cards, deal, nodes, status
):
    game = engine.new_game("solitario", deal, None, {"cards": cards})
    in_c, in_python = both_passes(game, monkeypatch, nodes)
    assert in_c == in_python
    assert in_c[0] == status
    if status == UNKNOWN:
        assert in_c[2] == nodes + 1  # the node over the budget is counted, as Counter.tick does
    # the same budget one node short of what a decided deal needed: both run out there
    if status != UNKNOWN and in_c[2] > 1:
        short_c, short_python = both_passes(game, monkeypatch, in_c[2] - 1)
        assert short_c == short_python
        assert short_c[0] == UNKNOWN


def test_the_seconds_budget_stops_the_compiled_search(monkeypatch):
    game = engine.new_game("solitario", 10, None, {"cards": 52})
    status, _path, nodes = exact_pass(game, monkeypatch, True, None, seconds=0.02)
    assert status == UNKNOWN
    assert nodes % 256 == 0  # the clock is read every 256 nodes, as Counter.tick does


def _played_into(game, rng, moves):
    """``game`` after up to ``moves`` random legal moves (stock turns and all)."""
    for _ in range(moves):
        legal = [str(move) for move in game.legal_moves()]
        if not legal or game.outcome is not None:
            break
        game.play(rng.choice(legal))
    return game


@pytest.mark.parametrize("cards", [40, 52])
def test_mid_game_positions_give_the_same_answers(monkeypatch, cards):
    rng = random.Random(cards)
    statuses = set()
    for deal in range(1, 13):
        game = _played_into(engine.new_game("solitario", deal, None, {"cards": cards}), rng, 25)
        in_c, in_python = both_passes(game, monkeypatch, 30_000)
        assert in_c == in_python, (deal, game.moves)
        statuses.add(in_c[0])
    assert WON in statuses and LOST in statuses


def test_hand_made_52_card_positions_give_the_same_answers(monkeypatch):
    layout = {
        "columns": ["Kd Qc | Jd", "9s | 8h", "Ks", "", "7c 2s | 6d 5c", "Qh", "Js Th 9c"],
        "waste": "Kc 3s",
        "stock": "8s Tc 4s 7s",
        "foundations": ["Ad 2d 3d 4d", "Ah 2h 3h 4h 5h 6h 7h", "Ac 2c 3c 4c", "As"],
        "cards": 52,
    }
    in_c, in_python = both_passes(Solitario.from_layout(**layout), monkeypatch, 50_000)
    assert in_c == in_python
    assert in_c[0] in (WON, LOST)


#: seeds of ``sweeps.both_passes_case``: the one lost position of seeds 0-149 (lost ones are
#: rare among these small positions) and won ones of every size (make bench sweeps 0-299)
BOTH_PASSES_SEEDS = {116: "lost", **dict.fromkeys([1, 13, 21, 2, 9, 6, 10, 7, 16], "won")}


def test_both_passes_agree_with_a_search_without_pruning():
    # "lost" must be a proof in C as in Python: on small random positions the exact pass
    # alone, in either language, answers what trying every legal move answers.
    # (lost deals and mid-game positions above compare C with Python on many more)
    assert {seed: both_passes_case(seed) for seed in BOTH_PASSES_SEEDS} == BOTH_PASSES_SEEDS


def test_a_compiled_win_replays_on_the_engine(monkeypatch):
    choose_path(monkeypatch, True)
    result = solve_game(
        engine.new_game("solitario", 7, None, {"cards": 52}), Budget(nodes=500_000, seconds=None)
    )
    assert result.status == WON
    game = engine.replay("solitario", 7, None, {"cards": 52}, result.moves)
    assert str(game.outcome) == "won"
