"""Chats (their language) and players (names, when last seen)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.storage.backend import Backend
from bot.storage.base import Store

#: a returning player's ``last_seen`` is rewritten at most this often (not on every command)
SEEN_PRECISION = timedelta(seconds=60)
#: at most this many sightings are remembered (the oldest go first)
CACHE_LIMIT = 100_000
#: at most this many people of a chat (the most recently seen) may be named by a command there
SEEN_LIMIT = 5_000
#: a chat's language (no row: the bot's default)
CHAT_LANGUAGE_SQL = "SELECT language FROM settings WHERE platform = ? AND chat_id = ?"


@dataclass(frozen=True, slots=True)
class Player:
    """A player known on a platform: their id and the name they were last seen with."""

    user_id: str
    name: str


class PlayersStore(Store):
    """Chat settings and players (``storage.players``)."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        # Only a write throttle, never read as the truth: a sighting remembered here skips
        # rewriting the same name within SEEN_PRECISION. Another process seeing the player
        # meanwhile writes its own row update, so ``last_seen`` is at most that much behind.
        # Oldest sighting first: an entry older than SEEN_PRECISION saves no write any more and
        # is dropped, so the memory held is the players of the last minute, not of all time.
        self._seen: OrderedDict[tuple[str, str, str | None], tuple[str, datetime]] = OrderedDict()

    async def chat_language(self, platform: str, chat_id: str) -> str | None:
        """The chat's language; always read (another process may have stored a /lang)."""
        rows = await self._fetch(CHAT_LANGUAGE_SQL, (platform, chat_id))
        return rows[0][0] if rows else None

    async def set_chat_language(self, platform: str, chat_id: str, language: str) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO settings (platform, chat_id, language) VALUES (?, ?, ?) "
                "ON CONFLICT (platform, chat_id) DO UPDATE SET language = excluded.language",
                (platform, chat_id, language),
            )

    async def autofinish(self, platform: str, user_id: str) -> bool:
        """Whether the bot plays the player's last cards to the foundations (default: yes)."""
        rows = await self._fetch(
            "SELECT autofinish FROM player_settings WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        )
        return bool(rows[0][0]) if rows else True

    async def set_autofinish(self, platform: str, user_id: str, on: bool) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO player_settings (platform, user_id, autofinish) VALUES (?, ?, ?) "
                "ON CONFLICT (platform, user_id) DO UPDATE SET autofinish = excluded.autofinish",
                (platform, user_id, int(on)),
            )

    async def touch(
        self,
        platform: str,
        user_id: str,
        name: str,
        at: str,
        wait: bool = True,
        chat_id: str | None = None,
    ) -> None:
        """Remember a player's name and when they were last seen (in ``chat_id`` too, when
        given: where they may be named, :meth:`seen_in`); a player seen again under the same
        name in the same chat within ``SEEN_PRECISION`` costs no write (this runs on every
        request). ``wait=False``: ``StorageBusy`` at once when the write lock is taken (a
        sighting is not worth delaying a reply)."""
        key, moment = (platform, user_id, chat_id), datetime.fromisoformat(at)
        if moment.tzinfo is None:  # every time here is UTC; a caller may leave the zone out
            moment = moment.replace(tzinfo=UTC)
        seen = self._seen.get(key)
        if (
            seen is not None
            and seen[0] == name
            and timedelta(0) <= moment - seen[1] < SEEN_PRECISION
        ):
            return
        async with self._transaction(wait) as tx:
            await tx.execute(
                "INSERT INTO players (platform, user_id, name, first_seen, last_seen) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, user_id) DO UPDATE SET "
                "name = excluded.name, last_seen = excluded.last_seen",
                (platform, user_id, name, at, at),
            )
            if chat_id is not None:
                await tx.execute(
                    "INSERT INTO chat_players (platform, chat_id, user_id, last_seen) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (platform, chat_id, user_id) "
                    "DO UPDATE SET last_seen = excluded.last_seen",
                    (platform, chat_id, user_id, at),
                )
        self._seen[key] = (name, moment)
        self._seen.move_to_end(key)
        self._forget_old_sightings(moment)

    def _forget_old_sightings(self, now: datetime) -> None:
        seen = self._seen
        while seen:
            oldest = next(iter(seen.values()))[1]
            if len(seen) <= CACHE_LIMIT and timedelta(0) <= now - oldest < SEEN_PRECISION:
                break
            seen.popitem(last=False)

    def forget_sighting(self, platform: str, user_id: str) -> None:
        """Drop the remembered sightings of a forgotten player (``/forgetme``), in every chat."""
        for key in [k for k in self._seen if k[:2] == (platform, user_id)]:
            del self._seen[key]

    async def seen_in(self, platform: str, chat_id: str) -> list[Player]:
        """The people seen in a chat (their latest names), the most recently seen first: the
        only people a command there may name (at most ``SEEN_LIMIT`` of them)."""
        rows = await self._fetch(
            "SELECT c.user_id, p.name FROM chat_players c JOIN players p "
            "ON p.platform = c.platform AND p.user_id = c.user_id "
            "WHERE c.platform = ? AND c.chat_id = ? ORDER BY c.last_seen DESC LIMIT ?",
            (platform, chat_id, SEEN_LIMIT),
        )
        return [Player(str(user_id), str(name)) for user_id, name in rows]

    async def name(self, platform: str, user_id: str) -> str | None:
        """The name a player was last seen with, else the name of their latest result."""
        rows = await self._fetch(
            "SELECT name FROM players WHERE platform = ? AND user_id = ?", (platform, user_id)
        )
        if not rows:
            rows = await self._fetch(
                "SELECT player_name FROM results WHERE platform = ? AND player_id = ? "
                "ORDER BY finished_at DESC, id DESC LIMIT 1",
                (platform, user_id),
            )
        return str(rows[0][0]) if rows else None
