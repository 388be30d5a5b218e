"""Sprite helpers shared by the card modules: supersampled canvases and the card outline."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from renderer import theme
from renderer.palette import paletted

SS = theme.SUPERSAMPLE


def canvas(width: int, height: int, colour: tuple[int, ...] = (0, 0, 0, 0)) -> Image.Image:
    """A transparent RGBA canvas ``SS`` times larger than the final sprite."""
    return Image.new("RGBA", (width * SS, height * SS), colour)


def shrink(image: Image.Image, width: int, height: int) -> Image.Image:
    """The supersampled drawing reduced to its final size (this is the anti-aliasing)."""
    return image.resize((width, height), Image.Resampling.LANCZOS)


def card_body(
    draw: ImageDraw.ImageDraw,
    width: int,
    height: int,
    fill: tuple[int, ...],
    outline: tuple[int, ...] = (40, 40, 40),
    line: float = 1.5,
) -> None:
    """A rounded card outline filling a supersampled canvas of the final size ``width x height``."""
    draw.rounded_rectangle(
        (0, 0, width * SS - 1, height * SS - 1),
        radius=theme.CARD_RADIUS * SS,
        fill=fill,
        outline=outline,
        width=round(line * SS),
    )


# (sprite id, under) -> (sprite, [(y, part, mask or None)]); the sprite is kept so its id stays
# unique. Parts hold Pillow's core images: a board pastes about a hundred of them, and
# ``Image.paste``'s checks cost more than the copy itself.
Part = tuple[int, Any, Any]
_SPLIT: dict[tuple[int, tuple[int, ...]], tuple[Image.Image, list[Part]]] = {}


def split_parts(sprite: Image.Image, under: tuple[int, ...]) -> list[Part]:
    """The palette version of a card sprite cut into its rounded top and bottom strips (pasted
    through a mask) and its opaque middle (copied as it is, several times faster)."""
    key = (id(sprite), under)
    known = _SPLIT.get(key)
    if known is not None and known[0] is sprite:
        return known[1]
    converted, mask = paletted(sprite, under)
    width, height = sprite.size
    edge = min(height // 2, theme.CARD_RADIUS + 2)
    parts: list[Part]
    if (
        sprite.mode == "RGBA"
        and sprite.getchannel("A").crop((0, edge, width, height - edge)).getextrema()[0] == 255
    ):
        pieces = [
            (0, converted.crop((0, 0, width, edge)), mask.crop((0, 0, width, edge))),
            (edge, converted.crop((0, edge, width, height - edge)), None),
            (
                height - edge,
                converted.crop((0, height - edge, width, height)),
                mask.crop((0, height - edge, width, height)),
            ),
        ]
    else:
        pieces = [(0, converted, mask)]
    parts = [core_part(dy, part, part_mask) for dy, part, part_mask in pieces]
    if len(_SPLIT) > 4096:
        _SPLIT.clear()
    _SPLIT[key] = (sprite, parts)
    return parts


def core_part(dy: int, part: Image.Image, mask: Image.Image | None) -> Part:
    """``(dy, (core image, size), core mask or None)`` of a loaded sprite part."""
    part.load()
    if mask is not None:
        mask.load()
    return dy, (part.im, part.size), (mask.im if mask is not None else None)


def paste_core(image: Image.Image, core: Any, x: int, y: int, mask: Any = None) -> None:
    """``image.paste`` of a prepared part (same pixels, without the per-call checks): the core
    paste clips to the image like ``Image.paste``."""
    part, (width, height) = core
    box = (x, y, x + width, y + height)
    if mask is None:
        image.im.paste(part, box)
    else:
        image.im.paste(part, box, mask)


def paste_sprite(
    image: Image.Image, sprite: Image.Image, x: int, y: int, under: tuple[int, ...] = theme.TABLE
) -> None:
    """Paste an RGBA card sprite at ``(x, y)``, respecting its transparent rounded corners; on a
    palette board their anti-aliased edge is blended over ``under`` (what lies beneath)."""
    if image.mode != "P":
        image.paste(sprite, (x, y), sprite)
        return
    image.load()
    for dy, part, mask in split_parts(sprite, tuple(under)):
        paste_core(image, part, x, y + dy, mask)


def clear_cache() -> None:
    """Forget the palette versions of sprites (benchmarks use it to measure a cold start)."""
    _SPLIT.clear()
