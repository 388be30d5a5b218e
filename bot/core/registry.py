"""What the features tell the core: their commands, their button verbs and their hooks.

A feature module has a ``register(registry, service)`` function; the composition root
(``bot.app``) calls each one, and the core dispatches through the filled registry without
knowing which feature answers. A command is a name, an optional argument parser and a
handler; a button verb says which kind of session its ids may name, so a forged id is refused
before any handler runs.

>>> registry = Registry()
>>> async def hello(ctx, args): return []
>>> registry.command("hello", hello)
>>> registry.commands["hello"].name
'hello'
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from bot.replies import Reply

if TYPE_CHECKING:
    from bot.core.buttons import ButtonAction
    from bot.core.context import Ctx
    from bot.core.session import Session, TableMove
    from bot.core.web_reads import WebReads

Replies = Awaitable[list[Reply]]
#: which sessions a button verb may act on: solo games, tables (and race lobbies), or both
Kind = Literal["solo", "table", "any"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """What an argument parser returns for words it cannot read: a private answer. Parsers
    know no language: ``games`` becomes the ``games`` list and ``game_id`` the ``game`` name
    in the chat's language when the core words the answer."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    games: tuple[str, ...] | None = None
    game_id: str | None = None


@dataclass(frozen=True, slots=True)
class Command:
    """``/name args``: ``parse`` turns the words into what ``handler`` takes (or a
    :class:`Refusal`); without a parser the handler gets the words."""

    name: str
    handler: Callable[[Ctx, Any], Replies]
    parse: Callable[[list[str]], Any] | None = None


@dataclass(frozen=True, slots=True)
class ButtonVerb:
    """A button verb: its handler gets the decoded id and the session it names, after the
    core checked the session's chat, its kind and that the id's revision is not a future one."""

    verb: str
    handler: Callable[[Ctx, Session, ButtonAction], Replies]
    kind: Kind = "any"
    #: only while the session is a lobby (join, leave, start)
    lobby_only: bool = False
    #: the id's revision must be the session's current one (not merely not a future one)
    exact_revision: bool = False


@dataclass(slots=True)
class Registry:
    """Commands, button verbs and hooks, filled by the features at start-up."""

    commands: dict[str, Command] = field(default_factory=dict)
    buttons: dict[str, ButtonVerb] = field(default_factory=dict)
    #: table sessions, after a move and before the board: computer seats, turn clocks
    table_moved: list[Callable[[Ctx, Session], Replies]] = field(default_factory=list)
    #: a solo game ended; ``how`` is "move" (the last move) or "resign"
    solo_ended: list[Callable[[Ctx, Session, str], Replies]] = field(default_factory=list)
    #: extra drawing for a board: (session, view, style) -> the view to draw (style is updated)
    board_style: list[
        Callable[[Session, Mapping[str, Any], dict[str, Any]], Awaitable[Mapping[str, Any]]]
    ] = field(default_factory=list)
    #: True when the session may not be undone (a running race)
    undo_forbidden: list[Callable[[Session], Awaitable[bool]]] = field(default_factory=list)
    #: True when /hint is refused on the session (a race board, like the ranked daily)
    hint_forbidden: list[Callable[[Session], Awaitable[bool]]] = field(default_factory=list)
    #: /play with a chosen deal: a refusal (that deal is today's daily challenge) or None
    play_guard: list[Callable[[Ctx, str, int, dict[str, str]], Awaitable[Reply | None]]] = field(
        default_factory=list
    )
    #: stored deadlines (turn timers, race clocks): act on those passed; returns how many
    tickers: list[Callable[[datetime], Awaitable[int]]] = field(default_factory=list)
    #: what a session is to a player (``bot.core.focus``): a kind word (``race``), "" when
    #: it is not their game any more (a table seat they left), None for no opinion; asked with
    #: the request (what it read of its chat as it began) and the player
    game_kind: list[Callable[[Ctx, Session, str], Awaitable[str | None]]] = field(
        default_factory=list
    )
    #: how a person's move at a table is stored with what follows it (``Sessions.play``'s
    #: plan: the answers of the seats the bot plays, the play state); None: the move alone
    table_move: Callable[[Ctx, Session], TableMove | None] | None = None
    #: leave (or resign) the table or race lobby ``session`` for ``ctx``'s player, once any
    #: question was answered Yes; None until the table feature is wired in
    leave_table: Callable[[Ctx, Session], Replies] | None = None
    #: called by ``Core.close`` before the database closes: work a feature started stops
    closing: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    #: what the web page reads of the features (``bot.core.web_reads``); None: not wired
    web_reads: WebReads | None = None

    def command(
        self,
        name: str,
        handler: Callable[[Ctx, Any], Replies],
        parse: Callable[[list[str]], Any] | None = None,
    ) -> None:
        """Register ``/name``; a name registered twice is a wiring mistake."""
        if name in self.commands:
            raise ValueError(f"command /{name} registered twice")
        self.commands[name] = Command(name, handler, parse)

    def button(
        self,
        verb: str,
        handler: Callable[[Ctx, Session, ButtonAction], Replies],
        kind: Kind = "any",
        *,
        lobby_only: bool = False,
        exact_revision: bool = False,
    ) -> None:
        """Register a button verb (one of ``bot.core.buttons.VERBS``)."""
        if verb in self.buttons:
            raise ValueError(f"button verb {verb} registered twice")
        self.buttons[verb] = ButtonVerb(verb, handler, kind, lobby_only, exact_revision)
