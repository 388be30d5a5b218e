"""Table ratings (openskill), per chat and platform-wide."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.base import Store

_COLUMNS = "platform, scope, game_id, player_id, player_name, mu, sigma, games"


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A player's rating in one scope (a chat id, or the platform-wide scope) of one game."""

    platform: str
    scope: str
    game_id: str
    player_id: str
    player_name: str
    mu: float
    sigma: float
    games: int


def _rating(row: Sequence[Any]) -> RatingRecord:
    platform, scope, game_id, player_id, name, mu, sigma, games = row
    return RatingRecord(
        str(platform),
        str(scope),
        str(game_id),
        str(player_id),
        str(name),
        float(mu),
        float(sigma),
        int(games),
    )


class RatingsStore(Store):
    """Ratings (``storage.ratings``)."""

    async def get(
        self, platform: str, scope: str, game_id: str, player_id: str
    ) -> RatingRecord | None:
        """A player's rating in a scope, None before their first table."""
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM ratings WHERE platform = ? AND scope = ? AND game_id = ? "
            "AND player_id = ?",
            (platform, scope, game_id, player_id),
        )
        return _rating(rows[0]) if rows else None

    async def save(self, ratings: Sequence[RatingRecord]) -> None:
        """Store ratings together (one transaction)."""
        async with self._transaction() as tx:
            for r in ratings:
                await tx.execute(
                    f"INSERT INTO ratings ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (platform, scope, game_id, player_id) DO UPDATE "
                    "SET player_name = excluded.player_name, mu = excluded.mu, sigma = excluded.sigma, "
                    "games = excluded.games",
                    (
                        r.platform,
                        r.scope,
                        r.game_id,
                        r.player_id,
                        r.player_name,
                        r.mu,
                        r.sigma,
                        r.games,
                    ),
                )

    async def of_scope(self, platform: str, scope: str, game_id: str) -> list[RatingRecord]:
        """Every rated player of a scope."""
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM ratings WHERE platform = ? AND scope = ? AND game_id = ?",
            (platform, scope, game_id),
        )
        return [_rating(r) for r in rows]
