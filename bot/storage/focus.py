"""Which game a player has in focus in a chat, and the Yes/No questions the bot is waiting on.

Both live in the database so every bot process reads the same: the player's next line may be
answered by another process than the one that showed the board or asked the question.

>>> import asyncio
>>> from bot.storage import Confirmation, Storage
>>> async def demo():
...     store = await Storage.open("sqlite:///:memory:")
...     await store.focus.set("console", "c", "ana", "s1", "2025-01-01T00:00:00")
...     await store.focus.set("console", "c", "ana", "s2", "2025-01-01T00:00:01")
...     focused = await store.focus.get("console", "c", "ana")
...     await store.focus.ask(Confirmation("q1", "console", "c", "ana", "s2", "resign", 100.0))
...     first = await store.focus.take_confirmation("q1")
...     again = await store.focus.take_confirmation("q1")
...     await store.close()
...     return focused, first.action if first else None, again
>>> asyncio.run(demo())
('s2', 'resign', None)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.base import Store
from bot.storage.players import CHAT_LANGUAGE_SQL
from bot.storage.records import ACTIVE
from bot.storage.sessions import (
    REVISION_SQL,
    SessionRevision,
    open_revisions_params,
    session_revisions,
)

_CONFIRMATION_COLUMNS = "id, platform, chat_id, player_id, session_id, action, expires_at"


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A Yes/No question the bot asked a player about a session (its id is in the Yes
    button); ``expires_at`` in seconds since the epoch."""

    id: str
    platform: str
    chat_id: str
    player_id: str
    session_id: str
    action: str
    expires_at: float


_FOCUS_SQL = "SELECT session_id FROM focus WHERE platform = ? AND chat_id = ? AND player_id = ?"
#: the chat's open sessions (``OPEN_REVISIONS_SQL``) and, for a started table, who left it
#: (``table_play.departed``): the focus needs both, and one statement is one round trip
_OPEN_WITH_DEPARTED_SQL = (
    "SELECT s.id, s.revision, p.departed FROM sessions s "
    "LEFT JOIN table_play p ON p.session_id = s.id AND s.status = ? "
    "WHERE s.platform = ? AND s.chat_id = ? AND s.status IN (?, ?) ORDER BY s.created_at, s.id"
)


@dataclass(frozen=True, slots=True)
class ChatView:
    """What a request reads of its chat as it begins, in one go: the chat's language (None:
    the default), its open sessions (``storage.sessions.open_revisions``) and the sender's
    game in focus (``get``)."""

    language: str | None
    open_sessions: list[SessionRevision]
    focus: str | None
    #: the stored revision of the session asked about (a pressed button's), None: unknown
    revision: int | None = None
    #: each started table of the chat: the players who left it (``TablePlay.departed``)
    departed: dict[str, list[str]] = field(default_factory=dict)


def _confirmation(row: Sequence[Any]) -> Confirmation:
    qid, platform, chat_id, player_id, session_id, action, expires_at = row
    return Confirmation(
        str(qid),
        str(platform),
        str(chat_id),
        str(player_id),
        str(session_id),
        str(action),
        float(expires_at),
    )


class FocusStore(Store):
    """The focus and pending confirmations (``storage.focus``)."""

    async def set(
        self, platform: str, chat_id: str, player_id: str, session_id: str, now: str
    ) -> None:
        """``session_id`` is now the player's game in focus in this chat."""
        async with self._transaction() as tx:
            tx.add(
                "INSERT INTO focus (platform, chat_id, player_id, session_id, focused_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, chat_id, player_id) "
                "DO UPDATE SET session_id = excluded.session_id, focused_at = excluded.focused_at",
                (platform, chat_id, player_id, session_id, now),
            )

    async def get(self, platform: str, chat_id: str, player_id: str) -> str | None:
        """The session the player last saw or played in this chat (it may have ended since)."""
        rows = await self._fetch(_FOCUS_SQL, (platform, chat_id, player_id))
        return str(rows[0][0]) if rows else None

    async def chat_view(
        self, platform: str, chat_id: str, player_id: str, session_id: str | None = None
    ) -> ChatView:
        """The chat's language, open sessions and the player's focus (and ``session_id``'s
        stored revision, when given): the reads most requests begin with, as one round trip
        (on SQLite one hand-off to the reader's thread; each is the same read as on its own,
        ``players.chat_language``, ``sessions.open_revisions``, ``get`` and
        ``sessions.revision``)."""
        queries: list[tuple[str, tuple[str, ...]]] = [
            (CHAT_LANGUAGE_SQL, (platform, chat_id)),
            (_OPEN_WITH_DEPARTED_SQL, (ACTIVE, *open_revisions_params(platform, chat_id))),
            (_FOCUS_SQL, (platform, chat_id, player_id)),
        ]
        if session_id is not None:
            queries.append((REVISION_SQL, (session_id,)))
        language, chat, focus, *revision = await self.backend.fetch_many(queries)
        return ChatView(
            language[0][0] if language else None,
            session_revisions(chat),
            str(focus[0][0]) if focus else None,
            int(revision[0][0][0]) if revision and revision[0] else None,
            {str(row[0]): json.loads(row[2]) for row in chat if row[2] is not None},
        )

    async def ask(self, question: Confirmation) -> None:
        """Remember a question; old expired ones are pruned."""
        async with self._transaction() as tx:
            # an hour past expiry: long enough that a late Yes still finds it and says "too late"
            await tx.execute(
                "DELETE FROM confirmations WHERE expires_at < ?", (question.expires_at - 3600.0,)
            )
            await tx.execute(
                f"INSERT INTO confirmations ({_CONFIRMATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    question.id,
                    question.platform,
                    question.chat_id,
                    question.player_id,
                    question.session_id,
                    question.action,
                    question.expires_at,
                ),
            )

    async def confirmation(self, question_id: str) -> Confirmation | None:
        """The question, left in place; None when there is none."""
        rows = await self._fetch(
            f"SELECT {_CONFIRMATION_COLUMNS} FROM confirmations WHERE id = ?", (question_id,)
        )
        return _confirmation(rows[0]) if rows else None

    async def take_confirmation(self, question_id: str) -> Confirmation | None:
        """The question, removed so that it is answered once; None when there is none
        (answered already, or never asked)."""
        async with self._transaction() as tx:
            rows = await tx.fetch(
                f"SELECT {_CONFIRMATION_COLUMNS} FROM confirmations WHERE id = ?", (question_id,)
            )
            if not rows:
                return None
            # of two processes taking it at once, only the one whose delete counts answers
            if not await tx.execute("DELETE FROM confirmations WHERE id = ?", (question_id,)):
                return None
        return _confirmation(rows[0])
