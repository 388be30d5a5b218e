"""Golf's solver (``GameInfo.solver`` names this module): a depth-first search over the
whole deal, every card known, with a table of positions already searched. A position is the
columns' heights, the stock's size and the foundation's top rank: the rest follows from the deal.
"""

from __future__ import annotations

from engine.game import Game
from engine.solvers import LOST, UNKNOWN, WON, Counter, OutOfBudget, SearchOutcome
from tests.adding_a_game.golf import Golf


def search(game: Game, counter: Counter) -> SearchOutcome:
    """A winning line from ``game``'s position, a proof there is none, or ``unknown``."""
    assert isinstance(game, Golf)
    columns = [[card.rank for card in column] for column in game.columns]
    stock = [card.rank for card in game.stock]
    heights = [len(column) for column in columns]
    seen: set[tuple[tuple[int, ...], int, int]] = set()
    line: list[str] = []
    # an explicit stack of (position's next move index) instead of recursion
    stack: list[tuple[int, int]] = []  # (stock size, foundation top) to restore on backtrack
    top = game.home[-1].rank
    size = len(stock)

    def moves() -> list[int]:
        found = [
            k
            for k in range(len(columns))
            if heights[k] and abs(columns[k][heights[k] - 1] - top) == 1
        ]
        return found + ([-1] if size else [])

    frames: list[tuple[list[int], int]] = [(moves(), 0)]
    try:
        while frames:
            if sum(heights) == 0:
                return SearchOutcome(WON, list(line), WON)
            options, index = frames[-1]
            key = (tuple(heights), size, top)
            if index == 0 and key in seen:
                options = []
            seen.add(key)
            if index >= len(options):
                frames.pop()
                if stack:
                    undone = line.pop()
                    if undone != "d":
                        heights[int(undone) - 1] += 1
                    size, top = stack.pop()
                continue
            frames[-1] = (options, index + 1)
            counter.tick()
            move = options[index]
            stack.append((size, top))
            if move < 0:
                size -= 1
                top = stock[size]
                line.append("d")
            else:
                heights[move] -= 1
                top = columns[move][heights[move]]
                line.append(str(move + 1))
            frames.append((moves(), 0))
    except OutOfBudget:
        return SearchOutcome(UNKNOWN, [], None)
    return SearchOutcome(LOST, [], None)
