"""Computer players: legal, seeded, honest (view + legal moves only), and sensible."""

import pytest

import engine
from engine.players import RandomPlayer, make_player
from engine.players.squadratik import GreedyPlayer
from engine.squadratik.board import Board
from engine.squadratik.el_solitario import ElSolitario
from engine.squadratik.maestras import CartasMaestras

EMPTY = 1
THREE_SHORT = [(7, 3), (20, 0), (25, 0)]  # master (R4 up), then two links: card 18 completes it


class OnlyWhatASeatSees:
    """A game stand-in exposing only the view and the legal moves: anything else raises."""

    def __init__(self, game, seat):
        self._game, self._seat = game, seat

    def view(self, player=None):
        assert player == self._seat, "a player may look only through its own seat"
        return self._game.view(player)

    def legal_moves(self, player=None):
        return self._game.legal_moves(player)

    @property
    def current_player(self):
        return self._game.current_player

    def __getattr__(self, name):
        raise AssertionError(f"the computer player peeked at game.{name}")


def play_out(game, choose):
    while not game.is_over:
        mover = game.current_player
        game.play(choose(OnlyWhatASeatSees(game, mover), mover), player=mover)
    return game


@pytest.mark.parametrize("strategy", ["greedy", "careful", "random"])
def test_players_finish_both_games_with_legal_moves_seeing_only_their_seat(strategy):
    bot = make_player(strategy, seed=3)
    solo = play_out(engine.new_game("squadratik", deal=8), bot.choose)
    assert solo.is_over
    table = play_out(engine.new_game("maestras", deal=8, players=["a", "b", "c"]), bot.choose)
    assert table.results() is not None


def test_random_player_repeats_with_the_same_seed_and_varies_with_another():
    def moves(seed):
        return play_out(
            engine.new_game("maestras", deal=2, players=["a", "b"]), RandomPlayer(seed).choose
        ).moves

    assert moves(5) == moves(5)
    assert moves(5) != moves(6)


def test_greedy_completes_a_path_in_el_solitario():
    # 15, 21, 23 link in turn; only 25 (S R2 against 23's N R2) completes the path
    board = Board.from_paths({"N": [(15, 0), (21, 0), (23, 0)]})
    game = ElSolitario.from_position(board, hand=[41, 25, 45], stock=[30])
    assert str(GreedyPlayer().choose(game)) == "2N"


def test_greedy_wins_an_open_master_in_cartas_maestras():
    board = Board.from_paths({"N": THREE_SHORT})
    game = CartasMaestras.from_position(
        ["a", "b"], board, [[17, 18], [26]], stock=[30]
    )  # 17: no R4
    assert str(GreedyPlayer().choose(game, "a")) == "2N"


def test_greedy_does_not_leave_a_master_one_card_from_completion():
    # 25 or master 9 on path N would leave it three links long for the next player
    board = Board.from_paths({"N": [(7, 0), (20, 0)]})
    game = CartasMaestras.from_position(["a", "b"], board, [[25, 9], [26]], stock=[30])
    move = GreedyPlayer().choose(game, "a")
    game.play(move, player="a")
    assert all(path is None or path.after_empty != 3 for path in game.board.paths.values())


def test_greedy_keeps_building_in_the_final_phase():
    game = CartasMaestras.from_position(["a", "b"], Board(), [[20, 25, 18], [26]], final_phase=True)
    while game.current_player == "a":
        assert str(GreedyPlayer().choose(game, "a")) != "stop"
        game.play(GreedyPlayer().choose(game, "a"), player="a")
    assert len(game.won[0]) == 3


def test_greedy_scores_more_than_random_in_el_solitario():
    deals = range(12)
    greedy = [play_out(ElSolitario(deal=d), GreedyPlayer().choose) for d in deals]
    random = [play_out(ElSolitario(deal=d), RandomPlayer(d).choose) for d in deals]
    assert sum(g.score for g in greedy) > 1.3 * sum(g.score for g in random)
    # and it empties its hand far more often: random play mostly gets stuck
    assert sum(g.result_rank for g in greedy) >= 3 * sum(g.result_rank for g in random)


def test_careful_plays_its_last_hand_for_the_completo():
    # Both 25 and 46 complete path N (S R2 on 23's N R2); only 25 (W R4) completes path E
    # (24's E R4). Sending 25 north first would strand 46: played out instead of a completo.
    def position():
        board = Board.from_paths(
            {"N": [(15, 0), (21, 0), (23, 0)], "E": [(16, 0), (17, 0), (24, 0)]}
        )
        return ElSolitario.from_position(board, hand=[25, 46])

    game = play_out(position(), make_player("careful").choose)
    assert game.outcome == "completo"
    stranded = position()
    stranded.play("1N")
    assert stranded.board.paths["N"] is None and stranded.hand == [46]
    stranded.play(stranded.legal_moves()[0])
    assert stranded.outcome == "played_out"


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError):
        make_player("clairvoyant")
