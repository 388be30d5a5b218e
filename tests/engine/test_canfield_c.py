"""The Canfield search in C (``engine.solvers._canfield``) against the pure-Python one: the
same answers, lines and node counts, and both against a search of every legal move with no
pruning.

``make test`` installs the project with a C compiler at hand, so the compiled module must be
there; the Python path is checked by switching the C one off (``TAVOLO_PURE_PYTHON=1``, or the
module missing).
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pile_helpers import choose_path

import engine
from engine.canfield import Canfield
from engine.solvers import LOST, UNKNOWN, WON, Budget, Counter, canfield, solve, solve_game
from engine.solvers.canfield import CanfieldSearch
from tests.engine.test_canfield_solver import (
    _brute_force_wins,
    _cycle_position,
    _random_small_position,
)


def search(game, monkeypatch, compiled, nodes=None, seconds=None):
    """(status, line in the engine's notation, the search's line, nodes) of
    ``CanfieldSearch.run`` on ``game``, in C or in Python."""
    choose_path(monkeypatch, compiled)
    assert canfield.compiled() == compiled
    counter = Counter(Budget(nodes=nodes, seconds=seconds))
    found = CanfieldSearch(game, counter)
    outcome = found.run()
    return outcome.status, outcome.moves, [tuple(move) for move in found.line], counter.nodes


def both(game, monkeypatch, nodes):
    in_c = search(game, monkeypatch, True, nodes)
    in_python = search(game, monkeypatch, False, nodes)
    return in_c, in_python


def test_the_compiled_module_was_built_and_is_used(monkeypatch):
    assert canfield._canfield is not None, "engine/solvers/_canfield.c did not build"
    choose_path(monkeypatch, True)
    assert canfield.compiled()

    def no_python(self, *position):
        raise AssertionError("the search ran in Python")

    monkeypatch.setattr(CanfieldSearch, "_dfs", no_python)
    game = engine.new_game("canfield", 1)
    assert CanfieldSearch(game, Counter(Budget(nodes=100_000, seconds=None))).run().status == WON


def test_the_python_path_runs_when_asked_or_when_the_module_is_missing(monkeypatch):
    game = engine.new_game("canfield", 3)
    expected = search(game, monkeypatch, True, 40_000)
    assert expected[0] == WON
    calls = []
    original = Counter.tick

    def counting(self):
        calls.append(1)
        original(self)

    # each node is a Python _dfs or _relaxed step, which ticks the counter (the C search
    # counts its nodes itself)
    monkeypatch.setattr(Counter, "tick", counting)
    assert search(game, monkeypatch, False, 40_000) == expected
    assert len(calls) == expected[3]
    # a machine without a C compiler: no module at all
    monkeypatch.setattr(canfield, "_canfield", None)
    choose_path(monkeypatch, True)
    assert not canfield.compiled()
    calls.clear()
    counter = Counter(Budget(nodes=40_000, seconds=None))
    outcome = CanfieldSearch(game, counter).run()
    assert (outcome.status, outcome.moves, counter.nodes) == (WON, expected[1], len(calls))
    # and the whole solver answers
    assert solve("canfield", 3, None, Budget(nodes=40_000, seconds=None)).status == WON


#: the node budget of the searches below (the deals' answers are within it)
NODES = 40_000
#: the out-of-budget deals searched to a smaller budget: they answer "unknown" at any budget
#: they run out of, and the Python search of 40,000 nodes took 1.5-3 s each
SHORT_NODES = 10_000

# (deal, how the search decides it within NODES nodes, what it answers, the budget searched)
DEALS = [
    (15, "won at once", WON, NODES),
    (1, "won after some thousands of nodes", WON, NODES),
    (6, "won near the end of the budget", WON, NODES),
    (48, "lost at once", LOST, NODES),
    (102, "lost after some thousands of nodes", LOST, NODES),
    (17, "lost within 200 nodes: the relaxed game is lost at the start", LOST, NODES),
    (36, "lost: the relaxed game is lost after some hundreds of its positions", LOST, NODES),
    (22, "out of budget", UNKNOWN, SHORT_NODES),
    (24, "out of budget", UNKNOWN, SHORT_NODES),
]


@pytest.mark.parametrize(("deal", "how", "status", "nodes"), DEALS)
def test_c_and_python_search_the_same_positions_in_the_same_order(
    monkeypatch, deal, how, status, nodes
):
    game = engine.new_game("canfield", deal)
    in_c, in_python = both(game, monkeypatch, nodes)
    assert in_c == in_python, how
    assert in_c[0] == status, how
    if status == UNKNOWN:
        assert in_c[3] == nodes + 1  # the node over the budget is counted, as Counter.tick does
    else:
        # the same budget one node short of what the deal needed: both run out there
        short_c, short_python = both(game, monkeypatch, in_c[3] - 1)
        assert short_c == short_python
        assert short_c[0] == UNKNOWN


def test_the_seconds_budget_stops_the_compiled_search(monkeypatch):
    game = engine.new_game("canfield", 24)  # undecided after 3 million nodes
    status, _moves, _line, nodes = search(game, monkeypatch, True, None, seconds=0.05)
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


def test_mid_game_positions_give_the_same_answers(monkeypatch):
    rng = random.Random(18)
    statuses = set()
    # deals 1-14: three searches out of budget, lost ones (one after 2,002 nodes) and won ones
    # (one after 1,729); deals 15-24 added more of the same, mostly out of budget, at three
    # times the cost (a search out of budget runs all its 8,000 nodes in Python)
    for deal in range(1, 15):
        game = _played_into(engine.new_game("canfield", deal), rng, rng.randint(5, 40))
        in_c, in_python = both(game, monkeypatch, 8_000)
        assert in_c == in_python, (deal, game.moves)
        statuses.add(in_c[0])
    assert statuses == {WON, LOST, UNKNOWN}


def test_a_precedence_cycle_at_the_start_is_lost_in_both(monkeypatch):
    game = _cycle_position(["3c 2d", "Ad Kc"], {"d": 0, "c": 2})
    in_c, in_python = both(game, monkeypatch, 1_000)
    assert in_c == in_python == (LOST, [], [], 0)


def test_both_agree_with_a_search_without_pruning(monkeypatch):
    # "lost" must be a proof in C as in Python: on small random positions (half of them with
    # piles across the base rank) both answer what trying every legal move answers
    rng = random.Random(7)
    compared = {WON: 0, LOST: 0}
    for index in range(80):
        game = _random_small_position(rng, rng.choice((10, 12, 14)), across=index % 2 == 0)
        truth = _brute_force_wins(game)
        if truth is None:
            continue
        in_c, in_python = both(game, monkeypatch, None)
        assert in_c == in_python, str(game)
        assert in_c[0] == (WON if truth else LOST), str(game)
        compared[in_c[0]] += 1
    assert compared[WON] >= 10 and compared[LOST] >= 10, compared


def _space_beside_the_reserve(rng: random.Random) -> Canfield:
    """A random small position with one pile emptied into the stock while the reserve still
    has cards: only a hand-made position has that (the engine refills a space from the
    reserve at once), and its space takes no card."""
    while True:
        game = _random_small_position(rng, rng.choice((12, 14)))
        if game._reserve and sum(1 for pile in game._tableau if pile) >= 2:
            break

    def text(cards):
        return " ".join(str(card) for card in cards)

    piles = [text(pile) for pile in game._tableau]
    emptied = next(i for i, pile in enumerate(piles) if pile)
    stock = [*game._tableau[emptied], *reversed(game._stock)]  # in turning order
    piles[emptied] = ""
    return Canfield.from_layout(
        piles,
        base_rank=game.base_rank,
        reserve=text(game._reserve),
        waste=text(game._waste),
        stock=text(stock),
        foundations=[text(pile) for pile in game._fnd],
    )


def test_a_space_waits_for_the_reserve_in_both(monkeypatch):
    rng = random.Random(11)
    compared = 0
    for _ in range(30):
        game = _space_beside_the_reserve(rng)
        truth = _brute_force_wins(game, limit=15_000)
        in_c, in_python = both(game, monkeypatch, 20_000)
        assert in_c == in_python, str(game)
        if truth is not None and in_c[0] != UNKNOWN:
            assert in_c[0] == (WON if truth else LOST), str(game)
            compared += 1
    assert compared >= 10


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from((10, 14, 20, 30)),
    st.booleans(),
    st.sampled_from((300, 2_000, None)),
)
def test_random_positions_give_the_same_answers(seed, in_play, across, nodes):
    # monkeypatch is function-scoped: switch the environment by hand around each example
    with pytest.MonkeyPatch.context() as monkeypatch:
        game = _random_small_position(random.Random(seed), in_play, across)
        in_c, in_python = both(game, monkeypatch, 20_000 if nodes is None else nodes)
        assert in_c == in_python, str(game)


def test_a_compiled_win_replays_on_the_engine(monkeypatch):
    choose_path(monkeypatch, True)
    result = solve_game(engine.new_game("canfield", 7), Budget(nodes=100_000, seconds=None))
    assert result.status == WON
    game = engine.replay("canfield", 7, None, None, result.moves)
    assert str(game.outcome) == "won"


def test_the_module_refuses_what_is_not_a_position():
    search = canfield._canfield.search
    args = ([b"\x01", b"\x12", b"", b""], b"\x03", b"\x04\x05", 1, (0, 0, 0, 0))
    budget = (100, None, 0, 2_000)  # limit, deadline, nodes so far, relaxed query limit
    assert search(*args, *budget)[0] in (0, 1, -1)
    with pytest.raises(ValueError, match="twice"):
        search([b"\x01", b"\x01", b"", b""], *args[1:], *budget)
    with pytest.raises(ValueError, match="not a card"):
        search([b"\x0d", b"", b"", b""], *args[1:], *budget)
    with pytest.raises(ValueError, match="four"):
        search([b""] * 3, *args[1:], *budget)
    with pytest.raises(ValueError, match="p:"):
        search(args[0], args[1], args[2], 3, args[4], *budget)
    with pytest.raises(ValueError, match="fnd"):
        search(*args[:4], (0, 0, 14, 0), *budget)
