"""The stall search's shortcut: a position proven able to progress ends the next search that
reaches it (``engine.stall.KnownProgress``). A player who shuffles runs or turns the stock in
an endgame stands one move from such a position; the answer must stay exactly the plain
search's ("stalled" is never announced falsely, nor missed)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pile_helpers import reference_stalled

from engine.canfield import Canfield
from engine.cards import Card
from engine.piles import draw_three
from engine.solitario import Solitario
from engine.stall import KnownProgress, search


def _splits_reached_by_turns(total: int, split: int) -> set[int]:
    """The waste sizes that stock turns alone lead to, by turning (the plain way)."""
    cards = [Card(rank, suit) for suit in "hdcs" for rank in range(1, 14)][:total]
    waste, stock = cards[:split], cards[split:][::-1]
    sequence = waste + stock[::-1]
    found = set()
    for _ in range(3 * total + 3):
        assert waste + stock[::-1] == sequence  # turns never reorder the cards
        found.add(len(waste))
        if not stock and not waste:
            break
        draw_three(stock, waste)
    return found


@given(st.integers(0, 30), st.data())
def test_the_positions_stock_turns_lead_to_are_those_the_known_position_counts(total, data):
    here = data.draw(st.integers(0, total))
    there = data.draw(st.integers(0, total))
    ids = tuple(range(100, 100 + total))
    # waste = the first ``split`` cards in turning order, stock = the rest, top at the end
    known = KnownProgress.of("ctx", ("layout", ids[there:][::-1], ids[:there]))
    key = ("layout", ids[here:][::-1], ids[:here])
    assert known.reached_from(key) == (there in _splits_reached_by_turns(total, here))


def test_another_layout_or_card_order_is_never_taken_for_the_known_position():
    known = KnownProgress.of("ctx", ("layout", (3, 2), (1,)))
    assert known.reached_from(("layout", (3, 2), (1,)))
    assert not known.reached_from(("other", (3, 2), (1,)))
    assert not known.reached_from(("layout", (2, 3), (1,)))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("make", "seed"),
    [(lambda: Solitario(7, options={"cards": 40}), 1), (lambda: Solitario(12), 2)]
    + [(lambda: Canfield(5), 3), (lambda: Canfield(21), 4)],
)
def test_every_earlier_position_proven_able_to_progress_gives_the_plain_answer(make, seed):
    # Random play, every position judged with each earlier position of the same context that
    # was proven able to progress as the known one (not only the last: a player may come back
    # to any of them by moves the search walks, or by stock turns), against the plain search.
    game = make()
    chooser = random.Random(seed)
    proven: list[KnownProgress] = []
    checked = 0
    for _ in range(120):
        if game.is_over:
            break
        context = game._stall_context()
        expected = reference_stalled(game)
        for known in proven[-12:]:
            if known.context == context:
                found = search(game, max_positions=10**6, known=known)
                assert found is expected, "the known position changed the answer"
                checked += 1
        if not expected:
            proven.append(KnownProgress.of(context, game._search_key()))
        game.play(chooser.choice(game.legal_moves()))
    assert checked > 50  # the shortcut was really asked, many times


def test_a_card_turned_up_since_the_known_position_makes_it_no_help():
    # 5c leaves 6h, turning it up (progress), and could go back: the same cards in the same
    # places as before, but that position's progress (turning 6h up) is spent. The game must
    # not take the known position for this one: here nothing can ever progress again.
    game = Solitario.from_layout(["6h | 5c", "Qs | 6d", "", "", "", "", ""])
    assert not game.stalled  # proven able to progress: kept for the next search
    game.play("12")
    assert [str(move) for move in game._generate()] == ["21"]  # back where it was
    assert game.stalled and game.outcome == "stalled"
