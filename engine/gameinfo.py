"""What a game *is*, in one place: the facts every other layer reads instead of keeping its own
list of game ids.

Each game class carries one :class:`GameInfo` as ``info`` (``engine.GAMES[game_id].info``);
the bot and the renderer read it and never compare game ids. The engine writes no prose: the
only words here are the games' names (facts of the game, like a chess opening's name) and the
words a player may type to name a game. Every other text is in the bot's catalogues, keyed by
game id (``rules.<id>``, ``help.<id>``, ``lb.cols.<id>``, ...).

>>> import engine
>>> info = engine.game_info("canfield")
>>> info.names["it"], info.table, info.daily is not None
('Canfield', False, True)
>>> engine.by_word("Klondike").id, engine.by_word("poker")
('solitario', None)
>>> a, b = Result("won", 40, moves=90), Result("won", 40, moves=80)
>>> sorted([a, b], key=info.ranking.key)[0].moves   # smaller key is better: fewer moves
80
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

#: the languages every game name is given in (the bot's languages)
LANGUAGES: tuple[str, ...] = ("en", "es", "it")


def normal_word(word: str) -> str:
    """A typed game word as it is compared: lower case, no spaces, hyphens or underscores, so
    ``Cartas-Maestras``, ``cartas maestras`` and ``cartasmaestras`` are one word.

    >>> normal_word(" Imaginary-Thirteen "), normal_word("Trece Imaginario")
    ('imaginarythirteen', 'treceimaginario')
    """
    return "".join(word.casefold().split()).replace("-", "").replace("_", "")


@dataclass(frozen=True, slots=True)
class Result:
    """One finished game as a leaderboard ranks it: ``outcome`` (``won``, ``lost``, ...),
    ``score`` (the game's own: points, dollars, cards played), ``moves`` (every move played)
    and ``score_move`` (the move at which the final score was reached; 0 when the game does
    not track it)."""

    outcome: str
    score: int
    moves: int = 0
    score_move: int = 0


class Column(StrEnum):
    """What one leaderboard column shows of a :class:`Result` (headers are the bot's
    ``lb.cols.<game id>`` text)."""

    SCORE = "score"  # the score as a number
    DOLLARS = "dollars"  # the score as Canfield dollars ($40, -$15)
    OUTCOME = "outcome"  # the outcome as a word (left-aligned)
    MOVES = "moves"  # moves played
    SCORE_MOVE = "score_move"  # the move the final score was reached


@dataclass(frozen=True, slots=True)
class Ranking:
    """How results of a game compare: ``key(result)`` is smaller for the better result (equal
    keys share a place); ``columns`` are what a leaderboard shows after the player's name."""

    key: Callable[[Result], tuple[int, ...]]
    columns: tuple[Column, ...]


@dataclass(frozen=True, slots=True)
class Daily:
    """The game's daily challenge: a deal is the day's once the solver's verdict on it is in
    ``proofs``, found within ``node_budget`` positions per candidate (nodes, never seconds, so
    every machine picks the same deal)."""

    node_budget: int
    proofs: frozenset[str] = frozenset({"won"})


@dataclass(frozen=True, slots=True)
class Deals:
    """The deal numbers a game offers players: ``first`` to ``last``, both included. The bot's
    ``/play <game> <deal>``, its random picks and the daily choose within them; the engine
    itself deals any number 0 or more, so a game stored with another number still replays.

    >>> deals = Deals(1, 1_000_000)
    >>> 0 in deals, 1 in deals, 1_000_000 in deals, deals.count(at_most=32_000)
    (False, True, True, 32000)
    """

    first: int = 0
    last: int = 2**31 - 1  # deals are 31-bit seeds

    def __contains__(self, deal: object) -> bool:
        return isinstance(deal, int) and self.first <= deal <= self.last

    def count(self, at_most: int) -> int:
        """How many numbers a pick chooses from: the first ``at_most`` of the range."""
        return min(self.last - self.first + 1, at_most)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Every fact about a game that a layer other than its rules needs.

    ``wins`` are the outcomes that count as a win (``won``; El Solitario's ``completo``): its
    results' win flag, streaks and win rate.

    ``deals`` are the deal numbers players may choose or be given (:class:`Deals`: 0 to
    2**31 - 1 unless the numbers mean something outside Tavolo, as Microsoft's FreeCell deals).

    ``notation_examples`` are one example of each form of its move notation, in the order
    ``/help <id>`` shows them (its ``• form, form — meaning`` lines: a test keeps the
    catalogues' guides equal to them); each reads as a move of deal 1 after the moves
    ``notation_setup`` (Canfield's ``wf`` needs a card on the waste first).

    ``titles`` is the name its board's header shows, per language, where it is not ``names``
    (El Solitario's board says "El Solitario", the game being Squadratik's solo game).

    ``id`` is the game id (stored with every game; the bot's texts of the game are keyed by
    it: ``rules.<id>``, the notation guide ``help.<id>``, ...); ``names`` its name per language; ``aliases`` other words players type for
    it (the id and the names are words already); ``table`` a multiplayer table game (played
    at a ``/challenge`` table) rather than a solo game; ``min_players``/``max_players`` the
    seats (the game class reads them from here); ``races`` whether ``/race`` may deal it, every
    racer the same deal on a board of their own: only a solo game whose score counts points
    and is ranked by the move that reached it (``score_move``, the race's tie-break) may.

    ``faces`` are the card faces a player may ask for, the default first (a drawing style,
    not a rule: the deal is the same); ``ranking`` how finished games rank (None: ranked per
    table instead); ``daily`` the daily challenge (None: none); ``stalls`` whether the game
    ends ``stalled`` once no progress can ever be made (games.md's "stallo");
    ``solver`` the module that searches it: a module of ``engine.solvers``, or a full
    dotted module name (None: none);
    ``could_have_won`` whether the bot asks that solver "could it have been won?" after a lost
    game; ``hints`` whether ``/hint`` has advice for it; ``hint_scorer`` the scorer of
    ``engine.solvers.hints.SCORERS`` that ranks its legal moves for a hint (None: the first
    legal move is suggested); ``hint_from_solver`` whether a hint is the first move of its
    solver's winning line (the solver module's ``plan(game)``; only fair in a game with no
    hidden cards), the scorer deciding when the solver finds none; ``points`` whether its score counts
    points (a hint says how many a move earns); ``auto_finish`` whether the bot may play the
    last cards home once every card is face up and nothing is left to draw.
    """

    id: str
    names: Mapping[str, str]
    aliases: tuple[str, ...] = ()
    table: bool = False
    min_players: int = 1
    max_players: int = 1
    faces: tuple[str, ...] = ("francesi",)
    ranking: Ranking | None = None
    daily: Daily | None = None
    stalls: bool = False
    solver: str | None = None
    could_have_won: bool = False
    hints: bool = True
    hint_scorer: str | None = None
    hint_from_solver: bool = False
    titles: Mapping[str, str] | None = None
    deals: Deals = Deals()
    wins: frozenset[str] = frozenset({"won"})
    notation_examples: tuple[str, ...] = ()
    notation_setup: tuple[str, ...] = ()
    points: bool = False
    auto_finish: bool = False
    races: bool = False
    words: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        missing = [lang for lang in LANGUAGES if not self.names.get(lang)]
        if missing:
            raise ValueError(f"{self.id}: no name in {', '.join(missing)}")
        if self.hint_from_solver and self.solver is None:
            raise ValueError(f"{self.id}: hints from a solver need a solver")
        if self.races and not self._has_race_scoring():
            raise ValueError(
                f"{self.id}: a race game is a solo game of points ranked by the move that "
                "reached its score (score_move)"
            )
        words = {normal_word(w) for w in (self.id, *self.names.values(), *self.aliases)}
        object.__setattr__(self, "words", frozenset(words))

    def _has_race_scoring(self) -> bool:
        """A race ranks racers by score, then by the move of their last scoring move: only a
        solo game whose score counts points and whose ranking reads ``score_move`` has both."""
        return (
            not self.table
            and self.points
            and self.ranking is not None
            and Column.SCORE_MOVE in self.ranking.columns
        )

    @property
    def default_faces(self) -> str:
        return self.faces[0]

    def name(self, lang: str) -> str:
        """The name in ``lang`` (English for a language the game has no name in)."""
        return self.names.get(lang) or self.names["en"]

    def title(self, lang: str) -> str:
        """The board's title in ``lang``: ``titles`` where given, else the name.

        >>> import engine
        >>> engine.game_info("squadratik").title("es"), engine.game_info("imaginary13").title("it")
        ('El Solitario', 'Tredici Immaginario')
        """
        return (self.titles or {}).get(lang) or self.name(lang)


# ----- the ranking keys of today's games (each game module names its own) ------------------------
def by_score_then_fewer_moves(result: Result) -> tuple[int, ...]:
    """More score first, then fewer moves (Canfield's dollars, Imaginary Thirteen's cards)."""
    return (-result.score, result.moves)


def by_score_then_earlier_score(result: Result) -> tuple[int, ...]:
    """More score first, then the earlier move at which it was reached (Solitario, seed 001)."""
    return (-result.score, result.score_move)
