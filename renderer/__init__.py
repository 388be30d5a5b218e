"""Board images for Tavolo: ``render(game_id, view, **style) -> PNG bytes``. No rules, no chat.

``render`` is a pure function of its arguments (same input, same bytes); card sprites and fonts
are built once and cached; images are at most 1280 px wide. ``replay`` makes an animated image
of a whole game from its log.

>>> import renderer
>>> view = {"game": "solitario", "deal": 1, "deck": "italian40", "score": 0, "move_number": 0,
...         "piles": [{"id": "1", "kind": "tableau", "down": 0, "cards": ["Kh"]}]}
>>> renderer.render("solitario", view, faces="piacentine", lang="it")[:4]
b'\\x89PNG'

Style keywords: ``faces`` (Solitario: ``napoletane`` (default), ``piacentine``, ``francesi``),
``lang`` (``en``, ``es``, ``it``), ``words`` (the board words translated by the caller, by
key: ``{"score": "Punti", ...}``; English where one is missing), ``clock`` (text such as
``"04:12"``), ``player`` (whose board it is, named in the header: a race), ``badge`` (a word
the header shows too: "Daily challenge" on the ranked daily), ``selected`` (a pile
id such as ``"w"`` or ``"3"``, or a hand card ``"h1"``-``"h4"``, ringed in cyan) with ``targets``
(pile ids or path ends where it may go, ringed in green), and ``hand=True`` (Cartas Maestras: the
private hand of ``view["viewer"]`` instead of the board), ``full=True`` (El Solitario, Cartas
Maestras: the whole board however large, rather than the board drawn for a phone once the
whole one no longer reads 400 px wide). Any text may hold any script: it
goes through the chain of shipped fonts of ``renderer.typeface``, never drawn as a box.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from PIL import Image

from renderer import fonts, freecell_board, imaginary13_board, registry
from renderer.boards import PileBoard, draw_pile_board, pile_board_display, pile_layout
from renderer.display import Display, changes, with_room
from renderer.encode import padded_png, to_png
from renderer.palette import palette_image
from renderer.replay import replay
from renderer.squadratik_boards import draw_squadratik, squadratik_display, squadratik_layout

MAX_WIDTH = 1280

# Each game's drawing: one line per game (see renderer.registry).
# A board built as a display list (renderer.display, the last argument): ``render`` keeps the
# last few boards and repaints only what changed since (a move touches two or three piles and
# the header). The display function takes the style keywords of the game's drawing. A pile
# game's ``board`` (renderer.boards.PileBoard) says where its piles go and the fan it keeps
# room for.
PILE_BOARD = (draw_pile_board, pile_layout, pile_board_display)
registry.register("solitario", *PILE_BOARD)
registry.register("canfield", *PILE_BOARD, board=PileBoard(steady_fan=(0, 5)))
registry.register("imaginary13", *PILE_BOARD, board=imaginary13_board.BOARD)
# Squadratik images are built as display lists too, but painted whole: a move reframes most
# of the board, and comparing with the last board cost more than it saved (measured).
registry.register("squadratik", draw_squadratik, squadratik_layout, squadratik_display, False)
registry.register("maestras", draw_squadratik, squadratik_layout, squadratik_display, False)
registry.register(
    "freecell",
    freecell_board.draw_freecell,
    freecell_board.freecell_layout,
    freecell_board.freecell_display,
    board=freecell_board.BOARD,
)


def draw(game_id: str, view: Mapping[str, Any], **style: Any) -> Image.Image:
    """The board as a Pillow palette image on the fixed board palette (what ``render``
    encodes); see ``render`` for ``style``."""
    token = fonts.use_words(style.get("words"))  # the caller's translated board words
    try:
        return _draw(game_id, view, **style)
    finally:
        fonts.reset_words(token)


def _draw(game_id: str, view: Mapping[str, Any], **style: Any) -> Image.Image:
    image = registry.drawing(game_id).draw(view, **style)  # style it does not take is left out
    if image.width > MAX_WIDTH:  # a safety net: layouts already keep within the limit
        height = round(image.height * MAX_WIDTH / image.width)
        image = image.convert("RGB").resize((MAX_WIDTH, height), Image.Resampling.LANCZOS)
        image = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    return image


# The encoded PNG of the last boards drawn: a board that did not change (a refresh, a second
# chat showing the same table, a button that only re-sends) costs a hash, not a render.
PNG_CACHE_SIZE = 64
_png_cache: OrderedDict[bytes, bytes] = OrderedDict()
_png_lock = threading.Lock()


def _cache_key(game_id: str, view: Mapping[str, Any], style: dict[str, Any]) -> bytes:
    """A digest of everything ``render`` depends on (its arguments, nothing else). Pickled
    (a fourth of JSON's cost): equal pickles mean equal arguments, and arguments equal but
    pickled otherwise (keys in another order) only miss the cache; JSON for what pickle
    cannot write."""
    try:
        data = pickle.dumps((game_id, view, style), protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        text = json.dumps([game_id, view, style], sort_keys=True, default=str)
        data = b"json" + text.encode()
    return hashlib.blake2b(data, digest_size=16).digest()


def render(game_id: str, view: Mapping[str, Any], **style: Any) -> bytes:
    """PNG bytes of ``view`` (``game.view(player)``) for ``game_id``; see the module docstring.

    A pure function of its arguments; the last ``PNG_CACHE_SIZE`` results are kept, keyed by a
    digest of the arguments, so drawing the same board again costs no drawing. A pile game's
    board is repainted from the last board of the same game and deal where they differ
    (``BOARD_CACHE_SIZE`` boards kept): the same pixels as a full drawing, for a fraction of
    its cost."""
    key = _cache_key(game_id, view, style)
    with _png_lock:
        png = _png_cache.get(key)
        if png is not None:
            _png_cache.move_to_end(key)
            return png
    has_display = registry.drawing(game_id).display_function is not None
    png = _incremental(game_id, view, style) if has_display else None
    if png is None:
        png = to_png(draw(game_id, view, **style))
    with _png_lock:
        _png_cache[key] = png
        while len(_png_cache) > PNG_CACHE_SIZE:
            _png_cache.popitem(last=False)
    return png


# The last boards drawn from display lists, by game, deal and players (what stays the same
# through one game): each is the display list and the image painted from it, about 0.6 MB.
BOARD_CACHE_SIZE = 16
_boards: OrderedDict[tuple[Any, ...], tuple[Display, Image.Image]] = OrderedDict()
_boards_lock = threading.Lock()


def _board_key(game_id: str, view: Mapping[str, Any]) -> tuple[Any, ...]:
    """Which earlier board a new one is drawn from: the same game's last board, if it is
    still kept. Only a guess for speed: whatever differs is repainted all the same."""
    players = view.get("players")
    return (game_id, str(view.get("deal")), tuple(map(str, players or ())), view.get("viewer"))


def _incremental(game_id: str, view: Mapping[str, Any], style: dict[str, Any]) -> bytes | None:
    """The PNG of a display-list game's board, painted over the last board of the same game
    where the two differ (or drawn whole when none is kept or too much changed); None when it
    needs the full drawing (a banner under the board, a board too wide)."""
    drawing = registry.drawing(game_id)
    assert drawing.display_function is not None  # render asks only games that have one
    styled = registry.with_badge(style)
    token = fonts.use_words(style.get("words"))
    try:
        display: Display
        display, banner = drawing.display_function(
            view, **{k: v for k, v in styled.items() if k in drawing.styles}
        )
    finally:
        fonts.reset_words(token)
    if banner is not None or display.width > MAX_WIDTH:
        return None
    board_key = _board_key(game_id, view)
    with _boards_lock:  # taken out while in use: two threads never paint the same canvas
        kept = _boards.pop(board_key, None)
    # boards are painted on padded canvases (``Display.padded``), written as they are, and
    # kept with their display list; a game drawn whole keeps its canvas only
    boxes = changes(kept[0], display) if kept is not None and drawing.repaint else None
    if kept is not None and boxes is not None:
        canvas = with_room(kept[1], display.height, display.background)
        for box in boxes:
            display.paint(canvas, box, shift=1)
    else:
        canvas = display.padded(kept[1] if kept is not None else None)
    # written before the canvas is shared again: another thread may paint on it
    png = padded_png(canvas, display.height)
    with _boards_lock:
        _boards[board_key] = (display, canvas)
        while len(_boards) > BOARD_CACHE_SIZE:
            _boards.popitem(last=False)
    return png


def warm_up() -> int:
    """Build every card sprite of the pile games (both Italian styles, French, backs, empty
    piles) and their palette versions, and the pieces Squadratik cards are put together from
    (at the hand size, the phone board's size and the six largest board steps: every card of
    the deck at every turn),
    so no player waits for one later; returns how many. The bot may call it once at start (in
    an executor: about a second).

    >>> warm_up()
    1986
    """
    from renderer import cards_squadratik, squadratik_boards
    from renderer.boards import warm_up_sprites

    sizes = tuple(step - squadratik_boards.GAP for step in squadratik_boards.CELL_STEPS[:6])
    sizes += (squadratik_boards.HAND_CARD, squadratik_boards.PHONE_CARD)
    return warm_up_sprites() + cards_squadratik.warm_up(sizes)


def clear_cache(sprites: bool = True) -> None:
    """Forget cached PNGs, boards and piles and, with ``sprites``, every built sprite
    (benchmarks measure cold starts with it; nothing else needs it)."""
    with _png_lock:
        _png_cache.clear()
    with _boards_lock:
        _boards.clear()
    from renderer import boards

    boards.clear_cache()
    if sprites:
        from renderer import (
            boards,
            cards_french,
            cards_italian,
            cards_squadratik,
            display,
            fonts,
            palette,
            squadratik_boards,
        )
        from renderer import sprites as sprite_parts

        for cached in (
            cards_french.french_card,
            cards_french.card_back,
            cards_french.empty_slot,
            cards_italian.italian_card,
            cards_italian.italian_slot,
            cards_squadratik.squadratik_card,
            fonts.text_sprite,
            fonts.text_mask,
        ):
            cached.cache_clear()
        cards_squadratik.clear_cache()
        palette.clear_cache()
        sprite_parts.clear_cache()
        fonts.clear_cache()
        boards.pill.cache_clear()
        display.clear_cache()
        squadratik_boards._slot_base.cache_clear()


def layout(game_id: str, view: Mapping[str, Any], **style: Any) -> Any:
    """Where ``render`` puts every pile/card/cell (for tests and tap-to-pile mapping), for the
    same ``style`` (its words, clock and player decide whether the header takes two rows)."""
    token = fonts.use_words(style.get("words"))
    try:
        return registry.drawing(game_id).layout(view, **style)
    finally:
        fonts.reset_words(token)


__all__ = ["MAX_WIDTH", "clear_cache", "draw", "layout", "render", "replay", "warm_up"]
