"""Playing cards: the French 52-card deck and the Italian 40-card deck.

A card is a small immutable value with a rank number and a suit letter. Suits use the French
letters for both decks, since the seed gives the correspondence denari = diamonds (``d``),
coppe = hearts (``h``), bastoni = clubs (``c``), spade = spades (``s``); the face style
(napoletane, piacentine, francesi) only changes drawing and names, which are the renderer's
and the bot's job.

Codes are rank symbol + suit letter. French ranks: ``A 2 3 4 5 6 7 8 9 T J Q K`` (1-13).
Italian ranks: ``A 2 3 4 5 6 7 J Q K`` for Asso 1 .. 7, Fante 8, Cavallo 9, Re 10, so the
francesi face of an Italian card reads like the seed's table (Fante = J, Cavallo = Q, Re = K).

>>> c = Card.parse("Qh")
>>> c.rank, c.suit, c.colour
(12, 'h', 'red')
>>> Card.parse("Jd", deck=ITALIAN_40).rank
8
>>> str(Card(10, "s", ITALIAN_40))
'Ks'
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS = ("d", "h", "c", "s")  # fixed order: also the order of foundations where suits are fixed
RED_SUITS = frozenset("dh")

FRENCH_52 = "french52"
ITALIAN_40 = "italian40"

_RANK_SYMBOLS = {
    FRENCH_52: "A23456789TJQK",
    ITALIAN_40: "A234567JQK",
}


def rank_symbols(deck: str) -> str:
    """The rank symbols of a deck, lowest first."""
    return _RANK_SYMBOLS[deck]


def top_rank(deck: str) -> int:
    """The highest rank number of a deck: 13 (King) or 10 (Re)."""
    return len(_RANK_SYMBOLS[deck])


@dataclass(frozen=True, slots=True)
class Card:
    rank: int
    suit: str
    deck: str = FRENCH_52

    @property
    def colour(self) -> str:
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def code(self) -> str:
        return _RANK_SYMBOLS[self.deck][self.rank - 1] + self.suit

    def __str__(self) -> str:
        return self.code

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        """The card itself: cards are immutable, so a copied game shares them, and the pile
        games, whose position keys name cards by object id, find them in the copy too.

        >>> import copy
        >>> card = Card(1, "s")
        >>> copy.deepcopy([card])[0] is card
        True
        """
        return self

    @classmethod
    def parse(cls, code: str, deck: str = FRENCH_52) -> Card:
        code = code.strip()
        if code[:2] == "10" and deck == FRENCH_52:
            code = "T" + code[2:]
        if len(code) != 2:
            raise ValueError(f"not a card code: {code!r}")
        rank_symbol, suit = code[0].upper(), code[1].lower()
        symbols = _RANK_SYMBOLS[deck]
        if rank_symbol not in symbols or suit not in SUITS:
            raise ValueError(f"not a card code: {code!r}")
        return cls(symbols.index(rank_symbol) + 1, suit, deck)


def full_deck(deck: str) -> list[Card]:
    """Every card of one deck, in a fixed order (by suit, then rank)."""
    return [Card(rank, suit, deck) for suit in SUITS for rank in range(1, top_rank(deck) + 1)]
