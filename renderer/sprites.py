"""Sprite helpers shared by the card modules: supersampled canvases and the card outline."""

from __future__ import annotations

from PIL import Image, ImageDraw

from renderer import theme

SS = theme.SUPERSAMPLE


def canvas(width: int, height: int, colour: tuple[int, ...] = (0, 0, 0, 0)) -> Image.Image:
    """A transparent RGBA canvas ``SS`` times larger than the final sprite."""
    return Image.new("RGBA", (width * SS, height * SS), colour)


def shrink(image: Image.Image, width: int, height: int) -> Image.Image:
    """The supersampled drawing reduced to its final size (this is the anti-aliasing)."""
    return image.resize((width, height), Image.Resampling.LANCZOS)


def card_body(
    draw: ImageDraw.ImageDraw, width: int, height: int, fill: tuple[int, ...],
    outline: tuple[int, ...] = (40, 40, 40), line: float = 1.5,
) -> None:
    """A rounded card outline filling a supersampled canvas of the final size ``width x height``."""
    draw.rounded_rectangle(
        (0, 0, width * SS - 1, height * SS - 1), radius=theme.CARD_RADIUS * SS, fill=fill,
        outline=outline, width=round(line * SS),
    )


# sprite id -> (sprite, [(y, part, needs_mask)]); the sprite is kept so its id stays unique.
_SPLIT: dict[int, tuple[Image.Image, list[tuple[int, Image.Image, bool]]]] = {}


def _split(sprite: Image.Image) -> list[tuple[int, Image.Image, bool]]:
    """Cut a card sprite into its rounded top and bottom strips (pasted through their alpha)
    and its opaque middle (pasted as plain RGB, several times faster)."""
    known = _SPLIT.get(id(sprite))
    if known is not None and known[0] is sprite:
        return known[1]
    width, height = sprite.size
    edge = min(height // 2, theme.CARD_RADIUS + 2)
    middle = sprite.crop((0, edge, width, height - edge))
    parts: list[tuple[int, Image.Image, bool]]
    if middle.getextrema()[3][0] == 255:
        parts = [(0, sprite.crop((0, 0, width, edge)), True), (edge, middle.convert("RGB"), False),
                 (height - edge, sprite.crop((0, height - edge, width, height)), True)]
    else:
        parts = [(0, sprite, True)]
    if len(_SPLIT) > 4096:
        _SPLIT.clear()
    _SPLIT[id(sprite)] = (sprite, parts)
    return parts


def paste_sprite(image: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Paste an RGBA card sprite at ``(x, y)``, respecting its transparent rounded corners."""
    for dy, part, masked in _split(sprite):
        if masked:
            image.paste(part, (x, y + dy), part)
        else:
            image.paste(part, (x, y + dy))
