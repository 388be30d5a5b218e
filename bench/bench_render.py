"""Render speed and PNG size per game: p50/p95 wall and CPU ms of ``renderer.render`` (drawing +
encoding), and PNG bytes.

Every game is measured on a *sequence of different positions* (a seeded game played move by
move), so each render is a miss of any whole-image cache: what a player's move costs. The same
board rendered again (a hit of ``renderer``'s PNG cache) is reported apart as ``hit_*``.

The machine running this is usually shared, so wall time (``perf_counter``) is reported next to
CPU time of this thread (``thread_time``): CPU time is what the renderer itself costs, wall
time adds whatever the other processes took. ``next_move_*`` renders the positions in order
with only the PNG cache emptied: each board drawn from the one before, as a player's next move
is (``renderer.display``; the pile games). ``pillow_png_p95_cpu_ms`` is Pillow's own PNG
encode (default settings, RGB) of the same pictures: the yardstick for a render after a restart. Each game is run cold (every cache emptied:
sprites are built as cards first appear) and warm (sprites built, PNG cache emptied: every
render a miss, the steady state of a running bot); ``warm_up`` times ``renderer.warm_up()``.

Views come from the real engines when they have landed, otherwise from ``tools.samples``.
"""

from __future__ import annotations

import io
import random
import statistics
import time
from typing import Any

from PIL import Image

import engine
import renderer
from renderer import registry
from tools.gallery import engine_class, seats

POSITIONS = 80


def _positions(game_id: str, hand: bool = False) -> tuple[list[dict[str, Any]], str]:
    """``POSITIONS`` views of one seeded game, move after move (a new deal when one ends)."""
    cls = engine_class(game_id)
    rng = random.Random(7)
    views: list[dict[str, Any]] = []
    deal = 7
    players = seats(game_id)
    game = cls(deal, players, None)
    while len(views) < POSITIONS:
        legal = game.legal_moves()
        if game.is_over or not legal:
            deal += 1
            game = cls(deal, players, None)
            continue
        # prefer the first-listed moves half the time: games progress instead of cycling
        game.play(legal[0] if rng.random() < 0.5 else rng.choice(legal))
        views.append(game.view(game.current_player) if hand else game.view())
    return views, "engine"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def _timed(
    game_id: str, views: list[dict[str, Any]], style: dict[str, Any], miss: str | None = "all"
) -> tuple[list[float], list[float], list[int]]:
    """Wall and CPU seconds and PNG bytes of rendering each view once, in order. ``miss``:
    ``"all"``, every board drawn whole (no PNG, board or pile cache); ``"png"``, never from the
    PNG cache but drawn from the last board (a player's next move); None, every cache kept."""
    walls, cpus, sizes = [], [], []
    for view in views:
        if miss == "all":
            renderer.clear_cache(sprites=False)
        elif miss == "png":
            renderer._png_cache.clear()
        wall0, cpu0 = time.perf_counter(), time.thread_time()
        png = renderer.render(game_id, view, **style)
        cpus.append(time.thread_time() - cpu0)
        walls.append(time.perf_counter() - wall0)
        sizes.append(len(png))
    return walls, cpus, sizes


def _pillow_png(game_id: str, views: list[dict[str, Any]], style: dict[str, Any]) -> list[float]:
    """CPU seconds of Pillow's own PNG encode (``Image.save``, default settings) of each
    rendered picture as RGB: the yardstick the issue sets for a render after a restart."""
    times = []
    for view in views:
        picture = Image.open(io.BytesIO(renderer.render(game_id, view, **style))).convert("RGB")
        started = time.thread_time()
        picture.save(io.BytesIO(), "PNG")
        times.append(time.thread_time() - started)
    return times


def _ms(values: list[float], share: float) -> float:
    return round(_percentile(values, share) * 1000, 2)


def _measure(game_id: str, views: list[dict[str, Any]], style: dict[str, Any]) -> dict[str, Any]:
    """Cold: every cache empty (sprites are built as cards first show up), as after a restart
    without ``renderer.warm_up()``. Warm: the same positions again with only the PNG cache
    emptied: the steady state of a running bot, every render a miss."""
    renderer.clear_cache()
    cold_walls, cold_cpus, _ = _timed(game_id, views, style)
    walls, cpus, sizes = _timed(game_id, views, style)
    renderer.clear_cache(sprites=False)  # no pile of these positions cached yet
    moves = _timed(game_id, views, style, miss="png")[1]
    hits = _timed(game_id, views[-1:] * 20, style, miss=None)[1]
    pillow = _pillow_png(game_id, views, style)
    return {
        "p50_wall_ms": _ms(walls, 0.5),
        "p95_wall_ms": _ms(walls, 0.95),
        "p50_cpu_ms": _ms(cpus, 0.5),
        "p95_cpu_ms": _ms(cpus, 0.95),
        "cold_first_ms": round(cold_walls[0] * 1000, 1),
        "cold_p50_cpu_ms": _ms(cold_cpus[1:], 0.5),
        "cold_p95_cpu_ms": _ms(cold_cpus[1:], 0.95),
        "cold_p95_wall_ms": _ms(cold_walls[1:], 0.95),
        "pillow_png_p95_cpu_ms": _ms(pillow, 0.95),
        "next_move_p50_cpu_ms": _ms(moves, 0.5),
        "next_move_p95_cpu_ms": _ms(moves, 0.95),
        "hit_p50_cpu_ms": round(statistics.median(hits) * 1000, 3),
        "png_bytes_p50": int(statistics.median(sizes)),
        "png_bytes_max": max(sizes),
        "positions": len(views),
    }


def run() -> dict:
    report: dict[str, Any] = {}
    renderer.clear_cache()
    started = time.process_time()
    report["warm_up"] = {
        "sprites": renderer.warm_up(),
        "cpu_ms": round((time.process_time() - started) * 1000, 1),
    }
    for game_id in registry.drawn_games():
        views, source = _positions(game_id)
        styles: list[tuple[str, dict[str, Any]]] = [("", {})]
        faces = engine.game_info(game_id).faces
        if len(faces) > 1:  # every face style a player may ask for (Solitario's three)
            styles = [("_" + f, {"faces": f}) for f in faces]
        for suffix, style in styles:
            report[game_id + suffix] = _measure(game_id, views, style) | {"source": source}
    for game_id in registry.drawn_games():
        if "hand" in registry.drawing(game_id).styles:  # a private hand (Cartas Maestras)
            views, source = _positions(game_id, hand=True)
            report[f"{game_id}_hand"] = _measure(game_id, views, {"hand": True}) | {
                "source": source
            }
    report["replay"] = _replays()
    report["replay"]["solitario_50_moves_gif_kb"] = _solitario_replay_kb()
    return report


def _solitario_replay_kb() -> int:
    """KB of the GIF replay of a 50-move seeded Solitario (the issue's budget: 500 KB)."""
    game = engine.new_game("solitario", 5)
    rng = random.Random(5)
    while len(game.moves) < 50 and not game.is_over and game.legal_moves():
        legal = game.legal_moves()
        game.play(legal[0] if rng.random() < 0.5 else rng.choice(legal))
    return len(renderer.replay("solitario", 5, None, None, game.moves)) // 1024


def _replays() -> dict[str, Any]:
    """GIF against animated WebP for the first 40 moves of a seeded game of each engine."""
    out: dict[str, Any] = {}
    for game_id in registry.drawn_games():
        players = seats(game_id)
        game = engine.new_game(game_id, 7, players)
        rng = random.Random(7)
        while len(game.moves) < 40 and not game.is_over and game.legal_moves():
            legal = game.legal_moves()
            game.play(legal[0] if rng.random() < 0.5 else rng.choice(legal))
        for fmt in ("gif", "webp"):
            started = time.process_time()
            data = renderer.replay(game_id, 7, players, None, game.moves, fmt=fmt)
            out[f"{game_id}_{fmt}"] = {
                "frames": len(game.moves) + 1,
                "kb": len(data) // 1024,
                "cpu_s": round(time.process_time() - started, 2),
            }
    return out
