"""The greedy computer player, made cheaper (issue 27: CPU per command), chooses exactly what it
chose before: every move's value is compared, to the last bit, with the plain way it was
computed before (kept below as the reference) on hundreds of positions of Cartas Maestras
(2-4 seats, main and final phase) and El Solitario."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from engine.players.squadratik import (
    COMPLETE,
    GENERAL_FOLLOWERS,
    LINK_CHANCE,
    OPEN_NEW_PATH,
    OWN_FOLLOWERS,
    PER_CARD_WON,
    PER_MASTER_WON,
    PROGRESS,
    SPEND_EMPTY,
    GreedyPlayer,
    _gift,
    _Table,
)
from engine.squadratik.deck import OPPOSITE

_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}


def _placed(card: dict[str, Any], rotation: int) -> list[str]:
    sides = card["sides"]
    return [sides[(k - rotation) % 4] for k in range(4)]


def reference_value(table: _Table, move: Any) -> float:
    """A move's value as the greedy player computed it before (main, issue 27)."""
    if str(move) in ("pass", "stop"):
        return -1e6
    slot: int = move.slot
    card = table.hand[slot - 1]
    empty = card["kind"] == "empty"
    state = table.state[move.side]
    if state is None:
        direction, after, masters = move.side, 0, 0
    else:
        direction = move.turn if move.turn else table._direction(move.side)
        after, masters, _ = state
    placed = _placed(card, move.rotation)
    new_after = 0 if empty else after + 1
    new_masters = masters + (card["kind"] == "master")
    open_side = None if empty else placed[_INDEX[direction]]
    value = 0.0
    if table.final:
        return reference_followers(table, move, open_side, direction) * OWN_FOLLOWERS - (
            SPEND_EMPTY if empty else 0
        )
    if new_after >= 4:
        path = table.paths[move.side]
        cards = [] if path is None else [table.cards[(x, y)] for x, y in path["cells"]]
        cards = cards + [card]
        if table.maestras:
            won = sum(1 for c in cards if c["kind"] == "master")
            return COMPLETE + PER_MASTER_WON * won + PER_CARD_WON * len(cards)
        return COMPLETE + sum(c["points"] for c in cards)
    value += PROGRESS * new_after
    value += OWN_FOLLOWERS * reference_followers(table, move, open_side, direction)
    chance = 1.0 if open_side is None else LINK_CHANCE.get(open_side, 0.0)
    value += GENERAL_FOLLOWERS * chance
    if empty:
        value -= SPEND_EMPTY
    if state is None and not table.maestras:
        value -= OPEN_NEW_PATH
    if table.maestras:
        before = sum(_gift(s) for s in table.state.values())
        after_states = dict(table.state)
        after_states[move.side] = (new_after, new_masters, open_side)
        value -= sum(_gift(s) for s in after_states.values()) - before
    return value


def reference_followers(table: _Table, move: Any, open_side: str | None, direction: str) -> int:
    count = 0
    back = _INDEX[OPPOSITE[direction]]
    for index, card in enumerate(table.hand):
        if index == move.slot - 1:
            continue
        if open_side is None or card["kind"] == "empty":
            count += 1
        elif table.maestras:
            count += open_side in card["sides"]
        else:
            count += card["sides"][back] == open_side
    return count


def reference_choice(game: engine.Game, player: str | None) -> Any:
    legal = game.legal_moves(player)
    if len(legal) == 1:
        return legal[0]
    table = _Table(game.view(player if player is not None else game.current_player))
    best, best_value = legal[0], float("-inf")
    for move in legal:
        value = reference_value(table, move)
        if value > best_value:
            best, best_value = move, value
    return best


def positions(game_id: str, seats: int, deals: range) -> Iterator[tuple[engine.Game, str]]:
    """Positions met in play (the game itself, before the move it goes on with): the greedy
    player and random moves in turn, to the end of each deal."""
    rng = random.Random(7)
    for deal in deals:
        players = [f"p{i}" for i in range(seats)] if game_id == "maestras" else None
        game = (
            engine.new_game(game_id, deal, players) if players else engine.new_game(game_id, deal)
        )
        while not game.is_over:
            player = game.current_player
            yield game, player
            legal = game.legal_moves(player)
            if rng.random() < 0.6:
                move = GreedyPlayer().choose(game, player)
            else:
                move = legal[0] if rng.random() < 0.5 else rng.choice(legal)
            game.play(move, player)


@pytest.mark.parametrize(
    ("game_id", "seats", "deals"),
    [
        ("maestras", 2, range(1, 9)),
        ("maestras", 3, range(20, 24)),
        ("maestras", 4, range(40, 43)),
        ("squadratik", 1, range(1, 6)),
    ],
)
def test_the_greedy_player_values_and_chooses_every_move_as_before(game_id, seats, deals):
    seen = phases = 0
    kinds: set[str] = set()
    for game, player in positions(game_id, seats, deals):
        legal = game.legal_moves(player)
        if len(legal) < 2:
            continue
        view = game.view(player)
        table, reference = _Table(view), _Table(view)
        assert [GreedyPlayer()._value(table, m) for m in legal] == [
            reference_value(reference, m) for m in legal
        ]
        chosen = GreedyPlayer().choose(game, player)
        assert chosen == reference_choice(game, player)
        assert GreedyPlayer().choose(game, player, view) == chosen  # the caller's view
        seen += 1
        phases += view.get("phase") == "final"
        kinds.update(str(m) for m in legal if str(m) in ("pass", "stop"))
    assert seen >= 100, seen
    if game_id == "maestras" and seats == 2:
        assert phases > 0 and kinds  # the final phase and pass / stop were met
