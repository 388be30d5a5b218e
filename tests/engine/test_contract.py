"""The engine contract, checked on every registered game by random playouts.

In the spirit of OpenSpiel's ``random_sim_test``: play random legal moves and check at every
step that the public API agrees with itself. Parametrised over ``sorted(engine.GAMES)``, so a
game is covered as soon as it is registered. For each game it plays the default options, each
non-default option value, and both the fewest and the most players.

Checked at every step: legal moves are accepted and have distinct notations that parse back
to the same move; garbage notation is refused with no change; undo restores every player's
view exactly; views are JSON data (equal to their own JSON round trip); a game that is not over
has a move for whoever is to move; a game that is over has none and refuses moves. At the end:
``engine.replay`` of the move log rebuilds the same game.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.game import IllegalMove

# Long enough to reach the end of most games, short enough for the whole file to stay fast
# whatever the games cost per move.
MAX_MOVES_PER_PLAYOUT = 160
GARBAGE_NOTATION = ["", "??", "zz 99 zz"]


def variants() -> list[pytest.ParameterSet]:
    """(game id, options, player count) for every registered game."""
    cases = []
    for game_id in sorted(engine.GAMES):
        cls = engine.GAMES[game_id]
        option_sets: list[dict[str, Any]] = [{}]
        for name, choices in cls.option_choices.items():
            option_sets.extend({name: value} for value in choices[1:])
        counts = sorted({cls.min_players, cls.max_players})
        for options in option_sets:
            for count in counts:
                label = "-".join([game_id, *(f"{k}={v}" for k, v in options.items()), f"{count}p"])
                cases.append(pytest.param(game_id, options, count, id=label))
    return cases


def all_views(game: engine.Game) -> list[dict[str, Any]]:
    """The public view and each player's own view."""
    return [game.view(None)] + [game.view(player) for player in game.players]


def assert_json_data(view: dict[str, Any]) -> None:
    text = json.dumps(view, allow_nan=False)
    assert json.loads(text) == view, "a view must be plain JSON data (lists, str keys)"


@settings(max_examples=4)
@given(data=st.data())
@pytest.mark.parametrize(("game_id", "options", "player_count"), variants())
def test_random_playout_is_consistent(game_id, options, player_count, data):
    players = [f"p{i}" for i in range(1, player_count + 1)]
    deal = data.draw(st.integers(0, 2**31), label="deal")
    game = engine.new_game(game_id, deal=deal, players=players, options=options)
    assert game.game_id == game_id and game.move_number == 0 and game.moves == []

    while not game.is_over and game.move_number < MAX_MOVES_PER_PLAYOUT:
        mover = game.current_player
        legal = game.legal_moves()
        assert legal, f"{game_id}: not over, yet {mover} has no legal move"
        notations = [str(move) for move in legal]
        assert len(set(notations)) == len(notations), (
            f"two legal moves share a notation: {notations}"
        )
        for move in legal:
            assert hasattr(move, "src") and hasattr(move, "dst")
            assert game.parse_move(str(move)) == move

        before = all_views(game)
        for view in before:
            assert_json_data(view)
        for text in GARBAGE_NOTATION:
            with pytest.raises(IllegalMove):
                game.play(text, player=mover)
        assert all_views(game) == before

        move = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        game.play(move, player=mover)
        assert game.moves[-1] == str(move) and game.move_number == len(game.moves)
        assert game.undo() == str(move)
        assert all_views(game) == before, "undo must restore every view exactly"
        game.play(str(move), player=mover)  # the notation plays the same move as the value

    if game.is_over:
        assert game.legal_moves() == []
        assert game.outcome is not None and game.view()["outcome"] == str(game.outcome)
        with pytest.raises(IllegalMove) as refused:
            game.play(str(game.moves[-1]) if game.moves else "??")
        assert refused.value.reason == "game_over"
    for view in all_views(game):
        assert_json_data(view)

    rebuilt = engine.replay(game_id, deal, players, options, game.moves)
    assert rebuilt.moves == game.moves
    assert all_views(rebuilt) == all_views(game)
    assert (rebuilt.score, rebuilt.outcome) == (game.score, game.outcome)
    assert len(game.returns()) == len(players)
