"""Room for a new game: a cap on the solo games one player keeps open across chats.

Every open game is held in the memory of the process that serves it until it ends, and the
idle sweep ends a game only after 24 hours: without a cap, one player opening games in
hundreds of chats held thousands. When ``/play`` opens a game beyond
:data:`OPEN_GAMES_PER_PLAYER` (counted in storage, so every process sees the same games), the
player's least recently touched casual game is ended as resigned and stored, and its chat is
told. Ranked games (the daily) and race boards are never closed this way: each of them is
bounded by its own rules and closing one would take a ranked attempt away.

>>> OPEN_GAMES_PER_PLAYER
20
"""

from __future__ import annotations

import logging

from bot.core.context import Ctx
from bot.core.messages import reply
from bot.core.service import Service
from bot.core.session import Session
from bot.replies import Reply

log = logging.getLogger("tavolo.room")

#: open solo games one player may keep across all chats of a platform (six games a chat, so
#: three or four busy chats' worth)
OPEN_GAMES_PER_PLAYER = 20


async def make_room(core: Service, ctx: Ctx, opened: Session) -> list[Reply]:
    """After ``opened`` was started: close the player's oldest idle casual games beyond the
    cap. Returns the note of a game closed in this chat (the chat of the request); a game of
    another chat gets its note pushed there, in that chat's language."""
    platform, player = ctx.req.platform, ctx.user
    games = await core.store.sessions.open_solos_of(platform, player)
    excess = len(games) - OPEN_GAMES_PER_PLAYER
    notes: list[Reply] = []
    for record in games:  # the least recently touched first
        if excess <= 0:
            break
        if record.id == opened.id or record.ranked:
            continue
        session = await core.sessions.get(record.id)
        if session is None or any([await kept(session) for kept in core.registry.undo_forbidden]):
            continue  # a running race's board: the race decides when it ends
        async with core.sessions.lock(session.id):
            if not session.is_active or session.game is None:
                continue  # ended meanwhile (another process, the sweep): room made anyway
            await core.sessions.resign(session, ctx.now, touch=False)
        excess -= 1
        same_chat = record.chat_id == ctx.req.chat_id
        lang = ctx.lang if same_chat else await core.chat_language(platform, record.chat_id)
        note = reply(
            lang,
            "game.closed_for_room",
            name=session.name_of(player),
            game=core.game_name(lang, record.game_id),
            count=OPEN_GAMES_PER_PLAYER,
            word=record.game_id,
        )
        if same_chat:
            notes.append(note)
        else:
            await core.push(platform, record.chat_id, note)
    return notes
