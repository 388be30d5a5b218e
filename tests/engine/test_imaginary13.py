"""Imaginary Thirteen (games.md section 3): one test per rule and ruling, then properties."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import FRENCH_52, Card, full_deck
from engine.game import BadSetup, IllegalMove, Outcome
from engine.imaginary13 import (
    FOUNDATION_IDS,
    MARKERS,
    WASTE_IDS,
    Imaginary13,
    Imaginary13Move,
    base_value,
    build_sequence,
)

# Every well-formed move of the notation: sources t a b c d, destinations 1-8 a-d.
ALL_WELL_FORMED = [
    Imaginary13Move(src, dst) for src in ("t", *WASTE_IDS) for dst in (*FOUNDATION_IDS, *WASTE_IDS)
]


def stacked(codes: list[str], free: bool = False) -> Imaginary13:
    """A game whose stock turns exactly ``codes``, in that order (to set up a rule quickly)."""
    return Imaginary13.from_layout(stock=" ".join(codes), free=free)


def pile(game: Imaginary13, pile_id: str) -> dict:
    return next(p for p in game.view()["piles"] if p["id"] == pile_id)


def reason_of(game: Imaginary13, text: str) -> str:
    with pytest.raises(IllegalMove) as refused:
        game.play(text)
    return refused.value.reason


def turned_code(game: Imaginary13) -> str | None:
    cards = pile(game, "t")["cards"]
    return cards[0] if cards else None


# ----- layout ----------------------------------------------------------------------------------
def test_game_is_registered_with_its_id():
    assert engine.GAMES["imaginary13"] is Imaginary13
    assert engine.new_game("imaginary13", deal=3).game_id == "imaginary13"


def test_markers_are_a_to_8_and_bases_are_twice_the_marker_less_13():
    view = engine.new_game("imaginary13", deal=5).view()
    assert view["markers"] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [base_value(k) for k in MARKERS] == [2, 4, 6, 8, 10, 12, 1, 3]
    foundations = [p for p in view["piles"] if p["kind"] == "foundation"]
    assert [p["marker"] for p in foundations] == list(MARKERS)
    assert [Card.parse(p["cards"][0]).rank for p in foundations] == [2, 4, 6, 8, 10, 12, 1, 3]


def test_markers_and_bases_are_the_first_matching_cards_of_the_unshuffled_decks():
    # Ruling: markers first (A-8 of diamonds, the first suit), then bases; the base 2 is the
    # 2 of hearts because the 2 of diamonds is already the marker 2, and so on.
    view = engine.new_game("imaginary13", deal=77).view()
    assert view["marker_cards"] == ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "8d"]
    bases = [p["cards"][0] for p in view["piles"] if p["kind"] == "foundation"]
    assert bases == ["2h", "4h", "6h", "8h", "Td", "Qd", "Ah", "3h"]


def test_the_stock_holds_the_other_88_cards_shuffled_by_deal():
    two_decks = Counter(full_deck(FRENCH_52) * 2)
    game = engine.new_game("imaginary13", deal=9)
    in_stock = Counter(game._stock)
    laid_out = Counter(Card.parse(c) for c in game.view()["marker_cards"]) + Counter(
        Card.parse(p["cards"][0]) for p in game.view()["piles"] if p["kind"] == "foundation"
    )
    assert sum(in_stock.values()) == 88
    assert in_stock + laid_out == two_decks
    assert engine.new_game("imaginary13", deal=10)._stock != game._stock


@pytest.mark.parametrize(
    ("deal", "first_turned"),
    [
        (1, ["2h", "7s", "7h", "7h", "8c", "Kh", "Kd", "3c"]),
        (2, ["9s", "9c", "4s", "Tc", "3s", "Js", "Tc", "Kd"]),
        (1000, ["9h", "As", "Th", "7h", "6s", "9c", "6s", "Kd"]),
    ],
)
def test_pinned_deals_turn_the_same_cards_forever(deal, first_turned):
    game = engine.new_game("imaginary13", deal=deal)
    seen = []
    for _ in first_turned:
        seen.append(turned_code(game))
        # Place the turned card wherever the rules allow first; only the order of turns matters.
        game.play(next(m for m in game.legal_moves() if m.src == "t"))
    assert seen == first_turned


# ----- building --------------------------------------------------------------------------------
@pytest.mark.parametrize("marker", MARKERS)
def test_each_foundation_builds_by_its_marker_subtracting_13_over_13(marker):
    game = engine.new_game("imaginary13", deal=0)
    sequence = build_sequence(marker)
    assert len(sequence) == 12 and sequence[-1] == 13
    assert len(set(sequence)) == 12  # never repeats a value before the King
    expected_next = base_value(marker) + marker
    expected_next -= 13 if expected_next > 13 else 0
    assert pile(game, str(marker))["next"] == expected_next == sequence[1]


def test_marker_two_builds_the_games_md_example_and_the_king_finishes_it():
    codes = ["6c", "8c", "Tc", "Qc", "Ac", "3c", "5c", "7c", "9c", "Jc", "Kc", "Ks"]
    game = stacked(codes)
    for _ in range(11):
        game.play("t2")
    foundation = pile(game, "2")
    assert [Card.parse(c).rank for c in foundation["cards"]] == [
        4,
        6,
        8,
        10,
        12,
        1,
        3,
        5,
        7,
        9,
        11,
        13,
    ]
    assert len(foundation["cards"]) == 12
    assert foundation["next"] is None
    assert reason_of(game, "t2") == "foundation_finished"


def test_a_card_that_does_not_fit_is_refused_with_the_value_needed():
    game = stacked(["4c", "3c"])
    with pytest.raises(IllegalMove) as refused:
        game.play("t1")
    assert refused.value.reason == "does_not_fit"
    assert refused.value.details["needed"] == 3


# ----- the turned card -------------------------------------------------------------------------
def test_turned_card_that_fits_must_go_to_a_foundation():
    game = stacked(["3c", "4c"])  # foundation 1 (base 2) needs a 3
    assert [str(m) for m in game.legal_moves()] == ["t1"]
    assert reason_of(game, "ta") == "must_play_to_foundation"
    game.play("t1")
    assert turned_code(game) == "4c"  # the next card is turned at once, not by a move


def test_forced_play_refusal_names_every_fitting_foundation():
    game = stacked(["3c", "4c", "5c"])
    game.play("t1")
    game.play("t1")  # the 5 now fits foundations 1 and 6
    with pytest.raises(IllegalMove) as refused:
        game.play("tc")
    assert refused.value.reason == "must_play_to_foundation"
    assert refused.value.details == {"card": "5c", "fits": "1, 6"}


def test_option_free_lets_a_fitting_card_go_to_a_waste_pile():
    game = stacked(["3c", "4c"], free=True)
    assert [str(m) for m in game.legal_moves()] == ["t1", "ta", "tb", "tc", "td"]
    game.play("ta")
    assert pile(game, "a")["cards"] == ["3c"]
    assert engine.new_game("imaginary13", options={"free": "true"}).options["free"] is True


def test_card_that_fits_nowhere_goes_to_any_of_the_four_waste_piles():
    # 4 7 T K fit no foundation at the start (they need 3 6 9 Q 2 5 8 J).
    game = stacked(["4c", "7c", "Tc", "Kc", "4s"])
    assert [str(m) for m in game.legal_moves()] == ["ta", "tb", "tc", "td"]
    for waste in WASTE_IDS:
        game.play("t" + waste)
    assert [pile(game, w)["cards"] for w in WASTE_IDS] == [["4c"], ["7c"], ["Tc"], ["Kc"]]
    assert reason_of(game, "t1") == "does_not_fit"


def test_player_picks_among_several_fitting_foundations():
    # After 3 and 4 on foundation 1 it needs a 5, which foundation 6 (base Q) needs too.
    game = stacked(["3c", "4c", "5c", "9s"])
    game.play("t1")
    game.play("t1")
    assert [str(m) for m in game.legal_moves()] == ["t1", "t6"]
    game.play("t6")
    assert pile(game, "6")["cards"][-1] == "5c" and pile(game, "1")["cards"][-1] == "4c"
    game.undo()
    game.play("t1")
    assert pile(game, "1")["cards"][-1] == "5c" and pile(game, "6")["cards"] == ["Qd"]


def test_no_turned_card_once_the_stock_is_spent():
    game = stacked(["4c", "3c"])
    game.play("ta")
    game.play("t1")
    assert turned_code(game) is None and pile(game, "s")["down"] == 0
    assert not game.is_over  # the 4 on waste a still fits foundation 1
    assert reason_of(game, "t1") == "no_turned_card"


# ----- waste piles -----------------------------------------------------------------------------
def test_waste_top_plays_to_a_foundation_even_while_a_card_is_turned():
    game = stacked(["4c", "3c", "7c", "Ks"])
    game.play("ta")
    game.play("t1")
    assert turned_code(game) == "7c"
    assert "a1" in [str(m) for m in game.legal_moves()]
    game.play("a1")
    assert pile(game, "a")["cards"] == [] and pile(game, "1")["cards"][-1] == "4c"
    assert turned_code(game) == "7c"  # still waiting: a waste play turns nothing


def test_only_the_top_of_a_waste_pile_is_playable():
    game = stacked(["4c", "7c", "3c", "Ks"])
    game.play("ta")
    game.play("ta")
    game.play("t1")  # foundation 1 now needs the 4, which lies under the 7
    assert reason_of(game, "a1") == "does_not_fit"
    assert "a1" not in [str(m) for m in game.legal_moves()]


def test_nothing_moves_between_waste_piles():
    game = stacked(["4c", "7c"])
    game.play("ta")
    assert reason_of(game, "ab") == "waste_to_waste"
    assert all(m.dst not in WASTE_IDS for m in game.legal_moves() if m.src in WASTE_IDS)


def test_an_empty_waste_pile_has_nothing_to_play():
    assert reason_of(stacked(["4c"]), "b1") == "waste_empty"


# ----- end and score ---------------------------------------------------------------------------
def winning_stock() -> list[str]:
    """The 88 stock cards ordered foundation by foundation, each in building order."""
    remaining = list(engine.imaginary13._STOCK_CARDS)
    order = []
    for marker in MARKERS:
        for value in build_sequence(marker)[1:]:
            index = next(i for i, card in enumerate(remaining) if card.rank == value)
            order.append(remaining.pop(index).code)
    assert not remaining
    return order


def test_won_when_all_88_cards_are_on_the_foundations():
    game = stacked(winning_stock())
    for marker in MARKERS:
        for _ in range(11):
            game.play(f"t{marker}")
    assert game.outcome == Outcome.WON and game.is_over
    assert game.score == 88
    assert all(pile(game, f)["next"] is None for f in FOUNDATION_IDS)
    assert game.legal_moves() == []
    assert reason_of(game, "t1") == "game_over"


def test_lost_when_the_stock_is_empty_and_no_waste_top_fits():
    game = stacked(["4c", "3c", "7c"])
    game.play("ta")
    game.play("t1")
    assert game.outcome is None  # stock not spent yet
    game.play("tb")
    assert game.outcome is None  # stock spent, but the 4 on waste a fits foundation 1
    game.play("a1")
    assert game.outcome == Outcome.LOST and game.view()["outcome"] == "lost"
    assert game.legal_moves() == []


def test_score_counts_cards_played_to_foundations_not_the_bases():
    game = stacked(["4c", "3c", "7c"])
    assert game.score == 0
    game.play("ta")
    assert game.score == 0
    game.play("t1")
    game.play("a1")
    assert game.score == 2 and game.view()["score"] == 2


# ----- notation, view, errors ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("t5", ("t", "5")),
        ("T5", ("t", "5")),
        ("tA", ("t", "a")),
        (" b 5 ", ("b", "5")),
        ("ab", ("a", "b")),
    ],
)
def test_notation_is_case_insensitive_and_round_trips(text, expected):
    move = engine.new_game("imaginary13").parse_move(text)
    assert (move.src, move.dst) == expected
    assert str(move) == "".join(expected)


@pytest.mark.parametrize("text", ["", "t", "t9", "t0", "tt", "s1", "5a", "x1", "t55", "a-1"])
def test_malformed_notation_is_refused(text):
    game = engine.new_game("imaginary13")
    assert reason_of(game, text) == "bad_notation"
    assert game.moves == []


def test_only_players_of_the_game_may_move():
    game = engine.new_game("imaginary13", players=["ana"])
    with pytest.raises(IllegalMove) as refused:
        game.play(game.legal_moves()[0], player="mallory")
    assert refused.value.reason == "not_a_player"
    assert game.legal_moves(player="mallory") == []


def test_unknown_option_values_are_refused():
    with pytest.raises(BadSetup):
        engine.new_game("imaginary13", options={"free": "maybe"})


def test_view_shows_the_turned_card_and_only_a_count_of_the_stock():
    game = engine.new_game("imaginary13", deal=1)
    view = game.view()
    json.dumps(view)
    kinds = [p["kind"] for p in view["piles"]]
    assert kinds == ["stock", "turned"] + ["foundation"] * 8 + ["waste"] * 4
    stock = pile(game, "s")
    assert stock["cards"] == [] and stock["down"] == 87
    assert pile(game, "t")["cards"] == ["2h"]
    assert view["deck"] == "french52" and view["last_move_piles"] == []
    game.play("t5")  # the 2 fits foundation 5 (base 10, +5 = 15 - 13 = 2)
    view = game.view()
    assert view["last_move"] == "t5" and view["last_move_piles"] == ["t", "5"]
    assert pile(game, "5")["next"] == 7


def test_text_board_shows_markers_turned_card_and_wastes():
    game = stacked(["4c", "7c"])
    game.play("ta")
    text = str(game)
    assert "score 0/88" in text
    assert "turned  7c" in text
    assert "waste a 4c" in text and "waste b --" in text


# ----- properties over random playouts ---------------------------------------------------------
def cards_accounted_for(game: Imaginary13) -> Counter:
    """Bases, foundations, wastes and the turned card from the view, plus the unseen stock."""
    seen = Counter(code for p in game.view()["piles"] for code in p["cards"])
    unseen = Counter(card.code for card in game._stock[game._turn_index + 1 :])
    return seen + unseen


EVERY_CARD_BUT_MARKERS = Counter(c.code for c in full_deck(FRENCH_52) * 2) - Counter(
    ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "8d"]
)


@settings(max_examples=12)
@given(deal=st.integers(0, 10**6), free=st.booleans(), data=st.data())
@pytest.mark.slow
def test_random_playouts_keep_every_rule_invariant(deal, free, data):
    game = engine.new_game("imaginary13", deal=deal, options={"free": free})
    while not game.is_over:
        legal = game.legal_moves()
        assert legal, "a game that is not over always has a move"
        before = game.view()
        needs = {p["next"] for p in before["piles"] if p["kind"] == "foundation"}
        turned = pile(game, "t")["cards"]
        if turned and Card.parse(turned[0]).rank in needs and not free:
            assert all(m.dst in FOUNDATION_IDS for m in legal if m.src == "t")
        # every well-formed move that is not legal is refused; the view is compared once
        # after all of them (a refusal that changed anything leaves the view changed): a view
        # per refusal was most of this test's time
        for move in ALL_WELL_FORMED:
            if move in legal:
                continue
            with pytest.raises(IllegalMove):
                game.play(move)
        assert game.view() == before, "a refused move changed the game"
        move = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        assert game.parse_move(str(move)) == move
        game.play(move)
        assert cards_accounted_for(game) == EVERY_CARD_BUT_MARKERS
        assert 0 <= game.score <= 88
    assert game.outcome in (Outcome.WON, Outcome.LOST)
    rebuilt = engine.replay("imaginary13", deal, None, {"free": free}, game.moves)
    assert rebuilt.view() == game.view() and str(rebuilt) == str(game)


@settings(max_examples=25)
@given(deal=st.integers(0, 10**6), free=st.booleans(), data=st.data())
def test_undo_restores_every_position_exactly(deal, free, data):
    game = engine.new_game("imaginary13", deal=deal, options={"free": free})
    positions = []
    while not game.is_over:
        positions.append((game.view(), [str(m) for m in game.legal_moves()]))
        legal = game.legal_moves()
        game.play(legal[data.draw(st.integers(0, len(legal) - 1), label="move")])
    while positions:
        game.undo()
        assert (game.view(), [str(m) for m in game.legal_moves()]) == positions.pop()
    assert game.moves == [] and game.score == 0


def test_a_hand_made_layout_shows_its_piles_and_plays_by_the_rules():
    game = Imaginary13.from_layout(["2s 3h", "", "6d 9c"], wastes=["", "Kd 4d"], stock="6h 9s")
    assert pile(game, "1")["cards"] == ["2s", "3h"] and pile(game, "1")["next"] == 4
    assert pile(game, "2")["cards"] == [pile(Imaginary13(deal=0), "2")["cards"][0]]
    assert pile(game, "3")["next"] == 12 and pile(game, "b")["cards"] == ["Kd", "4d"]
    assert pile(game, "t")["cards"] == ["6h"] and pile(game, "s")["down"] == 1
    assert [str(m) for m in game.legal_moves()] == ["t2", "b1"]
    game.play("b1")
    assert pile(game, "1")["cards"][-1] == "4d" and game.score == 3  # cards above the bases


def test_a_layout_with_the_stock_spent_and_nothing_to_play_is_lost():
    assert Imaginary13.from_layout(wastes=["Kc"]).outcome == "lost"
    assert Imaginary13.from_layout(wastes=["3c"]).outcome is None  # the 3 fits foundation 1


@pytest.mark.parametrize("foundation", ["3c", "2c 4c", "2c 3c Kc"])
def test_a_layout_foundation_out_of_its_build_sequence_is_refused(foundation):
    with pytest.raises(ValueError):
        Imaginary13.from_layout([foundation])
