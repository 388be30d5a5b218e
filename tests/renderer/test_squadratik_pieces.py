"""Cheaper El Solitario and Cartas Maestras images (issue 27), and pictures no different: a
card is put together on the board palette from cached pieces instead of converting each new
card picture, shapes are drawn once and pasted, a card's numbers come from cached glyphs. Each
must give exactly the pixels of the slower way: every card of the deck at every turn and the
board sizes, whole boards and hands through long playouts (band cuts, rings, another
language), each shape, each number; caches stay bounded."""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest
from PIL import ImageDraw

import engine
import renderer
from engine.squadratik.deck import DECK
from renderer import cards_squadratik, fonts, squadratik_boards, theme
from renderer import display as display_module
from renderer.display import Display
from renderer.palette import index, new_board, paletted
from renderer.squadratik_boards import CELL_STEPS, GAP, HAND_CARD, path_targets

SEATS = ["ana", "bob", "cy", "dee", "eve", "fay", "gus", "hal"]
ES_WORDS = {"moves": "Jugadas", "stock": "Mazo", "hand": "Mano", "points": "Puntos"}


def _shown(game_id: str, seats: int, deal: int, moves: int) -> list[tuple[Any, dict[str, Any]]]:
    """(view, style) of each image a chat gets through seeded games of ``game_id`` (the next
    deal when one ends): each board, and in Cartas Maestras the hand of the player to move
    after it; now and then a hand card picked with its targets ringed, the language switched
    for a stretch."""
    rng = random.Random(deal)
    players = SEATS[:seats] if game_id == "maestras" else None
    game = engine.new_game(game_id, deal, players)
    shown: list[tuple[Any, dict[str, Any]]] = []
    for n in range(moves):
        legal = game.legal_moves()
        if game.is_over or not legal:
            deal += 1
            game = engine.new_game(game_id, deal, players)
            legal = game.legal_moves()
        game.play(legal[0] if rng.random() < 0.5 else rng.choice(legal))
        style: dict[str, Any] = {}
        if moves // 3 < n < moves // 2:
            style = {"lang": "es", "words": ES_WORDS}
        view: Any = game.view()
        if n % 2:  # the whole board (``/board full``): the long paths cut into bands
            style["full"] = True
        if n % 6 == 4 and not game.is_over:
            style |= {"selected": "h1", "targets": sorted(path_targets(view))[:2]}
        shown.append((view, style))
        if game_id == "maestras" and game.current_player and not game.is_over:
            hand_style = {"hand": True} | ({"selected": "h2"} if n % 4 == 1 else {})
            shown.append((game.view(game.current_player), hand_style))
    return shown


def _converted(card: dict, size: int, under: tuple[int, ...] = theme.TABLE) -> Any:
    """The slow way: the RGBA card picture converted to the palette whole."""
    return paletted(cards_squadratik.card_sprite(card, size), under)


@pytest.mark.parametrize(
    ("game_id", "seats", "deal", "moves"),
    [("squadratik", 1, 2, 150), ("maestras", 2, 5, 70), ("maestras", 8, 6, 70)],
)
def test_every_squadratik_image_is_the_one_from_cards_converted_whole(
    game_id: str, seats: int, deal: int, moves: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = _shown(game_id, seats, deal, moves)
    fast = [renderer.draw(game_id, view, **style).tobytes() for view, style in shown]
    monkeypatch.setattr(squadratik_boards, "paletted_card", _converted)
    folded = 0
    for n, (view, style) in enumerate(shown):
        slow = renderer.draw(game_id, view, **style).tobytes()
        assert fast[n] == slow, f"{game_id}: image {n} differs from cards converted whole"
        layout = renderer.layout(game_id, view, **style)
        folded += bool(layout.fold and layout.fold.axis)
        if layout.fold and layout.fold.axis:
            # the cuts' lines and arrows are small shapes (kept in a cache), never board-sized
            board, _ = squadratik_boards.squadratik_display(view, **_drawn_style(style))
            shapes = [op[1] for op in board.ops if op[0][0] == "d"]
            assert all(min(x1 - x0, y1 - y0) <= 60 for x0, y0, x1, y1 in shapes)
    assert folded or game_id == "maestras"  # El Solitario's boards were cut into bands too


def _drawn_style(style: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in style.items() if k in ("lang", "selected", "targets", "hand", "full")}


@pytest.mark.parametrize("size", [HAND_CARD, 82, 64])
def test_every_card_of_the_deck_from_pieces_is_the_card_converted_whole(size: int) -> None:
    for card in DECK:
        for rotation in range(4):
            view = dict(card.to_view(rotation))
            picture, mask = cards_squadratik.paletted_card(view, size)
            slow_picture, slow_mask = _converted(view, size)
            assert picture.tobytes() == slow_picture.tobytes(), (card.id, rotation, size)
            assert mask.tobytes() == slow_mask.tobytes(), (card.id, rotation, size)


@pytest.mark.parametrize("size", sorted({step - GAP for step in CELL_STEPS}))
def test_cards_from_pieces_are_the_cards_converted_whole_at_every_board_size(size: int) -> None:
    for card in DECK[::5]:
        view = dict(card.to_view(card.id % 4))
        picture, mask = cards_squadratik.paletted_card(view, size)
        slow_picture, slow_mask = _converted(view, size)
        assert (picture.tobytes(), mask.tobytes()) == (slow_picture.tobytes(), slow_mask.tobytes())


def test_a_drawn_shape_puts_down_what_imagedraw_draws_there() -> None:
    """Seat rows, number pills, the turn arrow, the dashed cuts: drawn once at the origin and
    pasted anywhere, over whatever is there, they leave the pixels ImageDraw would."""
    row = (("radius", 8), ("fill", theme.TURN_BG), ("outline", theme.LAST_MOVE), ("width", 3))
    lines = (("fill", theme.SLOT_LINE), ("width", 2))
    calls: tuple[tuple[str, Any, Any], ...] = (
        ("rounded_rectangle", (0, 0, 60, 30), row),
        ("polygon", ((2, 2), (19, 13), (2, 24)), (("fill", theme.GOLD),)),
        ("line", ((3, 40), (40, 40)), lines),
        ("line", ((50, 5), (50, 45)), lines),
    )
    for x, y in ((0, 0), (13, 7), (70, 41)):
        board = new_board(140, 100, theme.TABLE)
        ImageDraw.Draw(board).rectangle((5, 5, 120, 60), fill=index(theme.CARD_WHITE))
        display = Display(140, 100)
        display.shape(x, y, ((61, 46), calls))
        pasted = board.copy()
        display.paint(pasted)
        drawn = board.copy()
        draw = ImageDraw.Draw(drawn)
        for method, xy, options in calls:
            named = dict(options)
            for key in ("fill", "outline"):
                if named.get(key) is not None:
                    named[key] = index(named[key])
            moved = (
                (xy[0] + x, xy[1] + y, xy[2] + x, xy[3] + y)
                if method == "rounded_rectangle"
                else tuple((px + x, py + y) for px, py in xy)
            )
            getattr(draw, method)(moved, **named)
        assert pasted.tobytes() == drawn.tobytes(), (x, y)


def _with_draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    px: int,
    fill: tuple[int, int, int],
    anchor: str,
) -> None:
    draw.text(xy, text, font=fonts.font(px, bold=True), fill=fill, anchor=anchor)


@pytest.mark.parametrize("size", sorted({step - GAP for step in CELL_STEPS} | {HAND_CARD}))
def test_a_cards_numbers_from_cached_glyphs_are_draw_texts(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = [
        ("normal", ("R1", "B2", "0", "R4"), 5),
        ("normal", ("B4", "B3", "R2", "R1"), 10),
        ("normal", ("0", "R3", "0", "B1"), 0),
        ("master", ("R2", "R2", "B1", "B3"), 0),
    ]
    build = cards_squadratik._placed_card.__wrapped__
    for kind, sides, points in cards:
        for rotation in range(4):
            shown = cards_squadratik.placed_sides(sides, rotation)
            fast = build(kind, shown, points, size)
            with monkeypatch.context() as patch:
                patch.setattr(cards_squadratik, "draw_digits", _with_draw_text)
                slow = build(kind, shown, points, size)
            assert fast.tobytes() == slow.tobytes(), (kind, sides, rotation, size)


def test_squadratik_caches_stay_at_their_bounds_over_many_games() -> None:
    renderer.clear_cache(sprites=True)
    for deal in range(1, 25):
        game = engine.new_game("maestras", deal, SEATS[:3])
        for _ in range(4):
            game.play(game.legal_moves()[-1])
            renderer.render("maestras", game.view())
            renderer.render("maestras", game.view(game.current_player), hand=True)
    for cached in (
        display_module.drawn,
        cards_squadratik._paletted_placed,
        cards_squadratik._plan,
        cards_squadratik._piece,
        cards_squadratik._touch,
        cards_squadratik._glyph_mask,
    ):
        info = cached.cache_info()
        assert info.maxsize is not None and info.currsize <= info.maxsize, cached
    assert cards_squadratik._paletted_placed.cache_info().currsize > 0
    # the parts pasted for each card and shape live only as long as the card or shape
    assert display_module._MASKED
    renderer.clear_cache(sprites=True)
    gc.collect()
    assert not display_module._MASKED


def test_a_card_new_to_the_board_is_put_together_from_what_warm_up_planned() -> None:
    # a reframed board shows every card at a new size: after warm-up, such a card costs a
    # copy of its blank card and a few pastes (no piece, no plan worked out, no new mask)
    renderer.clear_cache(sprites=True)
    cards_squadratik.warm_up((82,))
    pieces, plans = cards_squadratik._piece.cache_info(), cards_squadratik._plan.cache_info()
    masks: dict[int, set[str]] = {}
    for card in DECK:
        for rotation in range(4):
            _, mask = cards_squadratik.paletted_card(dict(card.to_view(rotation)), 82)
            masks.setdefault(id(mask), set()).add(str(card.kind))
    assert cards_squadratik._piece.cache_info().misses == pieces.misses
    assert cards_squadratik._plan.cache_info().misses == plans.misses
    # the cards of a kind share their blank card's mask (and the parts it is cut into)
    assert sorted(len(kinds) for kinds in masks.values()) == [1] * len(masks)
    assert len(masks) == len({str(card.kind) for card in DECK})
