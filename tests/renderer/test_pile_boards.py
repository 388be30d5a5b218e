"""Solitario, Canfield and Imaginary Thirteen boards: what a player sees matches the view."""

from __future__ import annotations

import copy

import pytest

import renderer
from renderer import theme
from renderer.boards import pile_layout
from tests.renderer.helpers import close, decode, is_back_blue, is_black, is_red, pixels_in
from tools import samples

PILE_VIEWS = [
    ("solitario", samples.solitario_view(stage), style)
    for stage in ("start", "mid", "end")
    for style in ({}, {"faces": "piacentine"}, {"faces": "francesi"})
] + [("canfield", samples.canfield_view(stage), {}) for stage in ("start", "mid", "end")]


@pytest.mark.parametrize(("game_id", "view", "style"), PILE_VIEWS)
def test_board_decodes_within_phone_limits(game_id, view, style):
    png = renderer.render(game_id, view, **style)
    image = decode(png)
    assert image.width <= renderer.MAX_WIDTH
    assert len(png) <= 300 * 1024
    assert min(spot.top.w for spot in pile_layout(view).piles.values()) >= 64


def test_same_view_gives_same_bytes_and_does_not_change_the_view():
    view = samples.solitario_view("mid")
    before = copy.deepcopy(view)
    first = renderer.render("solitario", view, faces="piacentine", lang="it", clock="04:12")
    renderer.clear_cache()  # drawn again from nothing: sprites, palette versions, PNG
    assert renderer.render("solitario", view, faces="piacentine", lang="it", clock="04:12") == first
    assert view == before


def test_face_down_cards_show_the_back_and_face_up_cards_do_not():
    view = samples.solitario_view("mid")
    image = decode(renderer.render("solitario", view))
    column = pile_layout(view).piles["3"]  # one card down, then a run face up
    down = column.cards[0]
    assert down.face == "down"
    strip = pixels_in(
        image, (down.rect.x + 20, down.rect.y + 6, down.rect.right - 20, down.rect.y + 12)
    )
    assert sum(map(is_back_blue, strip)) > len(strip) * 0.6
    face = column.cards[-1].rect
    centre = pixels_in(image, (face.x + 10, face.y + 40, face.right - 10, face.bottom - 10))
    assert sum(map(is_back_blue, centre)) < len(centre) * 0.2  # a few sword blades at most


def test_stock_with_cards_shows_a_back_and_an_empty_pile_shows_its_outline():
    view = samples.solitario_view("mid")
    layout = pile_layout(view)
    image = decode(renderer.render("solitario", view))
    assert is_back_blue(image.getpixel(layout.piles["s"].top.centre))
    assert close(image.getpixel(layout.piles["2"].slot.centre), theme.TABLE_DARK)


def test_card_colours_follow_the_suit_in_every_face_style():
    view = samples.solitario_view("mid")
    layout = pile_layout(view)
    for faces in ("napoletane", "piacentine", "francesi"):
        image = decode(renderer.render("solitario", view, faces=faces))
        # f1 holds 3 of denari/diamonds (red), f4 2 of spade/spades (black): the rank corner
        red_corner = layout.piles["f1"].top
        black_corner = layout.piles["f4"].top
        red = pixels_in(
            image, (red_corner.x + 6, red_corner.y + 6, red_corner.x + 30, red_corner.y + 30)
        )
        black = pixels_in(
            image,
            (black_corner.x + 6, black_corner.y + 6, black_corner.x + 30, black_corner.y + 30),
        )
        assert any(map(is_red, red)) and not any(map(is_black, red))
        assert any(map(is_black, black)) and not any(map(is_red, black))


def test_face_style_changes_the_cards():
    view = samples.solitario_view("mid")
    spot = pile_layout(view).piles["f1"].top
    stocks = {}
    for faces in ("napoletane", "francesi"):
        image = decode(renderer.render("solitario", view, faces=faces))
        stocks[faces] = image.getpixel((spot.x + 8, spot.bottom - 8))
    assert close(stocks["napoletane"], theme.CREAM, 8)
    assert close(stocks["francesi"], theme.CARD_WHITE, 8)


def test_last_move_selection_and_targets_are_ringed_in_their_colours():
    view = samples.canfield_view("mid")  # last move r -> 4
    layout = pile_layout(view)
    image = decode(renderer.render("canfield", view, selected="w", targets=["f4", "1"]))

    def ring(pile_id):
        top = layout.piles[pile_id].top
        return image.getpixel((top.x - 2, top.y + top.h // 2))

    assert close(ring("4"), theme.LAST_MOVE)
    assert close(ring("r"), theme.LAST_MOVE)
    assert close(ring("w"), theme.SELECTED)
    assert close(ring("f4"), theme.TARGET)
    assert close(ring("1"), theme.TARGET)
    assert not close(ring("2"), theme.TARGET)


def test_every_pile_carries_its_notation_label():
    view = samples.canfield_view("start")
    layout = pile_layout(view)
    image = decode(renderer.render("canfield", view))
    for pile_id, spot in layout.piles.items():
        label = spot.label
        box = pixels_in(image, (label.x, label.y, label.x + 40, label.bottom))
        assert any(close(p, theme.LABEL_BG, 6) for p in box), pile_id
        assert any(close(p, theme.WHITE, 30) for p in box), pile_id


def test_words_follow_the_language():
    view = samples.solitario_view("mid")
    # the bot passes the words of the chat's language (from its catalogues); English without
    italian = {"deal": "Smazzata", "score": "Punti", "moves": "Mosse", "stock": "Tallone"}
    assert renderer.render("solitario", view, lang="it", words=italian) != renderer.render(
        "solitario", view
    )
    assert renderer.render("solitario", view, words={}) == renderer.render("solitario", view)
    assert renderer.render("solitario", view, clock="01:00") != renderer.render("solitario", view)


def test_game_over_and_stall_add_a_banner_below_the_table_without_hiding_cards():
    mid, stalled = samples.canfield_view("mid"), samples.canfield_view("end")
    plain = decode(renderer.render("canfield", mid))
    over = decode(renderer.render("canfield", stalled))
    layout = pile_layout(stalled)
    assert plain.height == layout.height
    assert over.height > layout.height
    band = pixels_in(over, (0, layout.height, over.width, over.height))
    assert any(close(p, theme.LAST_MOVE, 30) for p in band)  # the banner's words
    top = layout.piles["1"].top
    assert not close(over.getpixel(top.centre), theme.HEADER, 10)


def test_long_columns_are_squeezed_but_stay_readable():
    view = samples.solitario_view("start")
    view["options"] = {"cards": 52}
    view["deck"] = "french52"
    for pile in view["piles"]:
        if pile["id"] == "7":
            pile["down"] = 6
            pile["cards"] = [r + s for r, s in zip("KQJT98765432A", "hchchchchchch", strict=True)]
    layout = pile_layout(view)
    cards = layout.piles["7"].cards
    steps = [b.rect.y - a.rect.y for a, b in zip(cards[6:], cards[7:], strict=False)]
    assert min(steps) >= 28  # the rank and suit strip stays visible
    image = decode(renderer.render("solitario", view, faces="francesi"))
    assert image.height >= cards[-1].rect.bottom


def test_unknown_game_is_refused():
    with pytest.raises(ValueError):
        renderer.render("chess", {})


def test_french_court_cards_show_their_suit_beside_the_head_not_over_the_figure():
    from renderer.cards_french import french_card

    for code, is_suit in (("Jd", is_red), ("Ks", is_black), ("Qh", is_red)):
        card = french_card(code).convert("RGB")
        # the two top corners of the figure's frame hold the suit symbol
        for box in ((17, 37, 33, 53), (67, 37, 83, 53)):
            assert any(map(is_suit, pixels_in(card, box))), (code, box)


def test_empty_canfield_foundations_show_the_base_rank():
    view = samples.canfield_view("start")  # base rank 8; f2-f4 empty
    layout = pile_layout(view)
    image = decode(renderer.render("canfield", view))
    slot = layout.piles["f2"].slot
    inside = pixels_in(image, (slot.x + 30, slot.y + 50, slot.right - 30, slot.bottom - 50))
    assert any(close(p, theme.SLOT_LINE, 40) for p in inside)  # the faint "8"


def test_a_changed_view_is_drawn_again_even_when_the_same_dict_is_reused():
    view = samples.solitario_view("mid")
    first = renderer.render("solitario", view)
    view["score"] = 999  # the bot may reuse and mutate one dict
    assert renderer.render("solitario", view) != first
    view["score"] = samples.solitario_view("mid")["score"]
    assert renderer.render("solitario", copy.deepcopy(view)) == first


def test_the_palette_board_keeps_theme_colours_exact():
    image = renderer.draw("solitario", samples.solitario_view("mid"))
    assert image.mode == "P"
    rgb = image.convert("RGB")
    assert rgb.getpixel((2, 2)) == theme.HEADER
    assert rgb.getpixel((2, image.height - 2)) == theme.TABLE
