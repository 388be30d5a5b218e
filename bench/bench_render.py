"""Render speed and PNG size per game: p50/p95 of ``renderer.render`` (drawing + encoding).

Views come from the real engines when they have landed (a mid-game position reached with
seeded random moves), otherwise from ``renderer.samples``. The first render of each game is
left out: it builds the cached sprites and fonts once.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import engine
import renderer
from renderer import samples

ROUNDS = 60


def _views() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    views: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for game_id in ("solitario", "canfield", "imaginary13", "squadratik", "maestras"):
        if game_id in engine.GAMES:
            players = ["ana", "bob", "cy"] if game_id == "maestras" else None
            game = engine.new_game(game_id, 7, players)
            rng = random.Random(7)
            for _ in range(25):
                legal = game.legal_moves()
                if not legal:
                    break
                game.play(rng.choice(legal))
            views[game_id] = (game.view(), {})
        elif game_id == "solitario":
            views[game_id] = (samples.solitario_view("mid"), {"faces": "napoletane"})
        elif game_id == "canfield":
            views[game_id] = (samples.canfield_view("mid"), {})
    views["maestras_hand"] = (views["maestras"][0] | {"hand": samples.squadratik_view(
        "maestras")["hand"], "viewer": "ana"}, {"hand": True})
    return views


def run() -> dict:
    report: dict[str, Any] = {}
    for name, (view, style) in _views().items():
        game_id = "maestras" if name == "maestras_hand" else name
        started = time.perf_counter()
        png = renderer.render(game_id, view, **style)
        first = time.perf_counter() - started
        times = []
        for _ in range(ROUNDS):
            started = time.perf_counter()
            png = renderer.render(game_id, view, **style)
            times.append(time.perf_counter() - started)
        times.sort()
        report[name] = {
            "first_ms": round(first * 1000, 1),
            "p50_ms": round(statistics.median(times) * 1000, 2),
            "p95_ms": round(times[int(len(times) * 0.95) - 1] * 1000, 2),
            "png_kb": round(len(png) / 1024, 1),
        }
    return report
