"""The Canfield solver against a search of every legal move with no pruning at all.

"Lost" reaches players as "this deal could not have been won", so it must be a proof: on
small positions the solver's won/lost must be what the engine's own moves, all of them
tried, give. The positions are random (a seeded generator and hypothesis) and hand-made
ones for the precedence cycles the solver cuts off.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pile_helpers import brute_force_wins

import engine
from engine.canfield import Canfield
from engine.solvers import LOST, WON, Budget, Counter, solve_game
from engine.solvers.canfield import CanfieldSearch

NODES = Budget(nodes=200_000, seconds=None)
_RANKS = "A23456789TJQK"
_RED = "dh"


def _name(suit: str, rel: int, base_rank: int) -> str:
    """The card ``rel`` places above the base rank in ``suit`` (0: the base rank itself)."""
    return _RANKS[(base_rank - 1 + rel) % 13] + suit


def _brute_force_wins(game: Canfield, limit: int = 30_000) -> bool | None:
    """Whether ``game`` can be won, trying every legal move of the engine itself (turns
    included; no pruning, no automatic moves) with a set of seen positions; None when more
    than ``limit`` positions would be needed."""

    # cards by identity: a game's card objects are its own and only move between its piles
    def key():
        return (
            tuple(tuple(map(id, pile)) for pile in game._tableau),
            tuple(map(id, game._reserve)),
            tuple(map(id, game._stock)),
            tuple(map(id, game._waste)),
            tuple(len(pile) for pile in game._fnd),
        )

    return brute_force_wins(game, key, limit)


def _random_small_position(
    rng: random.Random, in_play: int, across: bool = False, reserve_size: int | None = None
) -> Canfield:
    """A Canfield position with about ``in_play`` cards off the foundations: a few in the
    reserve, piles built down in alternating colours, the rest in the stock and waste.
    ``across``: one suit not started at all and one of the other colour nearly done, so piles
    cross the base rank (a card of rel 12 on one of rel 0) and the precedence cycles the
    solver cuts off occur. ``reserve_size``: that many reserve cards instead of 0-4."""
    base_rank = rng.randint(1, 13)
    if across:
        heights = [13] * 4
        low = rng.randrange(4)
        heights[low] = 0
        heights[rng.choice((2, 3) if low < 2 else (0, 1))] = rng.randint(9, 11)
    else:
        while True:
            heights = [rng.choice((0, 0, 3, 6, 9, 10, 11, 12, 13)) for _ in range(4)]
            if abs(sum(13 - h for h in heights) - in_play) <= 2:
                break
    cards = [
        (suit, rel)
        for suit, height in zip("dhcs", heights, strict=True)
        for rel in range(height, 13)
    ]
    rng.shuffle(cards)
    if reserve_size is None:
        reserve_size = rng.randint(0, min(4, len(cards) - 4))
    reserve = cards[:reserve_size]
    rest = cards[len(reserve) :]
    piles: list[list[tuple[str, int]]] = [[card] for card in rest[:4]]
    talon = []
    for card in rest[4:]:
        spots = [
            pile
            for pile in piles
            if pile
            and pile[-1][1] == (card[1] + 1) % 13
            and (pile[-1][0] in _RED) != (card[0] in _RED)
        ]
        if spots and rng.random() < (0.9 if across else 0.7):
            rng.choice(spots).append(card)
        else:
            talon.append(card)
    if not reserve and rng.random() < 0.3:
        talon.extend(piles.pop())  # a space, once the reserve is empty
    waste = rng.randint(0, len(talon))

    def text(run):
        return " ".join(_name(suit, rel, base_rank) for suit, rel in run)

    foundations = [
        " ".join(_name(s, rel, base_rank) for rel in range(h))
        for s, h in zip("dhcs", heights, strict=True)
    ]
    return Canfield.from_layout(
        [text(pile) for pile in piles],
        base_rank=base_rank,
        reserve=text(reserve),
        waste=text(talon[:waste]),
        stock=text(talon[waste:]),
        foundations=foundations,
    )


def _assert_agrees(game: Canfield, truth: bool) -> None:
    result = solve_game(game, NODES)
    assert result.status == (WON if truth else LOST), str(game)
    if truth:  # the line wins on the public API too
        for move in result.moves:
            game.play(move)
        assert str(game.outcome) == "won"


def test_lost_and_won_agree_with_a_search_without_pruning():
    rng = random.Random(18)
    compared = {WON: 0, LOST: 0}
    for index in range(160):
        game = _random_small_position(rng, rng.choice((10, 12, 14)), across=index % 2 == 0)
        truth = _brute_force_wins(game)
        if truth is None:
            continue  # too many positions for the unpruned search
        _assert_agrees(game, truth)
        compared[WON if truth else LOST] += 1
    # both answers occur often enough for the comparison to mean something
    assert compared[WON] >= 15 and compared[LOST] >= 15, compared


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from((8, 10, 12)))
def test_random_positions_agree_with_a_search_without_pruning(seed, in_play):
    game = _random_small_position(random.Random(seed), in_play)
    truth = _brute_force_wins(game, limit=15_000)
    if truth is not None:
        _assert_agrees(game, truth)


# ----- the relaxed game -------------------------------------------------------------------------
def test_the_relaxed_game_is_lost_only_where_every_legal_move_loses():
    # the search drops a position whose relaxed game (every talon card playable at any time,
    # talon cards moving only in chains under the reserve's top or a whole pile) is lost; the
    # relaxed search must then never call lost a position the engine's own moves can win,
    # and here it calls many lost, so the comparison means something
    rng = random.Random(24)
    relaxed = {True: 0, False: 0}
    for index in range(220):
        game = _random_small_position(
            rng, rng.choice((11, 13, 15)), across=index % 3 == 0, reserve_size=rng.randint(2, 6)
        )
        search = CanfieldSearch(game, Counter(NODES))
        piles, r, _talon, _p, fnd = search.start
        if search._has_cycle(piles):
            continue  # lost already; the relaxed game is only asked about positions without
        truth = _brute_force_wins(game, limit=20_000)
        if truth is None:
            continue
        lost = search._relaxed_lost(list(piles), r, list(fnd))
        if lost:
            assert not truth, str(game)
        relaxed[lost] += 1
        _assert_agrees(game, truth)
    assert relaxed[True] >= 20 and relaxed[False] >= 20, relaxed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=7))
def test_a_relaxed_loss_is_a_loss_on_random_positions(seed, reserve_size):
    rng = random.Random(seed)
    game = _random_small_position(rng, rng.choice((11, 13)), reserve_size=reserve_size)
    search = CanfieldSearch(game, Counter(NODES))
    piles, r, _talon, _p, fnd = search.start
    if search._has_cycle(piles) or not search._relaxed_lost(list(piles), r, list(fnd)):
        return
    assert _brute_force_wins(game, limit=15_000) is not True, str(game)


# ----- precedence cycles ------------------------------------------------------------------------
#: Base rank A (rel 0), so a K (rel 12) lies on an A only where a pile crosses the base rank.
#: Each position is lost because of one "goes home before" cycle (a card lying on another goes
#: home first; a suit goes home in order); the other cards of those suits wait in the reserve.
CYCLES = [
    # Kc before Ad (on it), Ad before 2d (diamonds), 2d before 3c (on it), 3c before Kc (clubs)
    {"tableau": ["3c 2d", "Ad Kc"], "suits_in_play": {"d": 0, "c": 2}},
    # one pile: Ks before Ah before 2s (each on the next), and 2s before Ks (spades)
    {"tableau": ["2s Ah Ks"], "suits_in_play": {"h": 0, "s": 1}},
]


def _cycle_position(tableau, suits_in_play, lowest_on_top=False):
    """``tableau`` as given, the foundations of ``suits_in_play`` (suit: cards home) that
    high, the other suits complete; every other card of those suits in the reserve (highest
    on top unless ``lowest_on_top``: while it has cards no space opens, which keeps the
    unpruned search small)."""
    laid = " ".join(tableau).split()
    foundations, rest = [], []
    for suit in "dhcs":
        cards = [_name(suit, rel, 1) for rel in range(13)]
        height = suits_in_play.get(suit, 13)
        foundations.append(" ".join(cards[:height]))
        rest += [card for card in cards[height:] if card not in laid]
    return Canfield.from_layout(
        tableau,
        base_rank=1,
        reserve=" ".join(rest[::-1] if lowest_on_top else rest),
        foundations=foundations,
    )


@pytest.mark.parametrize("layout", CYCLES)
def test_a_pile_built_across_the_base_rank_in_a_cycle_is_lost(layout):
    game = _cycle_position(**layout)
    assert _brute_force_wins(game) is False
    search = CanfieldSearch(game, Counter(NODES))
    assert search._has_cycle(search.start[0])
    assert solve_game(game, NODES).status == LOST


def test_a_pile_built_across_the_base_rank_without_a_cycle_is_won():
    # Kc on Ad as above, but every other club is home: Kc goes home first, then Ad
    game = _cycle_position(["Ad Kc"], {"d": 0, "c": 12}, lowest_on_top=True)
    assert _brute_force_wins(game) is True
    _assert_agrees(game, True)


def test_a_node_budget_gives_the_same_answer_every_time():
    # the daily deal is chosen with node budgets, so the answer (and the line) never depends
    # on the machine
    budget = Budget(nodes=30_000, seconds=None)
    first, second = (solve_game(engine.new_game("canfield", 43), budget) for _ in range(2))
    assert (first.status, first.moves, first.nodes) == (second.status, second.moves, second.nodes)
