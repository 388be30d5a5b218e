"""Hints never send the player round in circles (issue 26, finding 5): in a Solitario that could
no longer be won, ``/hint`` said "d — turn the stock" 44 times in a row.

Following the hints, a game now ends (won, or stalled as the engine announces) or the hint says
that no move helps; it never turns the stock for more than one round without the board
changing, and never leads back to a position the game has been in."""

from __future__ import annotations

import pytest

import engine
from engine.solvers.hints import Advice, advice, hint

#: deals on which the one-move lookahead alone went round the stock for ever (found by
#: following its hints on deals 1-79: 21 of them looped)
LOOPING_DEALS = (8, 11, 18, 33, 37, 47)


def _position(game: engine.Game) -> str:
    """The whole visible position, stock and waste included."""
    view = game.view(None)
    return repr([(p["id"], p["down"], p["cards"]) for p in view["piles"]])


def _round_length(game: engine.Game) -> int:
    """How many stock turns bring the stock and waste back to where they are (draw three)."""
    piles = {p["id"]: p for p in game.view(None)["piles"]}
    cards = piles["s"]["down"] + len(piles["s"]["cards"]) + len(piles["w"]["cards"])
    return -(-cards // 3) + 1


@pytest.mark.parametrize("deal", LOOPING_DEALS)
def test_following_the_hints_ends_the_game_or_says_nothing_helps(deal: int) -> None:
    game = engine.new_game("solitario", deal)
    seen = {_position(game)}
    draws = 0
    for _ in range(400):
        if game.is_over:
            break
        said = advice(game)
        if said.stuck:
            assert said.move is None and hint(game) is None
            break
        assert said.move is not None and said.move in game.legal_moves()
        draws = draws + 1 if str(said.move) == "d" else 0
        assert draws <= _round_length(game), f"deal {deal}: round the stock again at {game.moves}"
        game.play(said.move)
        if str(said.move) != "d":
            position = _position(game)
            assert position not in seen, f"deal {deal}: back to an earlier position"
            seen.add(position)
    else:
        pytest.fail(f"deal {deal}: still going after 400 hints")


def test_the_advice_leaves_the_game_as_it_found_it() -> None:
    game = engine.new_game("solitario", 18)
    for _ in range(20):
        game.play(advice(game).move)
    before = (_position(game), list(game.moves), game.score)
    advice(game)
    assert (_position(game), list(game.moves), game.score) == before
    game.undo()  # its history is intact too
    assert len(game.moves) == 19


def test_a_short_plan_of_visible_moves_is_preferred_to_drawing() -> None:
    from engine.solitario import Solitario

    # Nothing fits at once, but moving 4h 3c off the 5s (onto the 5c) frees the 5s for its
    # foundation: a two-move plan, suggested instead of turning the stock.
    game = Solitario.from_layout(
        ["Kd | 5s 4h 3c", "5c"], stock="Jd Jh Js", foundations=["", "", "", "As 2s 3s 4s"]
    )
    said = advice(game)
    assert str(said.move) == "12:2" or str(said.move) == "12"
    assert said.plan == 2 and not said.stuck


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_every_game_gets_advice_with_a_legal_move(game_id: str) -> None:
    players = [f"p{n}" for n in range(engine.GAMES[game_id].min_players)]
    game = engine.new_game(game_id, deal=3, players=players)
    said = advice(game, game.current_player)
    assert isinstance(said, Advice) and not said.stuck
    assert said.move in game.legal_moves(game.current_player)
    assert hint(game, game.current_player) == said.move
