"""The web page seen from the chat: links to its pages, ``/leaderboard web``, ``/web`` and
``/forgetme``.

The pages themselves are served by :mod:`bot.web`; this module only knows their addresses
(under ``Service.web_base_url``, set from ``WEB_BASE_URL`` or the local ``HTTP_PORT``) and the
commands that change what they show:

* ``/leaderboard web`` gives the chat's own leaderboards link (made on first use);
  ``/leaderboard web new`` (a chat admin, or anyone in a private chat) revokes it and gives a
  new one: the old link answers 404 from then on;
* ``/web`` gives the player's own page (once they have played a daily), ``/web hide`` takes
  them off every public page and ``/web show`` puts them back;
* ``/forgetme`` explains what will be deleted; ``/forgetme confirm`` deletes it.

>>> daily_path("canfield", "2026-11-25"), chat_path("abc"), replay_path("s1", 3)
('/daily/canfield/2026-11-25', '/chat/abc', '/replay/s1?step=3')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import engine
from bot import i18n
from bot.core.session import iso
from bot.replies import Reply
from bot.storage import ACCEPTED, ENDED, OVER, PlayerKey

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service

#: the word that confirms ``/forgetme`` (the same in every language: it is typed as shown)
CONFIRM_WORD = "confirm"
#: the name a forgotten player's seat shows in games shared with others
FORMER_PLAYER = "a former player"
#: ``/leaderboard web new``: a new link, the old one revoked
NEW_WORD = "new"


# ----- page addresses ------------------------------------------------------------------------
def daily_path(game_id: str, day: str) -> str:
    return f"/daily/{game_id}/{day}"


def player_path(public_id: str) -> str:
    return f"/player/{public_id}"


def replay_path(session_id: str, step: int | None = None) -> str:
    return f"/replay/{session_id}" + ("" if step is None else f"?step={step}")


def chat_path(token: str, period: str | None = None) -> str:
    return f"/chat/{token}" + ("" if period is None else f"?period={period}")


def url(core: Service, path: str) -> str | None:
    """The public address of a page, None when the web page is off."""
    base = core.web_base_url
    return None if not base else base.rstrip("/") + path


# ----- what the chat's replies carry ---------------------------------------------------------
def daily_link(core: Service, lang: str, game_id: str, day: str) -> str | None:
    """The line a daily result message ends with: where the day's ranking is."""
    address = url(core, daily_path(game_id, day))
    return None if address is None else i18n.t(lang, "web.link.daily", url=address)


async def leaderboard_link(
    core: Service, ctx: Ctx, games: list[str], scope: str, period: str
) -> Reply | None:
    """The reply after ``/leaderboard``'s table: the matching page (global: the day's daily
    page or the home page; this chat: its private page when it has one, else how to get it)."""
    if not core.web_base_url:
        return None
    lang = ctx.lang
    if scope == "global":
        day = ctx.now.date().isoformat()
        one_daily = len(games) == 1 and engine.game_info(games[0]).daily is not None
        path = daily_path(games[0], day) if one_daily else "/"
        return Reply(
            key="web.link.global", text=i18n.t(lang, "web.link.global", url=url(core, path))
        )
    token = await core.store.web.chat_link(ctx.req.platform, ctx.req.chat_id)
    if token is None:
        return Reply(key="web.link.ask", text=i18n.t(lang, "web.link.ask"))
    address = url(core, chat_path(token, period))
    return Reply(key="web.link.chat", text=i18n.t(lang, "web.link.chat", url=address))


async def player_link(core: Service, lang: str, platform: str, player_id: str) -> str | None:
    """The line ``/stats`` ends with: the player's page, when it may be shown."""
    if not core.web_base_url:
        return None
    key = PlayerKey(platform, player_id)
    if key not in await core.store.web.public_players([key], ACCEPTED):
        return None
    public_id = (await core.store.web.public_ids([key])).get(key)
    if public_id is None:  # the database was busy making it: the next /stats has it
        return None
    return i18n.t(lang, "web.link.player", url=url(core, player_path(public_id)))


# ----- commands ------------------------------------------------------------------------------
async def leaderboard_web(core: Service, ctx: Ctx, args: list[str]) -> list[Reply]:
    """``/leaderboard web [new]``: the chat's private leaderboards link."""
    if not core.web_base_url:
        return [core.refuse(ctx, "web.off")]
    if len(args) > 1 or (args and args[0].lower() != NEW_WORD):
        return [core.refuse(ctx, "web.leaderboard_usage")]
    platform, chat = ctx.req.platform, ctx.req.chat_id
    if args:
        if ctx.req.is_group and not ctx.req.is_admin:
            return [core.refuse(ctx, "web.admins_only")]
        token = await core.store.web.new_chat_link(platform, chat, iso(ctx.now))
        key = "web.chat_link_new"
    else:
        token = await core.store.web.chat_link_made(platform, chat, iso(ctx.now))
        key = "web.chat_link"
    reply = core.say(ctx, key, url=url(core, chat_path(token)))
    reply.params["token"] = token
    return [reply]


async def command(core: Service, ctx: Ctx, args: list[str]) -> list[Reply]:
    """``/web [hide|show]``."""
    platform, user = ctx.req.platform, ctx.user
    word = args[0].lower() if len(args) == 1 else ("" if not args else None)
    if word == "hide":
        await core.store.web.set_hidden(platform, user, True)
        return [core.private(ctx, "web.hidden")]
    if word == "show":
        await core.store.web.set_hidden(platform, user, False)
        return [core.private(ctx, "web.shown")]
    if word != "":
        return [core.refuse(ctx, "web.usage")]
    if not core.web_base_url:
        return [core.refuse(ctx, "web.off")]
    if await core.store.web.hidden(platform, user):
        return [core.private(ctx, "web.you_are_hidden")]
    line = await player_link(core, ctx.lang, platform, user)
    if line is None:
        return [core.private(ctx, "web.no_page")]
    return [Reply(key="web.link.player", text=line, visibility="private", to_user=user)]


async def forgetme(
    core: Service,
    ctx: Ctx,
    args: list[str],
    *,
    forget_images: Callable[[list[str]], None] | None = None,
) -> list[Reply]:
    """``/forgetme``: what will be deleted; ``/forgetme confirm``: delete it.
    ``forget_images``: drops this process's replay images of the games changed or deleted."""
    if not args:
        reply = core.private(ctx, "forgetme.ask", word=CONFIRM_WORD)
        reply.text += "\n\n" + i18n.t(ctx.lang, "forgetme.daily_note")
        return [reply]
    if len(args) != 1 or args[0].lower() != CONFIRM_WORD:
        return [core.refuse(ctx, "forgetme.usage", word=CONFIRM_WORD)]
    platform, user = ctx.req.platform, ctx.user
    if await core.store.web.open_tables_of(platform, user, (OVER, ENDED)):
        return [core.refuse(ctx, "forgetme.at_table")]
    # asked from a private chat: that chat is theirs too (a Discord DM's id is not theirs)
    private_chat = None if ctx.req.is_group else ctx.req.chat_id
    forgotten = await core.store.web.forget_player(
        platform, user, FORMER_PLAYER, ctx.now.date().isoformat(), private_chat
    )
    for session_id in forgotten.sessions:
        core.sessions.forget(session_id)  # a copy in memory still holds the player
    if forget_images is not None:
        forget_images(forgotten.sessions)
    reply = core.private(ctx, "forgetme.done")
    if forgotten.ranked_kept:  # the one thing kept: say so
        reply.text += "\n\n" + i18n.t(ctx.lang, "forgetme.daily_kept")
    reply.params["sessions"] = len(forgotten.sessions)
    reply.params["ranked_kept"] = forgotten.ranked_kept
    return [reply]
