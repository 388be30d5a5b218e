"""Which game a player has in focus in a chat, and the Yes/No questions the bot is waiting on.

Both live in the database so every bot process reads the same: the player's next line may be
answered by another process than the one that showed the board or asked the question.

>>> import asyncio
>>> from bot.storage import Storage
>>> async def demo():
...     store = await Storage.open("sqlite:///:memory:")
...     await store.set_focus("console", "c", "ana", "s1", "2025-01-01T00:00:00")
...     await store.set_focus("console", "c", "ana", "s2", "2025-01-01T00:00:01")
...     focused = await store.focus_of("console", "c", "ana")
...     await store.ask_confirmation("q1", "console", "c", "ana", "s2", "resign", 100.0)
...     first = await store.take_confirmation("q1")
...     again = await store.take_confirmation("q1")
...     await store.close()
...     return focused, first, again
>>> asyncio.run(demo())
('s2', ('console', 'c', 'ana', 's2', 'resign', 100.0), None)
"""

from __future__ import annotations

from typing import Any

from bot.storage.base import StorageBase


class FocusStore(StorageBase):
    """The focus and pending confirmations (mixed into ``Storage``)."""

    async def set_focus(
        self, platform: str, chat_id: str, player_id: str, session_id: str, now: str
    ) -> None:
        """``session_id`` is now the player's game in focus in this chat."""
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO focus (platform, chat_id, player_id, session_id, focused_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, chat_id, player_id) "
                "DO UPDATE SET session_id = excluded.session_id, focused_at = excluded.focused_at",
                (platform, chat_id, player_id, session_id, now),
            )

    async def focus_of(self, platform: str, chat_id: str, player_id: str) -> str | None:
        """The session the player last saw or played in this chat (it may have ended since)."""
        rows = await self.fetch(
            "SELECT session_id FROM focus WHERE platform = ? AND chat_id = ? AND player_id = ?",
            (platform, chat_id, player_id),
        )
        return str(rows[0][0]) if rows else None

    async def ask_confirmation(self, question_id: str, platform: str, chat_id: str, player_id: str,
                               session_id: str, action: str, expires_at: float) -> None:  # fmt: skip
        """Remember a question (its id is in the Yes button); old expired ones are pruned."""
        async with self._transaction() as tx:
            # an hour past expiry: long enough that a late Yes still finds it and says "too late"
            await tx.execute(
                "DELETE FROM confirmations WHERE expires_at < ?", (expires_at - 3600.0,)
            )
            await tx.execute(
                "INSERT INTO confirmations (id, platform, chat_id, player_id, session_id, action, "
                "expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (question_id, platform, chat_id, player_id, session_id, action, expires_at),
            )

    async def confirmation(self, question_id: str) -> tuple[Any, ...] | None:
        """The question (platform, chat, player, session, action, expires_at), left in place."""
        rows = await self.fetch(
            "SELECT platform, chat_id, player_id, session_id, action, expires_at "
            "FROM confirmations WHERE id = ?",
            (question_id,),
        )
        return tuple(rows[0]) if rows else None

    async def take_confirmation(self, question_id: str) -> tuple[Any, ...] | None:
        """The question (platform, chat, player, session, action, expires_at), removed so that
        it is answered once; None when there is none (answered already, or never asked)."""
        async with self._transaction() as tx:
            rows = await tx.fetch(
                "SELECT platform, chat_id, player_id, session_id, action, expires_at "
                "FROM confirmations WHERE id = ?",
                (question_id,),
            )
            if not rows:
                return None
            # of two processes taking it at once, only the one whose delete counts answers
            if not await tx.execute("DELETE FROM confirmations WHERE id = ?", (question_id,)):
                return None
        platform, chat_id, player_id, session_id, action, expires_at = rows[0]
        return (platform, chat_id, player_id, session_id, action, float(expires_at))
