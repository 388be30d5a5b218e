"""``/hint``: a good next move from what the player can see, with a short reason.

The move comes from ``engine.solvers.hints.advice(game, player)`` (or a search's bare
``hint``), which looks only at what the player has seen (never at face-down cards or the stock
order ahead) and never sends them round the stock for nothing: when no move helps, the answer
says so and points to ``/resign``, after which the bot says whether the game could have been
won. At a Cartas Maestras table the hint says why only Pass is possible, and in the final phase
whether to stop (:func:`table_hint`); in the main phase it is the computer players' choice on
the player's own view, explained by what it does at the table (:func:`table_reason`: it wins
the path's masters, blocks a path one card short, opens a path, or continues one safely). The reason is read from what the
move visibly does, by playing it on a private copy and comparing the public views before and
after: the first that applies of "wins the game", "completes a path", "puts a card on a
foundation", "turns up a face-down card", "empties a column", "opens a path", "takes a card
out of the reserve", "continues a path", "builds on a column", "turns the stock", "parks
the card on a waste pile", else "the best move the solver sees". Hints are refused in the
daily challenge (ranked play).

>>> import engine
>>> g = engine.new_game("imaginary13", 3)
>>> move = g.legal_moves()[0]
>>> reason_key(g, move) in REASONS
True
"""

from __future__ import annotations

import asyncio
import functools
import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import engine
from bot import i18n
from bot.core import explain
from bot.core import focus as focus_words
from bot.core.commands import SOLO_GAMES, game_id_of
from bot.replies import Reply
from engine import Game, IllegalMove, Move
from engine.players.squadratik import judge
from engine.views import SquadratikView

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service
    from bot.core.session import Session

REASONS = (
    "wins",
    "completes_path",
    "foundation",
    "sends_home",
    "reveals",
    "empties",
    "opens_path",
    "reserve",
    "continues_path",
    "builds",
    "draw",
    "waste",
    "prepares",
    "best",
)


def _count(view: Mapping[str, Any], kind: str, field: str) -> int:
    piles = view.get("piles") or []
    if field == "down":
        return sum(int(p.get("down", 0)) for p in piles if p.get("kind") == kind)
    return sum(len(p.get("cards") or []) for p in piles if p.get("kind") == kind)


def _empty_columns(view: Mapping[str, Any]) -> int:
    return sum(
        1
        for p in view.get("piles") or []
        if p.get("kind") == "tableau" and not p.get("cards") and not p.get("down")
    )


def reason_key(game: Game, move: Move) -> str:
    """Why ``move`` is good, as a key of :data:`REASONS`, judged from public views only."""
    return effects(game, move)[0]


def effects(game: Game, move: Move) -> tuple[str, int]:
    """(reason key, score change) of ``move``: it is played and taken back on ``game`` (so
    pass a private copy when others may look at the game meanwhile)."""
    before: Mapping[str, Any] = game.view(None)
    score = int(game.score)
    try:
        game.play(move)
    except IllegalMove:
        return "best", 0
    try:
        after: Mapping[str, Any] = game.view(None)
        gain = int(game.score) - score
    finally:
        game.undo()
    return _reason(before, after, move, game.info.wins), gain


def _reason(
    before: Mapping[str, Any], after: Mapping[str, Any], move: Move, wins: frozenset[str]
) -> str:
    if str(after.get("outcome")) in wins:
        return "wins"
    if int(after.get("removed_points", 0)) > int(before.get("removed_points", 0)):
        return "completes_path"
    kinds = {p.get("id"): p.get("kind") for p in before.get("piles") or []}
    if move.dst is None and kinds.get(move.src) == "stock":
        return "draw"  # a stock turn, wherever its card lands (Golf: on the foundation)
    if _count(after, "foundation", "cards") > _count(before, "foundation", "cards"):
        # a card went home by itself after the move (FreeCell's safe auto-moves): the move
        # freed it, it did not put a card there itself
        return "foundation" if kinds.get(move.dst) == "foundation" else "sends_home"
    if _count(after, "tableau", "down") < _count(before, "tableau", "down"):
        return "reveals"
    if _empty_columns(after) > _empty_columns(before):
        return "empties"
    paths_before = before.get("paths") or {}
    paths_after = after.get("paths") or {}
    if sum(1 for p in paths_after.values() if p) > sum(1 for p in paths_before.values() if p):
        return "opens_path"
    if _count(after, "reserve", "cards") + _count(after, "reserve", "down") < _count(
        before, "reserve", "cards"
    ) + _count(before, "reserve", "down"):
        return "reserve"
    dst = str(move.dst)
    if paths_before.get(dst.split(">")[0]):
        return "continues_path"
    if kinds.get(move.dst) == "tableau":
        return "builds"
    if kinds.get(move.src) == "stock":
        return "draw"
    if kinds.get(move.dst) == "waste":
        return "waste"
    return "best"


#: what :func:`suggest` answers when moves exist but none helps (see ``engine.solvers.hints``)
STUCK = "stuck"
#: ... and when the solver proved that the position cannot be won, whatever is played
LOST = "lost"
#: ... and when a win remains only back through a position the game has already been in
BACK = "back"


def suggest(game: Game, player: str | None) -> tuple[str, str, int] | str | None:
    """(notation, reason key, score change) of the hint for a private copy ``game``, None
    when there is none, :data:`STUCK`, :data:`LOST` or :data:`BACK` when no move helps (call
    it in an executor)."""
    # looked up by name each time: the search may be missing or replaced (tests install one)
    search = importlib.import_module("engine.solvers.hints")

    advice = getattr(search, "advice", None)
    if advice is None:  # a search that only names a move (its first contract)
        move, stuck, plan = search.hint(game, player), False, 0
    else:
        found = advice(game, player)
        move, stuck, plan = found.move, found.stuck, found.plan
        if stuck and getattr(found, "lost", False):
            return LOST
        if stuck and getattr(found, "back", False):
            return BACK
    if stuck:
        return STUCK
    if move is None:
        return None
    text = str(move)
    reason, gain = effects(game, game.parse_move(text))
    if plan > 1 and reason in ("builds", "best", "continues_path"):
        reason = "prepares"  # the first step of a visible plan: say where it leads
    return text, reason, gain


def table_reason(game: Game, move: Move, player: str) -> tuple[str, dict[str, int]]:
    """(reason key, its numbers) of a Cartas Maestras placement, read from ``player``'s own
    view (their hand and the public board; never another player's hand): it completes its
    path and wins masters and cards; an empty card blocks a path one card short; a master
    opens a path; it continues a path without leaving it one card short (and how many of the
    other hand cards could follow); or every move leaves such a path."""
    # a Cartas Maestras game's view is a Squadratik view
    found = judge(cast(SquadratikView, game.view(player)), move)
    if found.completes:
        return "table_wins", {"masters": found.masters, "cards": found.cards}
    if found.blocks:
        return "table_blocks", {}
    if found.gift:
        return "table_gift", {}
    followers = {"followers": found.followers}
    if found.opens:
        return ("table_opens", followers) if found.followers else ("table_opens_alone", {})
    return ("table_follows", followers) if found.followers else ("table_safe", {})


def table_hint(lang: str, game: Game, player: str) -> tuple[str, dict[str, Any]] | None:
    """(message key, parameters) of a Cartas Maestras hint that needs words of its own, or
    None: why Pass is the only move; in the final phase, ``stop`` when the cards won can no
    longer change the player's place, else why placing more cards is worth it."""
    legal = [str(move) for move in game.legal_moves(player)]
    view: Mapping[str, Any] = game.view(player)
    if legal == ["pass"]:
        return "hint.only_pass", {"why": explain.only_pass_text(lang, view)}
    if view.get("phase") != "final" or "stop" not in legal:
        return None
    stop = i18n.t(lang, "move.words.stop").split(",")[0].strip()
    if legal == ["stop"]:
        return "hint.stop_no_card", {"stop": stop}
    if not explain.tie_break_matters(view, player):
        return "hint.stop", {"stop": stop, "masters": explain.masters_of(view, player)}
    mine = explain.masters_of(view, player)
    tied = [
        str(seat.get("player"))
        for seat in view.get("seats") or []
        if seat.get("player") != player and int(seat.get("masters", 0)) == mine
    ]
    # the computer players' choice on the player's own view: the card that keeps the most of
    # the hand able to follow
    move = importlib.import_module("engine.solvers.hints").hint(game, player)
    best = str(move) if move is not None and str(move) != "stop" else legal[0]
    return "hint.final_place", {"move": best, "tied": tied, "masters": mine}


async def _named(core: Service, ctx: Ctx, words: list[str]) -> Session | Reply:
    """The sender's open game ``words`` name (the one in focus, else the usual choice, when
    several match), or the refusal saying why none is."""
    games = [g for g in await core.open_games(ctx) if g.session.game is not None]
    found = focus_words.matching(ctx.lang, games, words)
    if found is None:
        kinds = ", ".join(focus_words.kind_word(ctx.lang, k) for k in focus_words.KINDS)
        return core.refuse(
            ctx,
            "focus.unknown",
            word=focus_words.unknown_word(ctx.lang, words)[:32],
            kinds=kinds,
            games=core.games_list(ctx.lang, SOLO_GAMES),
        )
    if not found:
        game_id = game_id_of(words[0])
        if len(words) == 1 and game_id is not None:
            return await core.no_game(ctx, game_id)
        here = ", ".join(focus_words.label(ctx.lang, g) for g in games)
        return core.refuse(
            ctx,
            "focus.none_named",
            words=" ".join(words)[:40],
            games=here or i18n.t(ctx.lang, "focus.no_games"),
        )
    return (await core.focused(ctx, found) or core.default_game(ctx, found)).session


async def command(core: Service, ctx: Ctx, args: list[str]) -> list[Reply]:
    """``/hint [game]``: the hint for the sender's game in this chat (the table on their
    turn, else the most recently touched solo game, or the one of the game named), privately."""
    session: Session | None
    if args:  # words name the game as everywhere: a game, a kind (daily, table...) or both
        named = await _named(core, ctx, args)
        if isinstance(named, Reply):
            return [named]
        session = named
    else:
        session = await core.game_for_move(ctx)
    if session is None or session.game is None:
        return [await core.no_game(ctx)]
    # with several games open, every answer says of which game it is
    if session.record.ranked:
        return [await core.about(ctx, session, core.refuse(ctx, "hint.ranked"))]
    if not session.game.info.hints:
        return [core.refuse(ctx, "hint.unavailable")]
    for forbidden in core.registry.hint_forbidden:
        if await forbidden(session):
            return [await core.about(ctx, session, core.refuse(ctx, "hint.race"))]
    async with core.sessions.lock(session.id):
        game = session.game
        if game is None or game.is_over or not session.is_active:
            return [core.refuse(ctx, "game.not_active")]
        if session.is_table and game.current_player != ctx.user:
            return [
                core.refuse(ctx, "game.not_your_turn", player=session.name_of(game.current_player))
            ]
        moves = list(game.moves)
        record = session.record
        # the hint names this game: the move it suggests, typed next, must go to it too
        await core.focus_on(ctx, session)
        if session.is_table:
            # Cartas Maestras: why only Pass; in the final phase, whether to stop
            said = table_hint(ctx.lang, game, ctx.user)
            if said is not None:
                key, params = said
                if "tied" in params:  # seat ids to the names players read
                    params["tied"] = ", ".join(session.name_of(p) for p in params["tied"])
                return [await core.about(ctx, session, core.private(ctx, key, **params))]
    loop = asyncio.get_running_loop()
    rebuild = functools.partial(
        engine.replay,
        record.game_id,
        record.deal,
        list(record.players),
        dict(record.options),
        moves,
    )
    try:
        snapshot = await loop.run_in_executor(None, rebuild)
        found = await loop.run_in_executor(None, suggest, snapshot, ctx.user)
    except (ImportError, ValueError, IllegalMove):
        # No hint search for this game yet (or it offered something the game refuses).
        return [core.refuse(ctx, "hint.unavailable")]
    if found is None:
        return [await core.about(ctx, session, core.private(ctx, "hint.none"))]
    if found in (STUCK, LOST, BACK):
        name = core.game_name(ctx.lang, record.game_id)
        view: Mapping[str, Any] = snapshot.view(None)
        piles = view.get("piles") or []
        kinds = {p.get("kind") for p in piles}
        talon = sum(
            int(p.get("down", 0)) + len(p.get("cards") or [])
            for p in piles
            if p.get("kind") in ("stock", "waste")
        )
        if found == LOST:
            key = "hint.lost"  # the solver proved it: nothing played from here wins
        elif found == BACK:
            key = "hint.back"  # a win is left only through a position already had: /undo
        elif not kinds & {"stock", "waste"}:
            key = "hint.stuck_no_new"  # no stock at all (FreeCell): every move goes back
        else:
            # with no card left to turn, the stock is not the reason: say so plainly
            key = "hint.stuck" if talon else "hint.stuck_no_stock"
        return [core.private(ctx, key, game=name, word=record.game_id)]
    assert not isinstance(found, str)
    notation, reason, gain = found
    numbers: dict[str, int] = {}
    if session.is_table:  # Cartas Maestras: what the placement does at the table
        reason, numbers = table_reason(snapshot, snapshot.parse_move(notation), ctx.user)
    why = i18n.t(ctx.lang, f"hint.why.{reason}", **numbers)
    # Points only where the score is points (Imaginary Thirteen counts cards, Canfield dollars).
    key = (
        "hint.text_points"
        if gain > 0 and engine.game_info(session.record.game_id).points
        else "hint.text"
    )
    # with several games open, the hint says of which game it is
    return [
        await core.about(ctx, session, core.private(ctx, key, move=notation, why=why, points=gain))
    ]
