"""A player who cannot see the board: it reads only the board's words (an image's alt text or
caption, a hand's words) and chooses its moves from them, as a screen-reader user does.

It knows what such a player knows: the language of the chat (the catalogue's words, as a
reader of that language knows them), each game's rules and its move notation. It never reads
the engine: no view, no legal moves. Its moves are sound by the rules as it understands them
from the words; a move the bot refuses means the words left out something it needed.

A reader of one game in one language: :meth:`TextPlayer.read` parses the words into a
:class:`Board`, :meth:`TextPlayer.moves` lists the moves worth trying, best first. It keeps
which moves it already played from a position, so it never goes round in circles.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot import i18n
from bot.core.labels import path_label

SIDES = "NESW"
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
FRENCH = "A23456789TJQK"
ITALIAN = "A234567JQK"
SUITS = "dhcs"


def _template(lang: str, key: str, **groups: str) -> re.Pattern[str]:
    """A catalogue text as a pattern: each ``{name}`` the group given for it (the rest literal)."""
    text = re.sub(r"\{(\w+)\}", lambda m: f"\0{m.group(1)}\0", i18n.raw_forms(lang, key)[-1])
    pattern = re.escape(text)
    for name, group in groups.items():
        pattern = pattern.replace(re.escape(f"\0{name}\0"), f"(?P<{name}>{group})")
    return re.compile(pattern)


@dataclass
class Board:
    """What the words said."""

    over: bool = False
    my_turn: bool = True
    piles: dict[str, list[str]] = field(default_factory=dict)  # id -> face-up cards (codes)
    down: dict[str, int] = field(default_factory=dict)  # id -> face-down / stock count
    needs: dict[str, int | None] = field(default_factory=dict)  # Imaginary Thirteen
    base_rank: int = 1
    max_run: int = 99  # unlimited unless the words say
    hand: dict[int, list[str] | None] = field(default_factory=dict)  # slot -> sides (None: empty)
    masters: set[int] = field(default_factory=set)
    ends: dict[str, str | None] = field(default_factory=dict)  # end -> side code needed (None: any)
    ends_side: dict[str, str] = field(default_factory=dict)  # end -> the new card's side named
    free_sides: list[str] = field(default_factory=list)


class TextPlayer:
    def __init__(self, game_id: str, lang: str, faces: str = "francesi") -> None:
        self.game_id, self.lang = game_id, lang
        self.deck = "italian40" if game_id == "solitario" else "french52"
        self.seen: dict[str, set[str]] = {}
        ranks = ITALIAN if self.deck == "italian40" else FRENCH
        self.rank_of = {r: i + 1 for i, r in enumerate(ranks)}
        names: dict[str, str] = {}
        for rank in ranks:
            for suit in SUITS:
                code = rank + suit
                for style_faces in (faces, "napoletane", "francesi"):
                    names[i18n.card_name(code, self.deck, style_faces, lang)] = code
                    names[i18n.card_label(code, self.deck, style_faces, lang)] = code
                names[i18n.card_label(code, self.deck)] = code
        self.card_codes = names
        self.card_pattern = re.compile(
            "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
        )
        sides = {i18n.t(lang, "words.side.blank"): "0"}
        for n in range(1, 5):
            sides[i18n.t(lang, "words.side.red", count=n)] = f"R{n}"
            sides[i18n.t(lang, "words.side.black", count=n)] = f"B{n}"
        self.side_codes = sides
        value = "|".join(map(re.escape, sorted(sides, key=len, reverse=True)))
        self.value_group = value
        ends = {}
        for side in SIDES:
            ends[path_label(lang, side)] = side
            for turn in "nesw":
                ends[path_label(lang, f"{side}>{turn}")] = f"{side}>{turn}"
        self.end_names = ends
        where = "|".join(map(re.escape, sorted(ends, key=len, reverse=True)))
        self.end_any = _template(lang, "words.end_any", where=where)
        self.end_match = _template(lang, "words.end_match", where=where, side="[NESW]", value=value)
        self.path_line = _template(
            lang, "words.path", side="[NESW]", count=r"[^,]+", after=r"\d+", ends=".+"
        )
        self.free_line = _template(lang, "words.side_free", side="[NESW]")
        self.hand_line = _template(lang, "words.hand_card", slot=r"\d+", card=".+")
        self.master = _template(lang, "words.card_master", sides=".+")
        self.side_item = _template(lang, "words.card_side", side="[NESW]", value=value)
        self.needs_pattern = _template(lang, "words.needs", value=r"\w+")
        self.base_pattern = _template(lang, "words.base_rank", rank=r"\w+")
        self.run_patterns = [
            re.compile(re.escape(form).replace(re.escape("{count}"), r"(?P<count>\d+)"))
            for form in i18n.raw_forms(lang, "words.max_run")
        ]
        self.over_lines = {
            i18n.t(lang, key) for key in i18n.keys("en") if key.startswith("words.over.")
        }
        self.your_turn = i18n.t(lang, "words.turn_yours")
        self.turn_line = _template(lang, "words.turn", player=".+")
        self.last_move = i18n.raw_forms(lang, "words.last_move")[0].split("{")[0]
        self.pile_ids = self._pile_names()

    # ----- reading -----------------------------------------------------------------------------
    def _pile_names(self) -> dict[str, str]:
        """Each pile's name as the words start its line, to its notation id."""
        ids = ["s", "w", "r", "t", *(f"f{n}" for n in range(1, 5)), *map(str, range(1, 9)), *"abcd"]
        named = {}
        for pile in ids:
            label = i18n.pile_name(self.lang, pile, self.game_id)
            named[label[:1].upper() + label[1:]] = pile
        for n in range(1, 5):  # FreeCell's foundations h1-h4
            named[f"{i18n.t(self.lang, 'pile.foundation')} h{n}".capitalize()] = f"h{n}"
        return named

    def value(self, code: str) -> int:
        return self.rank_of[code[0]]

    def read(self, words: str) -> Board:
        board = Board()
        for line in words.splitlines():
            line = line.strip()
            if line in self.over_lines:
                board.over = True
            label, _, rest = line.partition(": ")
            if label in self.pile_ids and rest:
                self._read_pile(board, self.pile_ids[label], rest)
                continue
            found = self.hand_line.fullmatch(line)
            if found:
                self._read_card(board, int(found["slot"]), found["card"].rstrip("."))
                continue
            found = self.path_line.fullmatch(line)
            if found:
                for end in found["ends"].rstrip(".").split("; "):
                    self._read_end(board, end)
                continue
            found = self.free_line.fullmatch(line)
            if found:
                board.free_sides.append(found["side"])
                continue
            if any(found := p.fullmatch(line) for p in self.run_patterns):
                board.max_run = int(found["count"]) if found else 1
                continue
            found = self.base_pattern.fullmatch(line)
            if found:
                board.base_rank = self.rank_of.get(found["rank"], 0) or int(found["rank"])
                continue
        board.my_turn = self.your_turn in words.splitlines() or not self.turn_line.search(words)
        return board

    def _read_pile(self, board: Board, pile: str, rest: str) -> None:
        shown, _, need = rest.rstrip(".").partition("; ")
        board.piles[pile] = [self.card_codes[c] for c in self.card_pattern.findall(shown)]
        count = re.match(r"\d+", shown)
        # a count leads the words ("3 face down, then ...", "9 cards"), unless a card does
        board.down[pile] = int(count.group()) if count and not self.card_pattern.match(shown) else 0
        if need:
            found = self.needs_pattern.search(need)
            if found:
                board.needs[pile] = self.rank_of.get(found["value"]) or int(found["value"])

    def _read_card(self, board: Board, slot: int, text: str) -> None:
        if text == i18n.t(self.lang, "words.card_empty"):
            board.hand[slot] = None
            return
        master = self.master.fullmatch(text)
        if master:
            board.masters.add(slot)
            text = master["sides"]
        sides = {}
        for item in text.split(", "):
            found = self.side_item.fullmatch(item)
            assert found, (item, text)
            sides[found["side"]] = self.side_codes[found["value"]]
        board.hand[slot] = [sides[s] for s in SIDES]

    def _read_end(self, board: Board, text: str) -> None:
        found = self.end_any.fullmatch(text)
        if found:
            board.ends[self.end_names[found["where"]]] = None
            return
        found = self.end_match.fullmatch(text)
        assert found, text
        end = self.end_names[found["where"]]
        board.ends[end] = self.side_codes[found["value"]]
        board.ends_side[end] = found["side"]

    # ----- choosing ----------------------------------------------------------------------------
    def moves(self, words: str) -> list[str]:
        """The moves worth trying in the position the words describe, best first, leaving out
        those already played from this very position."""
        board = self.read(words)
        if board.over:
            return []
        key = self.position(words)
        tried = self.seen.setdefault(key, set())
        if self.game_id in ("squadratik", "maestras"):
            found = self._squadratik_moves(board)
        elif self.game_id == "imaginary13":
            found = self._imaginary_moves(board)
        else:
            found = self._pile_moves(board)
        return [m for m in dict.fromkeys(found) if m not in tried]

    def played(self, words: str, move: str) -> None:
        self.seen.setdefault(self.position(words), set()).add(move)

    def position(self, words: str) -> str:
        """The position the words describe, not how it was reached (the last move left out)."""
        return "\n".join(ln for ln in words.splitlines() if not ln.startswith(self.last_move))

    def _red(self, code: str) -> bool:
        return code[1] in "dh"

    def _top(self, board: Board, pile: str) -> str | None:
        cards = board.piles.get(pile) or []
        return cards[-1] if cards else None

    def _fits_home(self, board: Board, card: str) -> bool:
        top_rank = len(self.rank_of)
        for pile, cards in board.piles.items():
            if not (pile.startswith("f") or pile.startswith("h")):
                continue
            if not cards:
                # Solitario's foundations keep their suits in order: d h c s
                suited = self.game_id != "solitario" or SUITS[int(pile[1]) - 1] == card[1]
                if self.value(card) == board.base_rank and suited:
                    return True
                continue
            top = cards[-1]
            nxt = (
                self.value(top) % top_rank + 1
                if self.game_id == "canfield"
                else self.value(top) + 1
            )
            if top[1] == card[1] and self.value(card) == nxt:
                return True
        return False

    def _fits_on(self, board: Board, card: str, column: str) -> bool:
        top = self._top(board, column)
        if top is None:
            if self.game_id == "solitario":
                return self.value(card) == len(self.rank_of)
            return True
        one_lower = self.value(top) - 1 == self.value(card) or (
            self.game_id == "canfield" and self.value(top) == 1 and self.value(card) == 13
        )
        return one_lower and self._red(top) != self._red(card)

    def _is_run(self, cards: list[str]) -> bool:
        """Cards going down by one in alternating colours (what moves together)."""
        return all(
            self.value(low) == self.value(high) - 1 and self._red(low) != self._red(high)
            for high, low in zip(cards, cards[1:], strict=False)
        )

    def _pile_moves(self, board: Board) -> list[str]:
        home = "h" if self.game_id == "freecell" else "f"
        columns = [p for p in board.piles if p.isdigit()]
        singles = [p for p in board.piles if p in ("w", "r", "a", "b", "c", "d")]
        found = []
        for src in [*singles, *columns]:
            top = self._top(board, src)
            if top is not None and self._fits_home(board, top):
                found.append(f"{src}{home}")
        for src in singles:
            top = self._top(board, src)
            if top is None:
                continue
            for column in columns:
                if self._fits_on(board, top, column) and (board.piles[column] or src in ("w", "r")):
                    found.append(f"{src}{column}")
        later: list[str] = []
        for src in columns:
            cards = board.piles[src]
            starts = [0] if self.game_id == "canfield" else range(len(cards))
            for start in starts:
                if start >= len(cards):
                    continue
                moving = cards[start]
                if not self._is_run(cards[start:]) or len(cards) - start > board.max_run:
                    continue
                reveals = start == 0 and board.down.get(src, 0) > 0
                empties = start == 0 and not board.down.get(src, 0)
                frees = start > 0 and self._fits_home(board, cards[start - 1])
                for column in columns:
                    if column == src or not self._fits_on(board, moving, column):
                        continue
                    if not board.piles[column] and not (
                        reveals or (start > 0 and self.game_id == "solitario")
                    ):
                        continue
                    if reveals or frees or (empties and board.piles[column]):
                        found.append(f"{src}{column}")
                    elif self.game_id == "freecell" and board.piles[column]:
                        later.append(f"{src}{column}")  # a longer run: worth it when little else is
        if self.game_id == "freecell":
            cells = [c for c in "abcd" if not board.piles.get(c)]
            for src in columns:
                cards = board.piles[src]
                if cells and len(cards) > 1 and self._fits_home(board, cards[-2]):
                    found.append(f"{src}{cells[0]}")
            if cells:
                for src in sorted(columns, key=lambda c: len(board.piles[c])):
                    if board.piles[src]:
                        found.append(f"{src}{cells[0]}")
            for src in [p for p in singles if board.piles.get(p)]:
                for column in columns:
                    if board.piles[column] and self._fits_on(board, board.piles[src][-1], column):
                        found.append(f"{src}{column}")
        found += later
        if self.game_id == "freecell":  # out of better ideas: a card into an empty column
            for column in [c for c in columns if not board.piles[c]]:
                found += [f"{src}{column}" for src in singles if board.piles.get(src)]
                found += [f"{src}{column}" for src in columns if len(board.piles[src]) > 1]
        if board.down.get("s", 0) or board.piles.get("w") or board.down.get("w", 0):
            found.append("d")
        return found

    def _imaginary_moves(self, board: Board) -> list[str]:
        found = []
        foundations = {p: n for p, n in board.needs.items() if n is not None}
        for pile in "abcd":
            top = self._top(board, pile)
            for foundation, need in foundations.items():
                if top is not None and self.value(top) == need:
                    found.append(f"{pile}{foundation}")
        turned = self._top(board, "t")
        if turned is not None:
            for foundation, need in foundations.items():
                if self.value(turned) == need:
                    found.append(f"t{foundation}")
            for pile in sorted("abcd", key=lambda p: (len(board.piles.get(p) or []), p)):
                found.append(f"t{pile}")
        return found

    def _squadratik_moves(self, board: Board) -> list[str]:
        table = self.game_id == "maestras"
        found = []
        for slot, sides in board.hand.items():
            for end, need in board.ends.items():
                written = end.replace(">", "")
                if need is None or sides is None:
                    found.append(f"{slot}{written}")
                    continue
                facing = SIDES.index(board.ends_side[end])
                for rotation in range(4 if table else 1):
                    if sides[(facing - rotation) % 4] == need:
                        found.append(f"{slot}{written}" + (f"r{rotation}" if rotation else ""))
                        break
            for side in board.free_sides:
                if not table or slot in board.masters:
                    found.append(f"{slot}{side}")
        if table:
            found += ["pass", "stop"]
        return found
