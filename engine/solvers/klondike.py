"""Solitario / Klondike solver (draw three, unlimited turn-overs; 40 or 52 cards) on the
*card sets* of a position: where face-up cards lie in the columns is left out of the state.

It reads the deal once from the engine's private state, "with full knowledge of the deal"
(``_tableau``, ``_down``, ``_stock`` top last, ``_waste``, ``_fnd``, ``top_rank``), searches
integers and bit masks, never the ``Game``, and writes its line in the engine's notation
(``d`` turns, ``w3``, ``35``, ``2f1``, ``f25``); ``engine.solvers`` replays the line on the
real engine.

The face-up cards of a column always form one run built down in alternating colours, so every
face-up card in the tableau is one of three kinds:

- a **head**: the lowest face-up card of a column that still holds cards of its deal (the
  face-down cards under it, or none when it is that column's bottom card): column ``i`` has
  ``k[i]`` cards of its deal left in place, the head is the top one of them;
- a **free king**: a king at the bottom of a column whose deal is all gone;
- a **free card**: any other face-up card; it lies on a card one rank higher of the other
  colour (a *parent*), and only on one of the two such cards.

Which parent a free card lies on is the only thing the sets leave out, and it never matters:
take the cards of one rank and colour (one *pair*, two cards), ``n`` of them face up in the
tableau, and the ``m`` free cards of the pair one rank lower and of the other colour (the
only cards that can lie on them). ``m <= n``. If ``m == 0`` every card of the pair is a
column's top; if ``n == 2`` and ``m == 1`` the one free child lies on one of them and can be
moved, with the run on it, onto the other (which is a top: nothing else can lie on it, and it
is not in that run: the run's ranks are lower), so either card can be made the top; if
``m == n`` neither can be uncovered (every child must lie on one). So which cards can become a
column's top, and where a card can be put (a pair with ``n > m`` has a free parent; an empty
column takes a king), follows from the sets alone, and every arrangement of the same sets can
be turned into every other by such moves. The search is then over states

    foundation heights, ``k`` per column, the talon's cards and the waste count

(the face-up tableau cards are whatever is left), with moves that change them:

- ``ps``: a card that can be made a top goes home (a head going home turns up the card under it);
- ``ds`` / ``dp``: a talon card (one the stock's turns can bring to the waste's top,
  :mod:`engine.solvers.talon`) goes home / onto the tableau;
- ``sp``: a foundation's top card comes back onto the tableau;
- ``rv``: a head moves, with its run, onto a parent (a king: into an empty column), which turns
  up the card under it, or empties the column when it was the column's bottom card.

Moving a free card's run between its parents, or a free king between empty columns, changes
nothing in these sets and is left out. A depth-first search with a set of seen states is
then exact, and every state is searched once however its cards are arranged; this is the
representation of lonelybot (Vuong Hy's Klondike solver). A winning line found on the sets is
played out on real columns (:func:`realize`), adding the run moves that uncover a card, and
checked on the engine like every line.

Every pruning is exact, so an exhausted search answers "lost": the bot tells players a lost
deal "could not have been won", so that must be a proof (the tests check "won"/"lost" against
a search of every legal move with no pruning, on small positions). A heuristic first pass
that limited what may follow a move ("after a card is put on the table, the next move must
use it") was tried and dropped: it found no more wins in 2 s than this search, and such
rules are not exact (docs/solvers.md).

The search also exists in C (``engine/solvers/_cardsets.c``, the extension module
``engine.solvers._cardsets``, built by ``pip install`` when a C compiler is there; setup.py).
It is a port of :meth:`CardSetSearch._dfs`, ``_moves`` and ``_try``: the same positions in
the same order, the same key (stored whole: no lossy hashing), one node per ``_dfs`` entry
and the clock read every 256 nodes as :meth:`engine.solvers.Counter.tick` does, so for a
node budget it answers exactly as the Python code, line and node count included (tests
compare them), 25-70 times faster. :meth:`CardSetSearch.run` uses it unless the module is
missing or the environment variable ``TAVOLO_PURE_PYTHON`` is ``1`` (:func:`compiled`). A
change to the search must be made in both.

Exact prunings (each argued where it is applied):

- safe foundation moves played automatically and alone (the rule of
  :meth:`CardSetSearch._safe_mask`); a talon or foundation card that would go straight home
  again is not put on the table;
- a position whose dealt cards can never all go home is lost before any search (a card whose
  two parents both lie under it must go home first; :meth:`CardSetSearch.buried_cycle`);
- a position searched through also closes its twin with a waste of 0 (a fresh turn-over
  reaches a subset of what its waste reaches, move for move; 7-12 % fewer positions);
- an Ace or a 2 never comes back from a foundation;
- a king that is a column's bottom card never moves into an empty column (renaming), and a
  column is emptied by moving its bottom card away only while some king is not at the bottom
  of a column (otherwise an empty column is worth nothing).

Bits: card ``(suit, rank)`` is bit ``(rank - 1) * 4 + 2 * (colour ^ rank % 2) + suit % 2``
(suits d h c s as f1-f4, d and h red), so the two cards of a pair are neighbours and a pair's
children are the pair four bits lower.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import SUITS
from engine.solvers import (
    LOST,
    UNKNOWN,
    WON,
    Counter,
    OutOfBudget,
    SearchOutcome,
    deep_recursion,
    use_compiled,
)
from engine.solvers.talon import reach

try:  # the exact pass in C, built by ``pip install`` when a C compiler is there (setup.py)
    from engine.solvers import _cardsets
except ImportError:  # pragma: no cover - no compiler: the Python code, same answers
    _cardsets = None  # type: ignore[assignment]  # the module, or None without a compiler

_SUIT = {suit: index for index, suit in enumerate(SUITS)}


def bit_index(suit: int, rank: int) -> int:
    """The card's bit (see the module docstring).

    >>> bit_index(0, 1), bit_index(1, 1), bit_index(2, 1), bit_index(2, 2)
    (2, 3, 0, 6)
    """
    return (rank - 1) * 4 + 2 * ((suit >> 1) ^ (rank & 1)) + (suit & 1)


class Deck:
    """Tables for a deck whose ranks run 1..``king``."""

    def __init__(self, king: int) -> None:
        self.king = king
        size = 4 * king
        self.size = size
        self.full = (1 << size) - 1
        self.suit = [0] * size
        self.rank = [0] * size
        for suit in range(4):
            for rank in range(1, king + 1):
                index = bit_index(suit, rank)
                self.suit[index] = suit
                self.rank[index] = rank
        self.low = sum(1 << (4 * r + o) for r in range(king) for o in (0, 2))
        self.kings = sum(1 << bit_index(s, king) for s in range(4))


def encode(card: Any) -> tuple[int, int]:
    """(suit index, rank) of an engine card."""
    return _SUIT[card.suit], card.rank


class CardSetSearch:
    """The search on card sets; ``run()`` gives True (won: :attr:`path` is the line on the
    sets) or False (exhausted: lost). Raises ``OutOfBudget`` from the
    counter."""

    def __init__(self, game: Any, counter: Counter) -> None:
        king = game.top_rank
        deck = self.deck = Deck(king)
        self.counter = counter
        self.total = 4 * king
        bit = [[bit_index(s, r) if r else -1 for r in range(king + 1)] for s in range(4)]
        self.bit = bit

        def index(card: Any) -> int:
            suit, rank = encode(card)
            return bit[suit][rank]

        # each column: the cards of its deal still in place (k of them), bottom first; a
        # column whose face-up part starts at the bottom with a king holds no deal cards
        self.base: list[list[int]] = []
        self.k: list[int] = []
        visible = 0
        heads = 0
        for col, down in zip(game._tableau, game._down, strict=True):
            cards = [index(c) for c in col]
            if not cards or (down == 0 and deck.rank[cards[0]] == king):
                base: list[int] = []
            else:
                base = cards[: down + 1]
                heads |= 1 << base[-1]
            self.base.append(base)
            self.k.append(len(base))
            for c in cards[down:]:
                visible |= 1 << c
        self.columns = len(self.base)
        self.visible = visible
        self.heads = heads
        self.head_column = [-1] * deck.size
        for i, base in enumerate(self.base):
            for c in base:
                self.head_column[c] = i
        self.fnd = [len(pile) for pile in game._fnd]
        self.talon = [index(c) for c in game._waste] + [index(c) for c in reversed(game._stock)]
        self.p = len(game._waste)
        self.talon_mask = sum(1 << c for c in self.talon)
        self.kcode = sum(k << (3 * i) for i, k in enumerate(self.k))
        self.fcode = sum(h << (4 * s) for s, h in enumerate(self.fnd))
        self.full_fcode = king | king << 4 | king << 8 | king << 12
        self.seen: set[int] = set()
        self._mask_cache: dict[int, tuple[int, int]] = {}
        self.path: list[tuple[Any, ...]] = []

    # ----- what the sets allow -------------------------------------------------------------------
    def _tops(self) -> int:
        """Low bits of the pairs with ``n > m``: their cards can be made tops, and they have
        a free place for a card of the pair four bits lower."""
        low = self.deck.low
        v = self.visible
        f = v & ~self.heads
        n_or = (v | v >> 1) & low
        n_and = v & (v >> 1) & low
        f_or = ((f | f >> 1) & low) << 4
        f_and = (f & (f >> 1) & low) << 4
        return (n_or & ~f_or) | (n_and & f_or & ~f_and)

    def _next_mask(self) -> int:
        bit, king, mask = self.bit, self.deck.king, 0
        for s, h in enumerate(self.fnd):
            if h < king:
                mask |= 1 << bit[s][h + 1]
        return mask

    def _safe_mask(self) -> int:
        """Cards that go home at once, alone, when they can: this card's suit is home below it,
        the other colour's cards one rank lower and the other suit of its colour two lower are
        home. Only cards of that set S can go onto cards of S, so on the table S cards only
        ever hold S cards, always on top; deleting from a winning line every move of an S card
        (and the S cards carried along) leaves a winning line from the position with S home."""
        fnd, bit, king, mask = self.fnd, self.bit, self.deck.king, 0
        red_low = min(fnd[0], fnd[1])
        black_low = min(fnd[2], fnd[3])
        for s in range(4):
            rank = fnd[s] + 1
            if rank > king:
                continue
            low = black_low if s < 2 else red_low
            if low >= rank - 1 and fnd[s ^ 1] >= rank - 2:
                mask |= 1 << bit[s][rank]
        return mask

    # ----- state changes ---------------------------------------------------------------------------
    def _lift_head(self, card: int) -> None:
        """``card``, a head, stops being one: the card under it is turned up."""
        i = self.head_column[card]
        self.heads ^= 1 << card
        k = self.k[i] - 1
        self.k[i] = k
        self.kcode -= 1 << (3 * i)
        if k:
            under = self.base[i][k - 1]
            self.heads |= 1 << under
            self.visible |= 1 << under

    def _drop_head(self, card: int) -> None:
        """Undo :meth:`_lift_head`."""
        i = self.head_column[card]
        k = self.k[i]
        if k:
            under = self.base[i][k - 1]
            self.heads ^= 1 << under
            self.visible ^= 1 << under
        self.k[i] = k + 1
        self.kcode += 1 << (3 * i)
        self.heads |= 1 << card

    def _home(self, card: int) -> bool:
        """A tableau card goes home; True when it was a head."""
        suit = self.deck.suit[card]
        self.fnd[suit] += 1
        self.fcode += 1 << (4 * suit)
        self.visible ^= 1 << card
        if self.heads >> card & 1:
            self._lift_head(card)
            return True
        return False

    def _unhome(self, card: int, was_head: bool) -> None:
        suit = self.deck.suit[card]
        if was_head:
            self._drop_head(card)
        self.visible |= 1 << card
        self.fnd[suit] -= 1
        self.fcode -= 1 << (4 * suit)

    # ----- search ----------------------------------------------------------------------------------
    def run(self) -> bool:
        if self.buried_cycle():
            return False
        if compiled():
            return self._run_compiled()
        with deep_recursion(20_000):
            return self._dfs()

    def buried_cycle(self) -> bool:
        """Whether the cards still in their deal's places can never all go home (exact, and
        a proof of "lost" before any search: the search alone needs over ten million
        positions for some of these deals).

        A card ``x`` of a column's deal (not a king) whose two parents both lie under it in
        the same column can leave its place only for its foundation: nothing else can ever
        take it before it moves. So ``x`` goes home before any card under it goes home (first
        arrivals; a card may come back from a foundation later), and every card goes home
        after the one below it in its suit. A cycle of these "home before" relations cannot
        be ordered, so no line brings every card home. Only cards of the deal are involved,
        and moves only take cards away from it, so a position has such a cycle exactly when
        its starting position had: it is checked once, at the start."""
        deck = self.deck
        rank, suit, king = deck.rank, deck.suit, deck.king
        after: dict[int, list[int]] = {}  # card -> the cards that go home after it
        for base in self.base:
            place = {card: j for j, card in enumerate(base)}
            for j, card in enumerate(base):
                if j == 0 or rank[card] == king:
                    continue
                parents = (card & ~1) + 4, (card & ~1) + 5
                if all(place.get(parent, j) < j for parent in parents):
                    after.setdefault(card, []).extend(base[:j])
        for card, later in after.items():
            # a cycle through card: a path from a card under it back up to it
            todo, seen = list(later), set(later)
            while todo:
                other = todo.pop()
                if other == card:
                    return True
                nexts = list(after.get(other, ()))
                if rank[other] < king:
                    nexts.append(self.bit[suit[other]][rank[other] + 1])
                for nxt in nexts:
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
        return False

    def _run_compiled(self) -> bool:
        """The exact pass in C (``engine.solvers._cardsets``): the same positions in the same
        order, the same nodes counted and the same :attr:`path`; the counter's nodes are
        brought up to date and ``OutOfBudget`` raised as :meth:`Counter.tick` would."""
        counter = self.counter
        status, self.path, counter.nodes = _cardsets.search(
            self.deck.king,
            self.base,
            self.visible,
            self.heads,
            self.fnd,
            self.talon,
            self.p,
            counter.limit,
            counter.deadline,
            counter.nodes,
        )
        if status < 0:
            raise OutOfBudget
        return status == 1

    def _masks(self) -> tuple[int, int]:
        """(safe cards, next cards) for the foundations as they are (cached on their heights)."""
        fcode = self.fcode
        found = self._mask_cache.get(fcode)
        if found is None:
            found = self._mask_cache[fcode] = (self._safe_mask(), self._next_mask())
        return found

    def _dfs(self) -> bool:
        """Search on from here (the safe moves home first)."""
        self.counter.tick()
        path = self.path
        mark = len(path)
        played: list[tuple[int, bool]] = []
        tops = self._tops()
        while True:
            safe_all, nxt = self._masks()
            safe = safe_all & self.visible & (tops | tops << 1)
            if not safe:
                break
            card = (safe & -safe).bit_length() - 1
            played.append((card, self._home(card)))
            path.append(("ps", card))
            tops = self._tops()
        if self.fcode == self.full_fcode:
            return True
        p, size = self.p, len(self.talon)
        # a waste of 3k cards (or the whole talon) reaches what a fresh turn-over reaches
        waste = 0 if p % 3 == 0 or p == size else p
        key = self.talon_mask | (waste << 56) | (self.kcode << 61) | (self.fcode << 85)
        seen = self.seen
        if key not in seen:
            seen.add(key)
            for move in self._moves(tops, nxt, safe_all):
                if self._try(move):
                    return True
            if waste:
                # the same cards with a waste of 0 (a fresh turn-over) reach a subset of
                # what this waste reaches, move for move: searched through here, it is done
                seen.add(key ^ (waste << 56))
        for card, was_head in reversed(played):
            self._unhome(card, was_head)
        del path[mark:]
        return False

    def _moves(self, tops: int, nxt: int, safe: int) -> list[tuple[int, ...]]:
        """Candidate moves, best first: ``(kind, ...)`` with kinds :data:`PS` .. :data:`SP`:
        cards home (heads first, then the talon's, fewest turns first), heads onto a parent
        (most face-down cards under them first), talon cards onto the table, columns emptied,
        foundation cards back."""
        rank_of = self.deck.rank
        king = self.deck.king
        visible, heads = self.visible, self.heads
        slots = tops >> 4  # low bit of each pair whose parents have room for it
        empties = self.k.count(0) - (visible & self.deck.kings & ~heads).bit_count()
        home: list[tuple[int, ...]] = []
        reveals: list[tuple[int, ...]] = []
        plays: list[tuple[int, ...]] = []
        late: list[tuple[int, ...]] = []
        # tableau cards home, heads first
        cards = (tops | tops << 1) & visible & nxt
        rest: list[tuple[int, ...]] = []
        while cards:
            low = cards & -cards
            cards ^= low
            card = low.bit_length() - 1
            (home if heads & low else rest).append((PS, card))
        home.extend(rest)
        # heads onto a parent (turning up a card or emptying a column)
        some_king_loose = None
        base, ks = self.base, self.k
        for i in range(self.columns):
            k = ks[i]
            if not k:
                continue
            card = base[i][k - 1]
            if rank_of[card] == king:
                # a king at a column's bottom moving into an empty column only renames columns
                if k >= 2 and empties > 0:
                    reveals.append((RV, i, k))
                continue
            if not slots >> (card & ~1) & 1:
                continue
            if k == 1:
                if some_king_loose is None:
                    some_king_loose = self._king_off_bottom()
                if some_king_loose:
                    late.append((RV, i, 0))
            else:
                reveals.append((RV, i, k))
        if len(reveals) > 1:
            reveals.sort(key=_most_down)
        # talon cards (fewest turns first)
        talon = self.talon
        if talon:
            for index, turns in reach(len(talon), self.p):
                card = talon[index]
                if safe >> card & 1:
                    # on the table it would go home at once: the same as going home now
                    home.append((DS, index, turns))
                    continue
                if rank_of[card] == king:
                    if empties > 0:
                        plays.append((DP, index, turns))
                elif slots >> (card & ~1) & 1:
                    plays.append((DP, index, turns))
                if nxt >> card & 1:
                    home.append((DS, index, turns))
        # foundation cards back (never an Ace or a 2: an Ace on the table only covers cards,
        # so a 2 there only holds an Ace; dropping them from a winning line leaves one)
        fnd, bit = self.fnd, self.bit
        for suit in range(4):
            rank = fnd[suit]
            if rank < 3:
                continue
            card = bit[suit][rank]
            if safe >> card & 1:
                continue  # it would go straight back
            if (empties > 0) if rank == king else slots >> (card & ~1) & 1:
                late.append((SP, suit))
        return home + reveals + plays + late

    def _king_off_bottom(self) -> bool:
        """Whether some king is neither a free king nor a column's bottom head (only kings go
        into an empty column, and one already at a bottom going there renames columns: with
        every king at a bottom an empty column is worth nothing, so emptying one is dominated
        by not doing it)."""
        king = self.deck.king
        at_bottom = (self.visible & self.deck.kings & ~self.heads).bit_count()
        for i in range(self.columns):
            if self.k[i] == 1 and self.deck.rank[self.base[i][0]] == king:
                at_bottom += 1
        return at_bottom < 4

    def _try(self, move: tuple[int, ...]) -> bool:
        kind = move[0]
        path = self.path
        if kind == PS:
            card = move[1]
            was_head = self._home(card)
            path.append(("ps", card))
            if self._dfs():
                return True
            path.pop()
            self._unhome(card, was_head)
        elif kind == RV:
            i = move[1]
            card = self.base[i][self.k[i] - 1]
            self._lift_head(card)
            path.append(("rv", i, card))
            if self._dfs():
                return True
            path.pop()
            self._drop_head(card)
        elif kind == SP:
            suit = move[1]
            card = self.bit[suit][self.fnd[suit]]
            self.fnd[suit] -= 1
            self.fcode -= 1 << (4 * suit)
            self.visible |= 1 << card
            path.append(("sp", suit, card))
            if self._dfs():
                return True
            path.pop()
            self.visible ^= 1 << card
            self.fnd[suit] += 1
            self.fcode += 1 << (4 * suit)
        else:  # DS, DP
            index, turns = move[1], move[2]
            talon = self.talon
            card = talon.pop(index)
            old = self.p
            self.p = index
            self.talon_mask ^= 1 << card
            suit = self.deck.suit[card]
            if kind == DS:
                self.fnd[suit] += 1
                self.fcode += 1 << (4 * suit)
                path.append(("ds", index, turns, card))
            else:
                self.visible |= 1 << card
                path.append(("dp", index, turns, card))
            if self._dfs():
                return True
            path.pop()
            if kind == DS:
                self.fnd[suit] -= 1
                self.fcode -= 1 << (4 * suit)
            else:
                self.visible ^= 1 << card
            self.talon_mask |= 1 << card
            talon.insert(index, card)
            self.p = old
        return False


PS, DS, RV, DP, SP = range(5)


def compiled() -> bool:
    """Whether the exact pass runs in C: the module was built and the environment variable
    ``TAVOLO_PURE_PYTHON`` is not ``1`` (read at every search, so tests can switch)."""
    return use_compiled(_cardsets)


def _most_down(move: tuple[int, ...]) -> int:
    return -move[2]


def realize(game: Any, path: Sequence[tuple[Any, ...]]) -> list[str]:
    """The engine line for a line found on the sets: the same moves on real columns, with the
    run moves that uncover a card or find its parent added."""
    king = game.top_rank
    cols = [[encode(c) for c in col] for col in game._tableau]
    down = list(game._down)
    line: list[str] = []

    def where(card: tuple[int, int]) -> tuple[int, int]:
        for j, col in enumerate(cols):
            for pos in range(down[j], len(col)):
                if col[pos] == card:
                    return j, pos
        raise AssertionError(f"{card} is not face up")

    def take(j: int, count: int) -> list[tuple[int, int]]:
        col = cols[j]
        moving = col[-count:]
        del col[-count:]
        if col and len(col) == down[j]:
            down[j] -= 1
        return moving

    def uncover(card: tuple[int, int]) -> int:
        """Make ``card`` its column's top (moving the run on it onto its twin); its column."""
        j, pos = where(card)
        if pos < len(cols[j]) - 1:
            twin = (card[0] ^ 1, card[1])
            t, _ = where(twin)
            assert cols[t][-1] == twin, "twin is not a top"
            count = len(cols[j]) - pos - 1
            cols[t].extend(take(j, count))
            line.append(f"{j + 1}{t + 1}")
        return j

    def place_for(card: tuple[int, int]) -> int:
        """A column whose top takes ``card`` (a king: an empty column)."""
        suit, rank = card
        if rank == king:
            return next(j for j, col in enumerate(cols) if not col)
        for j, col in enumerate(cols):
            if col and len(col) > down[j]:
                top = col[-1]
                if top[1] == rank + 1 and (top[0] >> 1) != (suit >> 1):
                    return j
        raise AssertionError(f"no place for {card}")

    talon = [encode(c) for c in game._waste] + [encode(c) for c in reversed(game._stock)]
    as_card = {bit_index(s, r): (s, r) for s in range(4) for r in range(1, king + 1)}
    for step in path:
        kind = step[0]
        if kind == "ps":
            card = as_card[step[1]]
            j = uncover(card)
            take(j, 1)
            line.append(f"{j + 1}f{card[0] + 1}")
        elif kind == "rv":
            card = as_card[step[2]]
            i = step[1]
            assert cols[i][down[i]] == card, "the head moved"
            j = place_for(card)
            count = len(cols[i]) - down[i]
            cols[j].extend(take(i, count))
            line.append(f"{i + 1}{j + 1}")
        elif kind in ("ds", "dp"):
            _, index, turns, bit = step
            card = talon.pop(index)
            assert card == as_card[bit]
            line.extend(["d"] * turns)
            if kind == "ds":
                line.append(f"wf{card[0] + 1}")
            else:
                j = place_for(card)
                cols[j].append(card)
                line.append(f"w{j + 1}")
        else:  # "sp"
            _, suit, bit = step
            card = as_card[bit]
            j = place_for(card)
            cols[j].append(card)
            line.append(f"f{suit + 1}{j + 1}")
    return line


def search(game: Any, counter: Counter) -> SearchOutcome:
    """Search ``game`` (a ``Solitario``) from its position; see the module docstring."""
    searcher = CardSetSearch(game, counter)
    try:
        won = searcher.run()
    except OutOfBudget:
        return SearchOutcome(UNKNOWN, [], None)
    if won:
        return SearchOutcome(WON, realize(game, searcher.path), WON)
    return SearchOutcome(LOST, [], None)
