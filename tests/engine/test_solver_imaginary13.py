"""The Imaginary Thirteen solver against a plain exhaustive search on small positions.

Its answer "lost" is a proof only if every pruning it uses is exact, so positions near the end
of real deals (a winning line played almost to the end, then some random moves: often lost,
sometimes still won) are searched both by the solver and by a search that tries every legal
move of the engine itself, with no pruning at all, and both must agree.
"""

import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.game import Outcome
from engine.imaginary13 import MARKERS, Imaginary13, build_sequence
from engine.solvers import LOST, WON, Budget, solve, solve_game

#: enough for every position these tests build (they have a few cards left to turn)
EXACT = Budget(nodes=400_000, seconds=None)


def can_be_won(game: Imaginary13) -> bool:
    """Every legal move of the engine tried from ``game``'s position, depth first.

    No pruning, no symmetry: the memo only remembers exact positions already answered (the
    turn index, the foundations' heights and the waste piles as they lie), which is the same
    question asked again. ``game`` is left as it was."""
    player = game.players[0]
    answers: dict[tuple, bool] = {}

    def search() -> bool:
        outcome = game._outcome()
        if outcome is not None:
            return outcome == Outcome.WON
        key = (
            game._turn_index,
            tuple(len(pile) for pile in game._foundations),
            tuple(tuple(card.rank for card in pile) for pile in game._wastes),
        )
        if key not in answers:
            answers[key] = False
            for move in game._legal(player):
                before = game._snapshot()
                game._apply(move, player)
                won = search()
                game._restore(before)
                if won:
                    answers[key] = True
                    break
        return answers[key]

    return search()


@cache
def winning_line(deal: int) -> tuple[str, ...]:
    result = solve("imaginary13", deal, None, Budget(nodes=300_000, seconds=None))
    assert result.status == WON
    return tuple(result.moves)


def near_the_end(deal: int, left: int, detours: int, seed: int, free: bool) -> Imaginary13:
    """Deal ``deal`` played along a winning line until at most ``left`` cards are still to be
    turned, then ``detours`` random legal moves (chosen by ``seed``)."""
    game = engine.new_game("imaginary13", deal, None, {"free": free})
    for move in winning_line(deal):
        if len(game._stock) - game._turn_index <= left:
            break
        game.play(move)
    rng = random.Random(seed)
    for _ in range(detours):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    return game


@settings(max_examples=60, deadline=None)
@given(
    deal=st.sampled_from([1, 2, 3]),
    left=st.integers(min_value=0, max_value=12),
    detours=st.integers(min_value=0, max_value=10),
    seed=st.integers(min_value=0, max_value=10_000),
    free=st.booleans(),
)
def test_the_solver_agrees_with_an_unpruned_search_near_the_end(deal, left, detours, seed, free):
    game = near_the_end(deal, left, detours, seed, free)
    if game.outcome is not None:
        return
    moves_before = list(game.moves)
    expected = WON if can_be_won(game) else LOST
    result = solve_game(game, EXACT)
    assert result.status == expected
    assert game.moves == moves_before  # the solver leaves the game as it found it


def test_positions_off_the_winning_line_are_proved_won_or_lost():
    # Both answers occur among these (so the comparison above is not only about wins), and
    # the solver gives each one with a proof: a verified line or an exhausted search.
    answers = []
    for deal in (1, 2, 3):
        for seed in range(4):
            game = near_the_end(deal, 8, 8, seed, False)
            if game.outcome is None:
                expected = WON if can_be_won(game) else LOST
                assert solve_game(game, EXACT).status == expected
                answers.append(expected)
    assert WON in answers and LOST in answers


def foundations_needing(needs: dict[int, int]) -> list[str]:
    """Foundations finished (at their King) but those in ``needs``: marker -> how many cards
    it still needs. Suits do not matter: all clubs."""
    return [
        " ".join(
            "A23456789TJQK"[value - 1] + "c"
            for value in build_sequence(marker)[: 12 - needs.get(marker, 0)]
        )
        for marker in MARKERS
    ]


def test_a_last_card_above_the_last_card_its_foundation_needs_first_is_lost_at_once():
    # Foundation 1 alone needs J, Q, K; the J is turned, and waste a holds the K above the Q:
    # the K can only go home after the Q, which lies under it. The dead pile is seen at the
    # first position searched, before any move is tried.
    game = Imaginary13.from_layout(foundations_needing({1: 3}), wastes=["Qd Kd"], stock="Jc")
    assert game.outcome is None and not can_be_won(game)
    result = solve_game(game, Budget(nodes=1, seconds=None))
    assert result.status == LOST


def test_a_last_card_goes_home_first_and_wins():
    # Foundation 1 needs Q then K, foundation 2 needs K. Waste a: Q at the top; waste b: K.
    # The turned K fits foundation 2. The Q is the last one and only foundation 1 wants it.
    game = Imaginary13.from_layout(
        foundations_needing({1: 2, 2: 1}), wastes=["Qd", "Kd"], stock="Kc"
    )
    assert can_be_won(game)
    result = solve_game(game, Budget(nodes=50, seconds=None))
    assert result.status == WON  # solve_game checked the line on the engine
