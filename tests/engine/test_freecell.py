"""FreeCell: the Microsoft deals, one test per rule, then property tests on random play.

Hand-made positions come from ``FreeCell.from_layout``: columns bottom to top, cells a-d in
order (``-`` empty), ``homes`` the cards home per suit d h c s.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.freecell import CELLS, COLUMNS, HOMES, FreeCell, FreeCellMove, move_capacity
from engine.game import IllegalMove


def rows(game: FreeCell) -> list[str]:
    """The deal as Microsoft prints it: row by row, codes upper-case."""
    columns = [p["cards"] for p in game.view()["piles"] if p["kind"] == "tableau"]
    return [" ".join(column[r].upper() for column in columns if len(column) > r) for r in range(7)]


def pile(game: FreeCell, pile_id: str) -> list[str]:
    return next(p["cards"] for p in game.view()["piles"] if p["id"] == pile_id)


def refusal(game: FreeCell, text: str) -> IllegalMove:
    before = game.view()
    with pytest.raises(IllegalMove) as caught:
        game.play(text)
    assert game.view() == before, "a refused move changes nothing"
    return caught.value


# ----- the deal -------------------------------------------------------------------------------
def test_deal_1_is_microsofts_deal_1():
    assert rows(FreeCell(1)) == [
        "JD 2D 9H JC 5D 7H 7C 5H",
        "KD KC 9S 5S AD QC KH 3H",
        "2S KS 9D QD JS AS AH 3C",
        "4C 5C TS QH 4H AC 4D 7S",
        "3S TD 4S TH 8H 2C JH 7D",
        "6D 8S 8D QS 6C 3D 8C TC",
        "6S 9C 2H 6H",
    ]


def test_deal_617_is_microsofts_deal_617():
    assert rows(FreeCell(617)) == [
        "7D AD 5C 3S 5S 8C 2D AH",
        "TD 7S QD AC 6D 8H AS KH",
        "TH QC 3H 9D 6S 8D 3D TC",
        "KD 5H 9S 3C 8S 7H 4D JS",
        "4C QS 9C 9H 7C 6H 2C 2S",
        "4S TS 2H 5D JC 6C JH QH",
        "JD KS KC 4H",
    ]


def test_a_deal_lays_out_all_52_cards_in_columns_of_7_and_6_with_empty_cells():
    game = engine.new_game("freecell", deal=11982)
    assert rows(game)[0] == "AH AS 4H AC 2D 6S TS JS"
    columns = [pile(game, c) for c in COLUMNS]
    assert [len(c) for c in columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert len({card for c in columns for card in c}) == 52
    assert all(pile(game, c) == [] for c in CELLS) and game.score == 0


def test_an_ace_dealt_on_top_goes_home_at_once():
    # deal 11982 has no ace on top; a hand-made deal does
    game = FreeCell.from_layout(["Kd Ac", "Qs"], homes=[0, 0, 0, 0])
    assert pile(game, "h3") == ["Ac"] and game.score == 1 and game.view()["auto_home"] == ["Ac"]


# ----- moves and their refusals -----------------------------------------------------------------
def test_a_column_takes_one_rank_lower_of_the_other_colour():
    game = FreeCell.from_layout(["Kd 9s", "Qs 8h", "Ks 8d", "Kh 8c"], homes=[2, 2, 2, 2])
    game.play("21")
    assert pile(game, "1") == ["Kd", "9s", "8h"]
    assert refusal(game, "41").reason == "not_one_lower"
    game = FreeCell.from_layout(["Kd 9s", "Ks 8c"], homes=[2, 2, 2, 2])
    error = refusal(game, "21")
    assert error.reason == "not_alternating_colour" and error.details["card"] == "8c"


def test_free_cells_hold_one_card_each_and_never_swap():
    game = FreeCell.from_layout(["Kd 9s 7h", "Qs"], homes=[2, 2, 2, 2])
    game.play("1a")
    assert pile(game, "a") == ["7h"] and pile(game, "1") == ["Kd", "9s"]
    error = refusal(game, "1a")
    assert error.reason == "cell_taken" and error.details["card"] == "7h"
    assert refusal(game, "ab").reason == "cell_to_cell"
    assert refusal(game, "c1").reason == "cell_empty"
    assert refusal(game, "a2").reason == "not_one_lower"  # 7h on Qs


def test_cell_card_goes_onto_a_column_that_takes_it():
    game = FreeCell.from_layout(["Kd 9s 7h", "Th 8d"], homes=[2, 2, 2, 2])
    game.play("1a")
    assert refusal(game, "a2").reason == "not_alternating_colour"
    game.play("2b")
    game.play("12")
    assert pile(game, "2") == ["Th", "9s"]
    game.play("b2")
    assert pile(game, "2") == ["Th", "9s", "8d"]


def test_to_foundation_is_written_h_and_names_no_pile():
    game = FreeCell.from_layout(["Kd 3s", "Qs 4c"], homes=[1, 1, 2, 2])  # 3s: red 2s away
    move = game.parse_move("1h")
    assert move == FreeCellMove("1", "h4") and str(move) == "1h"
    assert game.parse_move("1F") == move  # f, as in the other games
    error = refusal(game, "2h")
    assert error.reason == "not_next_rank" and error.details == {"card": "4c", "onto": "2c"}
    game.play("1h")
    assert pile(game, "h4")[-1] == "3s"
    assert refusal(game, "1h2").reason == "wrong_suit"


def test_cards_never_leave_a_foundation_and_garbage_is_refused():
    game = FreeCell(5)
    for text in ("h1", "h13", "9a", "1e", "", "36:0", "3a:2x"):
        assert refusal(game, text).reason == "bad_notation"


def test_a_run_moves_as_far_as_cells_and_empty_columns_allow():
    assert move_capacity(4, 0, False) == 5
    assert move_capacity(0, 1, False) == 2 and move_capacity(0, 1, True) == 1
    assert move_capacity(2, 2, False) == 12 and move_capacity(2, 2, True) == 6
    # a run of five (9s 8h 7c 6d 5s) onto a red ten: cells a-d full but one -> 2 cards only
    run = "Kh 9s 8h 7c 6d 5s"
    full = FreeCell.from_layout(
        [run, "Kc Td", "Qd", "Qc", "Qh", "Qs", "Jd", "Jh"], cells="Js Jc Tc", homes=[2, 2, 2, 2]
    )
    error = refusal(full, "12")
    assert error.reason == "too_many_cards" and error.details == {"count": 5, "max": 2}
    roomy = FreeCell.from_layout(
        [run, "Kc Td", "Qd", "Qc", "Qh", "Qs", "Jd"], cells="Js Jc", homes=[2, 2, 2, 2]
    )
    roomy.play("12")  # (2 free cells + 1) * 2 ** 1 empty column = 6
    assert pile(roomy, "2") == ["Kc", "Td", "9s", "8h", "7c", "6d", "5s"]


def test_into_an_empty_column_the_longest_run_moves_unless_a_count_is_named():
    game = FreeCell.from_layout(["Kh 9s 8h 7c", "Qs"], cells="Jd Jc", homes=[2, 2, 2, 2])
    # 2 free cells, 6 empty columns, but the target is one of them: 3 * 2**5
    assert game.parse_move("13:3") == FreeCellMove("1", "3")  # the same move, one form
    game.play("13:2")
    assert pile(game, "3") == ["8h", "7c"] and pile(game, "1") == ["Kh", "9s"]
    error = refusal(game, "34:3")
    assert error.reason == "run_too_short" and error.details["playable"] == 2


def test_safe_cards_go_home_as_part_of_the_move_and_undo_takes_them_back():
    game = FreeCell.from_layout(["Kd 2h Ah", "Qs 3h", "Kc As Qd", "Ks 2s"], homes=[3, 0, 3, 0])
    # Ah went home at the deal, 2h with it; 3h needs the black twos home: 2c is, 2s not yet
    assert pile(game, "h2") == ["Ah", "2h"] and pile(game, "2") == ["Qs", "3h"]
    assert game.view()["auto_home"] == ["Ah", "2h"]
    game.play("3a")  # uncovers As: it goes home, 2s follows, and then 3h is safe too
    assert pile(game, "h4") == ["As", "2s"] and pile(game, "h2")[-1] == "3h"
    assert game.moves == ["3a"] and game.view()["auto_home"] == ["As", "2s", "3h"]
    game.undo()
    assert pile(game, "3") == ["Kc", "As", "Qd"] and pile(game, "2") == ["Qs", "3h"]


def test_a_card_others_may_still_need_stays_in_play():
    # 5s could still hold the 4d or 4h, which are not home: it stays
    game = FreeCell.from_layout(["Kd 5s", "Qd"], homes=[3, 3, 4, 4])
    assert pile(game, "1") == ["Kd", "5s"] and game.parse_move("1h") in game.legal_moves()


def test_won_when_every_card_is_home_and_lost_when_no_move_is_left():
    won = FreeCell.from_layout(["Kd"], homes=[12, 13, 13, 13])
    assert won.outcome == "won" and won.score == 52 and won.legal_moves() == []
    # cells full, four columns whose tops fit nowhere, no empty column
    stuck = FreeCell.from_layout(
        ["Kd Qd", "Kh Qh", "Kc Qc", "Ks Qs", "Jd Td", "Jh Th", "Jc Tc", "Js Ts"],
        cells="5d 5h 5c 5s",
        homes=[0, 0, 0, 0],
    )
    assert stuck.outcome == "lost" and stuck.legal_moves() == []
    assert refusal(stuck, "1a").reason == "game_over"


def test_view_lists_cells_foundations_and_columns_by_their_notation_ids():
    view = FreeCell(1).view()
    ids = [(p["id"], p["kind"]) for p in view["piles"]]
    assert ids[:4] == [(c, "cell") for c in CELLS]
    assert ids[4:8] == [(h, "foundation") for h in HOMES]
    assert ids[8:] == [(c, "tableau") for c in COLUMNS]
    assert [p["suit"] for p in view["piles"][4:8]] == ["d", "h", "c", "s"]
    assert view["deck"] == "french52" and view["max_run"] == 5


# ----- properties on random play --------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(deal=st.integers(1, 1_000_000), choices=st.lists(st.integers(0, 10_000), max_size=120))
def test_random_play_keeps_52_cards_and_every_rule(deal, choices):
    game = FreeCell(deal)
    for choice in choices:
        if game.is_over:
            break
        legal = game.legal_moves()
        assert legal, "a game that is not over has a move"
        for move in legal:
            assert game.parse_move(str(move)) == move
        before = game.view()
        move = legal[choice % len(legal)]
        game.play(move)
        view = game.view()
        cards = [card for p in view["piles"] for card in p["cards"]]
        assert len(cards) == 52 and len(set(cards)) == 52
        assert all(len(p["cards"]) <= 1 for p in view["piles"] if p["kind"] == "cell")
        assert view["score"] >= before["score"], "cards never leave a foundation"
        game.undo()
        assert game.view() == before
        game.play(move)
    assert engine.replay("freecell", deal, None, None, game.moves).view() == game.view()


@settings(max_examples=25, deadline=None)
@given(deal=st.integers(1, 32_000), choice=st.integers(0, 10_000))
def test_every_listed_move_is_accepted_and_nothing_else_moves_cards(deal, choice):
    game = FreeCell(deal)
    for _ in range(choice % 40):
        if game.is_over:
            break
        game.play(game.legal_moves()[choice % len(game.legal_moves())])
    legal = {str(m) for m in game.legal_moves()}
    for src in [*COLUMNS, *CELLS]:
        for dst in [*COLUMNS, *CELLS, "h"]:
            text = src + dst
            before = game.view()
            try:
                game.play(text)
            except IllegalMove:
                assert game.view() == before
                assert text not in legal or game.is_over
                continue
            game.undo()
            # accepted: listed, or the same column moved whole into an empty one (refused)
            assert str(game.parse_move(text)) in legal
