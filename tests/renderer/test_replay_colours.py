"""Replays at the board's own size and in its own colours: a long Cartas Maestras table and a
long El Solitario game (on main shrunk to 244-361 px to fit about 10 KB a move, their red
balls and digits turned brown by a 40-colour palette)."""

from __future__ import annotations

import importlib
import io

import pytest
from PIL import Image, ImageChops

import renderer
from tests.renderer.helpers import decode, is_red
from tools import samples

replay_module = importlib.import_module("renderer.replay")

LONG_GAMES = [
    ("maestras", 22, ["ana", "bob"]),
    ("maestras", 0, ["ana", "bob", "cy"]),
    ("squadratik", samples.LONG_SOLO_DEAL, None),
]


def long_game(game_id: str, deal: int, players):
    views = list(samples.long_path_playout(game_id, deal, players))
    return [view["last_move"] for view in views[1:]], views[-1]


def frames_of(data: bytes) -> list[Image.Image]:
    animation = Image.open(io.BytesIO(data))
    frames = []
    for k in range(animation.n_frames):
        animation.seek(k)
        frames.append(animation.convert("RGB"))
    return frames


@pytest.mark.parametrize(("game_id", "deal", "players"), LONG_GAMES)
def test_a_long_replay_keeps_the_boards_size_and_colours(game_id, deal, players):
    moves, last = long_game(game_id, deal, players)
    assert len(moves) >= 40
    data = renderer.replay(game_id, deal, players, None, moves)
    frames = frames_of(data)
    assert len(frames) == len(moves) + 1
    board = decode(renderer.render(game_id, last))
    assert frames[-1].width == board.width >= 600
    # the last frame is the last board, pixel for pixel (the canvas may be taller: padded)
    shown = frames[-1].crop((0, 0, board.width, board.height))
    assert ImageChops.difference(shown, board).getbbox() is None
    assert sum(1 for p in _pixels(shown) if is_red(p)) > 1000  # red balls and digits


def _pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.tobytes()
    return [tuple(data[k : k + 3]) for k in range(0, len(data), 3)]  # type: ignore[misc]


@pytest.mark.parametrize(("limit_kb", "width"), [(1050, 720), (980, 600)])
def test_a_replay_over_the_limit_keeps_its_red_and_600_px(monkeypatch, limit_kb, width):
    # limits this game's replay (1.1 MB) passes only with 64 colours, or with them at 600 px
    # (on main a budget reduced it to 40 colours fitted to two frames, which mapped the
    # balls' red onto brown, then shrank it to 331 px)
    moves, last = long_game("squadratik", samples.LONG_SOLO_DEAL, None)
    monkeypatch.setattr(replay_module, "MAX_BYTES", limit_kb * 1024)
    data = renderer.replay("squadratik", samples.LONG_SOLO_DEAL, None, None, moves)
    frame = frames_of(data)[-1]
    assert len(data) <= limit_kb * 1024 and frame.width == width
    board = decode(renderer.render("squadratik", last))
    if frame.width == board.width:  # reduced colours only: every red pixel still red
        shown = frame.crop((0, 0, board.width, board.height))
        before, after = _pixels(board), _pixels(shown)
        reds = [k for k, p in enumerate(before) if p[0] > 190 and p[1] < 40 and p[2] < 50]
        assert reds and all(is_red(after[k]) for k in reds)
    else:
        assert sum(1 for p in _pixels(frame) if is_red(p)) > 500
