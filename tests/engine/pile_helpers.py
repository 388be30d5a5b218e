"""Test helpers shared by the two pile games' tests (``test_solitario``, ``test_canfield``).

Imported as a plain module (``from pile_helpers import ...``), the way ``tests/bot`` uses
``core_fakes``. Each helper checks what both games promise alike; the game-specific checks
(scores, layouts) stay in the test modules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

import pytest
from hypothesis import strategies as st

import engine
from engine import IllegalMove
from engine.stall import is_stalled
from engine.stockwaste import StockAndWasteGame


def refusal(game: StockAndWasteGame, text: str) -> IllegalMove:
    """Play ``text``, expecting a refusal that changes nothing; return the error."""
    before = game.view()
    with pytest.raises(IllegalMove) as caught:
        game.play(text)
    assert game.view() == before
    return caught.value


def pile(game: StockAndWasteGame, pile_id: str) -> dict:
    """One pile of the game's view, by id."""
    return next(p for p in game.view()["piles"] if p["id"] == pile_id)


def all_notations(cls: type[StockAndWasteGame]) -> list[str]:
    """Every source-destination text over the game's pile ids, legal or not, plus ``d``."""
    own = [p for p in ("w", "r") if p in cls.PILE_IDS]
    sources = [*own, *cls.TABLEAU, *cls.FOUNDATIONS]
    targets = [*own, "f", *cls.TABLEAU, *cls.FOUNDATIONS]
    return ["d", *(s + d for s in sources for d in targets)]


def play_checked_step(game: StockAndWasteGame, data: Any) -> tuple[dict, dict, Any]:
    """One step of a random playout, checking what every move promises: legal moves' text
    parses back to them; drawn notations that are not legal are refused without a change;
    a drawn legal move is played, undone to the same view and position key, and played
    again from its text to the same view. Returns (view before, view after, move)."""
    moves = game.legal_moves()
    assert all(game.parse_move(str(m)) == m for m in moves)
    notations = all_notations(type(game))
    for text in data.draw(st.lists(st.sampled_from(notations), max_size=3)):
        try:
            parsed = game.parse_move(text)
        except IllegalMove:
            continue
        if parsed not in moves:
            refusal(game, text)
    before, key = game.view(), game.position_key()
    move = data.draw(st.sampled_from(moves))
    game.play(move)
    after = game.view()
    assert game.undo() == str(move)
    assert game.view() == before and game.position_key() == key
    game.play(str(move))
    assert game.view() == after
    return before, after, move


def check_final_view(game: StockAndWasteGame, options: dict, cards: int) -> None:
    """Every card shows once or is counted face down, and a replay of the log matches."""
    view = game.view()
    codes = [c for p in view["piles"] for c in p["cards"]]
    assert len(codes) == len(set(codes))
    assert len(codes) + sum(p["down"] for p in view["piles"]) == cards
    assert engine.replay(game.game_id, game.deal, None, options, game.moves).view() == view


def reference_stalled(game: StockAndWasteGame, limit: int = 200_000) -> bool:
    """The stall ruling searched the plain way: every position reachable by non-progress moves,
    stock turns included, one position at a time (no shortcut, no cap short of ``limit``)."""
    baseline = game._progress_baseline()
    start = game._snapshot()
    seen, frontier = {game.position_key()}, [start]
    try:
        while frontier:
            game._restore(frontier.pop())
            here = game._snapshot()
            for move in game._generate():
                if game._is_progress(move, baseline):
                    return False
                game._apply_unchecked(move)
                if game.position_key() not in seen:
                    assert len(seen) < limit, "reference search too large for a test"
                    seen.add(game.position_key())
                    frontier.append(game._snapshot())
                game._restore(here)
        return True
    finally:
        game._restore(start)


def check_stall_search_on_random_play(game: StockAndWasteGame, seed: int, moves: int) -> None:
    """Random play to the stall (or ``moves`` moves): the stall search and the plain search
    judge every position on the way alike. The game's own search is capped (a stall may be
    announced late, never falsely: solitario 52 deal 377 reaches a stall of over 10,000 nodes
    after 106 random moves), so where they differ the game must have said "not stalled" and
    the same search without its cap must agree with the plain one."""
    chooser = random.Random(seed)
    for _ in range(moves):
        expected = reference_stalled(game)
        if game.stalled != expected:
            assert expected and not game.stalled, "a stall announced that is not one"
            assert is_stalled(game, max_positions=10**6)
        if game.is_over:
            break
        game.play(chooser.choice(game.legal_moves()))


def first_stall_by_random_play(
    cls: type[StockAndWasteGame], deals: int, moves: int
) -> StockAndWasteGame:
    """Deals 0, 1, ... played at random (seeded by the deal) for at most ``moves`` moves each:
    the first game that ends stalled, or the last one tried when none does."""
    for deal in range(deals):
        game = cls(deal)
        chooser = random.Random(deal)
        while not game.is_over and game.move_number < moves:
            game.play(chooser.choice(game.legal_moves()))
        if game.outcome == "stalled":
            break
    return game


def check_no_stale_legal_moves(
    game: StockAndWasteGame, options: dict, data: Any, steps: int = 30
) -> None:
    """Plays, refused moves and undos in random order: after each, the legal moves and the
    view are those of the same game rebuilt from its log."""
    for _ in range(steps):
        if game.is_over:
            break
        action = data.draw(st.sampled_from(["play", "play", "refused", "undo"]))
        if action == "undo" and game.moves:
            game.undo()
        elif action == "refused":
            text = data.draw(st.sampled_from(all_notations(type(game))))
            try:
                game.play(text)
            except IllegalMove:
                pass
            else:
                game.undo()
        else:
            game.play(data.draw(st.sampled_from(game.legal_moves())))
        rebuilt = engine.replay(game.game_id, game.deal, None, options, game.moves)
        assert game.legal_moves() == rebuilt.legal_moves() and game.view() == rebuilt.view()


def brute_force_wins(
    game: StockAndWasteGame, key: Callable[[], Hashable], limit: int
) -> bool | None:
    """Whether ``game`` (a small position) can be won, trying every legal move of the engine
    itself (turns included; no pruning, no automatic moves) with a set of seen positions
    (``key()`` names the game's current position); None when more than ``limit`` positions
    would be needed. The solvers' "lost" is checked against this."""
    start = game._snapshot()
    seen = {key()}
    waiting = [start]
    try:
        while waiting:
            game._restore(waiting.pop())
            if game.cards_home == len(game._cards):
                return True
            here = game._snapshot()
            # the engine's first moves (to the foundations) are searched first
            for move in reversed(game._generate()):
                game._apply_unchecked(move)
                after = key()
                if after not in seen:
                    seen.add(after)
                    waiting.append(game._snapshot())
                game._restore(here)
            if len(seen) > limit:
                return None
        return False
    finally:
        game._restore(start)


def choose_path(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    """Let the solvers run their C code (when it was built) or their Python code: the switch
    ``engine.solvers.use_compiled`` reads at every search (``TAVOLO_PURE_PYTHON``)."""
    if compiled:
        monkeypatch.delenv("TAVOLO_PURE_PYTHON", raising=False)
    else:
        monkeypatch.setenv("TAVOLO_PURE_PYTHON", "1")
