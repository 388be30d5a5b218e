"""El Solitario (games.md §5): one named test per rule and ending, plus random playouts.

Hand-built positions: ``ElSolitario.from_position(Board.from_paths({...}), hand=[...],
stock=[...])`` (stock listed top first).
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.game import IllegalMove, Outcome
from engine.gameinfo import Result
from engine.players.squadratik import GreedyPlayer
from engine.squadratik.board import Board
from engine.squadratik.el_solitario import ElSolitario
from engine.squadratik.notation import Place

EMPTY = 1
# printed sides N E S W: 15 0 B4 B4 R2 | 21 R2 B4 0 B2 | 23 R2 B2 R2 0 | 25 R4 R4 R2 R4
NORTH_CHAIN = [(15, 0), (21, 0), (23, 0)]  # each card's N links the next card's S
FOURTH = 25  # S = R2 links card 23's N (R2): completes the chain


def refused(game, text):
    before = (game.view(), list(game.moves))
    with pytest.raises(IllegalMove) as error:
        game.play(text)
    assert (game.view(), game.moves) == before, "a refused move must change nothing"
    return error.value.reason


# ----- set-up and turns -------------------------------------------------------------------
def test_deal_puts_the_central_card_in_the_middle_and_four_cards_in_hand():
    game = engine.new_game("squadratik", deal=11)
    view = game.view()
    assert [(c["x"], c["y"], c["card"]["kind"]) for c in view["board"]] == [(0, 0, "central")]
    assert len(view["hand"]) == 4 and view["stock"] == 42
    assert sorted(game.hand + game.stock) == list(range(1, 47))


def test_same_deal_number_gives_the_same_deal_and_others_differ():
    assert ElSolitario(deal=5).hand == ElSolitario(deal=5).hand
    assert ElSolitario(deal=5).stock == ElSolitario(deal=5).stock
    assert ElSolitario(deal=5).stock != ElSolitario(deal=6).stock


def test_pinned_deal_zero():
    # Pinned: a daily challenge or stored game depends on it never changing.
    assert ElSolitario(deal=0).hand == [35, 19, 46, 39]
    assert ElSolitario(deal=0).stock[::-1][:3] == [37, 31, 26]  # the next three draws


def test_a_turn_plays_one_card_then_draws_one():
    game = ElSolitario.from_position(Board(), hand=[15, 21, 23, 25], stock=[30, 31])
    game.play("2E")
    assert game.hand == [15, 23, 25, 30] and game.stock == [31]
    assert game.board.cells[(1, 0)].card == 21 and game.move_number == 1


def test_no_draw_once_the_stock_is_empty():
    game = ElSolitario.from_position(Board(), hand=[15, 21], stock=[])
    game.play("1N")
    assert game.hand == [21] and not game.is_over


def test_cards_keep_their_printed_orientation():
    game = ElSolitario.from_position(Board(), hand=[15, 21])
    assert refused(game, "1Nr1") == "no_rotation_in_el_solitario"
    assert all(move.rotation == 0 for move in game.legal_moves())


def test_any_card_may_open_a_path_on_a_free_central_side():
    # reading of the seed: "una carta cualquiera en cada uno de sus cuatro lados"
    for card in (EMPTY, 7, 15):  # an empty, a master, a normal card
        game = ElSolitario.from_position(Board(), hand=[card, 46])
        assert {m.side for m in game.legal_moves() if m.slot == 1} == set("NESW")
        game.play("1W")
        assert game.board.cells[(-1, 0)].card == card


def test_a_card_must_link_with_the_end_of_the_path():
    game = ElSolitario.from_position(Board.from_paths({"N": [(15, 0)]}), hand=[23, 21])
    assert refused(game, "1N") == "sides_do_not_link"  # S of 23 is R2, N of 15 is blank
    game.play("2N")  # S of 21 is blank
    assert game.board.paths["N"].cells[-1] == (0, -2)


def test_a_card_may_not_touch_two_cards():
    board = Board.from_paths({"E": [(EMPTY, 0), (15, 0, "N")]})
    game = ElSolitario.from_position(board, hand=[21, 23])
    assert refused(game, "1N") == "touches_two_cards"
    assert not any(m.side == "N" for m in game.legal_moves())


def test_the_path_turns_only_right_after_a_placed_empty_card():
    game = ElSolitario.from_position(Board.from_paths({"N": [(15, 0), (EMPTY, 0)]}), hand=[21, 23])
    assert {str(m) for m in game.legal_moves() if m.slot == 1} >= {"1N", "1Ne", "1Nw"}
    game.play("1Ne")
    assert game.board.paths["N"].cells[-1] == (1, -2)
    assert refused(game, "1Nn") == "not_in_line"  # after a normal card: straight on only


def test_a_turn_letter_that_goes_straight_on_is_read_as_straight_on():
    game = ElSolitario.from_position(Board.from_paths({"N": [(15, 0)]}), hand=[21, 23])
    assert game.parse_move("1Nn") == Place(1, "N")
    game.play("1Nn")
    assert game.moves == ["1N"]


def test_a_completed_path_is_removed_at_once_and_scores_its_normal_cards():
    board = Board.from_paths({"N": NORTH_CHAIN, "E": [(EMPTY, 0)]})
    game = ElSolitario.from_position(board, hand=[FOURTH, 46], stock=[30])
    game.play("1N")
    assert game.board.paths["N"] is None and (0, -1) not in game.board.cells
    assert game.score == 10 + 8 + 6 + 14 and game.view()["removed_points"] == 38
    assert game.board.paths["E"] is not None  # other paths stay


def test_empties_and_masters_in_a_removed_path_score_nothing():
    # an empty card, masters 10 (N R4) and 8 (S R4, N R2), card 23 (S R2, N R2, 6 points)
    board = Board.from_paths({"N": [(EMPTY, 0), (10, 0), (8, 0), (23, 0)]})
    game = ElSolitario.from_position(board, hand=[27, 46], stock=[30])  # 27: S = R2, 12 points
    game.play("1N")
    assert game.board.paths["N"] is None and game.score == 6 + 12


def test_ending_completo_when_hand_stock_and_table_are_cleared():
    game = ElSolitario.from_position(Board.from_paths({"N": NORTH_CHAIN}), hand=[FOURTH])
    game.play("1N")
    assert game.outcome is Outcome.COMPLETO and game.is_over
    assert game.result_rank == 2 and game.view()["outcome"] == "completo"


def test_ending_solitario_when_hand_and_stock_are_empty_but_cards_remain():
    board = Board.from_paths({"N": NORTH_CHAIN, "E": [(40, 0)]})
    game = ElSolitario.from_position(board, hand=[FOURTH])
    game.play("1N")
    assert game.outcome is Outcome.PLAYED_OUT and game.result_rank == 1


def test_ending_lost_when_no_hand_card_fits_anywhere():
    # every side taken; open ends show N R2, E R4, S B4, W B4; card 16 (R2 B2 R4 B4) fits none
    board = Board.from_paths({"N": [(17, 0)], "E": [(18, 0)], "S": [(19, 0)], "W": [(20, 0)]})
    game = ElSolitario.from_position(board, hand=[16], stock=[27, 28])
    assert game.outcome is Outcome.LOST and game.result_rank == 0
    assert game.legal_moves() == [] and refused_game_over(game)


def refused_game_over(game):
    with pytest.raises(IllegalMove) as error:
        game.play("1N")
    return error.value.reason == "game_over"


def test_leaderboard_orders_result_first_then_points():
    completo = ElSolitario.from_position(Board.from_paths({"N": NORTH_CHAIN}), hand=[FOURTH])
    completo.play("1N")
    board = Board.from_paths({"N": NORTH_CHAIN, "E": [(40, 0)]})
    played_out = ElSolitario.from_position(board, hand=[FOURTH], removed_points=200)
    played_out.play("1N")
    lost = ElSolitario.from_position(
        Board.from_paths({"N": [(17, 0)], "E": [(18, 0)], "S": [(19, 0)], "W": [(20, 0)]}),
        hand=[16],
        removed_points=400,
    )

    def key(game: ElSolitario) -> tuple[int, ...]:
        result = Result(str(game.outcome), game.score, game.move_number)
        return ElSolitario.info.ranking.key(result)

    ranked = sorted([lost, played_out, completo], key=key)
    assert ranked == [completo, played_out, lost]
    assert played_out.score > completo.score  # points only break ties within a result


def test_reason_codes_for_bad_input():
    game = ElSolitario.from_position(Board.from_paths({"N": [(15, 0)]}), hand=[21, 23])
    assert refused(game, "hello") == "bad_notation"
    assert refused(game, "5N") == "no_such_card"
    assert refused(game, "pass") == "must_place"
    assert refused(game, "stop") == "bad_notation"
    assert refused(game, "1Ne") == "not_in_line"
    assert refused(game, "1Se") == "not_in_line"  # no turn at the central card


def test_view_has_the_views_md_shape():
    game = ElSolitario.from_position(Board.from_paths({"N": [(15, 0)]}), hand=[21, 23], stock=[30])
    game.play("1N")
    view = game.view()
    assert view["game"] == "squadratik" and view["last_move"] == "1N"
    assert view["stock"] == 0 and view["removed_points"] == 0
    assert view["last_move_cells"] == [[0, -2]]
    assert [c["id"] for c in view["hand"]] == [23, 30]
    assert view["hand"][0] == {
        "id": 23,
        "kind": "normal",
        "sides": ["R2", "B2", "R2", "0"],
        "rotation": 0,
        "points": 6,
    }
    assert view["paths"]["N"]["cells"] == [[0, -1], [0, -2]] and view["paths"]["E"] is None


def test_text_board_shows_cards_hand_and_counters():
    game = ElSolitario.from_position(Board.from_paths({"E": [(15, 0)]}), hand=[21], stock=[30])
    text = str(game)
    assert "0 B4 B4 R2" in text and "1:R2 B4 0 B2" in text and "stock 1" in text


# ----- random playouts ---------------------------------------------------------------------
NOTATION = st.one_of(
    st.builds(
        lambda slot, side, turn, rot: f"{slot}{side}{turn}{rot}",
        st.integers(0, 6),
        st.sampled_from("NESWnx"),
        st.sampled_from(["", "n", "e", "s", "w", ">e"]),
        st.sampled_from(["", "r1", "r0", "r4"]),
    ),
    st.sampled_from(["pass", "stop", "", "N1", "1", "12", "1NN"]),
)


def cards_everywhere(game):
    return Counter(game.hand + game.stock + game.removed + [c for c in game.board.card_ids() if c])


@settings(max_examples=settings.default.max_examples // 2)  # whole games: make bench runs 10x
@given(deal=st.integers(0, 10**6), guided=st.booleans(), data=st.data())
@pytest.mark.slow
def test_random_playouts_keep_the_rules(deal, guided, data):
    # guided playouts follow the greedy player: they last longer and complete paths
    game = engine.new_game("squadratik", deal=deal)
    greedy = GreedyPlayer()
    while not game.is_over:
        assert cards_everywhere(game) == Counter(range(1, 47)), "46 cards, each exactly once"
        legal = game.legal_moves()
        texts = {str(m) for m in legal}
        for move in legal:
            assert game.parse_move(str(move)) == move and move.src == f"h{move.slot}"
        for _ in range(2):  # any legal move is accepted, and undo takes it back exactly
            tried = legal[data.draw(st.integers(0, len(legal) - 1), label="tried")]
            before = game.view()
            game.play(str(tried))
            game.undo()
            assert game.view() == before
        for _ in range(3):
            text = data.draw(NOTATION, label="typed")
            try:
                parsed = game.parse_move(text)
            except IllegalMove:
                parsed = None
            if parsed is not None and str(parsed) in texts:
                continue
            before = game.view()
            with pytest.raises(IllegalMove):
                game.play(text)
            assert game.view() == before
        if guided:
            move = greedy.choose(game)
        else:
            move = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        points = game.score
        game.play(move)
        assert game.score >= points
    assert game.legal_moves() == []
    assert game.outcome in (Outcome.COMPLETO, Outcome.PLAYED_OUT, Outcome.LOST)
    if game.outcome is Outcome.LOST:
        assert game.hand
    else:
        assert not game.hand and not game.stock
    rebuilt = engine.replay("squadratik", deal, None, None, game.moves)
    assert rebuilt.view() == game.view() and str(rebuilt) == str(game)
