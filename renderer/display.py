"""Display lists: a board as the ordered list of what is pasted where, so a new board can be
drawn by repainting only the places that differ from the previous one.

A board of a pile game is about 160 pastes (cards, labels, texts, rings). Drawing it through a
``Display`` records each paste as an op: a key saying exactly what pixels it puts down (which
cached sprite, over which colour, where) and the box it covers. ``paint`` draws every op (the
full board). ``changes(old, new)`` compares two display lists of the same width: the boxes of
the ops only one of them has (and the new rows of a longer board) are the only places whose
pixels can differ, as long as the ops both have come in the same order (checked; otherwise the
whole board is redrawn). Repainting
such a box replays, clipped to it, every op of the new list that touches it, on the bare
cloth: pixel for pixel what a full redraw puts there (tests/renderer/test_incremental.py).

Ops keep a reference to the sprite they paste, so a sprite's ``id`` in a key can never be
reused by another sprite while a display list that names it is alive.

>>> from renderer import theme
>>> first, second = Display(40, 20), Display(40, 20)
>>> first.fill(theme.HEADER, (0, 0, 40, 10)); second.fill(theme.HEADER, (0, 0, 40, 12))
>>> changes(first, second)
[(0, 0, 40, 12)]
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from renderer import theme
from renderer.fonts import record, text_core
from renderer.layout import Rect
from renderer.palette import index, new_board
from renderer.sprites import split_parts

Box = tuple[int, int, int, int]
# what one op pastes: (dx, dy) from the op's corner, source (a core image or a palette index
# to fill with), (width, height), core mask or None
Part = tuple[int, int, Any, tuple[int, int], Any]
# key, box, (x, y), parts, the object kept alive for the key's id
Op = tuple[tuple[Any, ...], Box, tuple[int, int], tuple[Part, ...], Any]

#: above this share of the board changed, a full redraw costs no more than the patches
FULL_REDRAW_SHARE = 0.6
#: boxes closer than this are repainted as one (fewer passes over the op list)
MERGE_SLACK = 8


class Display:
    """The ordered pastes of one board of ``width`` x ``height`` on ``background``."""

    __slots__ = ("width", "height", "background", "ops", "groups", "grouped", "_texts")

    def __init__(self, width: int, height: int, background: tuple[int, int, int] = theme.TABLE):
        self.width = width
        self.height = height
        self.background = background
        self.ops: list[Op] = []
        # (name, key, ops) in drawing order when every op belongs to a group (a pile...):
        # ``changes`` then compares group by group, and skips a group whose ops are the very
        # same tuple as before (taken from a cache)
        self.groups: list[tuple[str, Any, tuple[Op, ...]]] = []
        self.grouped = 0  # how many of the ops are in a group
        self._texts: list[tuple[str, int, bool]] | None = None

    @contextmanager
    def group(self, name: str, key: Any) -> Iterator[list[tuple[str, int, bool]]]:
        """``with display.group(name, key) as texts:`` the ops added meanwhile form one group;
        ``texts`` collects (text, size, bold) of its texts (for ``add_group`` later)."""
        start = len(self.ops)
        texts: list[tuple[str, int, bool]] = []
        self._texts = texts
        try:
            yield texts
        finally:
            self._texts = None
            self.groups.append((name, key, tuple(self.ops[start:])))
            self.grouped += len(self.ops) - start

    def add_group(
        self, name: str, key: Any, ops: tuple[Op, ...], texts: tuple[tuple[str, int, bool], ...]
    ) -> None:
        """A group built before (the same ``ops`` object), its ``texts`` recorded again."""
        for text in texts:
            record(*text)
        self.ops.extend(ops)
        self.groups.append((name, key, ops))
        self.grouped += len(ops)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def fill(self, colour: tuple[int, ...], box: Box) -> None:
        """A flat rectangle of ``colour``."""
        x0, y0, x1, y1 = box
        ink = index(tuple(colour))
        parts = ((0, 0, ink, (x1 - x0, y1 - y0), None),)
        self.ops.append((("f", ink, box), box, (x0, y0), parts, None))

    def sprite(
        self, sprite: Image.Image, x: int, y: int, under: tuple[int, ...] = theme.TABLE
    ) -> None:
        """An RGBA card sprite at ``(x, y)``, its rounded edge blended over ``under`` (as
        ``renderer.sprites.paste_sprite``)."""
        under = tuple(under)
        parts = _sprite_parts(sprite, under)
        box = (x, y, x + sprite.width, y + sprite.height)
        self.ops.append((("s", id(sprite), under, x, y), box, (x, y), parts, sprite))

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: tuple[int, ...],
        *,
        anchor: str = "la",
        bold: bool = False,
        under: tuple[int, ...] = theme.TABLE,
    ) -> None:
        """``text`` as ``renderer.fonts.paste_text`` draws it (and records it, for the tests
        that check every text's size on a phone)."""
        made = text_core(text, size, tuple(fill), bold, anchor, tuple(under))
        (core, extent), mask, left, top, _ = made
        record(text, size, bold)
        if self._texts is not None:
            self._texts.append((text, size, bold))
        x, y = round(xy[0]) + left, round(xy[1]) + top
        box = (x, y, x + extent[0], y + extent[1])
        # the key names the cached text by its id: the op keeps it alive, so no other text
        # takes that id while this display list lives
        self.ops.append((("t", id(made), x, y), box, (x, y), ((0, 0, core, extent, mask),), made))

    def ring(self, rect: Rect, colour: tuple[int, int, int], width: int = 4) -> None:
        """A highlight ring just outside ``rect`` (as ``renderer.boards.outline``)."""
        mask = ring_mask(rect.w, rect.h, width)
        x, y = rect.x - width + 1, rect.y - width + 1
        ink = index(colour)
        box = (x, y, x + mask.width, y + mask.height)
        parts = ((0, 0, ink, mask.size, mask.im),)
        self.ops.append((("r", id(mask), ink, x, y), box, (x, y), parts, mask))

    def paletted(self, image: Image.Image, mask: Image.Image | None, x: int, y: int) -> None:
        """A palette image (on the board palette) at ``(x, y)``, through a 1-bit ``mask``."""
        box = (x, y, x + image.width, y + image.height)
        parts = _masked_parts(image, mask)
        self.ops.append((("p", id(image), x, y), box, (x, y), parts, (image, mask)))

    def shape(self, x: int, y: int, strokes: Strokes) -> None:
        """What ``ImageDraw`` draws with ``strokes`` (see ``drawn``), its origin at ``(x, y)``:
        only the pixels the strokes draw are put down, exactly as drawing them on the board
        would (ImageDraw does not blend on a palette board), from a picture drawn once."""
        image, mask = drawn(strokes)
        box = (x, y, x + image.width, y + image.height)
        parts = _masked_parts(image, mask)
        self.ops.append((("d", strokes, x, y), box, (x, y), parts, (image, mask)))

    def paint(self, image: Image.Image, box: Box | None = None, shift: int = 0) -> None:
        """Draw the ops onto ``image`` (a palette board of this size): all of them, or only
        what falls inside ``box``, which is first cleared to the background. With ``shift``,
        the board starts that many columns into ``image`` (a padded board: ``padded``)."""
        image.load()
        if box is None:
            target, left, top = image.im, -shift, 0
            ops = self.ops
        else:
            left, top, right, bottom = box
            # a bare core image (palette indices, no palette object): the board's palette
            # applies once the patch is copied in
            target = Image.core.fill("P", (right - left, bottom - top), index(self.background))
            ops = [
                op
                for op in self.ops
                if op[1][0] < right and left < op[1][2] and op[1][1] < bottom and top < op[1][3]
            ]
        for _key, _box, (x, y), parts, _keep in ops:
            x, y = x - left, y - top
            for dx, dy, source, (w, h), mask in parts:
                at = (x + dx, y + dy, x + dx + w, y + dy + h)
                if mask is None:
                    target.paste(source, at)
                else:
                    target.paste(source, at, mask)
        if box is not None:
            image.im.paste(target, (left + shift, top, right + shift, bottom))

    def image(self) -> Image.Image:
        """The whole board as a new palette image."""
        image = new_board(self.width, self.height, self.background)
        self.paint(image)
        return image

    def padded(self, canvas: Image.Image | None = None) -> Image.Image:
        """The whole board on a canvas one column wider, the board from its second column on
        and palette index 0 in its first: each row is then PNG's raw row, its filter byte
        (0, none) first, and ``renderer.encode.padded_png`` writes it as it is (no copy of
        the board into a wider one on every image). Painted on ``canvas`` (a padded canvas
        of this width kept from an earlier board) when it has the rows, else on a new one
        with room to grow (``CANVAS_STEP``); rows below the board's are left as they are."""
        if canvas is None or canvas.width != self.width + 1 or canvas.height < self.height:
            canvas = _new_canvas(self.width, self.height, self.background)
        else:
            canvas.im.paste(index(self.background), (1, 0, self.width + 1, self.height))
        self.paint(canvas, shift=1)
        return canvas


#: a new canvas has room for this many rows more than its board, rounded up: a board that
#: grows a little (a longer column, a reframed Squadratik board) is painted in place, not
#: copied into a new canvas; one that grew past its canvas (Imaginary Thirteen's columns grow
#: all game) gets a quarter more
CANVAS_STEP = 64


def _new_canvas(
    width: int, height: int, background: tuple[int, int, int], room: int = CANVAS_STEP // 2
) -> Image.Image:
    """A padded canvas (see ``Display.padded``) for a board ``width`` x ``height``, with
    ``room`` rows more at least."""
    rows = -(-(height + room) // CANVAS_STEP) * CANVAS_STEP
    canvas = new_board(width + 1, rows, background)
    canvas.im.paste(0, (0, 0, 1, canvas.height))
    return canvas


def with_room(canvas: Image.Image, height: int, background: tuple[int, int, int]) -> Image.Image:
    """``canvas`` (padded) when it has ``height`` rows, else a taller one with its rows (the
    board grew past the canvas: ``changes`` repaints the new rows)."""
    if canvas.height >= height:
        return canvas
    taller = _new_canvas(canvas.width - 1, height, background, max(CANVAS_STEP, height // 4))
    taller.im.paste(canvas.im, (0, 0, canvas.width, canvas.height))
    return taller


# (id(sprite), under) -> (sprite, parts): the sprite is kept so its id stays unique
_PARTS: dict[tuple[int, tuple[int, ...]], tuple[Image.Image, tuple[Part, ...]]] = {}
PARTS_CACHE_SIZE = 4096


def _sprite_parts(sprite: Image.Image, under: tuple[int, ...]) -> tuple[Part, ...]:
    """The palette pieces of a card sprite over ``under`` (``renderer.sprites``), as parts."""
    key = (id(sprite), under)
    known = _PARTS.get(key)
    if known is not None and known[0] is sprite:
        return known[1]
    parts = tuple(
        (0, dy, core, size, mask) for dy, (core, size), mask in split_parts(sprite, under)
    )
    if len(_PARTS) >= PARTS_CACHE_SIZE:  # bounded: sprites are a few hundred in practice
        _PARTS.clear()
    _PARTS[key] = (sprite, parts)
    return parts


# id(image) -> parts, for as long as the image lives (its entry goes with it: the images
# are the cards and shapes of bounded caches, and the ops of boards being drawn)
_MASKED: dict[int, tuple[Part, ...]] = {}


def _masked_parts(image: Image.Image, mask: Image.Image | None) -> tuple[Part, ...]:
    """A palette image and its 1-bit mask as parts: the rows where the mask is whole (a
    card's or a seat row's middle, between its rounded corners) copied as they are, several
    times faster than through the mask, the rows above and below through it. Cached per
    image (a card, a shape: each is pasted on many boards)."""
    known = _MASKED.get(id(image))
    if known is not None:
        return known
    image.load()
    width = image.width
    parts: tuple[Part, ...] = ((0, 0, image.im, image.size, None),)
    if mask is not None:
        found: list[Part] = []
        for start, end, part_mask in _mask_runs(mask):
            part = image.crop((0, start, width, end))
            part.load()
            found.append((0, start, part.im, part.size, part_mask))
        parts = tuple(found)
    _MASKED[id(image)] = parts
    weakref.finalize(image, _MASKED.pop, id(image), None)
    return parts


# id(mask) -> its runs of rows, for as long as the mask lives: cards of one kind and size
# share their blank card's mask (``cards_squadratik``), so a new card reads it only once
_RUNS: dict[int, tuple[tuple[int, int, Any], ...]] = {}


def _mask_runs(mask: Image.Image) -> tuple[tuple[int, int, Any], ...]:
    """``mask``'s rows as runs (start, end, the core of its mask there, or None where every
    pixel is shown): one whole run between masked rows above and below, or one masked run."""
    known = _RUNS.get(id(mask))
    if known is not None:
        return known
    mask.load()
    width, height = mask.size
    _, holes = ImageChops.invert(mask).getprojection()  # rows the mask leaves a pixel out of
    top = next((y for y in range(height) if not holes[y]), height)
    bottom = next((y + 1 for y in range(height - 1, top - 1, -1) if not holes[y]), top)
    if not any(holes[top:bottom]):  # one whole run of rows: copied as it is
        spans = [(0, top, True), (top, bottom, False), (bottom, height, True)]
    else:
        spans = [(0, height, True)]
    runs = []
    for start, end, masked in spans:
        if start < end:
            part_mask = mask.crop((0, start, width, end)) if masked else None
            if part_mask is not None:
                part_mask.load()
            runs.append((start, end, part_mask.im if part_mask is not None else None))
    found = tuple(runs)
    _RUNS[id(mask)] = found
    weakref.finalize(mask, _RUNS.pop, id(mask), None)
    return found


def clear_cache() -> None:
    """Forget the sprites' parts and drawn shapes (benchmarks measure cold starts with it)."""
    _PARTS.clear()
    drawn.cache_clear()


@lru_cache(maxsize=64)
def ring_mask(width: int, height: int, line: int) -> Image.Image:
    """The 1-bit shape of a ring ``line`` px wide around a ``width`` x ``height`` card, drawn
    once per size; pasting the ring's colour through it is far cheaper than drawing it."""
    outer = Rect(line - 1, line - 1, width, height).inflate(line - 1)
    mask = Image.new("1", (outer.right + 1, outer.bottom + 1), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        outer.box(), radius=theme.CARD_RADIUS + line, outline=1, width=line
    )
    mask.load()
    return mask


#: ImageDraw calls as data: ``((width, height), ((method, xy, options), ...))``, ``options`` a
#: tuple of (name, value) pairs whose ``fill`` and ``outline`` are RGB colours (or None)
Strokes = tuple[tuple[int, int], tuple[tuple[str, Any, tuple[tuple[str, Any], ...]], ...]]
#: shapes drawn once and pasted since (seat rows, number pills, slots, arrows): a few dozen
SHAPE_CACHE_SIZE = 128


@lru_cache(maxsize=SHAPE_CACHE_SIZE)
def drawn(strokes: Strokes) -> tuple[Image.Image, Image.Image]:
    """``strokes`` drawn with ``ImageDraw`` on a palette image of their size, and the 1-bit
    mask of the pixels they touch (the same calls with ink 1). Pasting the image through the
    mask puts down the very pixels the calls would draw on a board at that offset: ImageDraw
    draws whole pixels at integer coordinates, and a shift by whole pixels moves them as
    they are.

    >>> image, mask = drawn(((5, 5), (("rectangle", (1, 1, 3, 3), (("fill", (0, 0, 0)),)),)))
    >>> mask.getbbox(), image.getpixel((2, 2)) == index((0, 0, 0))
    ((1, 1, 4, 4), True)
    """
    (width, height), calls = strokes
    image = new_board(width, height)
    mask = Image.new("1", (width, height), 0)
    on_image, on_mask = ImageDraw.Draw(image), ImageDraw.Draw(mask)
    for method, xy, options in calls:
        named = dict(options)
        inked = {k: v for k, v in named.items() if k not in ("fill", "outline")}
        colours = {k: named[k] for k in ("fill", "outline") if named.get(k) is not None}
        getattr(on_image, method)(xy, **inked, **{k: index(v) for k, v in colours.items()})
        getattr(on_mask, method)(xy, **inked, **{k: 1 for k in colours})
    image.load()
    mask.load()
    return image, mask


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _merge(boxes: list[Box]) -> list[Box]:
    """Boxes that overlap or nearly touch joined into their bounding boxes, until none do."""
    merged: list[Box] = []
    for box in sorted(boxes):
        x0, y0, x1, y1 = box
        joined = True
        while joined:
            joined = False
            for k, (a0, b0, a1, b1) in enumerate(merged):
                near = (a0 - MERGE_SLACK, b0 - MERGE_SLACK, a1 + MERGE_SLACK, b1 + MERGE_SLACK)
                if _overlap((x0, y0, x1, y1), near):
                    x0, y0, x1, y1 = min(x0, a0), min(y0, b0), max(x1, a1), max(y1, b1)
                    del merged[k]
                    joined = True
                    break
        merged.append((x0, y0, x1, y1))
    return merged


def changes(old: Display, new: Display) -> list[Box] | None:
    """The boxes to repaint to turn a painting of ``old`` into one of ``new`` (on a canvas with
    the new height's rows: see ``with_room``; rows past the old height count as changed);
    ``None`` when only a full redraw is sure (another width, ops reordered, most of the board
    changed)."""
    if old.width != new.width or old.background != new.background:
        return None
    grouped = (
        old.groups
        and len(old.groups) == len(new.groups)
        and new.grouped == len(new.ops)
        and old.grouped == len(old.ops)
        and all(a[0] == b[0] for a, b in zip(old.groups, new.groups, strict=True))
    )
    boxes: list[Box] = []
    if grouped:  # the same groups in the same order: compare each with its old self
        for (_, _, old_ops), (_, _, new_ops) in zip(old.groups, new.groups, strict=True):
            if old_ops is not new_ops:
                found = _diff(old_ops, new_ops)
                if found is None:
                    return None
                boxes += found
    else:
        found = _diff(old.ops, new.ops)
        if found is None:
            return None
        boxes = found
    if new.height > old.height:  # a longer board (a column grew): its new rows are bare cloth
        boxes.append((0, old.height, new.width, new.height))
    boxes = _merge(
        [
            (max(0, x0), max(0, y0), min(new.width, x1), min(new.height, y1))
            for x0, y0, x1, y1 in boxes
            if x0 < new.width and y0 < new.height and x1 > 0 and y1 > 0
        ]
    )
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
    if area > FULL_REDRAW_SHARE * new.width * new.height:
        return None
    return boxes


def _diff(old: Sequence[Op], new: Sequence[Op]) -> list[Box] | None:
    """The boxes of the ops only one of ``old`` and ``new`` has; None when the ops both have
    come in another order (a pixel where they overlap may then differ anywhere)."""
    old_keys = [op[0] for op in old]
    new_keys = [op[0] for op in new]
    if old_keys == new_keys:
        return []
    # the usual change (a card added or taken, a number redrawn): the same ops before and
    # after a middle part that the two lists share no op of; then the ops both have are the
    # ends, in the same order, and the others are the middles (no count of every key needed)
    shorter = min(len(old_keys), len(new_keys))
    start = 0
    while start < shorter and old_keys[start] == new_keys[start]:
        start += 1
    end = 0
    while end < shorter - start and old_keys[-1 - end] == new_keys[-1 - end]:
        end += 1
    old_middle = old_keys[start : len(old_keys) - end]
    new_middle = new_keys[start : len(new_keys) - end]
    if not set(old_middle) & set(new_middle):
        return [op[1] for op in old[start : len(old) - end]] + [
            op[1] for op in new[start : len(new) - end]
        ]
    both = Counter(old_keys) & Counter(new_keys)
    kept_old, boxes = _kept(old, both)
    kept_new, new_boxes = _kept(new, both)
    if kept_old != kept_new:
        return None
    return boxes + new_boxes


def _kept(ops: Sequence[Op], both: Counter[tuple[Any, ...]]) -> tuple[list[Any], list[Box]]:
    """The keys of ``ops`` that the other list has too (in order), and the boxes of the rest."""
    left = dict(both)
    kept: list[Any] = []
    boxes: list[Box] = []
    for key, box, _at, _parts, _keep in ops:
        if left.get(key, 0) > 0:
            left[key] -= 1
            kept.append(key)
        else:
            boxes.append(box)
    return kept, boxes
