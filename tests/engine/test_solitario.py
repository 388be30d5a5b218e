"""Solitario (games.md section 1): one test per rule and ruling, then random playouts.

Hand-made positions come from :func:`layout` (``Solitario.from_layout``): columns read bottom to
top with the face-down cards before a ``|`` (``"5h Qc | Kd"``), the stock in turning order, the
waste and the foundations (f1..f4 = d h c s) bottom to top. Italian ranks: J = Fante 8,
Q = Cavallo 9, K = Re.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pile_helpers import (
    check_final_view,
    check_no_stale_legal_moves,
    check_stall_search_on_random_play,
    first_stall_by_random_play,
    pile,
    play_checked_step,
    reference_stalled,
    refusal,
)

import engine
from engine import IllegalMove, stockwaste
from engine.rng import DealRandom
from engine.solitario import COLUMNS, FOUNDATIONS, Solitario
from engine.stall import is_stalled, search


def layout(columns: list[str], *, spare: str | None = "As", **position) -> Solitario:
    """A hand-made position. A small position is usually stalled (nothing left to turn up or to
    send home), which would end the game at once, so column 7 holds a lone ``spare`` card that
    can still go home (``None``: no spare, for the tests about stalls and the end)."""
    columns = list(columns) + [""] * (6 - len(columns)) + ([spare] if spare else [])
    return Solitario.from_layout(columns, **position)


# ----- the deal -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "deal", "columns", "waste"),
    [
        (40, 1, ["Qh", "5d", "3h", "Js", "7s", "3s", "6s"], ["Qd", "Kd", "Ad"]),
        (40, 2, ["Kc", "Qs", "Js", "Jd", "3s", "7h", "2d"], ["Kh", "6h", "7c"]),
        (40, 1000, ["Jc", "Ks", "Kc", "Ah", "3c", "4c", "6h"], ["7d", "7s", "Jh"]),
        (52, 1, ["Ac", "2s", "6c", "Ts", "2h", "6s", "6d"], ["Jc", "3h", "7d"]),
        (52, 2, ["2h", "Jc", "Ac", "Jh", "3h", "3s", "Qd"], ["2s", "9c", "4s"]),
        (52, 1000, ["Kh", "4c", "Qh", "Ad", "Ac", "Qc", "Ts"], ["Jd", "5s", "6c"]),
    ],
)
def test_deal_numbers_are_pinned_forever(cards, deal, columns, waste):
    game = engine.new_game("solitario", deal=deal, options={"cards": cards})
    assert [pile(game, c)["cards"][0] for c in COLUMNS] == columns
    assert pile(game, "w")["cards"] == waste


@pytest.mark.parametrize(("cards", "stock"), [(40, 9), (52, 21)])
def test_deal_layout_columns_stock_and_first_three_on_the_waste(cards, stock):
    game = Solitario(5, options={"cards": cards})
    assert [pile(game, c)["down"] for c in COLUMNS] == list(range(7))
    assert all(len(pile(game, c)["cards"]) == 1 for c in COLUMNS)
    assert pile(game, "s")["down"] == stock
    assert pile(game, "w")["cards"].__len__() == 3 and pile(game, "w")["show"] == 3
    assert game.move_number == 0 and game.score == 0
    assert game.view()["deck"] == ("italian40" if cards == 40 else "french52")


def test_the_two_decks_have_their_own_deals():
    assert str(Solitario(7)) != str(Solitario(7, options={"cards": 52}))
    assert Solitario(7).view()["piles"] != Solitario(7, options={"cards": "52"}).view()["piles"]


@given(st.integers(0, 10**9), st.sampled_from([40, 52]))
def test_every_deal_starts_with_a_scoring_move_besides_turning_the_stock(deal, cards):
    game = Solitario(deal, options={"cards": cards})
    assert any(game._points(m) > 0 for m in game.legal_moves() if str(m) != "d")


def test_deal_with_no_scoring_move_is_replaced_by_the_next_shuffle_of_its_stream():
    # The first shuffle of deal 26's stream leaves nothing but stock turns that score.
    probe = Solitario(0)
    rng = DealRandom.for_deal("solitario", 26)
    shuffles = []
    for _ in range(2):
        deck = probe._cards[:]
        rng.shuffle(deck)
        probe._deal_out(deck)
        shuffles.append((probe.position_key(), probe._has_scoring_move()))
    assert shuffles[0][1] is False and shuffles[1][1] is True
    assert Solitario(26).position_key() == shuffles[1][0]


# ----- the stock and the waste ------------------------------------------------------------------
def test_turning_the_stock_puts_three_cards_on_the_waste_and_counts_a_move():
    game = layout(["Kd"], stock="2c 3c 4c 5c", waste="7h")
    game.play("d")
    assert pile(game, "w")["cards"] == ["7h", "2c", "3c", "4c"]
    assert pile(game, "w")["show"] == 3
    assert game.move_number == 1 and game.score == 0
    game.play("D")
    assert pile(game, "w")["cards"][-1] == "5c" and pile(game, "w")["show"] == 1


def test_empty_stock_turn_recycles_the_waste_unlimited_and_without_penalty():
    game = layout(["Kd"], stock="", waste="2c 3c 4c")
    for round_number in range(1, 4):
        game.play("d")
        assert pile(game, "s")["down"] == 3 and pile(game, "w")["cards"] == []
        assert game.stock_recycles == round_number and game.score == 0
        game.play("d")
        assert pile(game, "w")["cards"] == ["2c", "3c", "4c"]  # the same order again


def test_turning_with_stock_and_waste_empty_is_stock_empty():
    game = layout(["Kd", "Qs"])
    assert refusal(game, "d").reason == "stock_empty"


def test_only_the_top_waste_card_is_playable():
    game = layout(["Js"], waste="7h 7d")
    assert refusal(game, "w1:2").reason == "not_a_run"


def test_nothing_is_ever_moved_onto_the_waste():
    game = layout(["Kd", "Qs"], waste="5c")
    assert refusal(game, "1w").reason == "nothing_onto_waste"
    assert refusal(game, "f1 w").reason == "nothing_onto_waste"


# ----- building on columns ---------------------------------------------------------------------
def test_column_builds_down_by_one_in_alternating_colours():
    game = layout(["Kd", "Qs", "Jh"], waste="Qc")
    game.play("w1")
    assert pile(game, "1")["cards"] == ["Kd", "Qc"]
    game.play("31")
    assert pile(game, "1")["cards"] == ["Kd", "Qc", "Jh"]


def test_card_not_one_lower_is_refused_with_both_cards_named():
    game = layout(["6d", "7c"])
    error = refusal(game, "21")
    assert error.reason == "not_one_lower"
    assert error.details == {"card": "7c", "onto": "6d"}


def test_same_colour_is_refused_as_not_alternating_colour():
    game = layout(["6d", "5h"])
    error = refusal(game, "21")
    assert error.reason == "not_alternating_colour"
    assert error.details == {"card": "5h", "onto": "6d"}


def test_run_whose_fitting_card_has_the_same_colour_is_refused():
    game = layout(["Kd Qs Jh 7c 6h", "2s | Qh"])
    error = refusal(game, "12")
    assert error.reason == "not_alternating_colour"
    assert error.details == {"card": "Jh", "onto": "Qh"}


def test_face_up_run_moves_whole_from_the_card_that_fits():
    game = layout(["Kd Qs Jh 7c 6h", "2s | Qc"])
    game.play("12")
    assert pile(game, "2")["cards"] == ["Qc", "Jh", "7c", "6h"]
    assert pile(game, "1")["cards"] == ["Kd", "Qs"]
    game.play("21:3")  # an explicit count: the top three cards
    assert pile(game, "1")["cards"] == ["Kd", "Qs", "Jh", "7c", "6h"]
    assert pile(game, "2")["cards"] == ["Qc"]


def test_explicit_count_beyond_the_face_up_cards_is_not_a_run():
    game = layout(["Kd", "5s 4h | 7c 6h"])
    assert refusal(game, "2 1:3").reason == "not_a_run"


def test_empty_column_accepts_only_a_re():
    game = layout(["", "Kh Qc", "4s | Qd", "Jc"], waste="Ks")
    assert refusal(game, "31").reason == "empty_column_needs_king"
    assert refusal(game, "41").reason == "empty_column_needs_king"
    game.play("w1")
    assert pile(game, "1")["cards"] == ["Ks"]


def test_empty_column_accepts_a_run_headed_by_a_re():
    game = layout(["", "3d | Kh Qc"])
    game.play("21")
    assert pile(game, "1")["cards"] == ["Kh", "Qc"] and pile(game, "2")["cards"] == ["3d"]


def test_klondike_52_empty_column_takes_only_a_king():
    game = layout(["", "Ts", "Kh"], cards=52, waste="Qc")
    assert refusal(game, "21").reason == "empty_column_needs_king"
    assert refusal(game, "w1").reason == "empty_column_needs_king"
    game.play("31")
    assert pile(game, "1")["cards"] == ["Kh"]


def test_face_down_card_left_on_top_is_turned_up_at_once_and_scores_five():
    game = layout(["Kd", "5s 4h | Qc"])
    game.play("21")
    assert pile(game, "2") | {} == {"id": "2", "kind": "tableau", "down": 1, "cards": ["4h"]}
    assert game.score == 5


def test_moving_from_an_empty_source_is_refused():
    game = layout(["Kd", ""])
    assert refusal(game, "21").reason == "empty_source"
    assert refusal(game, "w1").reason == "empty_source"
    assert refusal(game, "wf").reason == "empty_source"


# ----- foundations -----------------------------------------------------------------------------
def test_foundation_starts_with_the_asso_and_builds_up_by_suit():
    game = layout(["2d", "Ad", "3d"])
    assert refusal(game, "1f1").reason == "foundation_needs_ace"
    game.play("2f")
    game.play("1f")
    game.play("3 F")
    assert pile(game, "f1")["cards"] == ["Ad", "2d", "3d"] and pile(game, "f1")["suit"] == "d"


def test_a_four_sent_to_an_empty_foundation_breaks_only_an_ace_starts_one():
    # finding 8 of issue 26: "1f2" with a 4 said "Foundations are built by suit"
    game = layout(["4c", "4h"])
    for move in ("1f2", "1f3", "2f2", "1f"):
        error = refusal(game, move)
        assert error.reason == "foundation_needs_ace", move
    assert refusal(game, "1f1").details["card"] == "4c"


def test_foundations_have_fixed_suits_d_h_c_s():
    game = layout(["Ah"])
    assert refusal(game, "1f1").reason == "wrong_suit"
    game.play("1f")
    assert game.moves == ["1f2"]


def test_foundation_takes_one_card_at_a_time():
    game = layout(["3c 2h"], foundations=["", "Ah"])
    assert refusal(game, "1f2:2").reason == "one_card_at_a_time"
    assert refusal(game, "1f:2").reason == "one_card_at_a_time"


def test_waste_to_foundation_scores_fifteen():
    game = layout(["Kd"], waste="Ac")
    game.play("wf")
    assert game.score == 15 and pile(game, "f3")["cards"] == ["Ac"]


def test_waste_to_column_scores_five():
    game = layout(["Kd"], waste="Qc")
    game.play("w1")
    assert game.score == 5


def test_column_to_foundation_scores_ten():
    game = layout(["Kd", "Ad"])
    game.play("2f")
    assert game.score == 10


def test_foundation_card_can_come_back_and_costs_ten():
    game = layout(["Kd", "3c"], foundations=["Ad 2d"], score=20)
    game.play("f1 2")
    assert pile(game, "2")["cards"] == ["3c", "2d"] and game.score == 10


def test_foundation_to_foundation_is_refused():
    game = layout(["Kd"], foundations=["Ad", "Ah"])
    assert refusal(game, "f1f2").reason == "foundation_to_foundation"


def test_double_click_sends_a_card_to_its_own_foundation():
    game = layout(["Kd", "Ac"], waste="As", spare="Ah")
    assert [str(m) for m in game.legal_moves()][:2] == ["wf4", "2f3"]
    game.play("w f")
    game.play("2F")
    assert game.moves == ["wf4", "2f3"]


# ----- score, counter, end ---------------------------------------------------------------------
def test_every_move_counts_stock_turns_included():
    game = Solitario(3)
    for _ in range(5):
        game.play("d")
    assert game.move_number == 5 and game.view()["move_number"] == 5


def test_score_move_is_the_last_move_in_which_points_were_made():
    # seed: ties go by "l'ultima mossa in cui sono stati realizzati dei punti"
    game = layout(["Ad", "2c"])
    assert game.score_move == 0
    game.play("1f")  # +10 at move 1
    game.play("f12")  # -10 at move 2: the Asso back onto the 2 of clubs
    game.play("2f")  # +10 at move 3: home again
    assert game.score == 10 and game.score_move == 3 and game.view()["score_move"] == 3
    assert game.scoring_moves == (1, 3)


def test_a_move_that_loses_points_leaves_the_score_move_where_it_was():
    game = layout(["Kd", "3c"], foundations=["Ad 2d"], stock="5h 6h 7h")
    game.play("d")
    game.play("f1 2")  # -10 at move 2: no points made
    assert game.score == -10 and game.score_move == 0 and game.scoring_moves == ()
    game.play("2f1")  # +10 at move 3
    game.play("d")
    assert game.score == 0 and game.score_move == 3


def test_undo_takes_the_score_move_back_with_the_move():
    game = layout(["Ad", "2c"])
    for move in ("1f", "f12", "2f"):
        game.play(move)
    game.undo()
    assert game.score == 0 and game.score_move == 1 and game.scoring_moves == (1,)
    game.play("2f")
    assert game.score_move == 3


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([40, 52]), st.data())
def test_score_move_is_the_last_move_that_raised_the_score_through_play_and_undo(deal, cards, data):
    game = Solitario(deal, options={"cards": cards})
    scores = [0]  # the score after each move, move 0 = the deal
    for _ in range(data.draw(st.integers(0, 60))):
        if game.moves and data.draw(st.integers(0, 4)) == 0:
            game.undo()
            scores.pop()
        elif game.is_over:
            break
        else:
            game.play(data.draw(st.sampled_from(game.legal_moves())))
            scores.append(game.score)
        raised = [n for n in range(1, len(scores)) if scores[n] > scores[n - 1]]
        assert game.scoring_moves == tuple(raised)
        assert game.score_move == (raised[-1] if raised else 0) == game.view()["score_move"]
        # every move after the score move left the score as it was or lowered it
        assert all(scores[n] <= scores[n - 1] for n in range(game.score_move + 1, len(scores)))
    replayed = engine.replay(
        "solitario", deal, None, {"cards": cards}, [str(m) for m in game.moves]
    )
    assert replayed.score_move == game.score_move


def test_won_when_all_forty_cards_are_on_the_foundations():
    suits = [["A", "2", "3", "4", "5", "6", "7", "J", "Q"]] * 4
    founds = [" ".join(r + s for r in ranks) for ranks, s in zip(suits, "dhcs", strict=True)]
    game = layout(["Kd", "Kh", "Kc", "Ks"], foundations=founds, spare=None)
    for column in "1234":
        game.play(column + "f")
    assert game.outcome == "won" and game.is_over and game.view()["outcome"] == "won"
    assert game.legal_moves() == []
    assert refusal(game, "d").reason == "game_over"


def test_only_the_player_may_move():
    game = Solitario(1)
    with pytest.raises(IllegalMove) as caught:
        game.play("d", player="mallory")
    assert caught.value.reason == "not_a_player"


# ----- stall -----------------------------------------------------------------------------------
def test_stalled_when_nothing_can_ever_reach_a_foundation_or_be_turned_up():
    game = layout(["Ad | 5c"], spare=None)
    assert game.outcome == "stalled" and game.view()["stalled"] is True
    assert game.legal_moves() == []


def test_cycling_the_stock_is_not_progress():
    game = layout(["Ad | 5c"], stock="7h 7d Js", waste="Qh", spare=None)
    assert game.outcome == "stalled"


def test_taking_a_card_off_a_foundation_and_back_is_not_progress():
    game = layout(["4d | 3c"], foundations=["Ad 2d"], spare=None)
    assert [str(m) for m in game._generate()] == ["f11"]
    assert game.outcome == "stalled"


def test_a_foundation_card_brought_back_can_unblock_progress():
    game = layout(["Qs | 4s", "Jc | 2c"], foundations=["", "Ah 2h 3h"])
    assert game.outcome is None
    game.play("f2 1")
    game.play("21")
    assert pile(game, "2")["cards"] == ["Jc"]


def test_a_stalled_game_found_by_random_play_is_announced():
    game = first_stall_by_random_play(Solitario, deals=50, moves=120)
    assert game.outcome == "stalled" and game.view()["stalled"] is True
    assert refusal(game, "d").reason == "game_over"


# ----- notation and view -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text", ["", "x", "18", "9 1", "f5 1", "1f5", "r1", "1r", "s1", "12:0", "w1:"]
)
def test_bad_notation_is_refused(text):
    assert refusal(layout(["Kd", "Qs"], waste="Jh"), text).reason == "bad_notation"


def test_notation_ignores_case_and_spaces_and_every_move_has_src_and_dst():
    game = layout(["Kd", "Qs"], waste="Jh", stock="2c")
    moves = game.legal_moves()
    kings_to_spaces = [("1", column) for column in "3456"]
    assert [(m.src, m.dst) for m in moves] == [
        ("7", "f4"),
        ("w", "2"),
        *kings_to_spaces,
        ("2", "1"),
        ("s", None),
    ]
    assert game.parse_move(" W 2 ") == moves[1] and hash(moves[1]) == hash(game.parse_move("w2"))


def test_view_never_shows_a_face_down_card():
    game = Solitario(9)
    text = repr(game.view())
    hidden = [c for i, col in enumerate(game._tableau) for c in col[: game._down[i]]]
    hidden += game._stock
    assert not any(f"'{card.code}'" in text for card in hidden)
    assert "##" in str(game)


def test_view_carries_the_solitario_fields():
    game = Solitario(4)
    game.play("d")
    view = game.view()
    assert [p["id"] for p in view["piles"]] == ["s", "w", *FOUNDATIONS, *COLUMNS]
    assert view["last_move_piles"] == ["s", "w"] and view["last_move"] == "d"
    assert view["stock_recycles"] == 0 and view["score_move"] == 0 and view["stalled"] is False


# ----- random playouts -------------------------------------------------------------------------
def expected_points(before: dict, after: dict, move: str) -> int:
    """The seed's score events, read off two views: waste, turned cards, foundations."""
    down = {p["id"]: p["down"] for p in before["piles"] if p["kind"] == "tableau"}
    turned = sum(down[p["id"]] - p["down"] for p in after["piles"] if p["kind"] == "tableau")
    home = [
        sum(len(p["cards"]) for p in v["piles"] if p["kind"] == "foundation")
        for v in (before, after)
    ]
    return 5 * move.startswith("w") + 5 * turned + 10 * (home[1] - home[0])


@settings(max_examples=settings.default.max_examples // 2)  # whole games: make bench runs 10x
@given(st.integers(0, 10**6), st.sampled_from([40, 52]), st.data())
@pytest.mark.slow
def test_random_playout_keeps_every_invariant(deal, cards, data):
    game = Solitario(deal, options={"cards": cards})
    score = 0
    for _ in range(data.draw(st.integers(0, 40))):
        if game.is_over:
            break
        before, after, move = play_checked_step(game, data)
        score += expected_points(before, after, str(move))
        assert game.score == score
    check_final_view(game, {"cards": cards}, cards)


# ----- speed paths: the stall search's shortcuts, the legal-move cache, copies -----------------
@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([40, 52]), st.integers(0, 2**32))
@pytest.mark.slow
def test_the_stall_search_agrees_with_a_plain_search_of_every_position(deal, cards, seed):
    check_stall_search_on_random_play(Solitario(deal, options={"cards": cards}), seed, moves=150)


def test_a_stall_past_the_search_cap_is_announced_late_never_falsely(monkeypatch):
    # The game's stall search is capped (engine.stall.MAX_POSITIONS): a stall whose
    # non-progress positions outnumber the cap is announced late (the game says "not
    # stalled"), never falsely; uncapped, the search agrees with the plain one. At the real
    # cap such a stall takes minutes of plain search (Solitario 52 deal 377 after 106 random
    # moves, over 10,000 positions: `make bench`, bench/bench_agreement.py, checks it), so
    # here the game's search is capped at 40 positions, and deal 31 played at random (seed
    # 257) stalls after 65 moves in a position whose non-progress moves reach more than that.
    monkeypatch.setattr(stockwaste, "stall_search", functools.partial(search, max_positions=40))
    game = Solitario(31, options={"cards": 40})
    chooser = random.Random(257)
    for _ in range(65):
        # the moves legal_moves() lists, in its order, played without the stall search
        # that play() runs after each one (the position is the same, in a fraction of the time)
        game._apply_unchecked(chooser.choice(game._generate()))
    assert reference_stalled(game)
    assert not game.stalled and game.outcome is None
    assert is_stalled(game, max_positions=10**6)


def test_progress_after_stock_turns_and_two_waste_cards_in_a_row_is_not_a_stall():
    # 7h then (more turns later) 6s go onto the Js (Fante); then the 5h can leave the Kd,
    # turning it up.
    # Nothing can go home (no Asso anywhere) and no other move uncovers a card.
    game = layout(["Js", "Kd | 5h"], stock="Jc Qd 7h Jd Qc 6s", spare=None)
    assert game.outcome is None and not reference_stalled(game)
    without_the_six = layout(["Js", "Kd | 5h"], stock="Jc Qd 7h Jd Qc 6d", spare=None)
    assert without_the_six.outcome == "stalled" and reference_stalled(without_the_six)


def test_a_card_that_only_the_turned_over_stock_brings_up_is_progress():
    # Turning: 7h Ah Js (Js on top), then 7d Qh; turned over: Kc 7h Ah puts the Ah on top.
    game = layout(["Ad | 5c"], stock="7h Ah Js 7d Qh", waste="Kc", spare=None)
    assert game.outcome is None
    # With the Qc on the waste too the groups shift and the Ah is never on top.
    buried = layout(["Ad | 5c"], stock="7h Ah Js 7d Qh", waste="Kc Qc", spare=None)
    assert buried.outcome == "stalled" and reference_stalled(buried)


@given(st.lists(st.sampled_from(range(52)), unique=True, max_size=24), st.integers(0, 24))
def test_the_stock_cycle_lists_every_waste_top_that_turning_reaches(picks, split):
    from engine.cards import FRENCH_52, full_deck
    from engine.piles import draw_three, stock_cycle

    deck = full_deck(FRENCH_52)
    cards = [deck[i] for i in picks]
    stock, waste = cards[: min(split, len(cards))], cards[min(split, len(cards)) :]
    listed = [(turns, card) for turns, card in stock_cycle(stock, waste)]
    # Turning for real, twice round the whole cycle: the same tops at the same turn counts,
    # and afterwards nothing that was not listed.
    stock, waste = list(stock), list(waste)
    seen = [(0, waste[-1])] if waste else []
    last = max((turns for turns, _ in listed), default=0)
    for turn in range(1, last + 2 * len(cards) + 3):
        draw_three(stock, waste)
        if waste:
            seen.append((turn, waste[-1]))
    assert seen[: len(listed)] == listed
    assert {id(card) for _, card in seen} == {id(card) for _, card in listed}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.data())
def test_refused_moves_and_undos_never_leave_stale_legal_moves(deal, data):
    check_no_stale_legal_moves(Solitario(deal), {}, data)


def test_a_deep_copy_plays_on_and_still_detects_a_stall():
    import copy

    game = layout(["3c | 4d"], foundations=["Ad 2d 3d"], spare=None)
    twin = copy.deepcopy(game)
    twin.play("1f1")  # the 4d goes home and turns up the 3c, which can go nowhere
    assert twin.outcome == "stalled" and game.outcome is None
    assert twin.position_key() != game.position_key()
