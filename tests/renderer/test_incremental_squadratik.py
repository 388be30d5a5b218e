"""The cheap path of ``renderer.render`` for El Solitario and Cartas Maestras (issue 27): their
boards and private hands are display lists too, repainted over the last image of the same game
(or hand) where they differ. A player must never see a stale or different picture: every
image is pixel for pixel the full drawing (``renderer.draw``) of the same view, move after
move, across band cuts, with rings, in another language, board and hand images interleaved
as the bot sends them; the shapes drawn once and pasted put down exactly what ImageDraw
draws; a card's numbers from cached glyphs are exactly ``draw.text``'s; caches stay bounded."""

from __future__ import annotations

import random
from typing import Any

import pytest
from PIL import ImageDraw

import engine
import renderer
from renderer import cards_squadratik, theme
from renderer import display as display_module
from renderer.display import Display
from renderer.palette import index, new_board
from renderer.squadratik_boards import CELL_STEPS, GAP, HAND_CARD, path_targets
from tests.renderer.helpers import decode

SEATS = ["ana", "bob", "cy", "dee", "eve", "fay", "gus", "hal"]
ES_WORDS = {"moves": "Jugadas", "stock": "Mazo", "hand": "Mano", "points": "Puntos"}


def _shown(game_id: str, seats: int, deal: int, moves: int) -> list[tuple[dict, dict[str, Any]]]:
    """(view, style) of each image a chat gets through seeded games of ``game_id`` (the next
    deal when one ends): each board, and in Cartas Maestras the hand of the player to move
    after it; now and then a hand card picked with its targets ringed, the language switched
    for a stretch."""
    rng = random.Random(deal)
    players = SEATS[:seats] if game_id == "maestras" else None
    game = engine.new_game(game_id, deal, players)
    shown: list[tuple[dict, dict[str, Any]]] = []
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
        view = game.view()
        if n % 6 == 4 and not game.is_over:
            style |= {"selected": "h1", "targets": sorted(path_targets(view))[:2]}
        shown.append((view, style))
        if game_id == "maestras" and game.current_player and not game.is_over:
            hand_style = {"hand": True} | ({"selected": "h2"} if n % 4 == 1 else {})
            shown.append((game.view(game.current_player), hand_style))
    return shown


@pytest.mark.parametrize(
    ("game_id", "seats", "deal", "moves"),
    [("squadratik", 1, 2, 150), ("maestras", 2, 5, 70), ("maestras", 8, 6, 70)],
)
def test_every_squadratik_image_rendered_in_turn_is_the_full_drawing(
    game_id: str, seats: int, deal: int, moves: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn_whole = [0]
    whole = Display.image

    def counted(display: Display) -> Any:
        drawn_whole[0] += 1
        return whole(display)

    monkeypatch.setattr(Display, "image", counted)
    renderer.clear_cache(sprites=False)
    folded = 0
    shown = _shown(game_id, seats, deal, moves)
    cheap = 0
    for n, (view, style) in enumerate(shown):
        before = drawn_whole[0]
        fast = decode(renderer.render(game_id, view, **style))
        cheap += drawn_whole[0] == before
        full = renderer.draw(game_id, view, **style).convert("RGB")
        assert fast.size == full.size, (game_id, n)
        assert fast.tobytes() == full.tobytes(), f"{game_id}: image {n} differs from a redraw"
        layout = renderer.layout(game_id, view, **style)
        folded += bool(layout.fold and layout.fold.axis)
    # most images were repainted over the last one (a board framed anew moved first), not
    # drawn whole; El Solitario's went through boards cut into bands
    assert cheap > len(shown) * 3 // 4
    assert folded or game_id == "maestras"


def test_a_drawn_shape_puts_down_what_imagedraw_draws_there() -> None:
    """Seat rows, number pills, the turn arrow, the dashed cuts: drawn once at the origin and
    pasted anywhere, over whatever is there, they leave the pixels ImageDraw would."""
    row = (("radius", 8), ("fill", theme.TURN_BG), ("outline", theme.LAST_MOVE), ("width", 3))
    lines = (("fill", theme.SLOT_LINE), ("width", 2))
    calls = (
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
            moved = ((xy[0] + x, xy[1] + y, xy[2] + x, xy[3] + y) if method == "rounded_rectangle"
                     else tuple((px + x, py + y) for px, py in xy))  # fmt: skip
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
    draw.text(xy, text, font=cards_squadratik.font(px, bold=True), fill=fill, anchor=anchor)


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


def test_squadratik_images_keep_the_caches_at_their_bounds() -> None:
    renderer.clear_cache(sprites=False)
    for deal in range(1, renderer.BOARD_CACHE_SIZE + 5):
        game = engine.new_game("maestras", deal, SEATS[:3])
        for _ in range(3):
            game.play(game.legal_moves()[0])
            renderer.render("maestras", game.view())
            renderer.render("maestras", game.view(game.current_player), hand=True)
    assert len(renderer._boards) == renderer.BOARD_CACHE_SIZE
    assert len(renderer._png_cache) <= renderer.PNG_CACHE_SIZE
    assert display_module.drawn.cache_info().currsize <= display_module.SHAPE_CACHE_SIZE
    glyphs = cards_squadratik._glyph_mask.cache_info()
    assert glyphs.maxsize is not None and glyphs.currsize <= glyphs.maxsize
