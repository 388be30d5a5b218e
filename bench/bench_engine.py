"""Engine speed: random playouts of every registered game through the public API only.

For each game in ``engine.GAMES`` (default options, the fewest players) it plays whole games
with uniformly random legal moves for a fixed time and reports moves per second, games per
second and mean moves per game, plus how the games ended and what ``view()`` costs (the bot
calls it after every move to draw the board).

Every figure comes twice: wall time (``time.perf_counter``) and CPU time of this process
(``time.process_time``, the ``*_cpu`` keys). The machine is shared, so wall time also counts
whoever else is running; CPU time is the figure to compare between runs. Per move it reports
the cost of ``legal_moves()``, of ``play()``, of both together, and of the ``is_over`` check
after the move (in the patience games that is where the stall search runs). The cost of
reading the clocks is measured first and taken off each timed call.

>>> result = run(seconds_per_game=0.05)  # doctest: +SKIP
>>> sorted(result["games"]["imaginary13"])  # doctest: +SKIP
['capped_games', 'cpu_seconds', 'games', 'games_per_cpu_second', ...]
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
CLOCK_SAMPLES = 20_000


def clock_overhead() -> tuple[float, float]:
    """Seconds one timed interval adds by itself (reading both clocks once), wall and CPU.

    ``process_time`` is a system call on most machines, close to a microsecond: next to a
    call that takes a few microseconds that is not noise, so it is measured and subtracted.
    """
    wall, cpu = time.perf_counter, time.process_time
    w0, c0 = wall(), cpu()
    for _ in range(CLOCK_SAMPLES):
        wall()
        cpu()
    w1, c1 = wall(), cpu()
    return (w1 - w0) / CLOCK_SAMPLES, (c1 - c0) / CLOCK_SAMPLES


def _us(seconds: float, count: int) -> float:
    return round(1e6 * max(seconds, 0.0) / max(count, 1), 2)


def bench_game(
    game_id: str,
    seconds: float = SECONDS_PER_GAME,
    overhead: tuple[float, float] = (0.0, 0.0),
) -> dict[str, Any]:
    """Random playouts of ``game_id`` for about ``seconds`` of wall time; JSON-ready numbers.

    At least one playout runs whatever ``seconds`` is. ``overhead``: what reading the clocks
    costs per timed interval (:func:`clock_overhead`), taken off the per-call figures.
    """
    cls = engine.GAMES[game_id]
    players = [f"p{i}" for i in range(1, cls.min_players + 1)]
    chooser = random.Random(CHOICE_SEED)
    wall, cpu = time.perf_counter, time.process_time
    outcomes: Counter[str] = Counter()
    games = moves = capped = 0
    score_total = 0.0
    # [wall, cpu] seconds spent in legal_moves(), play() and the is_over check
    legal_time, play_time, over_time = [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]
    started, started_cpu = wall(), cpu()
    deal = 0
    while games == 0 or wall() - started < seconds:
        game = engine.new_game(game_id, deal=deal, players=players)
        deal += 1
        while not game.is_over and game.move_number < MAX_MOVES_PER_PLAYOUT:
            w0, c0 = wall(), cpu()
            legal = game.legal_moves()
            w1, c1 = wall(), cpu()
            game.play(chooser.choice(legal))
            w2, c2 = wall(), cpu()
            game.is_over  # noqa: B018 - timed here; the loop's own check then reads the cache
            w3, c3 = wall(), cpu()
            legal_time[0] += w1 - w0
            legal_time[1] += c1 - c0
            play_time[0] += w2 - w1
            play_time[1] += c2 - c1
            over_time[0] += w3 - w2
            over_time[1] += c3 - c2
            moves += 1
        games += 1
        if game.is_over:
            outcomes[str(game.outcome)] += 1
        else:
            capped += 1
        score_total += game.score
    elapsed, elapsed_cpu = wall() - started, cpu() - started_cpu

    def per_move(spent: float, clock: int, intervals: int = 1) -> float:
        """Mean microseconds per move of ``spent`` seconds on ``clock`` (0 wall, 1 CPU),
        less the clock reads of ``intervals`` timed intervals per move."""
        return _us(spent - intervals * moves * overhead[clock], moves)

    view_ms, view_cpu_ms = _mean_view_ms(game_id, players, overhead)
    return {
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(elapsed_cpu, 3),
        "games": games,
        "moves": moves,
        "moves_per_second": round(moves / elapsed, 1),
        "moves_per_cpu_second": round(moves / elapsed_cpu, 1) if elapsed_cpu else None,
        "games_per_second": round(games / elapsed, 2),
        "games_per_cpu_second": round(games / elapsed_cpu, 2) if elapsed_cpu else None,
        "mean_moves_per_game": round(moves / games, 1),
        "capped_games": capped,
        "outcomes": dict(sorted(outcomes.items())),
        "mean_score": round(score_total / games, 2),
        "legal_moves_us": per_move(legal_time[0], 0),
        "legal_moves_cpu_us": per_move(legal_time[1], 1),
        "play_us": per_move(play_time[0], 0),
        "play_cpu_us": per_move(play_time[1], 1),
        "legal_moves_and_play_us": per_move(legal_time[0] + play_time[0], 0, intervals=2),
        "legal_moves_and_play_cpu_us": per_move(legal_time[1] + play_time[1], 1, intervals=2),
        "is_over_us": per_move(over_time[0], 0),
        "is_over_cpu_us": per_move(over_time[1], 1),
        "view_ms": view_ms,
        "view_cpu_ms": view_cpu_ms,
    }


def _mean_view_ms(
    game_id: str, players: list[str], overhead: tuple[float, float]
) -> tuple[float, float]:
    """Mean cost of ``view(player)`` over positions of one random playout (wall, CPU)."""
    chooser = random.Random(CHOICE_SEED)
    wall, cpu = time.perf_counter, time.process_time
    game = engine.new_game(game_id, deal=0, players=players)
    total = total_cpu = 0.0
    for _ in range(VIEW_SAMPLES):
        w0, c0 = wall(), cpu()
        game.view(game.players[0])
        w1, c1 = wall(), cpu()
        total += w1 - w0 - overhead[0]
        total_cpu += c1 - c0 - overhead[1]
        if not game.is_over and game.move_number < MAX_MOVES_PER_PLAYOUT:
            game.play(chooser.choice(game.legal_moves()))
    return (
        round(1000 * max(total, 0.0) / VIEW_SAMPLES, 4),
        round(1000 * max(total_cpu, 0.0) / VIEW_SAMPLES, 4),
    )


def run(seconds_per_game: float = SECONDS_PER_GAME) -> dict[str, Any]:
    """Benchmark every registered game; the dict ``python -m bench`` prints as JSON."""
    overhead = clock_overhead()
    return {
        "seconds_per_game": seconds_per_game,
        "max_moves_per_playout": MAX_MOVES_PER_PLAYOUT,
        "clock_overhead_us": {"wall": _us(overhead[0], 1), "cpu": _us(overhead[1], 1)},
        "games": {
            game_id: bench_game(game_id, seconds_per_game, overhead)
            for game_id in sorted(engine.GAMES)
        },
    }
