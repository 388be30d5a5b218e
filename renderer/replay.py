"""Animated replays: one frame per move of a finished (or running) game, as a GIF (or WebP).

The game is rebuilt with ``engine.new_game`` and the log is played move by move; each frame is
the public board drawn by ``renderer.draw``. Frames share the fixed board palette, so the GIF
encoder only stores what changed between moves; the last frame stays up for a while.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from renderer import theme
from renderer.palette import new_board, palette_image

FRAME_MS = 700
LAST_FRAME_MS = 4000
# Replays keep the boards' own width and every colour of the board palette: a player watches
# the game as it was played (the colour of a Squadratik ball decides what links, and the old
# byte budget of about 10 KB a move shrank those replays to 244-361 px and turned their red
# brown). Measured on long games (45-50 moves, 720 px frames): 0.59-1.12 MB, encoded in about
# 0.2 s; Discord takes 10 MB, Telegram's animations 50 MB. Only past MAX_BYTES do the frames
# lose colours (the board's key colours kept exactly: ``KEY_COLOURS``), then shrink, never
# under MIN_WIDTH.
MAX_BYTES = 8 * 1024 * 1024
MIN_WIDTH = 600
REDUCED_COLOURS = (128, 64)  # tried in turn before any shrinking


def _frames(
    game_id: str,
    deal: int,
    players: Sequence[str] | None,
    options: Mapping[str, Any] | None,
    moves: Sequence[str],
    style: dict[str, Any],
) -> list[Image.Image]:
    import engine  # the renderer may use the engine to rebuild positions (never the bot)
    from renderer import draw

    game = engine.new_game(game_id, deal, players, options)
    style = {k: v for k, v in style.items() if k not in ("hand", "selected", "targets")}
    frames = [draw(game_id, game.view(), **style)]
    for text in moves:
        game.play(text)
        frames.append(draw(game_id, game.view(), **style))
    return frames


def _same_size(frames: list[Image.Image]) -> list[Image.Image]:
    """Frames on one canvas, drawn from the top-left corner: a board that grew (a longer fan,
    the end banner) is padded with table below, never letterboxed."""
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    out = []
    for frame in frames:
        if frame.size != (width, height):
            canvas = new_board(width, height, theme.TABLE)
            canvas.paste(frame, (0, 0))
            frame = canvas
        out.append(frame)
    return out


def key_colours() -> list[tuple[int, int, int]]:
    """The colours a reduced replay keeps exactly: what a player reads the game by (the red
    and black of the balls, suits and digits, the cards' paper, the table, the last move's
    and the master's gold)."""
    from renderer.cards_squadratik import BALL_BLACK, BALL_RED, STOCK

    return [
        BALL_RED,
        BALL_BLACK,
        theme.RED,
        theme.BLACK,
        theme.TABLE,
        theme.TABLE_DARK,
        theme.HEADER,
        theme.WHITE,
        theme.CARD_WHITE,
        theme.GOLD,
        theme.LAST_MOVE,
        theme.MUTED,
        *STOCK.values(),
    ]


def _fewer_colours(frames: list[Image.Image], colours: int) -> list[Image.Image]:
    """Every frame mapped onto ``colours`` colours: the key colours (``key_colours``) as they
    are, the rest fitted to the first and last frames (the board palette's indices are
    remapped through one table: fast and deterministic)."""
    first, last = frames[0].convert("RGB"), frames[-1].convert("RGB")
    sheet = Image.new("RGB", (first.width, first.height * 2))
    sheet.paste(first, (0, 0))
    sheet.paste(last, (0, first.height))
    keys = key_colours()
    fitted = sheet.quantize(
        colors=colours - len(keys), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    reduced = [value for colour in keys for value in colour]
    reduced += (fitted.getpalette() or [])[: 3 * (colours - len(keys))]
    reduced += [0] * (3 * colours - len(reduced))
    board = (palette_image().getpalette() or [])[:768]
    lookup = []
    for k in range(256):
        colour = board[3 * k : 3 * k + 3]
        lookup.append(
            min(
                range(colours),
                key=lambda j: sum(
                    (a - b) ** 2 for a, b in zip(colour, reduced[3 * j : 3 * j + 3], strict=True)
                ),
            )
        )
    out = []
    for frame in frames:
        indices = Image.frombytes("L", frame.size, frame.tobytes()).point(lookup)
        mapped = Image.frombytes("P", frame.size, indices.tobytes())
        mapped.putpalette(reduced)
        out.append(mapped)
    return out


def _encode(frames: list[Image.Image], scale: float) -> bytes:
    """The GIF. Pillow's ``optimize`` stores each frame after the first as the box of what
    changed, unchanged pixels in it transparent (long runs: cheap for LZW)."""
    if scale != 1:
        palette = frames[0].getpalette() or []
        resized = []
        for frame in frames:
            small = frame.convert("RGB").resize(
                (round(frame.width * scale), round(frame.height * scale)), Image.Resampling.BILINEAR
            )
            holder = Image.new("P", (1, 1))
            holder.putpalette(palette)
            resized.append(small.quantize(palette=holder, dither=Image.Dither.NONE))
        frames = resized
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=True,
        disposal=1,
    )
    return out.getvalue()


def _encode_webp(frames: list[Image.Image]) -> bytes:
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    full = []
    for frame in frames:
        canvas = Image.new("RGB", (width, height), theme.TABLE)
        canvas.paste(frame.convert("RGB"), (0, 0))
        full.append(canvas)
    durations = [FRAME_MS] * (len(full) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    full[0].save(
        out,
        "WEBP",
        save_all=True,
        append_images=full[1:],
        duration=durations,
        loop=0,
        lossless=True,
        quality=50,
        method=4,
    )
    return out.getvalue()


def replay(
    game_id: str,
    deal: int,
    players: Sequence[str] | None,
    options: Mapping[str, Any] | None,
    moves: Iterable[str],
    *,
    fmt: str = "gif",
    **style: Any,
) -> bytes:
    """An animated image of the game ``(game_id, deal, players, options)`` played through
    ``moves``: the start position, then one frame per move, the last one held for 4 s.

    ``fmt="gif"`` (default: every chat platform animates it inline) keeps the boards' width
    and colours up to 8 MB: over that, frames get fewer colours (the key ones kept), then
    shrink, never under 600 px wide. ``fmt="webp"`` is lossless animated WebP,
    2-10 times smaller but 5-8 times slower to encode (measured in ``bench/bench_render.py``);
    Telegram shows WebP as a sticker or file, not as an animation, so the bot sends GIF.

    >>> import engine
    >>> replay("imaginary13", 1, None, None, [])[:6]
    b'GIF89a'
    """
    frames = _frames(game_id, deal, players, options, list(moves), style)
    if fmt == "webp":
        return _encode_webp(frames)
    if fmt != "gif":
        raise ValueError(f"unknown replay format {fmt!r}")
    frames = _same_size(frames)
    board_frames = frames
    data = _encode(frames, 1.0)
    for colours in REDUCED_COLOURS:
        if len(data) <= MAX_BYTES:
            break
        frames = _fewer_colours(board_frames, colours)  # maps board palette indices
        data = _encode(frames, 1.0)
    scale = 1.0
    # down to 600 px wide; past that only when even 600 px is more than a chat accepts (a
    # game of hundreds of moves): a smaller replay rather than none
    for floor in (min(1.0, MIN_WIDTH / frames[0].width), 0.3):
        for _ in range(4):
            if len(data) <= MAX_BYTES or scale <= floor:
                break
            # measured: bytes go about with scale ** 0.8 (shrunk edges add colours), so one
            # step usually lands just below the limit
            scale = max(floor, scale * min(0.9, (MAX_BYTES / len(data)) ** 1.25 * 0.97))
            data = _encode(frames, scale)
    return data
