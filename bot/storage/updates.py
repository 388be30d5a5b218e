"""Platform updates already handled: an update delivered twice (a webhook retried, or two
webhook workers behind one URL) is handled once. The primary key ``(platform, update_id)``
decides: the first insert wins, a second one is refused by the database.

>>> import asyncio
>>> from bot.storage import Storage
>>> async def demo():
...     store = await Storage.open("sqlite:///:memory:")
...     first = await store.updates.first_delivery("telegram", 42)
...     again = await store.updates.first_delivery("telegram", 42)
...     await store.close()
...     return first, again
>>> asyncio.run(demo())
(True, False)
"""

from __future__ import annotations

import time

from bot.storage.base import Store
from bot.storage.errors import AlreadyExists

#: how long an update id is remembered (Telegram redelivers for at most a day)
KEEP_UPDATES_SECONDS = 2 * 24 * 3600.0
#: how much longer than update ids a private hand message's table is remembered (a hand is
#: played within a game's life; weeks cover any table)
KEEP_PRIVATE_MESSAGES_SECONDS = 30 * 24 * 3600.0
#: prune old ids once every this many recorded updates
_PRUNE_EVERY = 500


class UpdatesStore(Store):
    """Handled update ids and private messages' tables (``storage.updates``)."""

    _recorded_since_prune = 0

    async def first_delivery(self, platform: str, update_id: int, now: float | None = None) -> bool:
        """Record that ``update_id`` is being handled: True the first time, False when any
        process recorded it before (the caller then drops the update)."""
        moment = time.time() if now is None else now
        try:
            async with self._transaction() as tx:
                await tx.execute(
                    "INSERT INTO handled_updates (platform, update_id, seen_at) VALUES (?, ?, ?)",
                    (platform, int(update_id), moment),
                )
        except AlreadyExists:
            return False
        self._recorded_since_prune += 1
        if self._recorded_since_prune >= _PRUNE_EVERY:
            self._recorded_since_prune = 0
            await self.prune(moment - KEEP_UPDATES_SECONDS)
        return True

    async def remember_private_message(
        self,
        platform: str,
        chat_id: str,
        message_id: str,
        origin_chat: str,
        now: float | None = None,
    ) -> None:
        """A message with buttons sent to a private chat belongs to the table of ``origin_chat``."""
        moment = time.time() if now is None else now
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO private_messages (platform, chat_id, message_id, origin_chat, sent_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, chat_id, message_id) "
                "DO UPDATE SET origin_chat = excluded.origin_chat",
                (platform, chat_id, message_id, origin_chat, moment),
            )

    async def private_message_origin(
        self, platform: str, chat_id: str, message_id: str
    ) -> str | None:
        """The chat whose table a private message belongs to (None: an ordinary message)."""
        rows = await self._fetch(
            "SELECT origin_chat FROM private_messages WHERE platform = ? AND chat_id = ? AND message_id = ?",
            (platform, chat_id, message_id),
        )
        return str(rows[0][0]) if rows else None

    async def prune(self, older_than: float) -> int:
        """Forget the update ids recorded before ``older_than`` (seconds since the epoch) and
        private messages older than ``KEEP_PRIVATE_MESSAGES_SECONDS`` before it; how many ids."""
        async with self._transaction() as tx:
            await tx.execute(
                "DELETE FROM private_messages WHERE sent_at < ?",
                (older_than - KEEP_PRIVATE_MESSAGES_SECONDS,),
            )
            return await tx.execute("DELETE FROM handled_updates WHERE seen_at < ?", (older_than,))
