"""Which person a command's words name: privacy by chat.

A command that takes a player (``/stats``, ``/challenge``, ``/kick``) finds them only

- through the platform's own mention (a Discord user option, a Telegram ``text_mention``),
  which the adapter writes as ``<@id>`` and lists in ``Request.mentions``; or
- by name among the people seen in this same chat (:meth:`PlayersStore.seen_in`).

So nobody is found from a chat they never wrote in, and a platform id typed as text
(``/stats 12345``, ``@12345``, a hand-typed ``<@12345>``) finds nobody: ids are not names.
"""

from __future__ import annotations

from bot.core.names import find_players, mentioned_id
from bot.replies import Request
from bot.storage import Player, Storage


def platform_mention(req: Request, query: str) -> Player | None:
    """The person a mention token of ``query`` stands for, when the platform delivered it."""
    user_id = mentioned_id(query)
    if user_id is None:
        return None
    for mention in req.mentions:
        if mention.user_id == user_id:
            return Player(mention.user_id, mention.name)
    return None


async def named_person(store: Storage, req: Request, query: str) -> Player | None:
    """The person ``query`` (from :func:`~bot.core.names.player_query`) names for a command
    in ``req``'s chat: a platform mention, else the most recently seen person of this chat
    whose whole name it is (any case, ``_`` for a space, accents optional). None: nobody."""
    if mentioned_id(query) is not None:
        return platform_mention(req, query)
    seen = await store.players.seen_in(req.platform, req.chat_id)
    found = find_players(query, [(p.user_id, p.name) for p in seen], starts=False)
    return next((p for p in seen if p.user_id == found[0]), None) if found else None
