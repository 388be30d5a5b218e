"""Pixel helpers for the renderer tests."""

from __future__ import annotations

import io

from PIL import Image


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def is_red(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel[:3]
    return r > 150 and g < 90 and b < 90


def is_black(pixel: tuple[int, int, int]) -> bool:
    return max(pixel[:3]) < 70


def is_back_blue(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel[:3]
    return b > 120 and b > r + 60 and b > g + 40


def close(pixel: tuple[int, ...], colour: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour[:3], strict=True))


def pixels_in(image: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    return list(image.crop(box).get_flattened_data())
