"""Real engine views render within limits; replays animate one frame per move."""

from __future__ import annotations

import io
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import engine
import renderer
from renderer import gallery
from tests.renderer.helpers import decode

PLAYERS = {"maestras": ["ana", "bob", "cy"]}
LANDED = sorted(engine.GAMES)


def played(game_id: str, deal: int, moves: int, seed: int):
    rng = random.Random(seed)
    game = engine.new_game(game_id, deal, PLAYERS.get(game_id))
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(rng.choice(legal))
    return game


@settings(max_examples=12)
@given(st.sampled_from(LANDED), st.integers(0, 10_000), st.integers(0, 60))
def test_any_reachable_position_renders_within_limits(game_id, deal, moves):
    game = played(game_id, deal, moves, deal)
    png = renderer.render(game_id, game.view())
    image = decode(png)
    assert image.width <= renderer.MAX_WIDTH
    assert len(png) <= 300 * 1024
    layout = renderer.layout(game_id, game.view())
    if game_id in ("squadratik", "maestras"):
        assert layout.cell_size >= 64


def test_replay_has_one_frame_per_move_and_holds_the_last():
    game = played("imaginary13", 5, 8, 1)
    data = renderer.replay("imaginary13", 5, None, None, game.moves)
    assert len(data) <= 8 * 1024 * 1024
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == len(game.moves) + 1
    durations = []
    for frame in range(gif.n_frames):
        gif.seek(frame)
        durations.append(gif.info["duration"])
    assert durations[-1] > durations[0]
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB")
    final = decode(renderer.render("imaginary13", game.view()))
    assert last.size[0] >= final.size[0]


def test_engine_public_maestras_view_draws_no_hand():
    game = played("maestras", 2, 5, 2)
    public = game.view()
    assert renderer.layout("maestras", public).hand == []
    own = game.view("ana")
    assert len(renderer.layout("maestras", own, hand=True).hand) == len(own["hand"]) > 0


def test_gallery_writes_every_game(tmp_path):
    assert gallery.main([str(tmp_path)]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    for game_id in ("solitario", "canfield", "imaginary13", "squadratik", "maestras"):
        assert any(n.startswith(game_id) for n in names), game_id
    for faces in ("napoletane", "piacentine", "francesi"):
        assert f"solitario_mid_{faces}.png" in names or "solitario_mid.png" in names
