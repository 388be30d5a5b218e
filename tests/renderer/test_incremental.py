"""The cheap path of ``renderer.render`` (issue 27): a pile game's board is repainted over the
last board of the same game where the two differ. A player must never see a stale board:
every image it gives is pixel for pixel the full drawing of the same view (``renderer.draw``,
which takes nothing from the caches), move after move, after an undo, with rings, another
language and other faces; its caches stay at their bounds."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import engine
import renderer
from renderer import boards, theme
from renderer import display as display_module
from renderer.boards import pile_board_display
from renderer.display import Display, changes
from tests.renderer.helpers import decode

PILE_GAMES = ("solitario", "canfield", "imaginary13", "freecell")
ALL_GAMES = (*PILE_GAMES, "squadratik", "maestras")
PLAYERS = {"maestras": ["ana", "bob", "cy"]}


def _played(game_id: str, deal: int, moves: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(view, style) of each position of seeded games (the next deal when one ends, its
    last board with a banner), an undo among them, with a pile picked (rings) now and then and
    the language switched once."""
    rng = random.Random(deal)
    game = engine.new_game(game_id, deal, PLAYERS.get(game_id))
    shown: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for n in range(moves):
        legal = game.legal_moves()
        if game.is_over or not legal:
            deal += 1
            game = engine.new_game(game_id, deal, PLAYERS.get(game_id))
            legal = game.legal_moves()
        if n == moves // 2 and game.moves:
            game.undo()  # the board goes back: what was repainted must be repainted again
        else:
            game.play(legal[0] if rng.random() < 0.5 else rng.choice(legal))
        style: dict[str, Any] = {"lang": "es" if n > moves * 3 // 4 else "en"}
        if style["lang"] == "es":  # and the player picked other card faces meanwhile
            style["words"] = {"score": "Puntos", "moves": "Jugadas", "next": "sig.", "done": "ok"}
            style["faces"] = "piacentine"
        view = game.view()
        piles = [p["id"] for p in view.get("piles", [])]
        if piles and n % 5 == 2:
            style |= {"selected": piles[-1], "targets": piles[:2]}
        shown.append((view, style))
    return shown


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_every_board_rendered_move_after_move_is_the_full_drawing(game_id: str) -> None:
    renderer.clear_cache(sprites=False)
    positions = _played(game_id, 3, 36)
    for n, (view, style) in enumerate(positions):
        fast = decode(renderer.render(game_id, view, **style))
        full = renderer.draw(game_id, view, **style).convert("RGB")
        assert fast.size == full.size, (game_id, n)
        assert fast.tobytes() == full.tobytes(), f"{game_id}: board {n} differs from a redraw"


def test_the_board_after_an_undo_is_not_the_one_before_it() -> None:
    renderer.clear_cache(sprites=False)
    game = engine.new_game("solitario", 4)
    before = renderer.render("solitario", game.view())
    game.play("d")
    turned = renderer.render("solitario", game.view())
    game.undo()
    after = decode(renderer.render("solitario", game.view()))
    assert turned != before
    assert after.tobytes() == decode(before).tobytes()


def test_a_move_repaints_a_small_part_of_the_board() -> None:
    game = engine.new_game("solitario", 5)
    first, _ = pile_board_display(game.view())
    game.play("d")
    second, _ = pile_board_display(game.view())
    boxes = changes(first, second)
    assert boxes is not None and boxes
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
    assert area < 0.25 * second.width * second.height  # stock, waste, header: not the tableau
    tableau_top = min(
        spot.slot.y
        for spot in renderer.layout("solitario", game.view()).piles.values()
        if spot.kind == "tableau"
    )
    assert all(y1 <= tableau_top for _x0, _y0, _x1, y1 in boxes)


def test_the_same_pastes_in_another_order_are_redrawn_whole() -> None:
    game = engine.new_game("solitario", 5)
    display, _ = pile_board_display(game.view())
    swapped = Display(display.width, display.height)
    swapped.ops = list(display.ops)
    swapped.ops[-1], swapped.ops[-2] = swapped.ops[-2], swapped.ops[-1]
    assert changes(display, swapped) is None
    assert changes(display, display) == []
    wider = Display(display.width + 10, display.height)
    wider.ops = list(display.ops)
    assert changes(display, wider) is None
    taller = Display(display.width, display.height + 10)
    taller.ops = list(display.ops)
    assert changes(display, taller) == [(0, display.height, display.width, display.height + 10)]


def test_a_board_that_grows_or_shrinks_is_still_the_full_drawing() -> None:
    renderer.clear_cache(sprites=False)
    view = engine.new_game("freecell", 2).view()
    longer = copy.deepcopy(view)
    column = next(p for p in longer["piles"] if p["id"] == "1")
    column["cards"] = list(column["cards"]) + ["Ks", "Qh", "Js", "Th", "9s", "8h"]
    heights = []
    for shown in (view, longer, view):  # a column grows past the board's bottom, then shrinks
        fast = decode(renderer.render("freecell", shown))
        assert fast.tobytes() == renderer.draw("freecell", shown).convert("RGB").tobytes()
        heights.append(fast.height)
    assert heights[0] < heights[1] and heights[2] == heights[0]


def test_the_board_and_image_caches_stay_at_their_bounds_over_many_games() -> None:
    renderer.clear_cache(sprites=False)
    for deal in range(1, 3 * max(renderer.BOARD_CACHE_SIZE, boards.PILE_CACHE_SIZE // 10) + 1):
        game = engine.new_game("freecell", deal)
        renderer.render("freecell", game.view())
        game.play(game.legal_moves()[0])
        renderer.render("freecell", game.view())
    assert len(renderer._boards) == renderer.BOARD_CACHE_SIZE
    assert len(renderer._png_cache) <= renderer.PNG_CACHE_SIZE
    assert len(display_module._PARTS) <= display_module.PARTS_CACHE_SIZE
    assert len(boards._piles) == boards.PILE_CACHE_SIZE  # 8 columns and 8 cells a deal


def test_two_threads_drawing_the_same_game_both_get_its_board() -> None:
    from concurrent.futures import ThreadPoolExecutor

    renderer.clear_cache(sprites=False)
    game = engine.new_game("freecell", 8)
    views = []
    for move in range(12):
        game.play(game.legal_moves()[move % len(game.legal_moves())])
        views.append(game.view())
    with ThreadPoolExecutor(4) as pool:
        pngs = list(pool.map(lambda view: renderer.render("freecell", view), views))
    for view, png in zip(views, pngs, strict=True):
        assert decode(png).tobytes() == renderer.draw("freecell", view).convert("RGB").tobytes()


def test_repainting_what_changes_says_gives_the_new_board_for_any_edit_of_the_pastes() -> None:
    # display lists of overlapping flat rectangles, edited as moves edit a pile (an op added,
    # taken, replaced, the same op again, two swapped): wherever ``changes`` gives boxes,
    # repainting them over the old board must give exactly the new board
    rng = random.Random(27)
    colours = [(200, 30, 30), (20, 20, 20), (250, 250, 245), (235, 190, 60)]
    rects = [
        (rng.randrange(40), rng.randrange(30), rng.randrange(45, 80), rng.randrange(35, 60))
        for _ in range(6)
    ]
    pastes = [(colours[k % 4], rect) for k, rect in enumerate(rects)]
    repainted = 0
    for _ in range(300):
        old_ops = [rng.choice(pastes) for _ in range(rng.randrange(1, 7))]
        new_ops = list(old_ops)
        for _ in range(rng.randrange(1, 3)):
            edit, at = rng.randrange(4), rng.randrange(len(new_ops) + 1)
            if edit == 0 or not new_ops:
                new_ops.insert(at, rng.choice(pastes + old_ops))
            elif edit == 1:
                del new_ops[at % len(new_ops)]
            elif edit == 2:
                new_ops[at % len(new_ops)] = rng.choice(pastes)
            elif len(new_ops) > 1:
                k = at % (len(new_ops) - 1)
                new_ops[k], new_ops[k + 1] = new_ops[k + 1], new_ops[k]
        old, new = Display(80, 60), Display(80, 60)
        for display, ops in ((old, old_ops), (new, new_ops)):
            for colour, rect in ops:
                display.fill(colour, rect)
        boxes = changes(old, new)
        if boxes is None:
            continue
        image = old.image()
        for box in boxes:
            new.paint(image, box)
        assert image.tobytes() == new.image().tobytes(), (old_ops, new_ops)
        repainted += 1
    assert repainted > 200


def test_an_op_added_again_before_its_twin_repaints_only_where_it_lies() -> None:
    # a pile that gets a card it already shows lower down (same sprite): only the new card's
    # place is repainted, not the whole board
    a, b, c = (
        (theme.RED, (0, 0, 10, 10)),
        (theme.GOLD, (20, 0, 30, 10)),
        (theme.INK, (40, 0, 50, 10)),
    )
    old, new = Display(60, 20), Display(60, 20)
    for display, ops in ((old, [a, b, c]), (new, [a, c, b, c])):
        for colour, rect in ops:
            display.fill(colour, rect)
    assert changes(old, new) == [(40, 0, 50, 10)]
