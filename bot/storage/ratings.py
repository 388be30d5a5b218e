"""Table ratings (openskill), per chat and platform-wide."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.base import StorageBase


class RatingsStore(StorageBase):
    """Ratings (mixed into ``Storage``)."""

    async def rating_row(
        self, platform: str, scope: str, game_id: str, player_id: str
    ) -> tuple[float, float, int] | None:
        """(mu, sigma, games) of a player in a scope, None before their first table."""
        rows = await self.fetch(
            "SELECT mu, sigma, games FROM ratings WHERE platform = ? AND scope = ? AND game_id = ? AND player_id = ?",
            (platform, scope, game_id, player_id),
        )
        return (float(rows[0][0]), float(rows[0][1]), int(rows[0][2])) if rows else None

    async def save_ratings(
        self, rows: Sequence[tuple[str, str, str, str, str, float, float, int]]
    ) -> None:
        """Store (platform, scope, game_id, player_id, name, mu, sigma, games) rows together."""
        async with self._transaction() as tx:
            for row in rows:
                await tx.execute(
                    "INSERT INTO ratings (platform, scope, game_id, player_id, player_name, mu, sigma, games) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (platform, scope, game_id, player_id) DO UPDATE "
                    "SET player_name = excluded.player_name, mu = excluded.mu, sigma = excluded.sigma, "
                    "games = excluded.games",
                    row,
                )

    async def rating_rows(
        self, platform: str, scope: str, game_id: str
    ) -> list[tuple[str, float, float, int]]:
        """(name, mu, sigma, games) of every rated player of a scope."""
        rows = await self.fetch(
            "SELECT player_name, mu, sigma, games FROM ratings WHERE platform = ? AND scope = ? AND game_id = ?",
            (platform, scope, game_id),
        )
        return [(str(n), float(m), float(s), int(g)) for n, m, s, g in rows]
