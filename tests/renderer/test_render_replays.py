"""Replays of every game: one frame per move plus the start, a pause on the last frame, within
the 8 MB a chat accepts; WebP on request."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import engine
import renderer
from tests.renderer.helpers import decode

PLAYERS = {"maestras": ["ana", "bob", "cy"]}
MOVES = 6


def played_moves(game_id: str, deal: int) -> list[str]:
    rng = random.Random(deal)
    game = engine.new_game(game_id, deal, PLAYERS.get(game_id))
    for _ in range(MOVES):
        legal = game.legal_moves()
        if not legal or game.is_over:
            break
        game.play(rng.choice(legal))
    return list(game.moves)


def frame_durations(animation: Image.Image) -> list[int]:
    durations = []
    for frame in range(animation.n_frames):
        animation.seek(frame)
        animation.load()  # WebP reads a frame's timing only when it decodes it
        durations.append(animation.info["duration"])
    return durations


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_gif_replay_shows_the_start_and_every_move_then_pauses(game_id):
    moves = played_moves(game_id, 11)
    data = renderer.replay(game_id, 11, PLAYERS.get(game_id), None, moves)
    assert data[:6] == b"GIF89a"
    assert len(data) <= 8 * 1024 * 1024
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == len(moves) + 1
    durations = frame_durations(gif)
    assert durations[-1] >= 3 * durations[0]  # the end stays up long enough to be read
    start = decode(
        renderer.render(game_id, engine.new_game(game_id, 11, PLAYERS.get(game_id)).view())
    )
    assert gif.width >= start.width


def test_webp_replay_has_the_same_frames_and_pause():
    moves = played_moves("imaginary13", 4)
    data = renderer.replay("imaginary13", 4, None, None, moves, fmt="webp")
    webp = Image.open(io.BytesIO(data))
    assert webp.format == "WEBP"
    assert webp.n_frames == len(moves) + 1
    durations = frame_durations(webp)
    assert durations[-1] > durations[0]


def test_unknown_replay_format_is_refused():
    with pytest.raises(ValueError):
        renderer.replay("imaginary13", 1, None, None, [], fmt="bmp")
