"""The compact Solitario (Klondike) and Canfield solvers and ``engine.solvers.decide``.

Won and lost deals pinned here were found by running ``python -m engine.solve`` once; every
winning line is replayed through ``engine.replay`` (the public ``Game.play``) to a won game.
"""

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pile_helpers import brute_force_wins

import engine
from engine.cards import Card
from engine.piles import stock_cycle
from engine.solitario import Solitario
from engine.solvers import LOST, WON, Budget, Counter, Position, Verdict, decide, solve, solve_game
from engine.solvers.klondike import CardSetSearch
from engine.solvers.talon import reach

NODES = Budget(nodes=200_000, seconds=None)


def replays_to_a_win(game_id, deal, options, moves, start=()):
    game = engine.replay(game_id, deal, None, options, [*start, *moves])
    return str(game.outcome) == "won"


@pytest.mark.parametrize(
    ("game_id", "deal", "options"),
    [
        ("solitario", 1, {"cards": 52}),
        ("solitario", 6, {"cards": 52}),
        ("solitario", 29, None),
        ("solitario", 57, None),
        # the first round's heuristic prunings called these two "lost"
        ("solitario", 46, None),
        ("solitario", 97, None),
        ("canfield", 1, None),
        ("canfield", 6, None),
    ],
)
def test_won_deals_have_lines_that_replay_to_a_win(game_id, deal, options):
    result = solve(game_id, deal, options, NODES)
    assert result.status == WON
    assert replays_to_a_win(game_id, deal, options, result.moves)


@pytest.mark.parametrize(
    ("game_id", "deal", "options"),
    [
        ("solitario", 8, {"cards": 52}),
        ("solitario", 15, {"cards": 52}),
        ("solitario", 20, None),
        ("solitario", 35, None),
        ("canfield", 10, None),
        ("canfield", 13, None),
    ],
)
def test_lost_deals_are_proven_lost(game_id, deal, options):
    result = solve(game_id, deal, options, NODES)
    assert result.status == LOST and result.moves == []


def test_the_same_node_budget_gives_the_same_answer():
    # the daily deal is chosen with node budgets: the answer must not depend on the machine
    first = solve("solitario", 18, {"cards": 52}, NODES)
    second = solve("solitario", 18, {"cards": 52}, NODES)
    assert (first.status, first.moves, first.nodes) == (second.status, second.moves, second.nodes)


@given(
    st.integers(min_value=0, max_value=30).flatmap(
        lambda size: st.tuples(st.just(size), st.integers(min_value=0, max_value=size))
    )
)
def test_talon_reach_is_the_engines_stock_cycle(size_and_waste):
    size, waste_count = size_and_waste
    cards = [Card(rank % 13 + 1, "dhcs"[rank // 13]) for rank in range(size)]
    waste, turning = cards[:waste_count], cards[waste_count:]
    engine_tops: dict[int, int] = {}
    for turns, card in stock_cycle(list(reversed(turning)), waste):
        engine_tops.setdefault(cards.index(card), turns)
    assert dict(reach(size, waste_count)) == engine_tops


# ----- decide: "could it have been won?" ---------------------------------------------------
def test_decide_from_the_start_and_from_a_later_position():
    start = decide(Position("canfield", 1, None, []), NODES)
    assert start.result == WON and replays_to_a_win("canfield", 1, None, start.line)
    # a few moves into the winning line: the answer continues from there
    played = start.line[:10]
    later = decide(Position("canfield", 1, None, played), NODES)
    assert later.result == WON
    assert replays_to_a_win("canfield", 1, None, later.line, start=played)


def test_decide_answers_for_a_resigned_game_and_leaves_it_alone():
    game = engine.new_game("solitario", 29)
    game.play("d")
    game.resign()
    verdict = decide(game, NODES)
    assert verdict.result == WON
    assert replays_to_a_win("solitario", 29, None, verdict.line, start=["d"])
    assert str(game.outcome) == "resigned" and game.moves == ["d"]


def test_decide_on_a_game_object_leaves_its_position_unchanged():
    game = engine.new_game("solitario", 20)
    before = game.view()
    assert decide(game, NODES).result == LOST
    assert game.view() == before and game.moves == []


def test_positions_and_verdicts_travel_to_worker_processes():
    position = Position("solitario", 3, None, [])
    assert pickle.loads(pickle.dumps(position)) == position
    verdict = decide(position, NODES)
    assert pickle.loads(pickle.dumps(verdict)) == verdict == Verdict(LOST, [])


# ----- "lost" is a proof: the Klondike search against a search with no pruning at all --------
def _brute_force_wins(game, limit=40_000):
    """Whether ``game`` (a small Solitario position) can be won, trying every legal move of the
    engine itself (no pruning, no automatic moves) with a set of seen positions; None when
    more than ``limit`` positions would be needed."""

    # cards by identity: a game's card objects are its own and only move between its piles
    # (the codes named the same cards, at twice the cost of the whole search)
    def key():
        return (
            tuple(tuple(map(id, col)) for col in game._tableau),
            tuple(game._down),
            tuple(map(id, game._stock)),
            tuple(map(id, game._waste)),
            tuple(len(pile) for pile in game._fnd),
        )

    return brute_force_wins(game, key, limit)


_NAMES = "A234567JQK"  # the 40-card deck's ranks 1-10


def _random_small_position(rng, in_play):
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

    def fits(card, col):
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
    waste = rng.randint(0, len(talon))
    foundations = [
        " ".join(_NAMES[r - 1] + s for r in range(1, h + 1))
        for s, h in zip("dhcs", heights, strict=True)
    ]
    return {
        "columns": texts,
        "waste": " ".join(talon[:waste]),
        "stock": " ".join(talon[waste:]),
        "foundations": foundations,
    }


#: Won positions whose every win brings foundation cards back to the table (kings into
#: spaces, queens onto them, ...). The first search's heuristic prunings miss them, and so did
#: the old automatic "safe" moves home, which sent such a king straight back: "lost" came out.
NEEDS_FOUNDATION_CARDS_BACK = [
    {
        "columns": ["Qd | Ad", "6d | 7d", "Kd Jd | 4d", "", "5d", ""],
        "waste": "3d 2d",
        "foundations": [
            "",
            "Ah 2h 3h 4h 5h 6h 7h Jh Qh Kh",
            "Ac 2c 3c 4c 5c 6c 7c Jc Qc Kc",
            "As 2s 3s 4s 5s 6s 7s Js Qs Ks",
        ],
    },
    {
        "columns": ["4d 7d | 6d", "Jd Kc | Qc", "Kh", "Kd | Qd", "", "5d", ""],
        "foundations": [
            "Ad 2d 3d",
            "Ah 2h 3h 4h 5h 6h 7h Jh Qh",
            "Ac 2c 3c 4c 5c 6c 7c Jc",
            "As 2s 3s 4s 5s 6s 7s Js Qs Ks",
        ],
    },
    {
        "columns": ["Ks | 6s", "Kh", "4s | 5s", "Qs", "Js 7s | Kd"],
        "waste": "3s",
        "foundations": [
            "Ad 2d 3d 4d 5d 6d 7d Jd Qd",
            "Ah 2h 3h 4h 5h 6h 7h Jh Qh",
            "Ac 2c 3c 4c 5c 6c 7c Jc Qc Kc",
            "As 2s",
        ],
    },
]


@pytest.mark.parametrize("layout", NEEDS_FOUNDATION_CARDS_BACK)
def test_a_win_that_needs_foundation_cards_back_is_found(layout):
    game = Solitario.from_layout(**layout)
    assert _brute_force_wins(game)
    result = solve_game(game, NODES)
    assert result.status == WON
    assert any(move.startswith("f") for move in result.moves)  # cards came back
    # the line wins when played through the public API
    for move in result.moves:
        game.play(move)
    assert str(game.outcome) == "won"


#: Won positions that need two "preparatory" moves whose uses come only after both (a king
#: out of the talon so that a queen can be turned, and a king back from a foundation to take
#: that queen): a rule "after a card is put on the table the next move must use it", which
#: looks exact, calls them lost (docs/solvers.md), so the solver must not use it.
TWO_PREPARATORY_MOVES = [
    {
        "columns": ["", "", "Jc Ks Qd | Kh", "6c", "Kd Kc | 3c"],
        "waste": "2c 4c Qc",
        "stock": "5c 7c Ac",
        "foundations": [
            "Ad 2d 3d 4d 5d 6d 7d Jd",
            "Ah 2h 3h 4h 5h 6h 7h Jh Qh",
            "",
            "As 2s 3s 4s 5s 6s 7s Js Qs",
        ],
    },
    {
        "columns": ["Qc 4h | Kh"],
        "waste": "Qh Ah 5h 3h",
        "stock": "2h 7h Jh 6h Kc",
        "foundations": [
            "Ad 2d 3d 4d 5d 6d 7d Jd Qd Kd",
            "",
            "Ac 2c 3c 4c 5c 6c 7c Jc",
            "As 2s 3s 4s 5s 6s 7s Js Qs Ks",
        ],
    },
    {
        "columns": ["", "5d", "", "Qd | Jd", "", "3d", "Kd 2d Jh | 6d"],
        "stock": "4d Qh Kh 7d",
        "foundations": [
            "Ad",
            "Ah 2h 3h 4h 5h 6h 7h",
            "Ac 2c 3c 4c 5c 6c 7c Jc Qc Kc",
            "As 2s 3s 4s 5s 6s 7s Js Qs Ks",
        ],
    },
]


@pytest.mark.parametrize("layout", TWO_PREPARATORY_MOVES)
def test_wins_that_need_two_preparatory_moves_are_found(layout):
    game = Solitario.from_layout(**layout)
    assert _brute_force_wins(game)
    result = solve_game(game, NODES)
    assert result.status == WON
    assert replays_to_a_win_from(game, result.moves)


def replays_to_a_win_from(game, moves):
    """Play ``moves`` through the public API on a copy of ``game``'s position."""
    copy = Solitario.from_layout(**_layout_of(game))
    for move in moves:
        copy.play(move)
    return str(copy.outcome) == "won"


def _layout_of(game):
    def text(cards):
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


def _random_deep_position(rng, in_play):
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
    waste = rng.randint(0, len(cards))
    foundations = [
        " ".join(_NAMES[r - 1] + s for r in range(1, h + 1))
        for s, h in zip("dhcs", heights, strict=True)
    ]
    return {
        "columns": texts,
        "waste": " ".join(cards[:waste]),
        "stock": " ".join(cards[waste:]),
        "foundations": foundations,
    }


def test_lost_deep_positions_agree_with_a_search_without_pruning():
    # positions with many face-down cards: a good share of them are lost, and "lost" must be
    # a proof; every "won" line is checked on the engine by solve_game
    rng = random.Random(1818)
    outcomes = []
    for _ in range(200):
        game = Solitario.from_layout(**_random_deep_position(rng, rng.choice((12, 16, 20))))
        truth = _brute_force_wins(game, limit=8_000)
        if truth is None:
            continue
        result = solve_game(game, NODES)
        assert result.status == (WON if truth else LOST), _layout_of(game)
        outcomes.append(truth)
        if outcomes.count(False) >= 5 and len(outcomes) >= 25:
            break
    assert outcomes.count(False) >= 5 and len(outcomes) >= 25


def test_the_exact_pass_alone_finds_those_wins():
    # its prunings (such as "an Ace or a 2 never comes back") may not drop these wins
    for layout in NEEDS_FOUNDATION_CARDS_BACK:
        search = CardSetSearch(Solitario.from_layout(**layout), Counter(NODES))
        assert search.run()
        assert any(step[0] == "sp" for step in search.path)  # foundation cards came back


def test_lost_and_won_agree_with_a_search_without_pruning():
    # Small positions of every kind (runs to split, foundation cards to bring back, spaces,
    # stock and waste): "lost" must be a proof, so the solver may never call lost what the
    # unpruned search wins, nor the other way round.
    rng = random.Random(18)
    compared = 0
    for _ in range(40):
        game = Solitario.from_layout(**_random_small_position(rng, rng.choice((10, 12))))
        truth = _brute_force_wins(game, limit=15_000)
        if truth is None:
            continue  # too many positions for the unpruned search
        result = solve_game(game, NODES)
        assert result.status == (WON if truth else LOST), game
        compared += 1
    assert compared >= 30


def _position_with_a_buried_card(rng, in_play):
    """A Solitario-40 position like :func:`_random_deep_position` whose first column holds
    a card with both of its parents somewhere under it (now and then just one), and most
    often a lower card of its suit."""
    while True:
        layout = _random_deep_position(rng, in_play)
        off = (
            " ".join([*layout["columns"], layout["waste"], layout["stock"]])
            .replace("|", "")
            .split()
        )
        candidates = [
            card
            for card in off
            if card[0] != "K" and all(parent in off for parent in _parents(card))
        ]
        if candidates:
            break
    card = rng.choice(candidates)
    parents = _parents(card)
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


def _parents(card):
    """The two cards ``card`` may lie on (other colour, one rank higher), as layout texts."""
    higher = _NAMES[_NAMES.index(card[0]) + 1]
    return [higher + suit for suit in ("cs" if card[1] in "dh" else "dh")]


def test_a_card_buried_over_both_its_parents_proves_lost_only_when_it_is():
    # such a card can leave only for its foundation: when a card of its suit below it (or a
    # chain of such) lies under it, nothing can win; the unpruned search must agree
    rng = random.Random(4418)
    cycles = others = 0
    for _ in range(400):
        game = Solitario.from_layout(**_position_with_a_buried_card(rng, rng.choice((12, 14, 16))))
        truth = _brute_force_wins(game, limit=3_000)
        if truth is None:
            continue
        if CardSetSearch(game, Counter(NODES)).buried_cycle():
            assert truth is False, _layout_of(game)
            assert solve_game(game, Budget(nodes=1, seconds=None)).status == LOST
            cycles += 1
        else:
            others += 1
        if cycles >= 8 and others >= 8:
            break
    assert cycles >= 8 and others >= 8


@pytest.mark.parametrize("deal", [118, 946])
def test_deals_with_a_buried_cycle_are_lost_at_once(deal):
    # over ten million positions each without the check (the 2 s budget ran out)
    result = solve("solitario", deal, {"cards": 52}, Budget(nodes=1_000, seconds=None))
    assert result.status == LOST and result.nodes <= 1
