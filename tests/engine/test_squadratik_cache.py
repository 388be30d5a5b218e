"""The legal placements are listed once per position and reused by ``legal_moves``, ``play``
and the end-of-game checks: whatever the history (moves, refused moves, undos), a game must
offer and accept exactly what a game rebuilt from its move log offers and accepts."""

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.game import IllegalMove
from engine.squadratik.board import Board
from engine.squadratik.common import list_placements
from engine.squadratik.el_solitario import ElSolitario
from engine.squadratik.maestras import CartasMaestras
from engine.squadratik.notation import Place

# hand-built El Solitario line: 15, 21, 23 on path N link in turn and 25 completes the path
NORTH_CHAIN = [(15, 0), (21, 0), (23, 0)]


def reason(game, move):
    try:
        game.play(move)
    except IllegalMove as error:
        return error.reason
    game.undo()
    return None


def probes(game):
    """Legal and illegal placements: every hand slot (and one past the hand) on every side,
    straight on and turning, with and without a quarter turn."""
    slots = len(game.view(game.current_player)["hand"]) + 1
    return [
        Place(slot, side, turn, rotation)
        for slot in range(1, slots + 1)
        for side in "NESW"
        for turn in (None, "N", "E")
        for rotation in (0, 1)
    ]


def assert_same_as_rebuilt(game, players):
    rebuilt = engine.replay(game.game_id, game.deal, players, {}, game.moves)
    assert game.legal_moves() == rebuilt.legal_moves()
    assert (game.outcome, game.view()) == (rebuilt.outcome, rebuilt.view())


@settings(max_examples=25, deadline=None)
@given(
    game_id=st.sampled_from(["squadratik", "maestras"]),
    deal=st.integers(0, 10**6),
    data=st.data(),
)
def test_moves_refusals_and_undos_never_leave_stale_legal_moves(game_id, deal, data):
    players = ["a"] if game_id == "squadratik" else ["a", "b", "c"]
    game = engine.new_game(game_id, deal, players)
    for _ in range(40):
        if game.is_over:
            break
        action = data.draw(st.sampled_from(["play", "play", "play", "refused", "undo"]))
        if action == "undo" and game.moves:
            game.undo()
        elif action == "refused":
            # Whatever a probe does on this game, it does the same on a rebuilt one.
            probe = data.draw(st.sampled_from(probes(game)))
            rebuilt = engine.replay(game_id, deal, players, {}, game.moves)
            assert reason(game, probe) == reason(rebuilt, probe)
        else:
            legal = game.legal_moves()
            game.play(data.draw(st.sampled_from(legal)))
        assert_same_as_rebuilt(game, players)


def test_a_listed_placement_is_applied_where_it_was_listed():
    game = ElSolitario.from_position(Board.from_paths({"N": NORTH_CHAIN}), hand=[25, 1], stock=[31])
    assert [str(m) for m in game.legal_moves()][:2] == ["1N", "1E"]
    game.play("1N")
    # the path completed and was removed: the north side is free again
    assert game.board.paths["N"] is None and game.hand == [1, 31]
    assert game.legal_moves() == list_placements(game.board, game.hand, (0,), lambda card: True)


def test_undo_offers_the_earlier_placements_again():
    game = ElSolitario.from_position(Board(), hand=[20, 25], stock=[18])
    before = game.legal_moves()
    game.play("1N")
    assert game.legal_moves() != before
    game.undo()
    assert game.legal_moves() == before


def test_a_hand_built_position_lists_its_own_placements_not_the_deals():
    only_masters = CartasMaestras.from_position(["a", "b"], Board(), [[20, 7], [21]])
    assert {only_masters.hands[0][m.slot - 1] for m in only_masters.legal_moves()} == {7}
    final = CartasMaestras.from_position(["a", "b"], Board(), [[1], [21]], final_phase=True)
    # the final phase lets any card start a path (an empty card only unturned)
    assert [str(m) for m in final.legal_moves()] == ["1N", "1E", "1S", "1W", "stop"]
