"""Cartas Maestras (games.md §6): one named test per rule and ruling, plus random playouts.

Hand-built positions: ``CartasMaestras.from_position(players, Board.from_paths({...}),
hands=[[...], ...], stock=[...], first_master_placed=..., final_phase=...)``.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.game import BadSetup, IllegalMove, Outcome
from engine.players import RandomPlayer
from engine.players.squadratik import GreedyPlayer
from engine.squadratik.board import Board
from engine.squadratik.deck import DECK, Kind, deck_for_players
from engine.squadratik.maestras import CartasMaestras

EMPTY = 1
TWO = ["ana", "bo"]
# master 7 (R2 R4 B2 B4) turned three times opens N showing R4; 20 (S R4, N R2),
# 25 (S R2, N R4), 18 (R2 R4 R4 R4) links to R4
THREE_SHORT = [(7, 3), (20, 0), (25, 0)]  # after_empty 3: card 18 completes it


def refused(game, text, player=None):
    before = ([game.view(p) for p in [None, *game.players]], list(game.moves))
    with pytest.raises(IllegalMove) as error:
        game.play(text, player=player)
    assert ([game.view(p) for p in [None, *game.players]], game.moves) == before
    return error.value.reason


# ----- set-up -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seats", "in_play"), [(2, 43), (3, 43), (4, 41), (5, 41), (6, 43), (7, 43), (8, 41)]
)
def test_set_up_removes_three_or_five_empties_and_deals_four_each(seats, in_play):
    game = CartasMaestras(deal=3, players=[f"p{i}" for i in range(seats)])
    dealt = [c for hand in game.hands for c in hand] + game.stock
    assert len(dealt) == in_play and sorted(dealt) == deck_for_players(seats)[1:]
    assert all(len(hand) == 4 for hand in game.hands)
    assert [(c["x"], c["y"]) for c in game.view()["board"]] == [(0, 0)]


def test_two_to_eight_players():
    with pytest.raises(BadSetup):
        CartasMaestras(deal=0, players=["solo"])
    with pytest.raises(BadSetup):
        CartasMaestras(deal=0, players=[f"p{i}" for i in range(9)])


def test_pinned_deal_one_for_two_players():
    game = CartasMaestras(deal=1, players=TWO)
    assert game.hands == [[8, 23, 20, 32], [41, 27, 40, 19]]


def test_turn_order_is_the_players_order_creator_first():
    game = CartasMaestras.from_position(
        ["cy", "ana", "bo"], Board(), [[7], [8], [9]], stock=[20, 21, 22]
    )
    order = []
    for _ in range(3):
        order.append(game.current_player)
        game.play("1" + "NES"[len(order) - 1])
    assert order == ["cy", "ana", "bo"] and game.current_player == "cy"


# ----- the first master and opening paths -------------------------------------------------
def test_until_the_first_master_only_a_master_on_the_central_card_is_legal():
    game = CartasMaestras.from_position(TWO, Board(), [[20, EMPTY, 7], [21]], stock=[30])
    assert {game.hands[0][m.slot - 1] for m in game.legal_moves()} == {7}
    assert refused(game, "1N") == "master_needed_first"
    assert refused(game, "2N") == "master_needed_first"
    game.play("3Nr2")
    assert game.board.cells[(0, -1)].card == 7 and game.first_master_placed


def test_without_a_master_the_player_draws_and_passes():
    game = CartasMaestras.from_position(TWO, Board(), [[20, 21], [22]], stock=[30, 31])
    assert [str(m) for m in game.legal_moves()] == ["pass"]
    game.play("pass")
    assert game.hands[0] == [20, 21, 30] and game.current_player == "bo"


def test_pass_is_refused_while_a_card_can_be_placed():
    game = CartasMaestras.from_position(TWO, Board(), [[20, 7], [22]], stock=[30])
    assert refused(game, "pass") == "must_place"


def test_only_masters_open_paths_after_the_first():
    board = Board.from_paths({"N": [(7, 0)]})
    game = CartasMaestras.from_position(TWO, board, [[20, EMPTY, 8], [22]], stock=[30])
    assert refused(game, "1E") == "only_masters_open_paths"
    assert refused(game, "2E") == "only_masters_open_paths"  # empties resume, never open
    game.play("3E")
    assert game.board.paths["E"] is not None


def test_a_first_master_may_open_any_free_side_in_any_rotation():
    game = CartasMaestras.from_position(TWO, Board(), [[12], [22]], stock=[30])
    assert sorted(str(m) for m in game.legal_moves()) == sorted(
        f"1{side}{'' if r == 0 else f'r{r}'}" for side in "NESW" for r in range(4)
    )


# ----- placing on open paths --------------------------------------------------------------
def test_a_card_at_the_end_of_an_open_path_must_link_in_the_chosen_rotation():
    board = Board.from_paths({"N": [(7, 3)]})  # open side R4
    game = CartasMaestras.from_position(TWO, board, [[27], [22]], stock=[30])  # 27: R4 R2 R2 B4
    # R4 is printed N; it faces south (down to the master) after two quarter turns
    assert [str(m) for m in game.legal_moves() if m.side == "N"] == ["1Nr2"]
    assert refused(game, "1N") == "sides_do_not_link"
    game.play("1Nr2")
    assert game.board.cells[(0, -2)].rotation == 2


def test_masters_may_also_extend_a_path():
    board = Board.from_paths({"N": [(7, 0)]})  # R2
    game = CartasMaestras.from_position(TWO, board, [[34], [22]], stock=[30])  # 34: no R2 side
    assert [str(m) for m in game.legal_moves()] == ["pass"]
    game = CartasMaestras.from_position(TWO, board, [[8], [22]], stock=[30])  # 8: R2 R3 R4 R1
    # 8 = R4 B2 B4 R2: its printed W (R2) faces south after three quarter turns
    assert [str(m) for m in game.legal_moves() if m.side == "N"] == ["1Nr3"]
    game.play("1Nr3")
    assert game.board.paths["N"].after_empty == 2


def test_an_empty_card_goes_at_the_end_of_any_open_path_and_may_be_turned_after():
    board = Board.from_paths({"N": THREE_SHORT})
    game = CartasMaestras.from_position(TWO, board, [[EMPTY], [18, 2]], stock=[30, 31])
    game.play("1N")
    assert game.board.paths["N"].after_empty == 0  # four new links needed now
    legal = {str(m) for m in game.legal_moves("bo")}
    assert {"1N", "1Ne", "1Nw", "1Ner1", "2N", "2Ne"} <= legal
    assert refused(game, "2Nr1", "bo") == "bad_notation"  # a turned empty card: one notation only
    game.play("1Ner1", player="bo")
    assert game.board.cells[(1, -4)].card == 18


def test_after_placing_the_player_draws_one_if_the_stock_has_any():
    game = CartasMaestras.from_position(TWO, Board(), [[7, 20], [8]], stock=[30])
    game.play("1N")
    assert game.hands[0] == [20, 30] and game.stock == []
    game.play("1E", player="bo")
    assert game.hands[1] == []


# ----- winning cards --------------------------------------------------------------------------
def test_completing_a_path_wins_every_card_of_it_master_included():
    board = Board.from_paths({"N": THREE_SHORT, "E": [(8, 0)]})
    game = CartasMaestras.from_position(TWO, board, [[22], [18, 26]], stock=[30, 31], turn=1)
    game.play("1N", player="bo")
    assert sorted(game.won[1]) == [7, 18, 20, 25] and game.masters_won == [0, 1]
    assert game.board.paths["N"] is None and game.board.paths["E"] is not None
    seat = game.view("ana")["seats"][1]
    assert seat == {"player": "bo", "hand": 2, "masters": 1, "cards": 4, "timeouts": 0}


def test_the_side_is_free_again_after_a_path_is_won():
    board = Board.from_paths({"N": THREE_SHORT})
    game = CartasMaestras.from_position(TWO, board, [[18, 9], [26]], stock=[30, 31])
    game.play("1N")
    game.play("pass", player="bo")
    assert any(m.side == "N" for m in game.legal_moves("ana"))


# ----- end of the main phase ------------------------------------------------------------------
def test_main_phase_ends_when_every_master_has_been_won():
    won_masters = [8, 9, 10, 11, 12, 13, 14]  # seven won already
    board = Board.from_paths({"N": THREE_SHORT})
    game = CartasMaestras.from_position(
        TWO,
        board,
        [[18, 20], [26]],
        stock=[30, 31],
        masters_won=[4, 3],
        won=[won_masters[:4], won_masters[4:]],
    )
    game.play("1N")
    assert game.masters_won == [5, 3] and game.phase == "final"
    assert game.view()["phase"] == "final"


def test_main_phase_ends_when_the_stock_is_empty_and_a_full_round_passes():
    board = Board.from_paths({"N": [(7, 0)]})  # open side R2
    # nobody holds a master or an R2 side; 43 (B4 B2 B2 R4) does not fit either
    game = CartasMaestras.from_position(["a", "b", "c"], board, [[34], [41], [28]], stock=[43])
    game.play("pass")  # draws the last card: the stock was not empty yet
    game.play("pass")
    game.play("pass")
    assert game.phase == "main"
    game.play("pass")  # the third pass in a row with the stock empty: a full round
    assert game.phase == "final" and game.out_of_play == [7]


def test_a_placement_restarts_the_stall_count():
    board = Board.from_paths({"N": [(7, 3)]})  # open side R4; 34 and 41 show no R4 nor R2
    game = CartasMaestras.from_position(TWO, board, [[34], [41, 20]], stock=[])
    game.play("pass")
    game.play("2N", player="bo")  # 20's S is R4; its N (R2) is now the open side
    game.play("pass")
    assert game.phase == "main"
    game.play("pass", player="bo")
    assert game.phase == "final"


# ----- final phase ----------------------------------------------------------------------------
def test_final_phase_cards_on_the_board_leave_play():
    board = Board.from_paths({"N": THREE_SHORT})
    game = CartasMaestras.from_position(TWO, board, [[26], [45]], final_phase=True)
    assert sorted(game.out_of_play) == [7, 20, 25] and len(game.board.cells) == 1
    assert game.won == [[], []] and game.current_player == "ana"


def test_final_phase_any_first_card_then_one_path_then_stop():
    game = CartasMaestras.from_position(TWO, Board(), [[20, 25, 46], [45]], final_phase=True)
    assert {m.side for m in game.legal_moves() if str(m) != "stop"} == set("NESW")
    game.play("1N")  # a normal card opens a path here
    assert refused(game, "1W") == "path_not_open"  # one path only
    game.play("1N")  # 25: S R2 on 20's N R2
    game.play("stop")
    assert sorted(game.won[0]) == [20, 25] and game.masters_won == [0, 0]
    assert game.current_player == "bo" and len(game.board.cells) == 1


def test_final_phase_masters_count_as_cards_only_and_paths_are_not_removed_at_four():
    chain = [20, 25, 18, 7, 37]  # master 7 turned to link 18's R4, then 37 on the master
    game = CartasMaestras.from_position(TWO, Board(), [chain, [45]], final_phase=True)
    game.play("1N")
    for _ in range(4):
        game.play(next(m for m in game.legal_moves() if m.slot == 1 and str(m) != "stop"))
    # five cards in one path: the turn ended by itself when the hand ran out
    assert sorted(game.won[0]) == sorted(chain) and game.masters_won == [0, 0]
    assert game.current_player == "bo"


def test_final_phase_turn_ends_by_itself_when_nothing_fits_and_empty_hands_are_skipped():
    game = CartasMaestras.from_position(
        ["a", "b", "c"], Board(), [[20, 34], [], [45]], final_phase=True
    )
    game.play("1N")  # 34 (no R2 side) cannot follow 20's R2
    assert game.won[0] == [20] and game.current_player == "c"


def test_stop_and_pass_outside_their_phase():
    game = CartasMaestras.from_position(TWO, Board(), [[7], [8]], stock=[30])
    assert refused(game, "stop") == "bad_notation"
    final = CartasMaestras.from_position(TWO, Board(), [[7], [8]], final_phase=True)
    assert refused(final, "pass") == "must_place"


# ----- result -----------------------------------------------------------------------------
def finished(masters, cards):
    players = [f"p{i}" for i in range(len(masters))]
    won = [list(range(15, 15 + n)) for n in cards]
    return CartasMaestras.from_position(
        players, Board(), [[] for _ in players], masters_won=masters, won=won, final_phase=True
    )


def test_most_masters_wins_then_most_cards_then_a_shared_place():
    game = finished([3, 3, 2], [9, 7, 20])
    assert game.is_over and game.outcome is Outcome.FINISHED
    assert [(r["player"], r["place"]) for r in game.results()] == [("p0", 1), ("p1", 2), ("p2", 3)]
    tied = finished([2, 2, 4], [6, 6, 1])
    assert [(r["player"], r["place"]) for r in tied.results()] == [("p2", 1), ("p0", 2), ("p1", 2)]
    assert tied.view()["results"][0] == {"player": "p2", "place": 1, "masters": 4, "cards": 1}


def test_returns_give_one_number_per_player_in_result_order():
    game = finished([3, 3, 2], [9, 7, 20])
    assert game.returns() == [3.09, 3.07, 2.2]


# ----- turns and hidden information -------------------------------------------------------
def test_only_the_player_to_move_has_moves_and_may_play():
    game = CartasMaestras(deal=2, players=TWO)
    assert game.legal_moves("bo") == [] and game.legal_moves("ana")
    move = str(game.legal_moves("ana")[0])
    assert refused(game, move, "bo") == "not_your_turn"
    assert refused(game, move, "zed") == "not_a_player"


def test_views_show_only_the_viewers_hand():
    game = CartasMaestras(deal=4, players=["ana", "bo", "cy"])
    public = game.view(None)
    assert public["hand"] == [] and public["viewer"] is None
    for seat, player in enumerate(game.players):
        view = game.view(player)
        assert [c["id"] for c in view["hand"]] == game.hands[seat]
        assert [s["hand"] for s in view["seats"]] == [4, 4, 4]
        assert view["stock"] == len(game.stock) and isinstance(view["stock"], int)
    assert game.view("stranger")["hand"] == []


def test_current_player_is_whoever_must_act_in_the_final_phase():
    game = CartasMaestras.from_position(
        ["a", "b", "c"], Board(), [[], [20], [21]], final_phase=True
    )
    assert game.current_player == "b" and game.legal_moves("a") == []


# ----- random playouts ---------------------------------------------------------------------
NOTATION = st.one_of(
    st.builds(
        lambda slot, side, turn, rot: f"{slot}{side}{turn}{rot}",
        st.integers(0, 9),
        st.sampled_from("NESW"),
        st.sampled_from(["", "n", "e", "s", "w"]),
        st.sampled_from(["", "r1", "r2", "r3"]),
    ),
    st.sampled_from(["pass", "stop", "", "xx", "1Nr9"]),
)


def card_ids_in(view):
    """Every card id anywhere in a view (cards are the dicts with a "sides" key)."""
    found = []
    if isinstance(view, dict):
        if "sides" in view and "id" in view:
            found.append(view["id"])
        for value in view.values():
            found += card_ids_in(value)
    elif isinstance(view, list):
        for value in view:
            found += card_ids_in(value)
    return found


def check_position(game, in_play):
    everything = Counter(
        [c for hand in game.hands for c in hand]
        + game.stock
        + game.out_of_play
        + [c for won in game.won for c in won]
        + [c for c in game.board.card_ids() if c]
    )
    assert everything == Counter(in_play), "every card in play exactly once"
    on_board = set(game.board.card_ids())
    if game.is_over and game.last_main_board is not None:  # the table's last board, public
        on_board |= set(game.last_main_board.card_ids())
    for seat, player in enumerate([None, *game.players]):
        own = set(game.hands[seat - 1]) if player else set()
        seen = set(card_ids_in(game.view(player)))
        assert seen <= on_board | own, "a view showed someone else's card"
    if game.phase == "main":  # final-phase masters count as cards only
        won_masters = sum(1 for won in game.won for c in won if DECK[c].kind is Kind.MASTER)
        assert sum(game.masters_won) == won_masters


@settings(max_examples=settings.default.max_examples // 2)  # whole games: make bench runs 10x
@given(
    seats=st.sampled_from([2, 3, 4, 8]),
    deal=st.integers(0, 10**6),
    guided=st.booleans(),
    data=st.data(),
)
@pytest.mark.slow
def test_random_playouts_keep_the_rules(seats, deal, guided, data):
    players = [f"p{i}" for i in range(seats)]
    game = engine.new_game("maestras", deal=deal, players=players)
    in_play = deck_for_players(seats)[1:]
    bot = GreedyPlayer() if guided else RandomPlayer(deal)
    while not game.is_over:
        check_position(game, in_play)
        mover = game.current_player
        legal = game.legal_moves(mover)
        assert legal and all(game.legal_moves(p) == [] for p in players if p != mover)
        texts = {str(m) for m in legal}
        for move in legal:
            assert game.parse_move(str(move)) == move
        tried = legal[data.draw(st.integers(0, len(legal) - 1), label="tried")]
        before = [game.view(p) for p in [None, *players]]
        game.play(str(tried), player=mover)  # any legal move is accepted; undo restores all views
        game.undo()
        assert [game.view(p) for p in [None, *players]] == before
        text = data.draw(NOTATION, label="typed")
        try:
            parsed = str(game.parse_move(text))
        except IllegalMove:
            parsed = None
        if parsed not in texts:
            before = [game.view(p) for p in [None, *players]]
            with pytest.raises(IllegalMove):
                game.play(text, player=mover)
            assert [game.view(p) for p in [None, *players]] == before
        game.play(bot.choose(game, mover), player=mover)
    check_position(game, in_play)
    assert game.phase == "over" and all(game.legal_moves(p) == [] for p in players)
    assert sum(game.masters_won) <= 8 and len(game.results()) == seats
    rebuilt = engine.replay("maestras", deal, players, None, game.moves)
    assert [rebuilt.view(p) for p in [None, *players]] == [game.view(p) for p in [None, *players]]
