"""The solvers' "lost is a proof" checks as sweeps over numbered random positions.

Each ``*_case(seed)`` builds one random position from ``random.Random(seed)``, decides it
with a search that tries every legal move with no pruning (the reference) and with the
solver, asserts that they agree, and returns what kind of case it was (``"won"``, ``"lost"``,
...), or None when the reference search would need more positions than its limit (the
position is then not a test of anything).

``make test`` runs each check on a few pinned seeds chosen from the sweep to cover every
kind of case (the lost ones above all: "lost" is what must be a proof) at a small cost;
``make bench`` (``bench/bench_agreement.py``) runs the same checks over hundreds of seeds and
reports how many positions of each kind agreed, and any seed that did not. A seed the bench
finds disagreeing belongs in the pinned list of its test.

Imported by the tests and by the bench as ``tests.engine.sweeps`` (from the repository's root).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.solitario import Solitario
from engine.solvers import LOST, UNKNOWN, WON, Budget, Counter, OutOfBudget, solve_game
from engine.solvers import klondike as klondike_solver
from engine.solvers.klondike import CardSetSearch
from tests.engine.pile_helpers import brute_force_wins, choose_path

NODES = Budget(nodes=200_000, seconds=None)
_NAMES = "A234567JQK"  # the 40-card deck's ranks 1-10


def solitario_brute_force_wins(game: Solitario, limit: int = 40_000) -> bool | None:
    """Whether ``game`` (a small Solitario position) can be won, trying every legal move of the
    engine itself (no pruning, no automatic moves) with a set of seen positions; None when
    more than ``limit`` positions would be needed."""

    # cards by identity: a game's card objects are its own and only move between its piles
    # (the codes named the same cards, at twice the cost of the whole search)
    def key() -> tuple[Any, ...]:
        return (
            tuple(tuple(map(id, col)) for col in game._tableau),
            tuple(game._down),
            tuple(map(id, game._stock)),
            tuple(map(id, game._waste)),
            tuple(len(pile) for pile in game._fnd),
        )

    return brute_force_wins(game, key, limit)


def layout_of(game: Solitario) -> dict[str, Any]:
    """``game``'s position as ``Solitario.from_layout`` takes it (for failure messages)."""

    def text(cards: Any) -> str:
        return " ".join(f"{_NAMES[c.rank - 1]}{c.suit}" for c in cards)

    columns = []
    for col, down in zip(game._tableau, game._down, strict=True):
        columns.append(f"{text(col[:down])} | {text(col[down:])}" if down else text(col))
    return {
        "columns": columns,
        "waste": text(game._waste),
        "stock": text(reversed(game._stock)),
        "foundations": [text(pile) for pile in game._fnd],
    }


def random_small_position(rng: random.Random, in_play: int) -> dict[str, Any]:
    """A legal Solitario-40 position with ``in_play`` cards off the foundations: up to four
    cards in each column (all but the last face down), then face-up runs built on them where
    cards fit, the rest in the stock and waste."""
    while True:
        heights = [rng.randint(0, 10) for _ in range(4)]
        if 40 - sum(heights) == in_play:
            break
    cards = [
        _NAMES[r - 1] + s for s, h in zip("dhcs", heights, strict=True) for r in range(h + 1, 11)
    ]
    rng.shuffle(cards)
    rank = _NAMES.index

    def fits(card: str, col: list[str]) -> bool:
        if not col:
            return card[0] == "K"
        top = col[-1]
        return rank(top[0]) == rank(card[0]) + 1 and (top[1] in "dh") != (card[1] in "dh")

    columns, downs = [], []
    for _ in range(rng.randint(1, 7)):
        size = rng.randint(0, min(4, len(cards)))
        columns.append(cards[:size])
        downs.append(max(size - 1, 0))
        cards = cards[size:]
    talon = []
    for card in cards:
        spots = [col for col in columns if fits(card, col)]
        if spots and rng.random() < 0.8:
            rng.choice(spots).append(card)
        else:
            talon.append(card)
    texts = [
        " ".join(col[:down]) + " | " + " ".join(col[down:]) if down else " ".join(col)
        for col, down in zip(columns, downs, strict=True)
    ]
    return _layout(rng, texts, talon, heights)


def random_deep_position(rng: random.Random, in_play: int) -> dict[str, Any]:
    """A Solitario-40 position with ``in_play`` cards off the foundations, dealt like a real
    game: two to five columns of up to six cards, all but the top face down, the rest in the
    stock and waste. Buried cards make many of these lost."""
    while True:
        heights = [rng.randint(0, 10) for _ in range(4)]
        if 40 - sum(heights) == in_play:
            break
    cards = [
        _NAMES[r - 1] + s for s, h in zip("dhcs", heights, strict=True) for r in range(h + 1, 11)
    ]
    rng.shuffle(cards)
    columns = []
    for _ in range(rng.randint(2, 5)):
        size = rng.randint(1, min(6, len(cards))) if cards else 0
        columns.append(cards[:size])
        cards = cards[size:]
    texts = [
        " ".join(col[:-1]) + " | " + col[-1] if len(col) > 1 else " ".join(col) for col in columns
    ]
    return _layout(rng, texts, cards, heights)


def position_with_a_buried_card(rng: random.Random, in_play: int) -> dict[str, Any]:
    """A Solitario-40 position like :func:`random_deep_position` whose first column holds
    a card with both of its parents somewhere under it (now and then just one), and most
    often a lower card of its suit."""
    while True:
        layout = random_deep_position(rng, in_play)
        off = (
            " ".join([*layout["columns"], layout["waste"], layout["stock"]])
            .replace("|", "")
            .split()
        )
        candidates = [
            card
            for card in off
            if card[0] != "K" and all(parent in off for parent in parents_of(card))
        ]
        if candidates:
            break
    card = rng.choice(candidates)
    parents = parents_of(card)
    rest = [c for c in off if c != card and c not in parents]
    rng.shuffle(rest)
    if rng.random() < 0.6:  # most often a lower card of its suit too: a cycle
        rest.sort(key=lambda c: c[1] != card[1] or _NAMES.index(c[0]) > _NAMES.index(card[0]))
    if rng.random() < 0.4:  # or just one parent under it: the card can move to the other
        rest.append(parents.pop(rng.randrange(2)))
    under = [*parents, *rest[: rng.randint(0, 3)]]
    rng.shuffle(under)
    first = [*under, card, *rest[3 : 3 + rng.randint(0, 2)]]
    rest = [c for c in rest if c not in first]
    others, talon = rest[: len(rest) // 2], rest[len(rest) // 2 :]
    columns = [first, *(others[i : i + 4] for i in range(0, len(others), 4))]
    texts = [
        " ".join(col[:-1]) + " | " + col[-1] if len(col) > 1 else " ".join(col) for col in columns
    ]
    waste = rng.randint(0, len(talon))
    return {
        **layout,
        "columns": texts,
        "waste": " ".join(talon[:waste]),
        "stock": " ".join(talon[waste:]),
    }


def parents_of(card: str) -> list[str]:
    """The two cards ``card`` may lie on (other colour, one rank higher), as layout texts."""
    higher = _NAMES[_NAMES.index(card[0]) + 1]
    return [higher + suit for suit in ("cs" if card[1] in "dh" else "dh")]


# ----- the checks, one position each ------------------------------------------------------
def _kind(truth: bool) -> str:
    return "won" if truth else "lost"


def deep_case(seed: int) -> str | None:
    """A deep position (many face-down cards: a good share are lost): the solver's answer is
    the reference's ("lost" a proof; every "won" line is checked on the engine by
    ``solve_game``)."""
    return _agreement(seed, random_deep_position, (12, 16, 20), limit=8_000)


def small_case(seed: int) -> str | None:
    """A small position of any kind (runs to split, foundation cards to bring back, spaces,
    stock and waste): the solver never calls lost what the reference wins, nor the other way
    round."""
    return _agreement(seed, random_small_position, (10, 12), limit=15_000)


def _agreement(
    seed: int,
    position: Callable[[random.Random, int], dict[str, Any]],
    in_play: tuple[int, ...],
    limit: int,
) -> str | None:
    """The solver's answer on ``seed``'s position is the reference search's (None: the
    reference could not decide within ``limit`` positions)."""
    rng = random.Random(seed)
    game = Solitario.from_layout(**position(rng, rng.choice(in_play)))
    truth = solitario_brute_force_wins(game, limit=limit)
    if truth is None:
        return None
    result = solve_game(game, NODES)
    assert result.status == (WON if truth else LOST), (seed, layout_of(game))
    return _kind(truth)


def buried_case(seed: int) -> str | None:
    """A card buried over both its parents can leave only for its foundation: when a card of
    its suit below it (or a chain of such) lies under it, nothing can win. ``"cycle"`` when
    the search's check finds such a cycle (then the reference must call the position lost,
    and the solver at its first node), ``"other"`` when it finds none."""
    rng = random.Random(seed)
    game = Solitario.from_layout(**position_with_a_buried_card(rng, rng.choice((12, 14, 16))))
    truth = solitario_brute_force_wins(game, limit=3_000)
    if truth is None:
        return None
    if CardSetSearch(game, Counter(NODES)).buried_cycle():
        assert truth is False, (seed, layout_of(game))
        assert solve_game(game, Budget(nodes=1, seconds=None)).status == LOST, seed
        return "cycle"
    return "other"


def exact_pass(
    game: Solitario,
    monkeypatch: pytest.MonkeyPatch,
    compiled: bool,
    nodes: int | None = None,
    seconds: float | None = None,
) -> tuple[str, list[Any], int]:
    """(status, path, nodes) of the Klondike exact pass alone on ``game``, in C or in
    Python."""
    choose_path(monkeypatch, compiled)
    assert klondike_solver.compiled() == compiled
    counter = Counter(Budget(nodes=nodes, seconds=seconds))
    search = CardSetSearch(game, counter)
    try:
        status = WON if search.run() else LOST
    except OutOfBudget:
        status = UNKNOWN
    return status, list(search.path), counter.nodes


def both_passes_case(seed: int) -> str | None:
    """A small position: the exact pass alone, in C and in Python, takes the same path to
    the same answer, and that answer is the reference's."""
    rng = random.Random(seed)
    game = Solitario.from_layout(**random_small_position(rng, rng.choice((8, 10, 12))))
    truth = solitario_brute_force_wins(game, limit=15_000)
    if truth is None:
        return None
    with pytest.MonkeyPatch.context() as monkeypatch:
        in_c = exact_pass(game, monkeypatch, True)
        in_python = exact_pass(game, monkeypatch, False)
    assert in_c == in_python, (seed, layout_of(game))
    assert in_c[0] == (WON if truth else LOST), (seed, layout_of(game))
    return _kind(truth)


#: name: (check, what it checks); the bench sweeps each over its seeds
CHECKS: dict[str, Callable[[int], str | None]] = {
    "klondike_deep_positions": deep_case,
    "klondike_small_positions": small_case,
    "klondike_buried_cards": buried_case,
    "klondike_c_and_python_exact_pass": both_passes_case,
}


def sweep(check: Callable[[int], str | None], seeds: range) -> dict[str, Any]:
    """``check`` on every seed: how many cases of each kind agreed, how many the reference
    could not decide, and the seeds that disagreed (with the assertion's message)."""
    kinds: dict[str, int] = {}
    undecided = 0
    disagreed: list[dict[str, Any]] = []
    for seed in seeds:
        try:
            kind = check(seed)
        except AssertionError as failure:
            disagreed.append({"seed": seed, "failure": str(failure)[:500]})
            continue
        if kind is None:
            undecided += 1
        else:
            kinds[kind] = kinds.get(kind, 0) + 1
    return {
        "seeds": f"{seeds.start}-{seeds.stop - 1}",
        "agreed": dict(sorted(kinds.items())),
        "undecided": undecided,
        "disagreed": disagreed,
    }


def _layout(
    rng: random.Random, columns: list[str], talon: list[str], heights: list[int]
) -> dict[str, Any]:
    """The position's layout: ``columns`` as text, ``talon`` cut at random into waste and
    stock, foundations of the given ``heights`` (diamonds, hearts, clubs, spades)."""
    waste = rng.randint(0, len(talon))
    foundations = [
        " ".join(_NAMES[r - 1] + s for r in range(1, h + 1))
        for s, h in zip("dhcs", heights, strict=True)
    ]
    return {
        "columns": columns,
        "waste": " ".join(talon[:waste]),
        "stock": " ".join(talon[waste:]),
        "foundations": foundations,
    }
