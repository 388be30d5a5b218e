"""What players read on the images: every letter drawn, a steady Squadratik board with readable
corner digits, the selected pile or card marked, and replays that are light and show every move."""

from __future__ import annotations

import glob
import io
import random
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageChops

import engine
import renderer
from renderer import fonts, samples, typeface
from renderer.boards import pile_layout
from renderer.cards_squadratik import squadratik_card
from renderer.squadratik_boards import squadratik_layout
from tests.renderer.helpers import decode, is_red
from tests.renderer.test_squadratik import ink_height

# Latin with accents, Greek, Cyrillic, Hebrew, Arabic: drawn as they are; Chinese and emoji: the
# visible substitute.
COVERED = ["Zoë", "José Núñez", "Ωμέγα", "Жора", "שלום", "مرحبا"]
SUBSTITUTED = ["王小明", "Ana🎲", "👨‍👩‍👧", "👍🏽"]


def _mask(text: str) -> bytes:
    """What the board draws for ``text`` (after the substitution)."""
    mask, _, _ = fonts.text_mask(text, 24, True)
    return mask.tobytes() + bytes(str(mask.size), "ascii")


def _raw_mask(text: str) -> bytes:
    """What the shipped font alone draws for ``text`` (no substitution: missing = .notdef)."""
    mask = typeface.font(24, True).getmask(text)
    return bytes(mask) + bytes(str(mask.size), "ascii")


def test_shipped_font_has_its_licence_beside_it():
    assert typeface.REGULAR.exists() and typeface.BOLD.exists()
    licence = (typeface.FONT_DIR / "LICENSE-DejaVu.txt").read_text()
    assert "Permission is hereby granted" in licence
    total = typeface.REGULAR.stat().st_size + typeface.BOLD.stat().st_size
    assert total < 3 * 1024 * 1024


@pytest.mark.parametrize("name", COVERED)
def test_names_in_covered_scripts_are_drawn_letter_for_letter(name):
    assert typeface.printable(name) == name
    assert all(typeface.has_glyph(c) for c in name)
    # each letter is its own glyph: replacing it with a code point no font has changes the ink
    for k, char in enumerate(name):
        if char != " ":
            assert _raw_mask(name) != _raw_mask(name[:k] + "\U0010fffd" + name[k + 1 :]), char


@pytest.mark.parametrize("name", SUBSTITUTED)
def test_names_beyond_the_font_get_the_visible_substitute_not_a_box(name):
    shown = typeface.printable(name)
    assert typeface.SUBSTITUTE in shown
    assert all(typeface.has_glyph(c) for c in shown if c != "\u200d")
    assert _mask(name) == _mask(shown)
    assert _raw_mask(typeface.SUBSTITUTE) != _raw_mask("\U0010fffd")  # the substitute is no box


def test_every_catalogue_and_board_word_has_glyphs():
    texts = list(fonts.WORDS.values())  # English defaults; the other languages are in the .po files
    for path in glob.glob("bot/i18n/locales/*/*.po"):
        with open(path, "rb") as handle:
            for message in read_po(handle):
                strings = [message.string] if isinstance(message.string, str) else message.string
                texts += [s for s in strings if s]
    assert len(texts) > 100
    missing = {c for text in texts for c in text if c != "\n" and not typeface.has_glyph(c)}
    assert missing == set()


def test_boards_and_hands_with_names_in_every_script_render_deterministically():
    names = COVERED + SUBSTITUTED
    view = samples.squadratik_view("maestras")
    seats = view["seats"]
    for k in range(0, len(names), len(seats)):
        chunk = names[k : k + len(seats)]
        board = dict(
            view,
            seats=[dict(seat, player=name) for seat, name in zip(seats, chunk, strict=False)],
            current_player=chunk[0],
        )
        first = renderer.render("maestras", board)
        renderer.clear_cache()
        assert renderer.render("maestras", board) == first
        for name in chunk:
            hand = renderer.render("maestras", dict(view, viewer=name), hand=True)
            assert decode(hand).size[0] >= 640


def _playout_sizes(game_id: str, players, deal: int) -> set[tuple[int, int]]:
    game = engine.new_game(game_id, deal, players)
    rng = random.Random(deal)
    sizes = set()
    while True:
        layout = squadratik_layout(game.view())
        sizes.add((layout.width, layout.height))
        legal = game.legal_moves()
        if game.is_over or not legal:
            return sizes
        game.play(rng.choice(legal))


@pytest.mark.parametrize(
    ("game_id", "players"), [("squadratik", None), ("maestras", ["ana", "bob", "cy"])]
)
def test_squadratik_image_keeps_one_size_through_random_games(game_id, players):
    for deal in range(25):
        assert len(_playout_sizes(game_id, players, deal)) == 1, deal
    game = engine.new_game(game_id, 3, players)
    rng = random.Random(3)
    sizes = {decode(renderer.render(game_id, game.view())).size}
    while not game.is_over and game.legal_moves():
        game.play(rng.choice(game.legal_moves()))
        sizes.add(decode(renderer.render(game_id, game.view())).size)
    assert len(sizes) == 1


def test_corner_digits_are_at_least_14_px_at_the_size_sent():
    size = squadratik_layout(samples.squadratik_view()).cell_size
    card = squadratik_card("normal", ("R4", "0", "0", "B3"), 7, 0, size)
    # the N count (red 4) of the summary cross, and the red total in the bottom-right corner
    assert ink_height(card, (0, 0, size // 2, size // 5), is_red) >= 14
    assert ink_height(card, (size * 3 // 4, size // 2, size, size), is_red) >= 14


def _changed_box(a: bytes, b: bytes) -> tuple[int, int, int, int]:
    box = ImageChops.difference(decode(a), decode(b)).getbbox()
    assert box is not None
    return box


def test_selected_pile_is_ringed_where_it_lies():
    view = samples.solitario_view("mid")
    plain = renderer.render("solitario", view)
    for pid in ("3", "w"):
        box = _changed_box(plain, renderer.render("solitario", view, selected=pid))
        top = pile_layout(view).piles[pid].top
        assert box[0] >= top.x - 8 and box[2] <= top.right + 8
        assert box[1] >= top.y - 8 and box[3] <= top.bottom + 8


def test_selected_hand_card_is_ringed_where_it_lies():
    view = samples.squadratik_view()
    plain = renderer.render("squadratik", view)
    box = _changed_box(plain, renderer.render("squadratik", view, selected="h2"))
    card = squadratik_layout(view).hand[1]
    assert box[0] >= card.x - 8 and box[2] <= card.right + 8
    assert box[1] >= card.y - 8 and box[3] <= card.bottom + 8


def test_replay_of_50_solitario_moves_is_light_and_shows_every_move():
    game = engine.new_game("solitario", 5)
    rng = random.Random(5)
    while len(game.moves) < 50 and not game.is_over:
        legal = game.legal_moves()
        game.play(legal[0] if rng.random() < 0.5 else rng.choice(legal))
    assert len(game.moves) == 50
    data = renderer.replay("solitario", 5, None, None, game.moves)
    assert len(data) <= 500 * 1024
    gif = Image.open(io.BytesIO(data))
    board = decode(renderer.render("solitario", engine.new_game("solitario", 5).view()))
    assert gif.size == board.size  # frames are the board, no letterbox
    # identical frames would be merged by the encoder: one frame per move means each differs
    assert gif.n_frames == 51


def test_palette_imports_no_card_module_and_matches_the_gallery_fit():
    import ast
    import json

    from renderer import gallery, palette

    tree = ast.parse(Path(palette.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert not {name for name in imported if name and name.startswith("renderer.cards")}
    stored = json.loads(palette.PALETTE_FILE.read_text())
    assert stored == palette.fit_palette(gallery.sample_sheet())  # refit: gallery --palette


def test_a_race_board_names_its_player_in_the_header():
    view = samples.solitario_view("mid")
    plain = renderer.render("solitario", view, clock="04:12")
    named = renderer.render("solitario", view, clock="04:12", player="Zoë")
    box = _changed_box(plain, named)
    assert box[3] <= 52  # only the header band changed
    square = renderer.render("squadratik", samples.squadratik_view(), player="Жора")
    assert _changed_box(renderer.render("squadratik", samples.squadratik_view()), square)[3] <= 52
