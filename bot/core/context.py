"""One request being handled (:class:`Ctx`), and the clock the core reads by default."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.replies import Request
from bot.storage import SessionRevision


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
    #: the chat's open sessions as the request read them when it began (with the language and
    #: the focus, in one read): the first look at the chat's games takes them instead of
    #: reading again, later looks read anew (the request may have changed them meanwhile)
    chat_read: list[SessionRevision] | None = None
    #: a pressed button's session and its stored revision as read when the request began
    revision_read: tuple[str, int | None] | None = None
    #: who left each started table of the chat, as read when the request began (and as the
    #: request itself changed it since); None: not read (a table missing from it: read anew)
    departed_read: dict[str, list[str]] | None = None

    def take_revision_read(self, session_id: str) -> tuple[int | None] | None:
        """``session_id``'s stored revision read when the request began, once (then None;
        None too for another session): ``(revision,)``, the revision None for no session."""
        found, self.revision_read = self.revision_read, None
        if found is None or found[0] != session_id:
            return None
        return (found[1],)

    def take_chat_read(self) -> list[SessionRevision] | None:
        """The chat's open sessions read when the request began, once (then None)."""
        found, self.chat_read = self.chat_read, None
        return found

    @property
    def user(self) -> str:
        return self.req.user_id


def system_ctx(platform: str, chat_id: str, lang: str, now: datetime) -> Ctx:
    """The context of something the bot does by itself (a timer firing): nobody's request."""
    return Ctx(Request(platform, chat_id, "", ""), lang, now)
