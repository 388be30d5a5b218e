"""The Squadratik board drawn for a phone, measured on the pixels of the picture scaled to
400 px wide (what a chat shows): every card a player plays onto or from (each open path's last
card, the central card while a side of it is free, El Solitario's hand) is at least 72 px
wide, the digits on them at least 9 px tall, and the picture no taller than 1.4 times its
width, for Cartas Maestras at 2, 3, 4 and 8 seats and El Solitario from the first move to the
last, on long paths. The whole board stays a request away (``full=True``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from PIL import Image

import renderer
from renderer.cards_squadratik import EDGE, STOCK, crowded
from renderer.layout import Rect
from renderer.squadratik_boards import path_targets, shown_board, squadratik_layout
from tests.renderer.helpers import decode
from tools import samples

PHONE = 400
MIN_CARD = 72
MIN_DIGIT = 9
MAX_ASPECT = 1.4

POSITIONS = samples.phone_positions()
IDS = [name for name, _, _ in POSITIONS]


def at_400(png: bytes) -> tuple[Image.Image, float]:
    """The picture as a phone shows it (400 px wide) and the scale from the full picture."""
    image = decode(png).convert("RGB")
    scale = PHONE / image.width
    small = image.resize((PHONE, round(image.height * scale)), Image.Resampling.LANCZOS)
    return small, scale


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum(abs(x - y) for x, y in zip(a[:3], b[:3], strict=True))


def _pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.tobytes()
    return [tuple(data[k : k + 3]) for k in range(0, len(data), 3)]  # type: ignore[misc]


def card_width(small: Image.Image, rect: Rect, scale: float, kind: str) -> int:
    """Width in px of the card where ``rect`` lies, at 400 px: its paper (stock colour) and
    its outline, from the leftmost such pixel to the rightmost."""
    x0, y0 = int(rect.x * scale) - 2, int(rect.y * scale) - 2
    x1, y1 = int(rect.right * scale) + 3, int(rect.bottom * scale) + 3
    crop = small.crop((x0, y0, x1, y1))
    paper, edge = STOCK[kind], EDGE[kind]
    mask = Image.new("1", crop.size, 0)
    mask.putdata(
        [1 if _distance(p, paper) < 60 or _distance(p, edge) < 36 else 0 for p in _pixels(crop)]
    )
    box = mask.getbbox()
    assert box is not None, "no card drawn there"
    return box[2] - box[0]


def digit_heights(small: Image.Image, rect: Rect, scale: float, kind: str) -> list[int]:
    """Heights in px, at 400 px, of each row of numbers in the middle of a card (its points
    or crown, and its red and black totals): rows of pixels holding ink (far from the paper
    colour), split where a blank row is."""
    # between the rows of balls and the side counts along the edges (a card too small for
    # its points draws its totals larger, in the middle: cards_squadratik.crowded)
    inset = 0.3 if crowded(rect.w) else 0.25
    x0, x1 = rect.x + rect.w * inset, rect.x + rect.w * (1 - inset)
    y0, y1 = rect.y + rect.h * inset, rect.y + rect.h * (0.8 if crowded(rect.w) else 0.76)
    crop = small.crop((int(x0 * scale), int(y0 * scale), int(x1 * scale), int(y1 * scale)))
    paper = STOCK[kind]
    pixels = _pixels(crop)
    inked = [
        any(_distance(p, paper) > 150 for p in pixels[y * crop.width : (y + 1) * crop.width])
        for y in range(crop.height)
    ]
    runs, length = [], 0
    for y, row in enumerate([*inked, False]):
        if row:
            length += 1
        elif length:
            if y - length > 0 and y < crop.height:  # a glyph cut by the crop is not measured
                runs.append(length)
            length = 0
    return runs


def playable_cards(view: Mapping[str, Any], layout: Any) -> list[tuple[Rect, str]]:
    """Where the cards a move plays onto or from are drawn, and their kinds: each open path's
    last card, the central card while a side of it is free, the hand (El Solitario)."""
    shown = shown_board(view)  # type: ignore[arg-type]
    kinds = {(c["x"], c["y"]): c["card"]["kind"] for c in shown.get("board") or []}
    cards: list[tuple[Rect, str]] = []
    if not view.get("is_over"):
        paths = shown.get("paths") or {}
        ends = {(0, 0)} if any(p is None for p in paths.values()) else set()
        for path in paths.values():
            if path and path.get("open") and path.get("cells"):
                ends.add(tuple(path["cells"][-1]))
        assert set(path_targets(shown)) <= set(layout.slots)  # every free place is drawn
        cards += [(layout.cells[cell], kinds[cell]) for cell in ends]
        cards += [
            (rect, card["kind"])
            for rect, card in zip(layout.hand, view.get("hand") or [], strict=True)
        ]
    return cards


@pytest.mark.parametrize(("name", "game_id", "view"), POSITIONS, ids=IDS)
def test_a_phone_reads_every_card_a_move_needs(name, game_id, view):
    png = renderer.render(game_id, view)
    small, scale = at_400(png)
    layout = squadratik_layout(view)
    assert small.height <= MAX_ASPECT * small.width, (name, small.size)
    cards = playable_cards(view, layout)
    if not view["is_over"]:
        assert cards
    for rect, kind in cards:
        assert card_width(small, rect, scale, kind) >= MIN_CARD, (name, rect, kind)
        if kind in ("normal", "master"):
            heights = digit_heights(small, rect, scale, kind)
            assert heights and min(heights) >= MIN_DIGIT, (name, rect, heights)


@pytest.mark.parametrize(("name", "game_id", "view"), POSITIONS, ids=IDS)
def test_every_card_drawn_has_digits_9_px_tall_at_400(name, game_id, view):
    # the last board of a game may draw its cards smaller (no move is left to make), never
    # its numbers under 9 px
    small, scale = at_400(renderer.render(game_id, view))
    layout = squadratik_layout(view)
    kinds = {(c["x"], c["y"]): c["card"]["kind"] for c in shown_board(view)["board"]}
    measured = 0
    for cell, rect in layout.cells.items():
        # a small master's crown touches its totals: measured on the font instead
        # (tests/renderer/test_phone.py), its normal neighbours here
        if kinds[cell] == "normal" or (kinds[cell] == "master" and not crowded(rect.w)):
            heights = digit_heights(small, rect, scale, kinds[cell])
            assert heights and min(heights) >= MIN_DIGIT, (name, cell, heights)
            measured += 1
    assert measured or not layout.cells.keys() - {(0, 0)}


def test_long_paths_are_drawn_for_the_phone_and_whole_on_request():
    name, game_id, view = next(p for p in POSITIONS if p[0] == "squadratik_long")
    assert samples.longest_path(view) >= 12
    phone = squadratik_layout(view)
    whole = squadratik_layout(view, full=True)
    assert phone.phone and not whole.phone
    # the whole board draws every card of the table (on main: a 720 x 1,454 tower, cards 52 px
    # at 400); the phone board the last of each path, the rest counted beside it
    assert set(whole.cells) == {(c["x"], c["y"]) for c in view["board"]}
    assert whole.height > MAX_ASPECT * whole.width
    counted = sum(hidden for _, hidden, _ in phone.trails) + len(phone.cells)
    assert counted == len(view["board"]) - (0 if (0, 0) in phone.cells else 1)
    full_png = decode(renderer.render(game_id, view, full=True))
    assert full_png.size == (whole.width, whole.height)


def test_eight_seats_share_two_columns_of_standings():
    name, game_id, view = next(p for p in POSITIONS if p[0] == "maestras_8seats_long")
    layout = squadratik_layout(view)
    assert layout.compact_seats and len(layout.seats) == 8
    assert len({rect.x for rect in layout.seats}) == 2  # two columns of four
    rows = {rect.y for rect in layout.seats}
    assert len(rows) == 4


def test_a_finished_table_shows_its_last_board_and_the_path_that_ended_it():
    # on main the last board of a table showed the central card alone
    name, game_id, view = next(p for p in POSITIONS if p[0] == "maestras_2seats_over")
    last = view["last_board"]
    assert view["board"] == [c for c in view["board"] if (c["x"], c["y"]) == (0, 0)]
    assert len(last["board"]) > 1 and last["won_by"] in view["players"]
    layout = squadratik_layout(view)
    assert set(layout.cells) == {(c["x"], c["y"]) for c in last["board"]}
    image = decode(renderer.render(game_id, view)).convert("RGB")
    for cell in map(tuple, last["won_cells"]):  # ringed in the last move's yellow
        rect = layout.cells[cell]
        ring = image.getpixel((rect.centre[0], rect.y - 2))
        assert ring[0] > 230 and ring[1] > 180 and ring[2] < 60, (cell, ring)
    assert "results" in view and view["results"][0]["place"] == 1


def test_every_board_of_long_games_keeps_the_phone_shape():
    # every position of the long-path playouts and of every table size: on main the boards
    # grew to 720 x 1,186-1,572 px
    for seats, deal in samples.LONG_TABLES:
        players = [f"p{k}" for k in range(seats)]
        for view in samples.long_path_playout("maestras", deal, players):
            _assert_phone_shape(view)
            if view["current_player"] and not view["is_over"]:
                own = dict(view)
                hand = squadratik_layout(own, hand=True)
                assert hand.height <= MAX_ASPECT * hand.width
    for view in samples.long_path_playout("squadratik", samples.LONG_SOLO_DEAL):
        _assert_phone_shape(view)


def _assert_phone_shape(view: Mapping[str, Any]) -> None:
    layout = squadratik_layout(view)  # type: ignore[arg-type]
    assert layout.height <= MAX_ASPECT * layout.width, (view["deal"], view["move_number"])
    if not view["is_over"]:
        assert layout.cell_size * PHONE / layout.width >= 75, (view["deal"], view["move_number"])


@pytest.mark.parametrize("cards", [4, 5, 6, 7, 10])
def test_a_private_hand_of_any_size_reads_on_a_phone(cards):
    # a player who had to pass holds more than four cards: on main five drew 720 x 1,224 px
    view = samples.squadratik_view("maestras")
    view["hand"] = (view["hand"] * 3)[:cards]
    small, scale = at_400(renderer.render("maestras", view, hand=True))
    assert small.height <= MAX_ASPECT * small.width
    layout = squadratik_layout(view, hand=True)
    assert len(layout.hand) == cards
    for rect, card in zip(layout.hand, view["hand"], strict=True):
        assert card_width(small, rect, scale, card["kind"]) >= MIN_CARD
    turned = [rect for row in layout.previews for rect in row]
    if cards <= 6:  # every turn of every card still shown, as large
        assert len(turned) == 3 * sum(card["kind"] != "empty" for card in view["hand"])
        assert all(rect.w == layout.hand[0].w for rect in turned)


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


def test_a_phone_board_keeps_every_card_place_and_strip_apart_in_random_games():
    # every position of random El Solitario games and tables of 2, 3, 4 and 8 seats
    import random

    import engine

    phone_boards = 0
    for deal in range(40):
        seats = (1, 2, 3, 4, 8)[deal % 5]
        players = None if seats == 1 else [f"p{k}" for k in range(seats)]
        game = engine.new_game("squadratik" if seats == 1 else "maestras", deal, players)
        rng = random.Random(deal)
        while True:
            view = game.view()
            layout = squadratik_layout(view)
            assert layout.height <= MAX_ASPECT * layout.width, (deal, view["move_number"])
            if layout.phone:
                phone_boards += 1
                rects = [*layout.cells.values(), *layout.slots.values(), *layout.hand]
                rects += [rect for rect, _, _ in layout.trails] + layout.seats
                for k, a in enumerate(rects):
                    assert a.x >= 0 and a.right <= layout.width
                    assert layout.header_h <= a.y and a.bottom <= layout.height
                    assert not any(_overlap(a, b) for b in rects[k + 1 :]), (deal, a)
                if not view["is_over"]:
                    assert set(layout.slots) == set(path_targets(view))
            legal = game.legal_moves()
            if game.is_over or not legal:
                break
            game.play(rng.choice(legal))
    assert phone_boards > 500
