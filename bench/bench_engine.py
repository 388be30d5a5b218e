"""Engine speed: random playouts of every registered game through the public API only.

For each game in ``engine.GAMES`` (default options, the fewest players) it plays whole games
with uniformly random legal moves for a fixed time and reports moves per second, games per
second and mean moves per game, plus how the games ended and what ``view()`` costs (the bot
calls it after every move to draw the board).

>>> result = run(seconds_per_game=0.05)  # doctest: +SKIP
>>> sorted(result["games"]["imaginary13"])  # doctest: +SKIP
['capped_games', 'games', 'games_per_second', 'mean_moves_per_game', ...]
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import engine

SECONDS_PER_GAME = 2.0
# A random player may wander for a long time in games with unlimited stock recycling; a
# playout stops here and is counted in ``capped_games``.
MAX_MOVES_PER_PLAYOUT = 1000
VIEW_SAMPLES = 200
CHOICE_SEED = 20240601  # fixed, so two runs play the same games and compare fairly


def bench_game(game_id: str, seconds: float = SECONDS_PER_GAME) -> dict[str, Any]:
    """Random playouts of ``game_id`` for about ``seconds``; JSON-ready numbers.

    At least one playout runs whatever ``seconds`` is.
    """
    cls = engine.GAMES[game_id]
    players = [f"p{i}" for i in range(1, cls.min_players + 1)]
    chooser = random.Random(CHOICE_SEED)
    outcomes: Counter[str] = Counter()
    games = moves = capped = 0
    score_total = 0.0
    legal_seconds = play_seconds = 0.0
    started = time.perf_counter()
    deal = 0
    while games == 0 or time.perf_counter() - started < seconds:
        game = engine.new_game(game_id, deal=deal, players=players)
        deal += 1
        while not game.is_over and game.move_number < MAX_MOVES_PER_PLAYOUT:
            t0 = time.perf_counter()
            legal = game.legal_moves()
            t1 = time.perf_counter()
            game.play(chooser.choice(legal))
            t2 = time.perf_counter()
            legal_seconds += t1 - t0
            play_seconds += t2 - t1
            moves += 1
        games += 1
        if game.is_over:
            outcomes[str(game.outcome)] += 1
        else:
            capped += 1
        score_total += game.score
    elapsed = time.perf_counter() - started

    view_ms = _mean_view_ms(game_id, players)
    return {
        "seconds": round(elapsed, 3),
        "games": games,
        "moves": moves,
        "moves_per_second": round(moves / elapsed, 1),
        "games_per_second": round(games / elapsed, 2),
        "mean_moves_per_game": round(moves / games, 1),
        "capped_games": capped,
        "outcomes": dict(sorted(outcomes.items())),
        "mean_score": round(score_total / games, 2),
        "legal_moves_us": round(1e6 * legal_seconds / max(moves, 1), 1),
        "play_us": round(1e6 * play_seconds / max(moves, 1), 1),
        "view_ms": view_ms,
    }


def _mean_view_ms(game_id: str, players: list[str]) -> float:
    """Mean cost of ``view(player)`` over positions of one random playout."""
    chooser = random.Random(CHOICE_SEED)
    game = engine.new_game(game_id, deal=0, players=players)
    total = 0.0
    for _ in range(VIEW_SAMPLES):
        t0 = time.perf_counter()
        game.view(game.players[0])
        total += time.perf_counter() - t0
        if not game.is_over and game.move_number < MAX_MOVES_PER_PLAYOUT:
            game.play(chooser.choice(game.legal_moves()))
    return round(1000 * total / VIEW_SAMPLES, 3)


def run(seconds_per_game: float = SECONDS_PER_GAME) -> dict[str, Any]:
    """Benchmark every registered game; the dict ``python -m bench`` prints as JSON."""
    return {
        "seconds_per_game": seconds_per_game,
        "max_moves_per_playout": MAX_MOVES_PER_PLAYOUT,
        "games": {
            game_id: bench_game(game_id, seconds_per_game) for game_id in sorted(engine.GAMES)
        },
    }
