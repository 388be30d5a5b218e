"""``python -m renderer.gallery out/gallery``: a PNG of every game at its start, mid-game and
end (every face style for Solitario), plus one replay GIF.

Uses the real engines where ``engine.GAMES`` has them (playing seeded random moves, preferring
foundation/scoring moves, to reach mid-game and the end) and the hand-written views of
``renderer.samples`` otherwise.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import engine
import renderer
from renderer import samples

PLAYERS = {"maestras": ["ana", "bob", "cy"]}


def _play(game: Any, moves: int, rng: random.Random) -> list[str]:
    """Play up to ``moves`` moves, preferring the first-listed ones half the time (engines tend
    to list productive moves first) so games actually progress."""
    played: list[str] = []
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.is_over:
            break
        move = legal[0] if rng.random() < 0.5 else rng.choice(legal)
        game.play(move)
        played.append(str(move))
    return played


def engine_views(game_id: str, deal: int = 3) -> dict[str, tuple[dict, list[str]]]:
    """``stage -> (view, moves so far)`` for start, mid and end from the real engine."""
    rng = random.Random(deal)
    players = PLAYERS.get(game_id)
    viewer = players[0] if players else None
    game = engine.new_game(game_id, deal, players)
    out = {"start": (game.view(viewer), [])}
    moves = _play(game, 12, rng)
    out["mid"] = (game.view(viewer), list(moves))
    moves += _play(game, 2000, rng)
    out["end"] = (game.view(viewer), list(moves))
    return out


def sample_views(game_id: str) -> dict[str, dict]:
    if game_id == "solitario":
        return {stage: samples.solitario_view(stage) for stage in ("start", "mid", "end")}
    if game_id == "canfield":
        return {stage: samples.canfield_view(stage) for stage in ("start", "mid", "end")}
    return {"mid": samples.squadratik_view(game_id)}


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "out/gallery")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for game_id in ("solitario", "canfield", "imaginary13", "squadratik", "maestras"):
        styles: list[dict[str, Any]] = [{}]
        if game_id == "solitario":
            styles = [{"faces": f} for f in ("napoletane", "piacentine", "francesi")]
        if game_id in engine.GAMES:
            views = {stage: v for stage, (v, _) in engine_views(game_id).items()}
            source = "engine"
        else:
            views, source = sample_views(game_id), "sample"
        for stage, view in views.items():
            for style in styles:
                suffix = f"_{style['faces']}" if style else ""
                name = out / f"{game_id}_{stage}{suffix}.png"
                name.write_bytes(renderer.render(game_id, view, **style))
                written.append(f"{name} ({source})")
            if game_id == "maestras":
                name = out / f"{game_id}_{stage}_hand.png"
                name.write_bytes(renderer.render(game_id, view, hand=True))
                written.append(f"{name} ({source})")
    for game_id in ("imaginary13", "squadratik"):
        if game_id in engine.GAMES:
            _, moves = engine_views(game_id)["mid"]
            name = out / f"{game_id}_replay.gif"
            name.write_bytes(renderer.replay(game_id, 3, None, None, moves))
            written.append(str(name))
    print("\n".join(written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
