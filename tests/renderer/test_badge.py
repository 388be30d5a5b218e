"""The ranked daily says so on its picture: the ``badge`` style word is drawn in the header of
every game's board (issue 26, finding 3)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engine
import renderer


@pytest.mark.parametrize("game_id", [g for g, cls in engine.GAMES.items() if not cls.info.table])
def test_a_badge_changes_the_header_and_nothing_below_it(game_id: str):
    view = engine.new_game(game_id, 3).view(None)
    plain = Image.open(io.BytesIO(renderer.render(game_id, view, lang="en"))).convert("RGB")
    daily = Image.open(
        io.BytesIO(renderer.render(game_id, view, lang="en", badge="Daily challenge"))
    ).convert("RGB")
    # the header may take a second row for it (as for a race's player name); the cards stay
    assert plain.width == daily.width and daily.height >= plain.height
    top = (0, 0, plain.width, 40)
    assert plain.crop(top).tobytes() != daily.crop(top).tobytes()
    cards = 300  # the bottom of the board: the same cards in the same places
    assert (
        plain.crop((0, plain.height - cards, plain.width, plain.height)).tobytes()
        == daily.crop((0, daily.height - cards, daily.width, daily.height)).tobytes()
    )
