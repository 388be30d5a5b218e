"""FreeCell's legal moves, listed in a third of the time (issue 27: CPU per command), are the
very moves, in the very order, that the plain way (each pair of columns worked out on its own,
kept below as the reference) lists, on thousands of positions met in play."""

from __future__ import annotations

import random

import engine
from engine.freecell import (
    _COLUMN_INDEX,
    _RULE,
    _SUIT_INDEX,
    CELLS,
    COLUMNS,
    HOMES,
    FreeCellMove,
    run_length,
)


def reference_moves(game: engine.Game) -> list[FreeCellMove]:
    """The legal moves as FreeCell listed them before (main, issue 27)."""
    moves: list[FreeCellMove] = []
    homes = game._homes
    sources = [(CELLS[i], card) for i, card in enumerate(game._cells) if card is not None]
    sources += [(COLUMNS[i], col[-1]) for i, col in enumerate(game._columns) if col]
    for src, card in sources:
        index = _SUIT_INDEX[card.suit]
        if homes[index] == card.rank - 1:
            moves.append(FreeCellMove(src, HOMES[index]))
    empty = [COLUMNS[i] for i, column in enumerate(game._columns) if not column]
    filled = [COLUMNS[i] for i, column in enumerate(game._columns) if column]
    capacity = game._capacity(False)
    for src in filled:
        for dst in filled:
            if src != dst:
                count = game._implied_count(src, dst)
                if count is not None and count <= capacity:
                    moves.append(FreeCellMove(src, dst))
    for i, held in enumerate(game._cells):
        if held is not None:
            for dst in filled:
                if _RULE.accepts(game._columns[_COLUMN_INDEX[dst]][-1], held):
                    moves.append(FreeCellMove(CELLS[i], dst))
    if empty:
        longest = game._capacity(True)
        for src in filled:
            implied = min(run_length(game._columns[_COLUMN_INDEX[src]]), longest)
            run = min(implied, len(game._columns[_COLUMN_INDEX[src]]) - 1)
            for dst in empty:
                moves.extend(
                    FreeCellMove(src, dst, 0 if n == implied else n) for n in range(run, 0, -1)
                )
        for i, held in enumerate(game._cells):
            if held is not None:
                moves.extend(FreeCellMove(CELLS[i], dst) for dst in empty)
    free = [CELLS[i] for i, card in enumerate(game._cells) if card is None]
    for src in filled:
        moves.extend(FreeCellMove(src, dst) for dst in free)
    return moves


def test_freecell_lists_the_same_moves_in_the_same_order_as_before():
    rng = random.Random(11)
    positions = runs_moved = emptied = 0
    for deal in range(1, 41):
        game = engine.new_game("freecell", deal)
        while not game.is_over and game.move_number < 150:
            legal = game.legal_moves()
            assert legal == reference_moves(game), (deal, game.move_number)
            positions += 1
            runs_moved += any(":" in str(m) or m.src in COLUMNS and m.dst in COLUMNS for m in legal)
            emptied += any(not column for column in game._columns)
            # home first a third of the time (games go deep), often off the shortest column
            # (columns empty), else any move
            home = [m for m in legal if m.dst in HOMES]
            columns = {c: len(game._columns[_COLUMN_INDEX[c]]) for c in COLUMNS}
            shortest = sorted(
                (m for m in legal if m.src in columns and columns[m.src]),
                key=lambda m: columns[m.src],
            )
            if home and rng.random() < 0.3:
                game.play(home[0])
            elif shortest and rng.random() < 0.5:
                game.play(shortest[0])
            else:
                game.play(rng.choice(legal))
    # thousands of positions, with runs between columns and empty columns among them
    assert positions > 2000 and runs_moved > 500 and emptied > 100, (positions, runs_moved, emptied)
