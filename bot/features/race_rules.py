"""A race's own rules (seed 001's Solitario race, played on every game whose facts say it
races: ``GameInfo.races``): which games race, its settings, and how a round's boards are ranked.

Ranking (:func:`rank`): higher score first; equal scores: the player whose last scoring move
came earlier in the race. Moves are counted race-wide, as the seed's "contatore generale":
every move of every racer advances one counter (kept on the race's row in the database and
stored with each move, so every process and every restart sees the same numbers), and a
racer's tie-break is that counter at their last scoring move (the engine's ``score_move``
mapped onto it). Players who never moved last, in a random order drawn from the race id (so
it is the same after a restart). Variant *senza tempo* (no time limit): when the first two
have the same score, nobody wins on the move number: everyone plays a new deal from zero.

>>> rows = [Entry("ana", 50, 32, 40), Entry("bea", 50, 27, 30), Entry("cid", 0, 0, 0)]
>>> [(p.player, p.place) for p in rank(rows, "r1", 1)]
[('bea', 1), ('ana', 2), ('cid', 3)]
>>> tie_for_first(rank(rows, "r1", 1))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import engine
from engine.rng import DealRandom

#: a race lobby's status once its boards are dealt (not "active": the lobby holds no game)
RACING = "racing"
#: the stored outcome of a board the race's clock ended (not the player's resignation)
TIME_UP = "time_up"
JOIN_WINDOW = timedelta(seconds=60)
DEFAULT_MINUTES = 10
MAX_MINUTES = 120
MIN_RACERS, MAX_RACERS = 2, 8
#: the untimed option in every language's spelling, accepted in every language (help names
#: each language's own: untimed, sin-tiempo, senza-tempo)
SENZA_TEMPO_WORDS = (
    "senza-tempo",
    "senzatempo",
    "senza_tempo",
    "untimed",
    "sin-tiempo",
    "sintiempo",
    "sin_tiempo",
)


def race_games() -> list[str]:
    """The games ``/race`` may deal (their facts say they race), in ``engine.GAMES`` order: the
    first is the one dealt when ``/race`` names none."""
    return [game_id for game_id, cls in engine.GAMES.items() if cls.info.races]


def is_race_game(game_id: str) -> bool:
    """Whether ``game_id`` is a game that races (a multiplayer session of it is a race's
    lobby, not a table).

    >>> is_race_game("solitario"), is_race_game("maestras"), is_race_game("no-such-game")
    (True, False, False)
    """
    cls = engine.GAMES.get(game_id)
    return cls is not None and cls.info.races


@dataclass(frozen=True, slots=True)
class Entry:
    """One racer's finished board: final score, the race-wide number of their last scoring
    move (0: never scored), and how many moves they made."""

    player: str
    score: int
    score_move: int
    moves: int


@dataclass(frozen=True, slots=True)
class Placed:
    player: str
    place: int
    score: int
    score_move: int
    moved: bool


def rank(entries: list[Entry], race_id: str, round_number: int) -> list[Placed]:
    """The seed's ranking (see module doc); equal score and score move share a place.

    >>> [p.place for p in rank([Entry("a", 10, 3, 5), Entry("b", 10, 3, 9)], "r", 1)]
    [1, 1]
    """
    movers = sorted(
        (e for e in entries if e.moves > 0), key=lambda e: (-e.score, e.score_move, e.player)
    )
    idle = sorted((e for e in entries if e.moves == 0), key=lambda e: e.player)
    DealRandom.for_deal(f"race:{race_id}", round_number).shuffle(idle)
    placed: list[Placed] = []
    for i, e in enumerate(movers):
        tied = i > 0 and (e.score, e.score_move) == (movers[i - 1].score, movers[i - 1].score_move)
        placed.append(
            Placed(e.player, placed[-1].place if tied else i + 1, e.score, e.score_move, True)
        )
    for e in idle:
        placed.append(Placed(e.player, len(placed) + 1, e.score, e.score_move, False))
    return placed


def tie_for_first(placed: list[Placed]) -> bool:
    """Senza tempo: do the first two have the same score (whatever the move numbers)?"""
    return len(placed) >= 2 and placed[0].score == placed[1].score


def clock_text(seconds: float) -> str:
    """``mm:ss`` (never negative).

    >>> clock_text(272.4), clock_text(-3)
    ('04:32', '00:00')
    """
    whole = max(0, int(seconds))
    return f"{whole // 60:02d}:{whole % 60:02d}"
