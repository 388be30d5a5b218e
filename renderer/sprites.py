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
