"""Board PNGs written around ISA-L's deflate: the same picture as Pillow's own writer, same
bytes for the same board, and cheaper."""

from __future__ import annotations

import io
import time

from PIL import Image

import engine
import renderer
from renderer import display as display_module
from renderer import registry, theme
from renderer.display import Display, with_room
from renderer.encode import padded_png, palette_png, to_png
from tools import samples


def _boards() -> list[Image.Image]:
    return [
        renderer.draw("solitario", samples.solitario_view("mid")),
        renderer.draw("canfield", samples.canfield_view("end")),
        renderer.draw("maestras", samples.squadratik_view("maestras")),
        renderer.draw("maestras", samples.squadratik_view("maestras"), hand=True),
    ]


def test_a_board_png_decodes_to_the_drawn_pixels_and_palette():
    for board in _boards():
        png = to_png(board)
        decoded = Image.open(io.BytesIO(png))
        decoded.load()
        assert decoded.format == "PNG" and decoded.mode == "P" and decoded.size == board.size
        assert decoded.tobytes() == board.tobytes()
        assert decoded.getpalette()[:768] == board.getpalette()[:768]
        # what a player sees: the same colours as Pillow's own PNG of the board
        reference = io.BytesIO()
        board.save(reference, "PNG", compress_level=1)
        assert Image.open(reference).convert("RGB").tobytes() == decoded.convert("RGB").tobytes()


def test_same_board_same_bytes():
    for board in _boards():
        assert palette_png(board) == palette_png(board.copy())


def test_writing_a_board_costs_less_cpu_than_pillows_writer():
    board = _boards()[0]

    def best(write) -> float:
        times = []
        for _ in range(15):
            started = time.thread_time()
            write()
            times.append(time.thread_time() - started)
        return min(times)

    ours = best(lambda: to_png(board))
    pillows = best(lambda: board.save(io.BytesIO(), "PNG", compress_level=1))
    assert ours < pillows * 0.8, (ours, pillows)
    assert len(to_png(board)) < 300 * 1024


def test_boards_of_one_width_and_different_heights_encode_right_in_any_order():
    # the encoder reuses one padded canvas per width: a short board after a tall one must not
    # carry the tall one's rows
    boards = [
        renderer.draw("squadratik", samples.squadratik_view()),
        renderer.draw("maestras", samples.squadratik_view("maestras"), hand=True),
        renderer.draw("maestras", samples.squadratik_view("maestras")),
    ]
    assert len({b.width for b in boards}) == 1 and len({b.height for b in boards}) == 3
    for board in boards + boards[::-1]:
        decoded = Image.open(io.BytesIO(to_png(board)))
        decoded.load()
        assert decoded.size == board.size and decoded.tobytes() == board.tobytes()


def _displays() -> list[Display]:
    """Display lists of boards of every kind: pile games, FreeCell, El Solitario, a Cartas
    Maestras board and hand."""
    found = []
    for game_id, view, style in [
        ("solitario", samples.solitario_view("mid"), {}),
        ("canfield", samples.canfield_view("end"), {"selected": "w"}),
        ("freecell", engine.new_game("freecell", 7).view(), {}),
        ("squadratik", samples.squadratik_view(), {}),
        ("maestras", samples.squadratik_view("maestras"), {}),
        ("maestras", samples.squadratik_view("maestras"), {"hand": True}),
    ]:
        drawing = registry.drawing(game_id)
        assert drawing.display_function is not None
        found.append(drawing.display_function(view, **style)[0])
    return found


def test_a_board_painted_padded_is_written_as_the_very_png_of_the_board():
    # render paints boards one column to the right of the filter bytes and writes their rows
    # as they are: the PNG must be byte for byte the one of the board itself
    for display in _displays():
        padded = display.padded()
        assert padded.width == display.width + 1 and padded.height >= display.height
        assert padded_png(padded, display.height) == palette_png(display.image())


def test_a_board_grown_past_its_canvas_on_another_colour_keeps_its_filter_bytes():
    # a board on the header's colour (palette index 2) grows past its canvas's rows: the
    # canvas is copied into a taller one, the new rows repainted, and its first column stays
    # the filter byte 0
    short = Display(30, 10, theme.HEADER)
    tall = Display(30, 10 + display_module.CANVAS_STEP * 2, theme.HEADER)
    for display in (short, tall):
        display.fill(theme.GOLD, (4, 2, 26, 8))
        display.fill(theme.RED, (0, 0, 3, 3))
    canvas = short.padded()
    assert padded_png(canvas, short.height) == palette_png(short.image())
    taller = with_room(canvas, tall.height, theme.HEADER)
    assert taller.height >= tall.height > canvas.height
    tall.paint(taller, (0, short.height, 30, tall.height), shift=1)  # what changes() says
    assert padded_png(taller, tall.height) == palette_png(tall.image())
    assert set(taller.crop((0, 0, 1, taller.height)).tobytes()) == {0}


def test_a_canvas_kept_from_a_taller_board_writes_only_the_boards_rows():
    # a shorter board painted on a canvas kept from a taller one: the rows below it are left
    # on the canvas and never written
    tall, short = _displays()[0], _displays()[1]
    tall.width = short.width
    canvas = tall.padded()
    assert canvas.height > short.height
    again = short.padded(canvas)
    assert again is canvas
    assert padded_png(again, short.height) == palette_png(short.image())


def test_a_padded_board_is_read_out_in_one_piece_to_the_same_bytes() -> None:
    # its rows are PNG's raw rows as they lie (filter byte first): no copy into another canvas
    display = _displays()[0]
    padded = display.padded()
    assert padded_png(padded, display.height) == palette_png(display.image())
