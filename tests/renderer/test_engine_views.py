"""Real engine views render within limits and show what the view says."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
import renderer
from renderer import registry, theme
from renderer.boards import pile_layout
from tests.renderer.helpers import close, decode, is_back_blue, pixels_in
from tools import gallery

PLAYERS = {g: gallery.seats(g) for g in engine.GAMES}  # a table game seats three
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
    if "piles" not in game.view():  # a board of paths (Squadratik's games)
        # the cards stay at least 20 px wide on a phone showing the image 400 px wide (the
        # old fixed window: 64 px on 1256)
        assert layout.cell_size * 400 / image.width >= 20


def test_engine_public_maestras_view_draws_no_hand():
    game = played("maestras", 2, 5, 2)
    public = game.view()
    assert renderer.layout("maestras", public).hand == []
    own = game.view("ana")
    assert len(renderer.layout("maestras", own, hand=True).hand) == len(own["hand"]) > 0


@pytest.mark.slow
def test_gallery_writes_every_game(tmp_path):
    assert gallery.main([str(tmp_path)]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    for game_id in registry.drawn_games():  # every game with a drawing, in each of its faces
        assert any(n.startswith(game_id) for n in names), game_id
        faces = engine.game_info(game_id).faces
        for face in faces if len(faces) > 1 else ():
            assert f"{game_id}_mid_{face}.png" in names, (game_id, face)


# Every game whose view is piles (Solitario, Canfield, Imaginary Thirteen, FreeCell)
PILE_ENGINES = [g for g in engine.GAMES if "piles" in engine.new_game(g, 1, PLAYERS[g]).view(None)]


def engine_game(game_id: str, deal: int, moves: int, seed: int):
    """A real engine game after ``moves`` seeded random moves."""
    rng = random.Random(seed)
    game = gallery.engine_class(game_id)(deal, PLAYERS.get(game_id), None)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.is_over:
            break
        game.play(rng.choice(legal))
    return game


@pytest.mark.parametrize("game_id", PILE_ENGINES)
def test_engine_pile_views_draw_every_card_face_up_or_down_where_the_view_says(game_id):
    game = engine_game(game_id, 4, 9, 4)
    view = game.view()
    layout = pile_layout(view)
    image = decode(renderer.render(game_id, view))
    assert image.width <= renderer.MAX_WIDTH
    for pile in view["piles"]:
        spot = layout.piles[pile["id"]]
        if pile["kind"] == "tableau":
            assert [c.face for c in spot.cards] == ["down"] * pile["down"] + pile["cards"]
        top = spot.top
        strip = pixels_in(image, (top.x + 20, top.y + 6, top.right - 20, top.y + 12))
        shows_back = sum(map(is_back_blue, strip)) > len(strip) * 0.6
        # a back on top exactly when the pile holds only face-down cards
        assert shows_back == (not pile["cards"] and pile["down"] > 0), pile
    for pile_id in view.get("last_move_piles") or []:
        top = layout.piles[pile_id].top
        assert close(image.getpixel((top.x - 2, top.y + top.h // 2)), theme.LAST_MOVE)


def test_engine_solitario_empty_foundations_show_the_italian_suit_of_the_chosen_faces():
    view = engine_game("solitario", 4, 0, 0).view()  # the start: every foundation empty
    layout = pile_layout(view)
    suits = {p["id"]: p["suit"] for p in view["piles"] if p["kind"] == "foundation"}
    for faces in ("napoletane", "piacentine", "francesi"):
        image = decode(renderer.render("solitario", view, faces=faces))
        for pile_id in suits:
            slot = layout.piles[pile_id].slot
            inside = pixels_in(image, (slot.x + 20, slot.y + 30, slot.right - 20, slot.bottom - 30))
            # French outlines are drawn in the slot's green; Italian suits keep their colours
            coloured = [p for p in inside if p[0] > p[1] + 10]
            assert bool(coloured) == (faces != "francesi"), (faces, pile_id)
