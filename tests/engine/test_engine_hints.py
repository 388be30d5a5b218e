"""Hints: legal, sensible, and blind to hidden cards."""

from hypothesis import assume, given
from hypothesis import strategies as st

import engine
from engine.canfield import Canfield
from engine.rng import DealRandom
from engine.solitario import Solitario
from engine.solvers.hints import advice, hint
from engine.squadratik.board import Board
from engine.squadratik.el_solitario import ElSolitario


def test_the_same_visible_board_gets_the_same_hint_whatever_is_hidden():
    # Same face-up cards, waste and counts; the face-down cards and the stock differ.
    one = Solitario.from_layout(
        ["5h Qc | Kd", "3s | 4c", "2d | 6h 5s"], waste="Jd", stock="7c 7d Ac"
    )
    two = Solitario.from_layout(
        ["Ac 7c | Kd", "Qc | 4c", "7d | 6h 5s"], waste="Jd", stock="2d 5h 3s"
    )
    assert one.view() == two.view()
    assert str(hint(one)) == str(hint(two))


@given(st.integers(min_value=1, max_value=500), st.integers(min_value=0, max_value=2**32))
def test_shuffling_the_hidden_cards_of_a_deal_never_changes_the_hint(deal, seed):
    game = engine.new_game("solitario", deal)
    twin = engine.new_game("solitario", deal)
    # The twin's own face-down cards and stock, shuffled among themselves.
    hidden = [c for col, down in zip(twin._tableau, twin._down, strict=True) for c in col[:down]]
    hidden += twin._stock
    DealRandom(seed).shuffle(hidden)
    for col, down in zip(twin._tableau, twin._down, strict=True):
        col[:down] = [hidden.pop() for _ in range(down)]
    twin._stock = hidden
    # The engine sees every card, so whether a deal is already stalled can depend on the
    # hidden stock (deal 37 with one shuffle is); that is announced as the game's outcome,
    # and a finished game has no hint. A live game's view and hint must not depend on it.
    assume(not game.is_over and not twin.is_over)
    assert twin.view() == game.view()
    assert str(hint(twin)) == str(hint(game))


def test_a_card_that_fits_its_foundation_is_suggested_first():
    game = Solitario.from_layout(["Ad", "2s | Kh"], waste="7c")
    assert str(hint(game)) == "1f1"


def test_a_move_that_turns_up_a_face_down_card_beats_drawing():
    game = Solitario.from_layout(["Qs | 2d", "3c"], stock="5h 6h 7h")
    assert str(hint(game)) == "12"


def test_drawing_when_nothing_else_is_useful():
    game = Solitario.from_layout(["Qs | 2d"], stock="5h 6h Ad")
    assert str(hint(game)) == "d"


def test_a_lone_king_is_not_shuffled_between_empty_columns():
    game = Solitario.from_layout(["Kh"], stock="5h Ad")
    assert str(hint(game)) == "d"


def test_canfield_prefers_taking_a_card_out_of_the_reserve():
    game = Canfield.from_layout(["9s", "5h"], base_rank=1, reserve="2c 8h", stock="3d")
    assert str(hint(game)) == "r1"


def test_imaginary13_plays_waste_tops_home_and_fills_wastes_sensibly():
    game = engine.new_game("imaginary13", 1)
    for _ in range(30):
        move = hint(game)
        assert move in game.legal_moves()
        game.play(move)
    assert game.score > 0


def test_el_solitario_completes_a_path_when_it_can():
    # 15, 21, 23 on path N link in turn; 25's S (R2) links 23's N (R2): completes the path.
    board = Board.from_paths({"N": [(15, 0), (21, 0), (23, 0)]})
    game = ElSolitario.from_position(board, hand=[1, 30, 25], stock=[31])
    assert str(hint(game)) == "3N"


#: every solo game whose hint the scorers give (a solver's hint is tested below: it searches)
SCORED = [g for g, c in engine.GAMES.items() if not c.info.table and not c.info.hint_from_solver]


@given(st.sampled_from(SCORED), st.integers(1, 300))
def test_a_hint_is_always_legal_and_none_once_over(game_id, deal):
    game = engine.new_game(game_id, deal)
    for _ in range(15):
        move = hint(game)
        if move is None:
            assert game.is_over
            return
        assert move in game.legal_moves()
        game.play(move)


def test_a_freecell_hint_is_a_legal_move_from_the_solver_and_advice_carries_it():
    # FreeCell's hint comes from its solver, not from the scorers: it must still be an Advice
    game = engine.new_game("freecell", 1)
    found = advice(game)
    assert found.move in game.legal_moves() and not found.stuck
    assert hint(game) == found.move
