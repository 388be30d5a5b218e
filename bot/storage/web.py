"""What the web page reads and keeps: public player ids, ``/web hide``, the chats' private
leaderboard links, and ``/forgetme``.

A page names a player by a random public id (``web_players.public_id``), never by the
platform's user id. A player appears on the global pages only once they have an accepted
daily attempt and while they have not hidden themselves (:meth:`WebStore.public_players`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.backend import Backend
from bot.storage.base import Store
from bot.storage.daily import DailyStore, ranked_days_kept
from bot.storage.errors import StorageBusy
from bot.storage.players import PlayersStore
from bot.storage.records import SESSION_COLUMNS, SessionRecord, row_to_session


@dataclass(frozen=True, slots=True, order=True)
class PlayerKey:
    """A player on a platform."""

    platform: str
    user_id: str


@dataclass(frozen=True, slots=True)
class ChatKey:
    """A chat on a platform."""

    platform: str
    chat_id: str


#: public player ids and chat link tokens: lowercase letters and digits, no look-alikes
_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
PUBLIC_ID_LENGTH = 10
#: a chat link's token: 24 characters of 32 symbols, 120 bits: not guessable
TOKEN_LENGTH = 24
#: the id a forgotten player's seat takes in a shared game (``former:`` and a random word)
FORMER_PREFIX = "former:"


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What ``/forgetme`` did: the sessions deleted or changed (copies of them kept in memory
    are stale), and how many ranked dailies of the current days left their keyed hash."""

    sessions: list[str]
    ranked_kept: int


def random_word(length: int) -> str:
    """A random word of ``length`` characters from an alphabet without look-alikes.

    >>> len(random_word(10)), set(random_word(50)) <= set(_ALPHABET)
    (10, True)
    """
    return "".join(secrets.choice(_ALPHABET) for _ in range(length))


def _marks(count: int) -> str:
    return ", ".join("?" for _ in range(count))


#: in the transaction of every change that takes someone or something off the web pages
#: (``/web hide`` and ``show``, a revoked chat link; ``/forgetme`` writes the same): the pages
#: kept in any process's memory are from before it (an upsert: the row need not exist yet)
_PAGES_CHANGED = (
    "INSERT INTO generations (name, value) VALUES ('web', 1) "
    "ON CONFLICT (name) DO UPDATE SET value = generations.value + 1"
)


class WebStore(Store):
    """The web page's storage (``storage.web``); ``/forgetme`` also drops the players
    store's remembered sighting and keeps the daily store's keyed hash of a ranked attempt."""

    def __init__(self, backend: Backend, players: PlayersStore, daily: DailyStore) -> None:
        super().__init__(backend)
        self._players = players
        self._daily = daily

    # ----- public player ids and /web hide ----------------------------------------------------
    async def public_ids(self, players: Iterable[PlayerKey]) -> dict[PlayerKey, str]:
        """The public id of each player, made (and stored) for those who have none yet; two
        processes making one at once keep the first stored. While another process holds the
        write lock, players without an id yet are left out (their page is linked later):
        reading a page never waits on a write."""
        wanted = sorted(set(players))
        if not wanted:
            return {}
        found = await self._known_public_ids(wanted)
        missing = [key for key in wanted if key not in found]
        if missing:
            try:
                async with self._transaction() as tx:
                    for key in missing:
                        await tx.execute(
                            "INSERT INTO web_players (platform, user_id, public_id) VALUES (?, ?, ?) "
                            "ON CONFLICT (platform, user_id) DO NOTHING",
                            (key.platform, key.user_id, random_word(PUBLIC_ID_LENGTH)),
                        )
            except StorageBusy:
                return found
            found.update(await self._known_public_ids(missing))
        return found

    async def _known_public_ids(self, players: Sequence[PlayerKey]) -> dict[PlayerKey, str]:
        found: dict[PlayerKey, str] = {}
        by_platform: dict[str, list[str]] = {}
        for key in players:
            by_platform.setdefault(key.platform, []).append(key.user_id)
        for platform, users in by_platform.items():
            for start in range(0, len(users), 500):  # bounded IN lists on either backend
                chunk = users[start : start + 500]
                rows = await self._fetch(
                    f"SELECT user_id, public_id FROM web_players WHERE platform = ? "
                    f"AND user_id IN ({_marks(len(chunk))})",
                    (platform, *chunk),
                )
                found.update({PlayerKey(platform, str(u)): str(p) for u, p in rows})
        return found

    async def player_of(self, public_id: str) -> PlayerKey | None:
        """The player of a public id, None when unknown."""
        rows = await self._fetch(
            "SELECT platform, user_id FROM web_players WHERE public_id = ?", (public_id,)
        )
        return PlayerKey(str(rows[0][0]), str(rows[0][1])) if rows else None

    async def set_hidden(self, platform: str, user_id: str, hidden: bool) -> None:
        """``/web hide`` (True) or ``/web show`` (False)."""
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO web_players (platform, user_id, public_id, hidden) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, user_id) DO UPDATE SET hidden = excluded.hidden",
                (platform, user_id, random_word(PUBLIC_ID_LENGTH), int(hidden)),
            )
            await tx.execute(_PAGES_CHANGED)

    async def hidden(self, platform: str, user_id: str) -> bool:
        rows = await self._fetch(
            "SELECT hidden FROM web_players WHERE platform = ? AND user_id = ?",
            (platform, user_id),
        )
        return bool(rows and rows[0][0])

    async def public_players(self, players: Iterable[PlayerKey], accepted: str) -> set[PlayerKey]:
        """Those of ``players`` who may be named on a public page: an attempt at a daily was
        accepted (status ``accepted``) and they have not hidden themselves."""
        wanted = sorted(set(players))
        public: set[PlayerKey] = set()
        by_platform: dict[str, list[str]] = {}
        for key in wanted:
            by_platform.setdefault(key.platform, []).append(key.user_id)
        for platform, users in by_platform.items():
            for start in range(0, len(users), 500):
                chunk = users[start : start + 500]
                rows = await self._fetch(
                    "SELECT DISTINCT a.player_id FROM daily_attempts a WHERE a.platform = ? "
                    f"AND a.status = ? AND a.player_id IN ({_marks(len(chunk))}) "
                    "AND NOT EXISTS (SELECT 1 FROM web_players w WHERE w.platform = a.platform "
                    "AND w.user_id = a.player_id AND w.hidden = 1)",
                    (platform, accepted, *chunk),
                )
                public.update(PlayerKey(platform, str(r[0])) for r in rows)
        return public

    # ----- a chat's private leaderboard link ------------------------------------------------
    async def chat_link(self, platform: str, chat_id: str) -> str | None:
        """The chat's live link token, None when it has none."""
        rows = await self._fetch(
            "SELECT token FROM web_chat_links WHERE platform = ? AND chat_id = ? "
            "AND revoked_at IS NULL",
            (platform, chat_id),
        )
        return str(rows[0][0]) if rows else None

    async def new_chat_link(self, platform: str, chat_id: str, now: str) -> str:
        """Revoke the chat's live link (if any) and make a new one, in one transaction."""
        token = random_word(TOKEN_LENGTH)
        async with self._transaction() as tx:
            await tx.execute(
                "UPDATE web_chat_links SET revoked_at = ? WHERE platform = ? AND chat_id = ? "
                "AND revoked_at IS NULL",
                (now, platform, chat_id),
            )
            await tx.execute(
                "INSERT INTO web_chat_links (token, platform, chat_id, created_at) VALUES (?, ?, ?, ?)",
                (token, platform, chat_id, now),
            )
            await tx.execute(_PAGES_CHANGED)
        return token

    async def chat_link_made(self, platform: str, chat_id: str, now: str) -> str:
        """The chat's live link, made when it has none. Two processes asked at once give the
        same link (the unique live-link index keeps the first; the second reads it back)."""
        live = await self.chat_link(platform, chat_id)
        if live is not None:
            return live
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO web_chat_links (token, platform, chat_id, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, chat_id) WHERE revoked_at IS NULL DO NOTHING",
                (random_word(TOKEN_LENGTH), platform, chat_id, now),
            )
        made = await self.chat_link(platform, chat_id)
        assert made is not None, "a live link exists after the insert"
        return made

    async def chat_of_link(self, token: str) -> ChatKey | None:
        """The chat of a live link token; None when unknown or revoked."""
        rows = await self._fetch(
            "SELECT platform, chat_id FROM web_chat_links WHERE token = ? AND revoked_at IS NULL",
            (token,),
        )
        return ChatKey(str(rows[0][0]), str(rows[0][1])) if rows else None

    # ----- /forgetme ----------------------------------------------------------------------------
    async def open_tables_of(self, platform: str, user_id: str, closed: Sequence[str]) -> int:
        """How many tables or races not in ``closed`` statuses seat the player."""
        rows = await self._fetch(
            f"SELECT players FROM sessions WHERE platform = ? AND kind = 'table' "
            f"AND status NOT IN ({_marks(len(closed))}) AND players LIKE ?",
            (platform, *closed, f"%{json.dumps(user_id)}%"),
        )
        return sum(1 for (players,) in rows if user_id in json.loads(players))

    async def forget_player(
        self,
        platform: str,
        user_id: str,
        former_name: str,
        today: str,
        private_chat: str | None = None,
    ) -> Forgotten:
        """Delete what is kept about a player, in one transaction: their own solo games (moves,
        results, daily attempts), ratings, settings, name, web ids, the game in their focus,
        any question the bot asked them, their rate-limit buckets, and everything of their
        private chats (language, link, games, questions, hand messages): the chat whose id is
        theirs (a private chat on Telegram) and ``private_chat`` (the private chat they asked
        from, a direct-message channel on Discord). In games shared with others (tables, race
        boards) their seat becomes ``former_name`` under a new id of its own in each game
        (``former:...``, so the games cannot be linked to each other), and the others' replays
        and rankings stay whole; a lobby they left or an invitation forgets their name and id.
        Each changed game's revision moves on, so a copy another process holds is reloaded,
        and the web pages' generation too (no page kept in memory shows them again). A ranked
        daily of ``today`` or yesterday leaves only a keyed hash (see ``DailyStore``), never a
        second attempt."""
        chats = [user_id] + ([private_chat] if private_chat and private_chat != user_id else [])
        kept_from = ranked_days_kept(today)
        ranked = [
            (str(day), str(game), await self._daily.ranked_hash(platform, user_id, game, day))
            for game, day in await self._fetch(
                "SELECT game_id, day FROM daily_attempts WHERE platform = ? AND player_id = ? "
                "AND day >= ?",
                (platform, user_id, kept_from),
            )
        ]
        quoted = f"%{json.dumps(user_id)}%"
        async with self._transaction() as tx:
            rows = await tx.fetch(
                f"SELECT {SESSION_COLUMNS} FROM sessions WHERE platform = ? AND (creator = ? "
                f"OR chat_id IN ({_marks(len(chats))}) OR players LIKE ? OR names LIKE ? "
                "OR invited LIKE ?)",
                (platform, user_id, *chats, quoted, quoted, quoted),
            )
            sessions = [
                rec
                for rec in map(row_to_session, rows)
                if user_id == rec.creator
                or rec.chat_id in chats
                or user_id in rec.players
                or user_id in rec.names
                or user_id in rec.invited
            ]
            race_boards = {
                str(r[0])
                for r in await tx.fetch(
                    "SELECT session_id FROM race_entries WHERE player_id = ?", (user_id,)
                )
            }
            touched: list[str] = []
            for rec in sessions:
                touched.append(rec.id)
                if rec.kind == "solo" and rec.id not in race_boards:
                    await self._delete_session(tx, rec.id)
                else:
                    former_id = FORMER_PREFIX + random_word(PUBLIC_ID_LENGTH)
                    await self._anonymise_seat(tx, rec, user_id, former_id, former_name, chats)
            for day, game_id, player_hash in ranked:
                await tx.execute(
                    "INSERT INTO daily_ranked (day, game_id, player_hash) VALUES (?, ?, ?) "
                    "ON CONFLICT (day, game_id, player_hash) DO NOTHING",
                    (day, game_id, player_hash),
                )
            mine = (platform, user_id)
            for sql in (
                "DELETE FROM daily_attempts WHERE platform = ? AND player_id = ?",
                "DELETE FROM player_settings WHERE platform = ? AND user_id = ?",
                "DELETE FROM players WHERE platform = ? AND user_id = ?",
                "DELETE FROM chat_players WHERE platform = ? AND user_id = ?",
                "DELETE FROM web_players WHERE platform = ? AND user_id = ?",
                "DELETE FROM ratings WHERE platform = ? AND player_id = ?",
                "DELETE FROM focus WHERE platform = ? AND player_id = ?",
                "DELETE FROM confirmations WHERE platform = ? AND player_id = ?",
                # a result whose session is gone already (none is expected): nothing kept
                "DELETE FROM results WHERE platform = ? AND player_id = ?",
            ):
                await tx.execute(sql, mine)
            for chat in chats:  # the player's private chats, and their rows of any kind
                for sql in (
                    "DELETE FROM ratings WHERE platform = ? AND scope = ?",
                    "DELETE FROM focus WHERE platform = ? AND chat_id = ?",
                    "DELETE FROM confirmations WHERE platform = ? AND chat_id = ?",
                    "DELETE FROM settings WHERE platform = ? AND chat_id = ?",
                    "DELETE FROM web_chat_links WHERE platform = ? AND chat_id = ?",
                    "DELETE FROM private_messages WHERE platform = ? AND chat_id = ?",
                    "DELETE FROM results WHERE platform = ? AND chat_id = ?",
                ):
                    await tx.execute(sql, (platform, chat))
                # the rate limits' buckets: the player's own (``user``) and the chat's
                await tx.execute("DELETE FROM rate_buckets WHERE key = ?", (f"{platform}:{chat}",))
            await tx.execute(
                "INSERT INTO generations (name, value) VALUES ('web', 1) "
                "ON CONFLICT (name) DO UPDATE SET value = generations.value + 1"
            )
        self._players.forget_sighting(platform, user_id)
        return Forgotten(touched, len(ranked))

    async def generation(self) -> int:
        """The web pages' generation: a page kept in memory under an older one is not served
        (``/forgetme``, ``/web hide`` and ``show`` and a revoked link move it on, in every
        process at once)."""
        rows = await self._fetch("SELECT value FROM generations WHERE name = 'web'")
        return int(rows[0][0]) if rows else 0

    async def _delete_session(self, tx: Any, session_id: str) -> None:
        for sql in (
            "DELETE FROM moves WHERE session_id = ?",
            "DELETE FROM results WHERE session_id = ?",
            "DELETE FROM daily_attempts WHERE session_id = ?",
            "DELETE FROM table_play WHERE session_id = ?",
            "DELETE FROM focus WHERE session_id = ?",
            "DELETE FROM confirmations WHERE session_id = ?",
            "DELETE FROM sessions WHERE id = ?",
        ):
            await tx.execute(sql, (session_id,))

    async def _anonymise_seat(
        self,
        tx: Any,
        rec: SessionRecord,
        user_id: str,
        former_id: str,
        former_name: str,
        private_chats: Sequence[str],
    ) -> None:
        def swap(ids: list[str]) -> list[str]:
            return [former_id if p == user_id else p for p in ids]

        def swapped(value: str, ids: Sequence[str] = (user_id,)) -> str:
            return former_id if value in ids else value

        # a lobby they left or a table they were invited to forgets them; a seat is renamed
        names = {p: n for p, n in rec.names.items() if p != user_id}
        if user_id in rec.players:
            names[former_id] = former_name
        invited = [p for p in rec.invited if p != user_id]
        await tx.execute(
            "UPDATE sessions SET players = ?, names = ?, invited = ?, creator = ?, chat_id = ?, "
            "revision = revision + 1 WHERE id = ?",
            (
                json.dumps(swap(rec.players)),
                json.dumps(names),
                json.dumps(invited),
                swapped(rec.creator),
                swapped(rec.chat_id, private_chats),
                rec.id,
            ),
        )
        await tx.execute(
            "UPDATE results SET player_id = ?, player_name = ? WHERE session_id = ? "
            "AND platform = ? AND player_id = ?",
            (former_id, former_name, rec.id, rec.platform, user_id),
        )
        await tx.execute(
            f"UPDATE results SET chat_id = ? WHERE session_id = ? "
            f"AND chat_id IN ({_marks(len(private_chats))})",
            (former_id, rec.id, *private_chats),
        )
        await tx.execute(
            "UPDATE moves SET player = ? WHERE session_id = ? AND player = ?",
            (former_id, rec.id, user_id),
        )
        await tx.execute(
            "UPDATE race_entries SET player_id = ? WHERE session_id = ? AND player_id = ?",
            (former_id, rec.id, user_id),
        )
        play = await tx.fetch(
            "SELECT timeouts, departed, computers FROM table_play WHERE session_id = ?", (rec.id,)
        )
        if play:
            timeouts = {
                (former_id if p == user_id else p): n for p, n in json.loads(play[0][0]).items()
            }
            await tx.execute(
                "UPDATE table_play SET timeouts = ?, departed = ?, computers = ? WHERE session_id = ?",
                (
                    json.dumps(timeouts),
                    json.dumps(swap(json.loads(play[0][1]))),
                    json.dumps(swap(json.loads(play[0][2]))),
                    rec.id,
                ),
            )
