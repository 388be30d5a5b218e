"""FreeCell's board: cells, foundations and columns where a player looks for them, labelled
with the notation ids, readable when shown 400 px wide."""

from __future__ import annotations

import engine
import renderer
from engine.freecell import FreeCell
from tests.renderer.helpers import decode


def test_cells_and_foundations_share_the_top_row_above_eight_columns():
    game = engine.new_game("freecell", 1)
    game.play("1a")
    layout = renderer.layout("freecell", game.view())
    top = [layout.piles[p].slot for p in ("a", "b", "c", "d", "h1", "h2", "h3", "h4")]
    columns = [layout.piles[str(n)].slot for n in range(1, 9)]
    assert len({slot.y for slot in top}) == 1 and len({slot.y for slot in columns}) == 1
    assert top[0].y < columns[0].y
    assert [s.x for s in top] == [s.x for s in columns]  # one grid of eight
    assert layout.piles["a"].cards[0].face == "6s"
    assert len(layout.piles["1"].cards) == 6


def test_board_fits_and_cards_stay_big_enough_to_read_at_400_px():
    game = engine.new_game("freecell", 1)
    image = decode(renderer.render("freecell", game.view()))
    layout = renderer.layout("freecell", game.view())
    card = layout.piles["1"].slot
    # shown 400 px wide, a card is still ~40 px wide and the visible strip of a fanned card
    # (where its rank and suit are) ~13 px high
    scale = 400 / image.width
    assert card.w * scale >= 40
    step = layout.piles["1"].cards[1].rect.y - layout.piles["1"].cards[0].rect.y
    assert step * scale >= 12
    assert image.width <= renderer.MAX_WIDTH


def test_a_long_column_is_squeezed_but_every_card_shows():
    # 18 cards in one column: six dealt cards, then a king with a long run on it
    game = FreeCell.from_layout(
        ["2d 3d 4d 5d 6d 7d Kc Qh Js Th 9c 8h 7s 6h 5c 4h 3c 2h"], homes=[0, 0, 0, 0]
    )
    layout = renderer.layout("freecell", game.view())
    cards = layout.piles["1"].cards
    assert len(cards) == 18 and cards[-1].rect.bottom <= layout.height
    assert all(b.rect.y > a.rect.y for a, b in zip(cards, cards[1:], strict=False))
