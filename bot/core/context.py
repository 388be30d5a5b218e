"""One request being handled (:class:`Ctx`), and the clock the core reads by default."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.replies import Request


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class Ctx:
    """One request being handled: who, where, in which language, at what time."""

    req: Request
    lang: str
    now: datetime
    #: the sender's game in focus as this request last read or wrote it, ``(session id or
    #: None,)``; None: not read yet. Lives one request: a write of an unchanged focus is saved
    focus_read: tuple[str | None] | None = None

    @property
    def user(self) -> str:
        return self.req.user_id


def system_ctx(platform: str, chat_id: str, lang: str, now: datetime) -> Ctx:
    """The context of something the bot does by itself (a timer firing): nobody's request."""
    return Ctx(Request(platform, chat_id, "", ""), lang, now)
