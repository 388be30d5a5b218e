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
MAX_BYTES = 8 * 1024 * 1024


def _frames(game_id: str, deal: int, players, options, moves, style) -> list[Image.Image]:
    import engine  # the renderer may use the engine to rebuild positions (never the bot)
    from renderer import draw

    game = engine.new_game(game_id, deal, players, options)
    style = {k: v for k, v in style.items() if k not in ("hand", "selected", "targets")}
    frames = [draw(game_id, game.view(), **style)]
    for text in moves:
        game.play(text)
        frames.append(draw(game_id, game.view(), **style))
    return frames


def _encode(frames: list[Image.Image], scale: float) -> bytes:
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    palette = palette_image()
    indexed = []
    for frame in frames:
        # every frame on a canvas of the largest size, so the animation never jumps
        canvas = new_board(width, height, theme.TABLE)
        canvas.paste(frame, ((width - frame.width) // 2, 0))
        if scale != 1:
            canvas = canvas.convert("RGB").resize((round(width * scale), round(height * scale)),
                                                  Image.Resampling.BILINEAR)
            canvas = canvas.quantize(palette=palette, dither=Image.Dither.NONE)
        indexed.append(canvas)
    durations = [FRAME_MS] * (len(indexed) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    indexed[0].save(out, "GIF", save_all=True, append_images=indexed[1:], duration=durations,
                    loop=0, optimize=False, disposal=1)
    return out.getvalue()


def _encode_webp(frames: list[Image.Image]) -> bytes:
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    full = []
    for frame in frames:
        canvas = Image.new("RGB", (width, height), theme.TABLE)
        canvas.paste(frame.convert("RGB"), ((width - frame.width) // 2, 0))
        full.append(canvas)
    durations = [FRAME_MS] * (len(full) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    full[0].save(out, "WEBP", save_all=True, append_images=full[1:], duration=durations, loop=0,
                 lossless=True, quality=50, method=4)
    return out.getvalue()


def replay(
    game_id: str, deal: int, players: Sequence[str] | None, options: Mapping[str, Any] | None,
    moves: Iterable[str], *, fmt: str = "gif", **style: Any,
) -> bytes:
    """An animated image of the game ``(game_id, deal, players, options)`` played through
    ``moves``: the start position, then one frame per move, the last one held for 4 s.

    ``fmt="gif"`` (default: every chat platform animates it inline) is at most 8 MB: frames are
    shrunk when a very long game would not fit. ``fmt="webp"`` is lossless animated WebP,
    2-10 times smaller but 5-8 times slower to encode (measured in ``bench/bench_render.py``);
    Telegram shows WebP as a sticker or file, not as an animation, so the bot sends GIF.

    >>> import engine
    >>> replay("imaginary13", 1, None, None, [])[:6]  # doctest: +SKIP
    b'GIF89a'
    """
    frames = _frames(game_id, deal, players, options, list(moves), style)
    if fmt == "webp":
        return _encode_webp(frames)
    if fmt != "gif":
        raise ValueError(f"unknown replay format {fmt!r}")
    scale = 1.0
    data = _encode(frames, scale)
    while len(data) > MAX_BYTES and scale > 0.3:
        scale *= 0.75
        data = _encode(frames, scale)
    return data
