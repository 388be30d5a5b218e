"""Render speed and PNG size per game: p50/p95 wall and CPU ms of ``renderer.render`` (drawing +
encoding), and PNG bytes.

Every game is measured on a *sequence of different positions* (a seeded game played move by
move), so each render is a miss of any whole-image cache: what a player's move costs. The same
board rendered again (a hit of ``renderer``'s PNG cache) is reported apart as ``hit_*``.

The machine running this is usually shared, so wall time (``perf_counter``) is reported next to
CPU time of this thread (``thread_time``): CPU time is what the renderer itself costs, wall
time adds whatever the other processes took. The first render of each game is left out (it
builds the cached sprites and fonts once) and reported as ``first_ms``.

Views come from the real engines when they have landed, otherwise from ``renderer.samples``.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import engine
import renderer
from renderer import samples

POSITIONS = 80
PLAYERS = {"maestras": ["ana", "bob", "cy"]}


def _game_class(game_id: str) -> Any:
    """The engine class for ``game_id``: registered in ``engine.GAMES`` or, while a game is
    landing, its module (the view is what matters here, not the registry)."""
    if game_id in engine.GAMES:
        return engine.GAMES[game_id]
    try:
        if game_id == "solitario":
            from engine.solitario import Solitario
            return Solitario
        if game_id == "canfield":
            from engine.canfield import Canfield  # type: ignore[import-not-found]
            return Canfield
    except ImportError:
        return None
    return None


def _positions(game_id: str, hand: bool = False) -> tuple[list[dict[str, Any]], str]:
    """``POSITIONS`` views of one seeded game, move after move (a new deal when one ends)."""
    cls = _game_class(game_id)
    if cls is None:
        if game_id == "solitario":
            return [samples.solitario_view(s) for s in ("start", "mid", "end")] * 27, "sample"
        return [samples.canfield_view(s) for s in ("start", "mid", "end")] * 27, "sample"
    rng = random.Random(7)
    views: list[dict[str, Any]] = []
    deal = 7
    players = PLAYERS.get(game_id)
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


def _measure(game_id: str, views: list[dict[str, Any]], style: dict[str, Any]) -> dict[str, Any]:
    getattr(renderer, "clear_cache", lambda: None)()
    started = time.perf_counter()
    renderer.render(game_id, views[0], **style)
    first = time.perf_counter() - started
    walls, cpus, sizes = [], [], []
    for view in views[1:]:
        wall0, cpu0 = time.perf_counter(), time.thread_time()
        png = renderer.render(game_id, view, **style)
        cpus.append(time.thread_time() - cpu0)
        walls.append(time.perf_counter() - wall0)
        sizes.append(len(png))
    hits = []
    for _ in range(20):
        cpu0 = time.thread_time()
        renderer.render(game_id, views[-1], **style)
        hits.append(time.thread_time() - cpu0)
    return {
        "first_ms": round(first * 1000, 1),
        "p50_wall_ms": round(statistics.median(walls) * 1000, 2),
        "p95_wall_ms": round(_percentile(walls, 0.95) * 1000, 2),
        "p50_cpu_ms": round(statistics.median(cpus) * 1000, 2),
        "p95_cpu_ms": round(_percentile(cpus, 0.95) * 1000, 2),
        "hit_p50_cpu_ms": round(statistics.median(hits) * 1000, 3),
        "png_bytes_p50": int(statistics.median(sizes)),
        "png_bytes_max": max(sizes),
        "positions": len(walls),
    }


def run() -> dict:
    report: dict[str, Any] = {}
    for game_id in ("solitario", "canfield", "imaginary13", "squadratik", "maestras"):
        views, source = _positions(game_id)
        styles = [("", {})]
        if game_id == "solitario":
            styles = [("_" + f, {"faces": f}) for f in ("napoletane", "piacentine", "francesi")]
        for suffix, style in styles:
            report[game_id + suffix] = _measure(game_id, views, style) | {"source": source}
    if "maestras" in engine.GAMES:
        views, source = _positions("maestras", hand=True)
        report["maestras_hand"] = _measure("maestras", views, {"hand": True}) | {"source": source}
    return report
