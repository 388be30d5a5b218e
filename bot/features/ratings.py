"""Cartas Maestras ratings: openskill's Plackett-Luce model, per chat and platform-wide.

When a table finishes, every human player's rating is updated in two scopes: the chat the table
was played in, and ``GLOBAL`` (every chat of the platform: user ids are only unique within a
platform). Places come from the engine's results; players sharing a place are a tie. Computer
players are not rated (they would only inflate or sink the people who play them).

The number shown to people is the conservative ``ordinal`` (mu - 3 sigma), scaled by 10 and
rounded: a new player shows 0 and climbs as games confirm their skill.

>>> import asyncio
>>> from bot.storage import Storage
>>> async def demo():
...     store = await Storage.open("sqlite:///:memory:")
...     await record_table(store, "console", "c1", "maestras",
...                        [("ana", "Ana", 1), ("bea", "Bea", 2)])
...     rows = await top(store, "console", "c1", "maestras")
...     await store.close()
...     return [(name, games) for name, rating, games in rows]
>>> asyncio.run(demo())
[('Ana', 1), ('Bea', 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.storage import RatingRecord, Storage

#: the scope of a player's platform-wide rating (the other scopes are chat ids)
GLOBAL = "*"

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one scope."""

    mu: float
    sigma: float
    games: int

    @property
    def shown(self) -> int:
        """The number people see: the conservative estimate mu - 3 sigma, times 10.

        >>> Rating(25.0, 25 / 3, 0).shown
        0
        """
        return round((self.mu - 3 * self.sigma) * 10)


def _fresh() -> Rating:
    start = _MODEL.rating()
    return Rating(start.mu, start.sigma, 0)


async def rating_of(
    store: Storage, platform: str, scope: str, player_id: str, game_id: str
) -> Rating | None:
    """A player's rating in a scope (a chat id or ``GLOBAL``), None before their first table."""
    stored = await store.ratings.get(platform, scope, game_id, player_id)
    return Rating(stored.mu, stored.sigma, stored.games) if stored else None


def updated(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """New ratings after one game; ``places`` 1 = first, equal places are ties.

    >>> a, b = updated([_fresh(), _fresh()], [1, 2])
    >>> a.mu > b.mu and a.games == b.games == 1
    True
    >>> a, b = updated([_fresh(), _fresh()], [1, 1])
    >>> a.mu == b.mu
    True
    """
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        Rating(team[0].mu, team[0].sigma, old.games + 1)
        for team, old in zip(rated, before, strict=True)
    ]


async def record_table(
    store: Storage,
    platform: str,
    chat_id: str,
    game_id: str,
    placed: Sequence[tuple[str, str, int]],
) -> None:
    """Update the ratings of a finished table's players, given as (id, name, place), in the
    chat's scope and the global one, in one transaction. Fewer than two players: no change."""
    if len(placed) < 2:
        return
    rows: list[RatingRecord] = []
    for scope in (chat_id, GLOBAL):
        before = [
            await rating_of(store, platform, scope, pid, game_id) or _fresh()
            for pid, _, _ in placed
        ]
        after = updated(before, [place for _, _, place in placed])
        for (pid, name, _), rating in zip(placed, after, strict=True):
            rows.append(
                RatingRecord(
                    platform, scope, game_id, pid, name, rating.mu, rating.sigma, rating.games
                )
            )
    await store.ratings.save(rows)


async def top(
    store: Storage, platform: str, chat_id: str | None, game_id: str, limit: int = 10
) -> list[tuple[str, int, int]]:
    """The best rated players, for leaderboards: (name, shown rating, games), best first.

    ``chat_id`` None means the platform-wide ratings. Ordered by the shown rating, then more
    games, then name."""
    scope = GLOBAL if chat_id is None else chat_id
    rows = await store.ratings.of_scope(platform, scope, game_id)
    ranked = [(r.player_name, Rating(r.mu, r.sigma, r.games)) for r in rows]
    ranked.sort(key=lambda item: (-item[1].shown, -item[1].games, item[0]))
    return [(name, rating.shown, rating.games) for name, rating in ranked[:limit]]
