"""Boards a phone can read: most players see a board about 400 px wide. Every text drawn,
every card number, scaled to that width, is at least 9 px tall; boards show cards rather than
cloth; a turned Squadratik card keeps its numbers upright; names are shortened by the room
there is; hands are as large as the table's cards; the last Cartas Maestras board lists the
standings by place."""

from __future__ import annotations

import random

import pytest
from PIL import Image

import engine
import renderer
from renderer import fonts, typeface
from renderer.cards_french import french_card
from renderer.cards_italian import italian_card
from renderer.cards_squadratik import digit_font_px, placed_sides, squadratik_card
from renderer.squadratik_boards import squadratik_layout
from tests.renderer.helpers import decode
from tools import samples

PHONE = 400
MIN_PX = 9


def digit_ink(size: int, bold: bool) -> int:
    """Height in px of a digit's ink at font ``size`` (what a player reads first)."""
    box = typeface.font(size, bold).getbbox("0")
    return box[3] - box[1]


def at_phone(px: float, width: int) -> float:
    return px * PHONE / width


def drawn_texts(game_id: str, view: dict, **style) -> tuple[Image.Image, list]:
    """The board and every text it pasted (not from the PNG cache: drawn now)."""
    with fonts.recording() as texts:
        image = renderer.draw(game_id, view, **style)
    return image, list(texts)


def played(game_id: str, deal: int, moves: int, players=None):
    game = engine.new_game(game_id, deal, players)
    rng = random.Random(deal)
    for _ in range(moves):
        legal = game.legal_moves()
        if game.is_over or not legal:
            break
        game.play(legal[0] if rng.random() < 0.5 else rng.choice(legal))
    return game


def assert_texts_readable(image: Image.Image, texts: list) -> None:
    assert texts, "the board drew no text"
    for text, size, bold in texts:
        height = at_phone(digit_ink(size, bold), image.width)
        assert height >= MIN_PX, (text, size, round(height, 1), image.width)


PILE_CASES = [
    ("solitario", {"faces": "napoletane"}),
    ("solitario", {"faces": "piacentine"}),
    ("solitario", {"faces": "francesi"}),
    ("canfield", {}),
    ("imaginary13", {}),
    ("freecell", {}),
]


@pytest.mark.parametrize(("game_id", "style"), PILE_CASES)
@pytest.mark.parametrize("moves", [0, 15, 400])
def test_every_text_of_a_pile_board_is_9_px_at_400(game_id, style, moves):
    game = played(game_id, 3, moves)
    image, texts = drawn_texts(game_id, game.view(), **style)
    assert_texts_readable(image, texts)
    # with a race clock and a player named, in Spanish
    image, texts = drawn_texts(
        game_id,
        game.view(),
        clock="04:12",
        player="Жора Смирнов",
        words=samples.GALLERY_WORDS["es"],
        **style,
    )
    assert_texts_readable(image, texts)
    assert any("Жора Смирнов" in text for text, _, _ in texts)  # the name is not cut


def _index_ink(sprite: Image.Image) -> int:
    """Height of a card's corner rank: rows of red or black ink in its top-left index."""
    crop = sprite.convert("RGBA").crop((6, 5, 46, 31))
    rows = {
        y
        for y in range(crop.height)
        for x in range(crop.width)
        if crop.getpixel((x, y))[3] > 128
        and (
            max(crop.getpixel((x, y))[:3]) < 90
            or crop.getpixel((x, y))[0] > 150 > 90 > crop.getpixel((x, y))[1]
        )
    }
    return max(rows) - min(rows) + 1


@pytest.mark.parametrize(("game_id", "style"), PILE_CASES)
def test_card_corners_are_9_px_at_400(game_id, style):
    width = decode(renderer.render(game_id, played(game_id, 3, 0).view(), **style)).width
    if style.get("faces") in ("napoletane", "piacentine"):
        sprites = [italian_card(code, style["faces"]) for code in ("Ad", "Kh", "7c", "Qs")]
    else:
        sprites = [french_card(code) for code in ("Ad", "Th", "7c", "Qs")]
    for sprite in sprites:
        assert at_phone(_index_ink(sprite), width) >= MIN_PX


def _squadratik_positions():
    """(name, game id, view, style) of El Solitario early and late, Cartas Maestras with 2, 4
    and 8 seats early, late and over, and a hand."""
    cases = []
    for stage, moves in (("early", 3), ("late", 30)):
        game = played("squadratik", 5, moves)
        cases.append((f"solo-{stage}", "squadratik", game.view(), {}))
    for seats in (2, 4, 8):
        players = [f"Player {k + 1}" for k in range(seats)]
        for stage, moves in (("early", 3), ("late", 25), ("over", 2000)):
            game = played("maestras", 7, moves, players)
            cases.append((f"maestras{seats}-{stage}", "maestras", game.view(), {}))
        cases.append((f"maestras{seats}-hand", "maestras", game_hand_view(players), {"hand": True}))
    return cases


def game_hand_view(players):
    game = played("maestras", 7, 6, players)
    return game.view(game.current_player or players[0])


SQUADRATIK = _squadratik_positions()


@pytest.mark.parametrize(
    ("name", "game_id", "view", "style"), SQUADRATIK, ids=[c[0] for c in SQUADRATIK]
)
def test_every_number_of_a_squadratik_board_is_9_px_at_400(name, game_id, view, style):
    image, texts = drawn_texts(game_id, view, **style)
    assert_texts_readable(image, texts)
    layout = renderer.layout(game_id, view, **style)
    # the numbers on the cards (side counts, totals, points)
    card = layout.cell_size
    assert at_phone(digit_ink(digit_font_px(card), True), image.width) >= MIN_PX, card
    for rect in layout.hand + [r for row in layout.previews for r in row]:
        assert at_phone(digit_ink(digit_font_px(rect.w), True), image.width) >= MIN_PX


def _most_common_share(png: bytes) -> float:
    image = decode(png)
    counts = image.getcolors(image.width * image.height)
    return max(counts)[0] / (image.width * image.height)


@pytest.mark.parametrize(
    ("name", "game_id", "view", "style"), SQUADRATIK, ids=[c[0] for c in SQUADRATIK]
)
def test_squadratik_boards_show_cards_rather_than_cloth(name, game_id, view, style):
    # the old fixed window was 83-92 % empty cloth at 1256 px
    assert _most_common_share(renderer.render(game_id, view, **style)) < 0.72


@pytest.mark.parametrize(("game_id", "style"), PILE_CASES)
def test_pile_boards_show_cards_rather_than_cloth(game_id, style):
    view = played(game_id, 3, 15).view()
    assert _most_common_share(renderer.render(game_id, view, **style)) < 0.66


def test_squadratik_frame_is_large_when_few_cards_are_down():
    start = played("squadratik", 5, 0).view()
    layout = squadratik_layout(start)
    image = decode(renderer.render("squadratik", start))
    # the central card alone: shown at least 160 px wide on a 720-px image (old: 132 on 1256)
    assert layout.cell_size >= 160 and image.width <= 800
    assert at_phone(layout.cell_size, image.width) >= 88


SIDES = [("R4", "B2", "0", "R2"), ("B4", "R4", "B2", "0"), ("R2", "R2", "B4", "B4")]


@pytest.mark.parametrize("sides", SIDES)
@pytest.mark.parametrize("rotation", [1, 2, 3])
@pytest.mark.parametrize("kind", ["normal", "master"])
def test_a_turned_card_keeps_its_balls_in_place_and_its_numbers_upright(sides, rotation, kind):
    points = sum(int(s[1:]) for s in sides if s != "0")
    turned = squadratik_card(kind, sides, points, rotation, 120)
    # the same balls where the rules put them, the numbers drawn as on an unturned card whose
    # printed sides are the turned card's placed sides: no "6" reads "9"
    upright = squadratik_card(kind, placed_sides(sides, rotation), points, 0, 120)
    assert turned.tobytes() == upright.tobytes()
    # and a turned copy is not simply the printed card rotated (what the old code drew)
    printed = squadratik_card(kind, sides, points, 0, 120)
    turns = {
        1: Image.Transpose.ROTATE_270,
        2: Image.Transpose.ROTATE_180,
        3: Image.Transpose.ROTATE_90,
    }
    assert turned.tobytes() != printed.transpose(turns[rotation]).tobytes()


def test_hands_are_drawn_at_least_as_large_as_table_cards():
    solo = played("squadratik", 5, 0).view()
    layout = squadratik_layout(solo)
    assert all(rect.w >= layout.cell_size for rect in layout.hand)
    players = ["ana", "bob", "cy", "dee"]
    game = played("maestras", 7, 6, players)
    board = squadratik_layout(game.view())
    hand = renderer.layout("maestras", game.view(game.current_player), hand=True)
    sizes = [r.w for r in hand.hand] + [r.w for row in hand.previews for r in row]
    assert sizes and min(sizes) >= board.cell_size
    # the turned previews were 37 px wide at 400 px; now each as large as the card it turns
    assert min(at_phone(s, hand.width) for s in sizes) >= 80


def test_last_maestras_board_lists_the_standings_by_place():
    view = samples.squadratik_view("maestras")
    view.update(
        is_over=True,
        outcome="finished",
        current_player=None,
        phase="over",
        results=[
            {"player": "ana", "place": 3, "masters": 0, "cards": 2},
            {"player": "bob", "place": 2, "masters": 1, "cards": 4},
            {"player": "cy", "place": 1, "masters": 2, "cards": 9},
        ],
    )
    _, texts = drawn_texts("maestras", view)
    drawn = [text for text, _, _ in texts]
    order = [drawn.index(name) for name in ("cy", "bob", "ana")]
    assert order == sorted(order)  # winner first, seat order no longer
    assert "#1" in drawn and "Masters" in drawn and "Cards" in drawn
    assert "Hand" not in drawn  # the hands are gone: won masters and cards only
    # cy's row: place, name, then cards 9 and masters 2 (right to left)
    row = drawn[drawn.index("#1") : drawn.index("#1") + 4]
    assert row[0] == "#1" and set(row[1:]) >= {"9", "2"}


def test_a_long_name_is_shortened_by_the_room_there_is():
    name = "Bartholomew Maximilian Fitzgerald-Smyth"  # 39 characters
    assert len(name) == 39
    view = samples.squadratik_view("maestras")
    view["seats"][0]["player"] = name
    view["players"][0] = name
    image, texts = drawn_texts("maestras", view)
    shown = [text for text, _, _ in texts if text.startswith("Barth")]
    assert len(shown) == 1 and shown[0].endswith("…")
    # uses the room: more than the old 18 characters, all the width the numbers leave
    assert len(shown[0]) > 19
    layout = squadratik_layout(view)
    width = fonts.text_width(shown[0], 24, True)
    assert layout.seats[0].w * 0.45 < width < layout.seats[0].w * 0.8
    # a short name is never cut
    _, texts = drawn_texts("maestras", samples.squadratik_view("maestras"))
    assert "ana" in [text for text, _, _ in texts]


def test_ellipsis_cuts_by_drawn_width_not_by_characters():
    from renderer.boards import fit_text

    wide, narrow = "W" * 30, "i" * 30
    assert fit_text(narrow, 24, True, 300) == narrow  # 30 narrow letters fit
    cut = fit_text(wide, 24, True, 300)
    assert cut.endswith("…") and fonts.text_width(cut, 24, True) <= 300
    assert fonts.text_width(cut[:-1] + "W…", 24, True) > 300  # as long as the room allows
    # never inside a character made of several code points
    family = "👨‍👩‍👧" * 6
    assert not fit_text(family, 24, True, 120).removesuffix("…").endswith("\u200d")


@pytest.mark.parametrize(
    "name", ["张伟", "مرحبا", "Ana🎲", "김민준", "नमस्ते", "สวัสดี", "山田", "שלום"]
)
def test_names_draw_no_replacement_glyph_on_a_board(name):
    view = samples.squadratik_view("maestras")
    view["seats"][1]["player"] = name
    _, texts = drawn_texts("maestras", view)
    assert name in [text for text, _, _ in texts]
    notdefs = {font: typeface.chain_font(font, 24).getmask("\U0010fffd") for font in typeface.CHAIN}
    for run in typeface.runs(name):
        if run.font == "emoji":
            continue
        for char in run.text:
            mask = typeface.chain_font(run.font, 24).getmask(char)
            if mask.size[0] and not char.isspace():
                assert bytes(mask) != bytes(notdefs[run.font]), char
    mask = fonts.text_mask(name, 24, True)[0]
    # not the old substitute either
    assert mask.tobytes() != fonts.text_mask("\ufffd" * len(name), 24, True)[0].tobytes()


def _long_playouts():
    """Every position of long random games: El Solitario and Cartas Maestras with 2, 4 and 8
    seats, played to their end (late positions have the longest paths)."""
    for deal in range(36):
        if deal % 4 == 0:
            game, rng = engine.new_game("squadratik", deal), random.Random(deal)
        else:
            seats = (2, 4, 8)[deal % 4 - 1]
            players = [f"p{k}" for k in range(seats)]
            game, rng = engine.new_game("maestras", deal, players), random.Random(deal)
        while not game.is_over and game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
            yield game


def test_squadratik_digits_are_9_px_at_400_in_every_long_random_position():
    # on main about 2 % of late positions drew cards under 64 px, their numbers 8.3 px at 400
    positions = 0
    for game in _long_playouts():
        layout = squadratik_layout(game.view())
        px = at_phone(digit_ink(digit_font_px(layout.cell_size), True), layout.width)
        assert px >= MIN_PX, (game.view()["game"], game.view()["deal"], layout.cell_size)
        # a board cut into bands keeps every card whole, apart and inside the image
        rects = list(layout.cells.values()) + list(layout.slots.values())
        assert all(r.x >= 0 and r.right <= layout.width and r.bottom < layout.height for r in rects)
        corners = {(r.x, r.y) for r in rects}
        assert len(corners) == len(rects)
        positions += 1
    assert positions > 1000


def test_a_wide_board_wraps_into_bands_joined_by_arrows():
    # a row of 17 cells across: one piece would need 40-px cards
    card = {"id": 20, "kind": "normal", "sides": ["0", "0", "0", "0"], "rotation": 0, "points": 0}
    view = samples.squadratik_view("squadratik")
    view["board"] = [{"x": 0, "y": 0, "path": None, "card": dict(card, id=0, kind="central")}] + [
        {"x": x, "y": 0, "path": "E" if x > 0 else "W", "card": card} for x in range(-8, 9) if x
    ]
    view["paths"] = {"N": None, "S": None, "E": None, "W": None}
    view["hand"], view["is_over"] = [], True
    # the whole board, as ``/board full`` and the web page show it
    layout = squadratik_layout(view, full=True)
    assert layout.fold is not None and layout.fold.axis == "x" and len(layout.fold.bands) > 1
    assert layout.cell_size >= 64
    # each cut joins the last card of a band to the first of the next, one row below
    assert len(layout.cuts) == len(layout.fold.bands) - 1
    for before, after in layout.cuts:
        assert after.y > before.bottom and after.x < before.x
    image = decode(renderer.render("squadratik", view, full=True))
    gold = [image.getpixel((before.right + 6, before.centre[1])) for before, _ in layout.cuts] + [
        image.getpixel((after.x - 5, after.centre[1])) for _, after in layout.cuts
    ]
    assert all(pixel[0] > 200 and pixel[2] < 80 for pixel in gold)  # the arrows


@pytest.mark.parametrize("deal", [38, 3, 33, 10, 31, 63])
def test_el_solitario_end_boards_show_cards_rather_than_cloth(deal):
    # deal 38 ends with a long vertical path: 72.5 % cloth on main
    game, rng = engine.new_game("squadratik", deal), random.Random(deal)
    while not game.is_over and game.legal_moves():
        game.play(rng.choice(game.legal_moves()))
    assert game.is_over
    assert _most_common_share(renderer.render("squadratik", game.view())) < 0.72


@pytest.mark.parametrize(
    ("joined", "first"), [("👩‍👩‍👧", "👩"), ("🏳️‍🌈", "🏳️"), ("🏴‍☠️", "🏴"), ("👨🏽‍💻", "👨")]
)
def test_a_joined_emoji_is_drawn_as_one_picture_not_its_parts(joined, first):
    # on main a family was drawn as three people side by side, the rainbow flag as a white
    # flag and a rainbow
    assert [run.font for run in typeface.runs(f"Ana {joined}")] == ["dejavu", "emoji"]
    one = fonts.text_width(first, 24, True)
    assert fonts.text_width(joined, 24, True) == one  # one picture's width
    drawn = fonts.text_mask(joined, 24, True)[0].tobytes()
    assert drawn != fonts.text_mask(first, 24, True)[0].tobytes()  # its own picture
    # on a board, in a seat's name
    view = samples.squadratik_view("maestras")
    view["seats"][0]["player"] = view["players"][0] = f"Ana {joined}"
    _, texts = drawn_texts("maestras", view)
    assert f"Ana {joined}" in [text for text, _, _ in texts]
