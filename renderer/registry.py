"""Which function draws each game: one table, one ``register`` line per game.

A drawing function takes a game's view and style keywords (``faces``, ``lang``, ``clock``,
``selected``, ``targets``, ``player``, ``hand``, ``badge``, ...) and returns the board as a
palette image; a layout function takes the view (and perhaps some of the same keywords) and returns where
the drawing puts each pile or card. ``renderer.draw`` and ``renderer.layout`` pass each one
only the keywords its signature names, so a game's drawing declares what it can show just by
its parameters.

>>> from renderer import registry
>>> registry.drawing("canfield").styles >= {"faces", "lang", "selected"}
True
>>> registry.drawing("chess")
Traceback (most recent call last):
...
ValueError: no drawing for game 'chess'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

DrawFunction = Callable[..., Image.Image]
LayoutFunction = Callable[..., Any]
#: a board as a display list (``renderer.display.Display``) and the banner under it, if any:
#: ``renderer.render`` repaints only what changed since the last board of the same game
DisplayFunction = Callable[..., tuple[Any, str | None]]


def _keywords(function: Callable[..., Any]) -> frozenset[str]:
    """The keyword parameters after the view."""
    parameters = list(inspect.signature(function).parameters.values())[1:]
    return frozenset(
        p.name
        for p in parameters
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    )


@dataclass(frozen=True, slots=True)
class Drawing:
    """A game's drawing and layout functions, and the style keywords each one takes; its
    display-list function (the same keywords as its drawing) when its board is built as one."""

    draw_function: DrawFunction
    layout_function: LayoutFunction
    styles: frozenset[str]
    layout_styles: frozenset[str]
    display_function: DisplayFunction | None = None
    #: whether ``render`` repaints a board over the last one where they differ, or paints
    #: its display list whole every time (a move reframes most of a Squadratik board)
    repaint: bool = True
    #: what the shared drawing needs to know of this game beyond its view (a pile game's
    #: ``renderer.boards.PileBoard``: where its piles go, the fan it keeps room for)
    board: Any = None

    def draw(self, view: Mapping[str, Any], **style: Any) -> Image.Image:
        style = with_badge(style)
        return self.draw_function(view, **{k: v for k, v in style.items() if k in self.styles})

    def layout(self, view: Mapping[str, Any], **style: Any) -> Any:
        style = with_badge(style)
        wanted = {k: v for k, v in style.items() if k in self.layout_styles}
        return self.layout_function(view, **wanted)


def with_badge(style: dict[str, Any]) -> dict[str, Any]:
    """``badge`` (a word the header must show, e.g. "Daily challenge" on the ranked daily) is
    drawn where the header names a board's player: before the name when there is one. Every
    header with a ``player`` slot makes room for it (two rows when needed).

    >>> with_badge({"badge": "Daily challenge", "lang": "en"})
    {'lang': 'en', 'player': 'Daily challenge'}
    >>> with_badge({"badge": "Daily", "player": "Ana"})["player"]
    'Daily  ·  Ana'
    """
    badge = style.get("badge")
    if not badge:
        return style
    shown = {k: v for k, v in style.items() if k != "badge"}
    player = style.get("player")
    shown["player"] = f"{badge}  ·  {player}" if player else str(badge)
    return shown


_DRAWINGS: dict[str, Drawing] = {}


def register(
    game_id: str,
    draw: DrawFunction,
    layout: LayoutFunction,
    display: DisplayFunction | None = None,
    repaint: bool = True,
    board: Any = None,
) -> None:
    """Make ``draw`` and ``layout`` (and ``display``, a board built as a display list) the
    drawing of ``game_id`` (once per game); ``repaint=False``: ``render`` paints the display
    list whole on every board instead of repainting the last board where it changed;
    ``board``: the game's facts for a drawing shared by several games (a pile game's
    ``renderer.boards.PileBoard``)."""
    if game_id in _DRAWINGS:
        raise ValueError(f"game {game_id!r} already has a drawing")
    _DRAWINGS[game_id] = Drawing(
        draw, layout, _keywords(draw), _keywords(layout), display, repaint, board
    )


def drawing(game_id: str) -> Drawing:
    """The registered drawing of ``game_id`` (``ValueError`` when there is none)."""
    try:
        return _DRAWINGS[game_id]
    except KeyError:
        raise ValueError(f"no drawing for game {game_id!r}") from None


def drawn_games() -> tuple[str, ...]:
    """Every game id with a drawing, in registration order."""
    return tuple(_DRAWINGS)
