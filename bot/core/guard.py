"""The safety net around every request: the rate limits first (``bot.core.limits``), then the
request's context (the sender seen, the chat's language, their focus: one read), then the
handler; a busy database answers "busy, try again", any other failure the internal-error
answer, in the chat's language, and the process lives on. Ids, names and text from a
platform are made well-formed (no lone surrogates) before anything reads them.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable

from bot import logs
from bot.core import buttons as button_ids
from bot.core.context import Ctx
from bot.core.limits import RateLimiter, Refused, posted_messages
from bot.core.service import Service
from bot.core.session import iso
from bot.metrics import Metrics
from bot.replies import Mention, Reply, Request
from bot.storage import StaleRevision, StorageBusy

log = logging.getLogger("tavolo.core")

#: what a board action is, for the rate limits (``bot.core.limits``): a move typed as a
#: command or as plain text (the command None), an undo, and the buttons that act on a board
#: in place (a move, a tap that picks a pile or goes back, "to the foundation", undo, a hand
#: card's rotations)
BOARD_COMMANDS = frozenset({None, "move", "undo"})
BOARD_VERBS = frozenset({"mv", "sel", "back", "found", "undo", "turn"})


class Silenced(list[Reply]):
    """No reply, because a rate limit silences the sender (told so once already)."""


class Guard:
    """The safety net of one core (see module doc) and its rate limits."""

    def __init__(self, service: Service, metrics: Metrics) -> None:
        self.service = service
        self.metrics = metrics
        #: the per-user and per-chat rate limits (None: unlimited)
        self.limiter: RateLimiter | None = None

    async def run(
        self,
        req: Request,
        what: str,
        handle: Callable[[Ctx], Awaitable[list[Reply]]],
        session_id: str | None = None,
        *,
        board_action: bool = False,
        pressed: bool = False,
    ) -> list[Reply]:
        """The safety net around every request, context building included: a busy database
        (``StorageBusy``: locked beyond the bounded wait, read-only, full, connection lost)
        gets "busy, try again" in the chat's language; any other failure the internal-error
        answer. Either way the process lives on and nothing half-done is kept (storage rolls
        the request's transaction back). ``session_id``: a pressed button's session, whose
        stored revision is read with the chat's language. ``board_action``: a move or a tap on
        a board, which the rate limits charge by the messages it posts (``bot.core.limits``);
        ``pressed``: a button (its private answers go to the presser alone, posting nothing)."""
        ctx: Ctx | None = None
        req = well_formed_request(req)
        logs.begin_request(req.chat_id)
        if self.limiter is not None:
            refused = await self.limiter.check(req, board_action)
            if refused is not None:
                return await self._slow_down(req, refused)
        await self.service.answering(req.platform, req.chat_id, 1)
        try:
            ctx = await self.context(req, session_id)
            replies = button_ids.describe(await handle(ctx))
            if board_action and self.limiter is not None:
                await self._charge(req, replies, pressed)
            return replies
        except (StorageBusy, StaleRevision) as error:
            # StaleRevision: another process changed the session under this request; its copy
            # was dropped, so trying again works on the stored state
            log.warning("storage busy while handling %s: %s", what, error)
            return [self.service.private(ctx or await self.fallback_context(req), "error.busy")]
        except Exception:
            log.exception("failed to handle %s", what)
            return [self.service.private(ctx or await self.fallback_context(req), "error.internal")]
        finally:
            await self.service.answering(req.platform, req.chat_id, -1)

    async def _charge(self, req: Request, replies: list[Reply], pressed: bool) -> None:
        """Charge a board action's posted messages to the rate limits. What was done is done:
        a failure here is logged, never answered as the request's failure."""
        assert self.limiter is not None
        try:
            await self.limiter.charge(req, posted_messages(replies, req.user_id, pressed))
        except Exception:
            log.exception("could not charge a board action to the rate limits")

    async def _slow_down(self, req: Request, refused: Refused) -> list[Reply]:
        """Over a rate limit: the notice the first time, silence after (nothing is done)."""
        self.metrics.rate_limited.labels(scope=refused.scope).inc()
        if not refused.notify:
            return Silenced()
        ctx = await self.fallback_context(req)
        # the user's own buckets (commands, moves) say so to them; the chat's to the chat
        key = "error.slow_down_chat" if refused.scope == "chat" else "error.slow_down"
        return [self.service.refuse(ctx, key, name=req.user_name)]

    async def context(self, req: Request, session_id: str | None = None) -> Ctx:
        """The request's context: the sender seen (not waited for), then the chat's language,
        its open sessions and the sender's focus in one read (and ``session_id``'s stored
        revision, for a pressed button)."""
        now = self.service.clock()
        try:
            # not waited for: a command that only reads must not stall behind another
            # process's write lock (a write of this request waits on its own)
            await self.service.store.players.touch(
                req.platform,
                req.user_id,
                req.user_name,
                iso(now),
                wait=False,
                chat_id=req.chat_id,
            )
        except StorageBusy as error:
            # a sighting is not worth refusing a request: reads (/help, boards) go on, and a
            # write of this request meets the busy database itself
            log.info("storage busy, sighting of a player not stored: %s", error)
        # the language, the chat's open sessions and the sender's focus: one read, which a
        # command about a game (a move, a board, a hint) would otherwise make as three
        view = await self.service.store.focus.chat_view(
            req.platform, req.chat_id, req.user_id, session_id
        )
        lang = view.language or self.service.default_language
        ctx = Ctx(
            req,
            lang,
            now,
            focus_read=(view.focus,),
            chat_read=view.open_sessions,
            departed_read=view.departed,
        )
        if session_id is not None:
            ctx.revision_read = (session_id, view.revision)
        return ctx

    async def fallback_context(self, req: Request) -> Ctx:
        """A context when the normal one could not be built: the chat's language if storage can
        still read it (a write lock does not stop reads), else the default language."""
        try:
            lang = await self.service.chat_language(req.platform, req.chat_id)
        except Exception:
            lang = self.service.default_language
        return Ctx(req, lang, self.service.clock())


def well_formed(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD. JSON from a platform can carry
    one (``"\\ud800"``), and neither the database nor the fonts take it; a proper pair given
    as two halves becomes the one character it stands for.

    >>> well_formed("/stats \\ud800") == "/stats \\ufffd", well_formed("ok")
    (True, 'ok')
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def well_formed_request(req: Request) -> Request:
    """``req`` with :func:`well_formed` ids and names, its mentions' too (the same object
    when they already are)."""
    fields = {"chat_id": req.chat_id, "user_id": req.user_id, "user_name": req.user_name}
    cleaned = {name: well_formed(value) for name, value in fields.items()}
    mentions = tuple(Mention(well_formed(m.user_id), well_formed(m.name)) for m in req.mentions)
    if cleaned == fields and mentions == req.mentions:
        return req
    return dataclasses.replace(
        req,
        mentions=mentions,
        chat_id=cleaned["chat_id"],
        user_id=cleaned["user_id"],
        user_name=cleaned["user_name"],
    )
