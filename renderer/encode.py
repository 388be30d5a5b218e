"""PNG encoding tuned for boards: palette images, written by hand around a fast deflate.

Boards are drawn straight onto the fixed palette of ``renderer.palette`` (flat colours plus
anti-aliased edges: nothing a player can see is lost), so a board is one byte a pixel and
encoding is only deflate. Pillow's PNG writer spends most of a render in zlib at level 1; ISA-L
(the ``isal`` package: Intel's deflate, level 1) makes the same kind of stream about six times
faster and a little smaller. The PNG around it is four chunks: IHDR, PLTE, one IDAT (every row
with filter 0, as Pillow writes palette images), IEND. Same input, same bytes: the palette
never changes and the compressor is deterministic. Without ``isal`` (a platform it has no wheel
for) the standard library's zlib at level 1 writes the same PNG layout.

Measured on an 816x706 Solitario board (best of 30, CPU ms, shared 2-core machine): Pillow
``save(compress_level=1)`` 2.27 ms / 36.9 KB; zlib level 1 alone 1.64 ms; ISA-L level 1
0.27 ms / 34.6 KB.
"""

from __future__ import annotations

import io
import struct
import threading
import types
import zlib
from functools import lru_cache

from PIL import Image

from renderer.palette import palette_image

_deflate: types.ModuleType
try:  # ISA-L's deflate: the same zlib stream format, several times faster
    from isal import isal_zlib as _deflate
except ImportError:  # pragma: no cover - isal ships wheels for the platforms Tavolo runs on
    _deflate = zlib
DEFLATE_LEVEL = 1

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# For images that are not boards (RGB): Pillow's writer at a fast zlib level.
PNG_LEVEL = 1


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@lru_cache(maxsize=8)
def _palette_chunk(values: tuple[int, ...]) -> bytes:
    return _chunk(b"PLTE", bytes(values))


_IEND = _chunk(b"IEND", b"")
_IDAT_CRC = zlib.crc32(b"IDAT")
_canvases = threading.local()  # per thread: renders run in executor threads


def _rows(image: Image.Image) -> bytes:
    """The image's pixel rows, each after its filter-type byte 0 (no filter): PNG's raw data.
    Pasted one pixel right into a canvas whose first column is index 0, each row's first byte
    is that 0: one copy in C instead of a slice and a join per row. One canvas per thread and
    image width (boards come in a few widths), grown to the tallest image seen, read out in
    one piece from its top part."""
    width, height = image.size
    canvases = getattr(_canvases, "by_width", None)
    if canvases is None:
        canvases = _canvases.by_width = {}
    padded = canvases.get(width)
    if padded is None or padded.height < height:
        if len(canvases) > 8:
            canvases.clear()
        padded = canvases[width] = Image.new("P", (width + 1, height), 0)
    image.load()
    padded.im.paste(image.im, (1, 0, width + 1, height))
    encoder = Image._getencoder("P", "raw", "P")
    encoder.setimage(padded.im, (0, 0, width + 1, height))
    _, status, data = encoder.encode((width + 1) * height)
    if status == 0:  # not all of it in one piece (never seen): the slow, sure way
        return padded.crop((0, 0, width + 1, height)).tobytes()
    return data


def palette_png(image: Image.Image) -> bytes:
    """A palette ("P", 8-bit) image as PNG bytes."""
    return _png(image.size, image.getpalette(), _rows(image))


def padded_png(image: Image.Image, height: int | None = None) -> bytes:
    """PNG bytes of a board drawn one column to the right of palette index 0 (see
    ``renderer.display.Display.padded``): its rows are PNG's raw rows as they are, so they
    are read out in one piece, without ``_rows``' copy into a wider canvas. The PNG is the
    board without that first column, byte for byte what ``palette_png`` writes for it; only
    its first ``height`` rows (a canvas may have more: ``Display.padded``)."""
    width = image.width
    height = image.height if height is None else height
    image.load()
    encoder = Image._getencoder("P", "raw", "P")
    encoder.setimage(image.im, (0, 0, width, height))
    _, status, data = encoder.encode(width * height)
    if status == 0:  # not all of it in one piece (never seen): the slow, sure way
        data = image.crop((0, 0, width, height)).tobytes()
    # a padded board is always on the board palette (new_board): its chunk is made once
    return _png((width - 1, height), _board_palette_chunk(), data)


@lru_cache(maxsize=1)
def _board_palette_chunk() -> bytes:
    return _palette_chunk(tuple((palette_image().getpalette() or [])[:768]))


def _png(size: tuple[int, int], palette: list[int] | None | bytes, rows: bytes) -> bytes:
    """The PNG of a palette image ``size`` whose raw rows (filter byte first) are ``rows``;
    ``palette`` its values, or its PLTE chunk ready made."""
    width, height = size
    if not isinstance(palette, bytes):
        palette = _palette_chunk(tuple((palette or palette_image().getpalette() or [])[:768]))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    pixels = _deflate.compress(rows, DEFLATE_LEVEL)
    # the IDAT chunk's parts joined once with the rest (no copy of the pixels per part)
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            palette,
            struct.pack(">I", len(pixels)),
            b"IDAT",
            pixels,
            struct.pack(">I", zlib.crc32(pixels, _IDAT_CRC)),
            _IEND,
        )
    )


def to_png(image: Image.Image) -> bytes:
    """``image`` (a palette board, or any RGB image: mapped onto the fixed palette) as PNG."""
    if image.mode != "P":
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        image = rgb.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    if "transparency" in image.info:  # not a board: Pillow knows every PNG option
        out = io.BytesIO()
        image.save(out, "PNG", compress_level=PNG_LEVEL)
        return out.getvalue()
    return palette_png(image)
