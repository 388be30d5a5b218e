"""The compact Solitario (Klondike) and Canfield solvers and ``engine.solvers.decide``.

Won and lost deals pinned here were found by running ``python -m engine.solve`` once; every
winning line is replayed through ``engine.replay`` (the public ``Game.play``) to a won game.
"""

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.cards import Card
from engine.piles import stock_cycle
from engine.solvers import LOST, WON, Budget, Position, Verdict, decide, solve
from engine.solvers.talon import reach

NODES = Budget(nodes=200_000, seconds=None)


def replays_to_a_win(game_id, deal, options, moves, start=()):
    game = engine.replay(game_id, deal, None, options, [*start, *moves])
    return str(game.outcome) == "won"


@pytest.mark.parametrize(
    ("game_id", "deal", "options"),
    [
        ("solitario", 1, {"cards": 52}),
        ("solitario", 6, {"cards": 52}),
        ("solitario", 29, None),
        ("solitario", 57, None),
        ("canfield", 1, None),
        ("canfield", 6, None),
    ],
)
def test_won_deals_have_lines_that_replay_to_a_win(game_id, deal, options):
    result = solve(game_id, deal, options, NODES)
    assert result.status == WON
    assert replays_to_a_win(game_id, deal, options, result.moves)


@pytest.mark.parametrize(
    ("game_id", "deal", "options"),
    [
        ("solitario", 8, {"cards": 52}),
        ("solitario", 15, {"cards": 52}),
        ("solitario", 20, None),
        ("solitario", 35, None),
        ("canfield", 10, None),
        ("canfield", 13, None),
    ],
)
def test_lost_deals_are_proven_lost(game_id, deal, options):
    result = solve(game_id, deal, options, NODES)
    assert result.status == LOST and result.moves == []


def test_the_same_node_budget_gives_the_same_answer():
    # the daily deal is chosen with node budgets: the answer must not depend on the machine
    first = solve("solitario", 18, {"cards": 52}, NODES)
    second = solve("solitario", 18, {"cards": 52}, NODES)
    assert (first.status, first.moves, first.nodes) == (second.status, second.moves, second.nodes)


@given(
    st.integers(min_value=0, max_value=30).flatmap(
        lambda size: st.tuples(st.just(size), st.integers(min_value=0, max_value=size))
    )
)
def test_talon_reach_is_the_engines_stock_cycle(size_and_waste):
    size, waste_count = size_and_waste
    cards = [Card(rank % 13 + 1, "dhcs"[rank // 13]) for rank in range(size)]
    waste, turning = cards[:waste_count], cards[waste_count:]
    engine_tops: dict[int, int] = {}
    for turns, card in stock_cycle(list(reversed(turning)), waste):
        engine_tops.setdefault(cards.index(card), turns)
    assert dict(reach(size, waste_count)) == engine_tops


# ----- decide: "could it have been won?" ---------------------------------------------------
def test_decide_from_the_start_and_from_a_later_position():
    start = decide(Position("canfield", 1, None, []), NODES)
    assert start.result == WON and replays_to_a_win("canfield", 1, None, start.line)
    # a few moves into the winning line: the answer continues from there
    played = start.line[:10]
    later = decide(Position("canfield", 1, None, played), NODES)
    assert later.result == WON
    assert replays_to_a_win("canfield", 1, None, later.line, start=played)


def test_decide_answers_for_a_resigned_game_and_leaves_it_alone():
    game = engine.new_game("solitario", 29)
    game.play("d")
    game.resign()
    verdict = decide(game, NODES)
    assert verdict.result == WON
    assert replays_to_a_win("solitario", 29, None, verdict.line, start=["d"])
    assert str(game.outcome) == "resigned" and game.moves == ["d"]


def test_decide_on_a_game_object_leaves_its_position_unchanged():
    game = engine.new_game("solitario", 20)
    before = game.view()
    assert decide(game, NODES).result == LOST
    assert game.view() == before and game.moves == []


def test_positions_and_verdicts_travel_to_worker_processes():
    position = Position("solitario", 3, None, [])
    assert pickle.loads(pickle.dumps(position)) == position
    verdict = decide(position, NODES)
    assert pickle.loads(pickle.dumps(verdict)) == verdict == Verdict(LOST, [])
