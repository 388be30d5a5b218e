"""Squadratik cards and boards: balls on the right sides, hands shown only to their owner."""

from __future__ import annotations

import copy

from hypothesis import given
from hypothesis import strategies as st

import renderer
from renderer import theme
from renderer.cards_squadratik import STOCK, placed_sides, squadratik_card
from renderer.squadratik_boards import squadratik_layout
from tests.renderer.helpers import close, decode, is_black, is_red, pixels_in
from tools import samples

SIDE = st.sampled_from(["0", "R1", "R2", "R3", "R4", "B1", "B2", "B3", "B4"])
SIZE = 96
PLAIN = (int(SIZE * 0.27), int(SIZE * 0.42))  # bare card: left of the centre, right of W's balls


def edge_band(image, index: int):
    """The middle of one edge (N, E, S, W) of a card image: where that side's balls are (the
    corners hold the summary grid and the totals)."""
    lo, hi, depth = int(SIZE * 0.36), int(SIZE * 0.64), int(SIZE * 0.17)
    box = {
        0: (lo, 2, hi, depth),
        1: (SIZE - depth, lo, SIZE - 2, hi),
        2: (lo, SIZE - depth, hi, SIZE - 2),
        3: (2, lo, depth, hi),
    }[index]
    return pixels_in(image.convert("RGB"), box)


@given(st.tuples(SIDE, SIDE, SIDE, SIDE), st.integers(0, 3), st.sampled_from(["normal", "master"]))
def test_each_placed_side_shows_balls_of_its_colour_after_any_rotation(sides, rotation, kind):
    image = squadratik_card(kind, sides, 7, rotation, SIZE)
    for index, side in enumerate(placed_sides(sides, rotation)):
        band = edge_band(image, index)
        assert any(map(is_red, band)) == side.startswith("R"), (index, side)
        assert any(map(is_black, band)) == side.startswith("B"), (index, side)


def test_one_quarter_turn_puts_the_printed_top_on_the_right_edge():
    image = squadratik_card("normal", ("R3", "0", "0", "0"), 3, 1, SIZE)
    assert any(map(is_red, edge_band(image, 1)))
    assert not any(map(is_red, edge_band(image, 0)))


def test_card_kinds_look_different():
    centres = {
        kind: squadratik_card(kind, ("0",) * 4, 0, 0, SIZE)
        .convert("RGB")
        .getpixel((int(SIZE * 0.15), int(SIZE * 0.85)))
        for kind in ("central", "empty")
    }
    master = squadratik_card("master", ("R1", "R2", "R3", "R4"), 0, 0, SIZE).convert("RGB")
    centres["master"] = master.getpixel(PLAIN)
    normal = squadratik_card("normal", ("R1", "R2", "R3", "R4"), 10, 0, SIZE).convert("RGB")
    centres["normal"] = normal.getpixel(PLAIN)
    for kind, pixel in centres.items():
        assert close(pixel, STOCK[kind], 30) or kind == "empty", kind
    assert len({tuple(p) for p in centres.values()}) == 4


def test_board_cells_are_drawn_where_the_layout_says():
    view = samples.squadratik_view()
    layout = squadratik_layout(view)
    image = decode(renderer.render("squadratik", view))
    centre = layout.cells[(0, 0)]
    probe = (centre.x + centre.w // 8, centre.bottom - centre.h // 8)
    assert close(image.getpixel(probe), STOCK["central"], 20)
    master = layout.cells[(1, 0)]
    # between the W balls and the crown: plain card whatever the rotation
    assert close(
        image.getpixel((master.x + master.w // 5, master.y + master.h // 2)), STOCK["master"], 30
    )
    assert layout.cell_size >= 64
    # the last move is ringed
    last = layout.cells[(0, -2)]
    assert close(image.getpixel((last.x - 2, last.y + last.h // 2)), theme.LAST_MOVE)


def test_free_sides_and_path_ends_are_offered_as_labelled_slots():
    view = samples.squadratik_view()
    layout = squadratik_layout(view)
    assert set(layout.slots) == {"N", "N>e", "N>w", "E", "S", "W"}
    north_end = layout.slots["N"]
    assert north_end.bottom < layout.cells[(0, -2)].y  # straight on past the empty card


def test_solo_hand_has_numbered_slots_and_selection_ring():
    view = samples.squadratik_view()
    layout = squadratik_layout(view)
    assert len(layout.hand) == 4
    image = decode(renderer.render("squadratik", view, selected="h2", targets=["S"]))
    second = layout.hand[1]
    assert close(image.getpixel((second.x - 2, second.y + second.h // 2)), theme.SELECTED)
    slot = layout.slots["S"]
    assert close(image.getpixel((slot.x - 2, slot.y + slot.h // 2)), theme.TARGET)


def test_public_cartas_maestras_board_never_shows_a_hand():
    view = samples.squadratik_view("maestras")
    public = copy.deepcopy(view)
    public["hand"], public["viewer"] = [], None
    assert squadratik_layout(view).hand == []
    assert renderer.render("maestras", view) == renderer.render("maestras", public)
    private = renderer.render("maestras", view, hand=True)
    assert private != renderer.render("maestras", view)
    hand_layout = squadratik_layout(view, hand=True)
    assert len(hand_layout.hand) == 4
    image = decode(private)
    first = hand_layout.hand[0]
    assert any(map(is_black, pixels_in(image, first.box())))


def test_seats_show_whose_turn_it_is():
    view = samples.squadratik_view("maestras")  # bob to play
    layout = squadratik_layout(view)
    image = decode(renderer.render("maestras", view))
    bob, ana = layout.seats[1], layout.seats[0]
    assert close(image.getpixel((bob.x + bob.w // 2, bob.y + 1)), theme.LAST_MOVE, 40)
    assert not close(image.getpixel((ana.x + ana.w // 2, ana.y + 1)), theme.LAST_MOVE, 40)


def test_a_long_path_shrinks_the_cards_not_the_image_width():
    view = samples.squadratik_view()
    cells = [[x, 0] for x in range(1, 16)]
    view["board"] = [{"x": 0, "y": 0, "card": samples.CENTRAL, "path": None}] + [
        {"x": x, "y": y, "card": samples.sq_card(3, "empty", ["0"] * 4), "path": "E"}
        for x, y in cells
    ]
    view["paths"] = {
        "E": {"open": True, "cells": cells, "ends": ["E"], "after_empty": 0},
        "N": None,
        "S": None,
        "W": None,
    }
    view["last_move_cells"] = []
    layout = squadratik_layout(view)
    image = decode(renderer.render("squadratik", view))
    assert image.width == decode(renderer.render("squadratik", samples.squadratik_view())).width
    assert image.width <= 1280
    assert layout.cell_size >= 24
    assert max(r.right for r in layout.cells.values()) <= image.width
    assert min(r.x for r in layout.cells.values()) >= 0


def ink_height(image, box, is_colour) -> int:
    """How many pixel rows of ``box`` hold ``is_colour`` ink (the height of a digit)."""
    crop = image.convert("RGB").crop(box)
    rows = {
        y for y in range(crop.height) for x in range(crop.width) if is_colour(crop.getpixel((x, y)))
    }
    return max(rows) - min(rows) + 1 if rows else 0


def test_empty_private_hand_says_so_in_a_small_image():
    view = samples.squadratik_view("maestras")
    view["hand"] = []
    image = decode(renderer.render("maestras", view, hand=True))
    assert image.height < 200
    text = pixels_in(image, (0, 60, image.width, image.height))
    assert any(close(p, theme.MUTED, 20) for p in text)


def test_a_finished_board_keeps_no_room_for_places_nobody_can_play():
    view = samples.squadratik_view()
    playing = squadratik_layout(view)
    view.update(is_over=True, outcome="lost", current_player=None)
    over = squadratik_layout(view)
    assert over.slots == {}
    assert over.width == playing.width
    assert over.status.h > 0  # the band saying how it ended
