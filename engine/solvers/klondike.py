"""Solitario / Klondike solver (draw three, unlimited turn-overs; 40 or 52 cards) on its own
compact state.

It reads the deal once from the engine's private state, "with full knowledge of the deal"
(``_tableau``, ``_down``, ``_stock`` top last, ``_waste``, ``_fnd``, ``top_rank``), then
searches plain integers and lists, never the ``Game``: a card is ``suit * 16 + rank`` (suits
d h c s, as the foundations f1-f4; d and h red), a column is a list of cards with its count
of face-down cards, the stock and waste are one talon (:mod:`engine.solvers.talon`), the
foundations are four heights. The line is written in the engine's notation (``d`` turns,
``w3``, ``35``, ``2f1``, ``f25``) and ``engine.solvers`` replays it on the real engine.

Two passes over the same machinery. The **quick pass** uses the heuristic prunings below
and may only answer "won" (every line is checked on the real engine anyway); when it finds
no win, the **exact pass** searches again with exact dominances only, and only its
exhausted search answers "lost": the bot tells players a lost deal "could not have been
won", so that must be a proof.

- **Talon reach**: one search step per card played from the talon (every card turns alone can
  bring to the waste's top), written as that many ``d`` and the play (exact: it only merges
  turns).
- **Safe foundation moves** played automatically and alone. Exact pass: a column top whose
  other-colour cards one rank lower and other same-colour suit two lower are home (the
  argument is at :meth:`KlondikeSearch._safe`). Quick pass: also any Ace or 2, the
  Bjarnason et al. rule (other colour two lower, other suit of the colour three lower) and
  the waste's top; these are not exact because foundation cards can come back to the table
  as targets (the tests pin positions whose only win does that).
- **Transposition table** on a canonical key: the columns as a sorted multiset (with their
  face-down counts), the talon and the waste count; the foundations follow from the rest.
  Depth-first search with a set of seen keys is exact: a key seen before is either lost or on
  the current path.
- **Pruning, both passes (exact)**: a king run never moves from a column's bottom into an
  empty column (that renames columns), of several empty columns only the first is a target,
  an Ace or a 2 never comes back from a foundation (see the comment there), and a column is
  emptied by moving its whole run only while some king is not at a column's bottom
  (:meth:`KlondikeSearch._king_off_bottom`).
- **Pruning, quick pass only (heuristic)**: a column is emptied only when a king waits to
  fill it; a part of a face-up run moves only when the card it leaves on top can go home at
  once or its other possible child (same colour, other suit) is face up or in the talon; a
  foundation card comes back only when a card that could then go onto it is face up or in
  the talon.
- **Move order**: home first, then moves that turn up a face-down card (the column with most
  face-down cards first), talon to column (fewest turns first), moves that empty a column,
  other column moves, foundation to column.

A "lost" from a position costs both passes; the tests check "won"/"lost" against a search of
every legal move with no pruning on small positions.
"""

from __future__ import annotations

import sys
from typing import Any

from engine.cards import SUITS
from engine.solvers import LOST, UNKNOWN, WON, Counter, OutOfBudget, SearchOutcome
from engine.solvers.talon import reach

_SUIT = {suit: index for index, suit in enumerate(SUITS)}
_RED = (True, True, False, False)


def encode(card: Any) -> int:
    return _SUIT[card.suit] * 16 + card.rank


class KlondikeSearch:
    """Depth-first search; see the module docstring. ``run()`` gives a :class:`SearchOutcome`."""

    def __init__(self, game: Any, counter: Counter, exact: bool = False) -> None:
        #: False: the quick pass (two heuristic prunings, see the module docstring)
        self.exact = exact
        self.start = (
            [[encode(c) for c in col] for col in game._tableau],
            list(game._down),
            [encode(c) for c in game._waste] + [encode(c) for c in reversed(game._stock)],
            len(game._waste),
            [len(pile) for pile in game._fnd],
        )
        self.king = game.top_rank
        self.total = 4 * game.top_rank
        self.counter = counter
        self._reset()

    def _reset(self) -> None:
        cols, down, talon, p, fnd = self.start
        self.cols = [col[:] for col in cols]
        self.down = down[:]
        self.talon = talon[:]
        self.p = p
        self.fnd = fnd[:]
        self.seen: set[Any] = set()
        self.line: list[str] = []

    def run(self) -> SearchOutcome:
        """The quick pass, then (only when it found no win) the exact one: a "won" may come
        from either (its line is checked on the engine), a "lost" only from the exact pass."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20_000))
        try:
            passes = (self.exact,) if self.exact else (False, True)
            for exact in passes:
                self.exact = exact
                self._reset()
                if self._dfs():
                    return SearchOutcome(WON, list(self.line), WON)
        except OutOfBudget:
            return SearchOutcome(UNKNOWN, [], None)
        finally:
            sys.setrecursionlimit(limit)
        return SearchOutcome(LOST, [], None)

    # ----- state changes (each returns what its undo needs) -------------------------------------
    def _col_off(self, i: int, count: int) -> tuple[list[int], bool]:
        col = self.cols[i]
        moving = col[-count:]
        del col[-count:]
        flipped = bool(col) and len(col) == self.down[i]
        if flipped:
            self.down[i] -= 1
        return moving, flipped

    def _col_back(self, i: int, moving: list[int], flipped: bool) -> None:
        if flipped:
            self.down[i] += 1
        self.cols[i].extend(moving)

    def _key(self) -> Any:
        down, p, size = self.down, self.p, len(self.talon)
        # A waste of 3k cards (or the whole talon) reaches exactly the cards a fresh turn-over
        # reaches, and playing any of them leaves the same position: one key for all of them.
        waste = 0 if p % 3 == 0 or p == size else p
        return (
            tuple(sorted(bytes((down[i], *col)) for i, col in enumerate(self.cols))),
            bytes(self.talon),
            waste,
        )

    # ----- search -------------------------------------------------------------------------------
    def _dfs(self) -> bool:
        self.counter.tick()
        cols, fnd, talon, line = self.cols, self.fnd, self.talon, self.line
        mark = len(line)
        undo: list[tuple[Any, ...]] = []
        # safe moves home, played alone
        moved = True
        while moved:
            moved = False
            for i in range(len(cols)):
                col = cols[i]
                if col:
                    card = col[-1]
                    suit, rank = card >> 4, card & 15
                    if fnd[suit] + 1 == rank and self._safe(suit, rank):
                        _, flipped = self._col_off(i, 1)
                        fnd[suit] += 1
                        undo.append(("c", i, card, flipped))
                        line.append(f"{i + 1}f{suit + 1}")
                        moved = True
            if self.p and not self.exact:
                card = talon[self.p - 1]
                suit, rank = card >> 4, card & 15
                if fnd[suit] + 1 == rank and self._safe(suit, rank):
                    self.p -= 1
                    del talon[self.p]
                    fnd[suit] += 1
                    undo.append(("t", self.p, card))
                    line.append(f"wf{suit + 1}")
                    moved = True
        if sum(fnd) == self.total:
            return True
        key = self._key()
        if key in self.seen:
            self._undo(undo, mark)
            return False
        self.seen.add(key)
        for move in self._moves():
            if self._try(move):
                return True
        self._undo(undo, mark)
        return False

    def _undo(self, undo: list[tuple[Any, ...]], mark: int) -> None:
        for step in reversed(undo):
            if step[0] == "c":
                _, i, card, flipped = step
                self.fnd[card >> 4] -= 1
                self._col_back(i, [card], flipped)
            else:
                _, index, card = step
                self.fnd[card >> 4] -= 1
                self.talon.insert(index, card)
                self.p = index + 1
        del self.line[mark:]

    def _safe(self, suit: int, rank: int) -> bool:
        fnd = self.fnd
        low = min(fnd[2], fnd[3]) if suit < 2 else min(fnd[0], fnd[1])
        if self.exact:
            # Exact (column tops only): let S be this card, its suit below it, the other suit
            # of its colour up to two lower and the other colour up to one lower, all home but
            # this card. Only a card of S can go onto a card of S, so S cards on the table only
            # ever hold S cards, always on top of the other cards; deleting from a winning line
            # every move of an S card (and the S cards carried on top of a run) leaves a
            # winning line from the position with S home. Foundation cards can come back, so
            # the weaker rules below are not exact: a home card may be wanted back as a target.
            return low >= rank - 1 and fnd[suit ^ 1] >= rank - 2
        if rank <= 2:
            return True
        if low >= rank - 1:
            return True
        # The opposite-colour cards one lower could only want this card on the table to hold
        # a card of this colour two lower; this suit's is home, so with the other suit of this
        # colour home to three lower nothing needs them there (Bjarnason et al.'s rule).
        return low >= rank - 2 and fnd[suit ^ 1] >= rank - 3

    def _available(self, card: int) -> bool:
        """Whether ``card`` is face up in a column or in the talon (not face down, not home)."""
        if card in self.talon:
            return True
        for i, col in enumerate(self.cols):
            if card in col:
                return col.index(card) >= self.down[i]
        return False

    def _king_waiting(self) -> bool:
        """Whether a king could fill a column emptied now: one heads a face-up run above a
        face-down card, or is in the talon."""
        king = self.king
        for i, col in enumerate(self.cols):
            head = self.down[i]
            if head and len(col) > head and col[head] & 15 == king:
                return True
        return any(card & 15 == king for card in self.talon)

    def _king_off_bottom(self) -> bool:
        """Whether some king is anywhere but at the bottom of a column (exact pass).

        Only kings go into a space, and a king already at a column's bottom moving there only
        renames columns; so when every king lies at a bottom, an empty column is worth
        nothing, and emptying one by moving its whole run onto another column is dominated by
        not moving it: every later move works as well (a run moved on from there moves in
        two steps from the two columns instead)."""
        king = self.king
        return sum(1 for col in self.cols if col and col[0] & 15 == king) < 4

    def _moves(self) -> list[tuple[Any, ...]]:
        """Candidate moves, best first: ``(order, kind, ...)``."""
        cols, down, fnd, talon = self.cols, self.down, self.fnd, self.talon
        king, exact = self.king, self.exact
        moves: list[tuple[Any, ...]] = []
        tops = [col[-1] if col else 0 for col in cols]
        empty = next((j for j, col in enumerate(cols) if not col), -1)
        # column tops home (the unsafe ones)
        for i, card in enumerate(tops):
            if card and fnd[card >> 4] + 1 == card & 15:
                moves.append((0, 0, "cf", i))
        # column to column
        for i, col in enumerate(cols):
            size = len(col)
            head = down[i]
            if size <= head:
                continue
            head_card = col[head]
            head_rank = head_card & 15
            for j, target in enumerate(tops):
                if j == i:
                    continue
                if not target:
                    if j == empty and head_rank == king and head:
                        moves.append((1, -head, "cc", i, j, size - head))
                    continue
                need = (target & 15) - 1
                position = head + head_rank - need
                if head <= position < size:
                    card = col[position]
                    if _RED[card >> 4] == _RED[target >> 4]:
                        continue
                    if position == head:
                        if head:
                            moves.append((1, -head, "cc", i, j, size - head))
                        elif self._king_waiting() if not exact else self._king_off_bottom():
                            moves.append((3, 0, "cc", i, j, size - head))
                        continue
                    left = col[position - 1]
                    if exact or fnd[left >> 4] + 1 == left & 15 or self._available(card ^ 16):
                        moves.append((4, 0, "cc", i, j, size - position))
        # talon cards
        if talon:
            for index, turns in reach(len(talon), self.p):
                card = talon[index]
                suit, rank = card >> 4, card & 15
                if fnd[suit] + 1 == rank:
                    moves.append((0, turns, "tf", index, turns))
                red = _RED[suit]
                for j, target in enumerate(tops):
                    if target:
                        if (target & 15) - 1 == rank and _RED[target >> 4] != red:
                            moves.append((2, turns, "tc", index, turns, j))
                    elif j == empty and rank == king:
                        moves.append((2, turns, "tc", index, turns, j))
        # foundation cards back to a column
        for suit in range(4):
            rank = fnd[suit]
            if rank < 3:
                # an Ace on the table only covers cards (nothing goes onto it), so a 2 there
                # only holds an Ace: dropping them from any winning line leaves a winning line
                continue
            red = _RED[suit]
            wanted = exact
            for j, target in enumerate(tops):
                fits = (
                    (target & 15) - 1 == rank and _RED[target >> 4] != red
                    if target
                    else j == empty and rank == king
                )
                if fits:
                    if not wanted:
                        # a card that could go onto it: rank - 1, other colour
                        other = (2, 3) if red else (0, 1)
                        wanted = any(
                            fnd[s] < rank - 1 and self._available(s * 16 + rank - 1) for s in other
                        )
                        if not wanted:
                            break
                    moves.append((5, 0, "fc", suit, j))
        moves.sort(key=lambda move: (move[0], move[1]))
        return moves

    def _try(self, move: tuple[Any, ...]) -> bool:
        kind = move[2]
        cols, fnd, talon, line = self.cols, self.fnd, self.talon, self.line
        if kind == "cc":
            _, _, _, i, j, count = move
            moving, flipped = self._col_off(i, count)
            cols[j].extend(moving)
            line.append(f"{i + 1}{j + 1}")
            if self._dfs():
                return True
            line.pop()
            del cols[j][-count:]
            self._col_back(i, moving, flipped)
        elif kind == "cf":
            i = move[3]
            card = cols[i][-1]
            _, flipped = self._col_off(i, 1)
            fnd[card >> 4] += 1
            line.append(f"{i + 1}f{(card >> 4) + 1}")
            if self._dfs():
                return True
            line.pop()
            fnd[card >> 4] -= 1
            self._col_back(i, [card], flipped)
        elif kind in ("tf", "tc"):
            index, turns = move[3], move[4]
            card = talon.pop(index)
            old = self.p
            self.p = index
            line.extend(["d"] * turns)
            if kind == "tf":
                fnd[card >> 4] += 1
                line.append(f"wf{(card >> 4) + 1}")
            else:
                j = move[5]
                cols[j].append(card)
                line.append(f"w{j + 1}")
            if self._dfs():
                return True
            del line[len(line) - turns - 1 :]
            if kind == "tf":
                fnd[card >> 4] -= 1
            else:
                cols[move[5]].pop()
            talon.insert(index, card)
            self.p = old
        else:  # "fc"
            suit, j = move[3], move[4]
            card = suit * 16 + fnd[suit]
            fnd[suit] -= 1
            cols[j].append(card)
            line.append(f"f{suit + 1}{j + 1}")
            if self._dfs():
                return True
            line.pop()
            cols[j].pop()
            fnd[suit] += 1
        return False


def search(game: Any, counter: Counter) -> SearchOutcome:
    """Search ``game`` (a ``Solitario``) from its position; see the module docstring."""
    return KlondikeSearch(game, counter).run()
