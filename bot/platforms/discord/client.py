"""The Discord client wired to the core: its start-up (persistent buttons, slash commands and
their sync), and the interactions in: a slash command becomes a core text line, a button press
``Core.handle_button`` with its custom id, each acknowledged within Discord's 3 seconds (the core
gets ``ACK_BUDGET`` seconds, else the interaction is deferred first). Replies go out through
``Delivery``; the gateway links are ``GatewayLinks``'s."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.logs import pseudonym
from bot.platforms.discord.config import DiscordConfig
from bot.platforms.discord.delivery import TOKEN_LIFETIME, Delivery
from bot.platforms.discord.gateway import GatewayLinks
from bot.platforms.discord.messages import (
    PLATFORM,
    TavoloButton,
    _Answer,
    _Reachable,
    request_of,
    text,
)
from bot.platforms.discord.outbox import discord_outbox
from bot.platforms.discord.slash import CommandTranslator, register_commands
from bot.platforms.outbox import Bounded
from bot.replies import Mention, Reply, Request

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger(__name__)
#: seconds the core may take before an interaction is deferred (Discord allows 3)
ACK_BUDGET = 2.0
#: commands whose answer is private: defer them ephemerally when the core is slow
PRIVATE_COMMANDS = frozenset({"hand", "stats", "help", "rules", "web", "forgetme"})
#: boards whose latest delivery the adapter remembers (to never draw an older one over it)
BOARD_NOTES = 10_000


class TavoloClient(GatewayLinks, Delivery, discord.Client):
    """discord.py client wired to the core. ``setup_hook`` registers the persistent buttons and
    the slash commands and syncs them (to one guild when ``guild_id`` is set)."""

    def __init__(self, core: Core, config: DiscordConfig, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("guild_ready_timeout", 0.2)
        # a message sent without its own allowed_mentions pings nobody
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(intents=intents, **options)
        self.core = core
        self.config = config
        self.tree = app_commands.CommandTree(self)
        #: seconds the core gets before the interaction is deferred; 0 defers at once and None
        #: never defers (tests use both, so that their path does not hang on the clock)
        self.ack_budget: float | None = ACK_BUDGET
        self._reachable: dict[tuple[str, str], _Reachable] = {}
        self._inflight = 0
        self._idle = asyncio.Event()
        #: how many slash commands this client synced (0: none, it leaves that to the deploy)
        self.synced_commands = 0
        self._idle.set()
        # The core keeps every adapter's push; each keeps only its own platform's replies.
        core.set_push(self.push)
        core.platform_status["discord"] = self.connection_problem
        self.outbox = discord_outbox(self._deliver_queued, config.limits)
        core.metrics.track_outbox(PLATFORM, self.outbox.depth)
        core.metrics.track_update_queue(PLATFORM, lambda: self._inflight)
        core.metrics.track_gateway(self.shard_latencies)
        # (channel, session) -> the order (outbox stamp) of the board showing there now
        self._shown: dict[tuple[int, str], int] = Bounded(BOARD_NOTES)
        # (channel, session) -> (message id, stamp) of the board message posted last
        self._posted: dict[tuple[int, str], tuple[int, int]] = Bounded(BOARD_NOTES)
        # (channel, message gone) -> the message posted in its place
        self._moved: dict[tuple[int, int], int] = Bounded(BOARD_NOTES)
        #: each shard's gateway link: up from its READY or RESUMED to its disconnect
        self._links: dict[int, bool] = {}

    async def setup_hook(self) -> None:
        self.add_dynamic_items(TavoloButton)
        await self.tree.set_translator(CommandTranslator(self.core))
        register_commands(self.tree, self)
        if self.config.sync_commands:
            await self.sync_commands()
        else:
            log.info("slash commands not synced by this replica (python -m bot sync-commands)")

    async def sync_commands(self) -> int:
        """Register the slash commands with Discord (to one guild when ``guild_id`` is set);
        returns how many."""
        if self.config.guild_id is not None:
            guild = discord.Object(self.config.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info(
            "synced %d slash commands (%s)",
            len(synced),
            "guild" if self.config.guild_id else "global",
        )
        self.synced_commands = len(synced)
        return len(synced)

    # --- bookkeeping -----------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _working(self) -> Any:
        self._inflight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._inflight -= 1
            if self._inflight == 0:
                self._idle.set()

    async def drain(self) -> None:
        """Wait until no interaction is being handled and the outbox has sent what it holds."""
        await self._idle.wait()
        await self.outbox.drain()

    async def close(self) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._idle.wait(), 10)
        await self.outbox.close(10)
        await super().close()

    def _remember(self, interaction: discord.Interaction, req: Request) -> None:
        now = time.monotonic()
        self._reachable[(req.chat_id, req.user_id)] = _Reachable(interaction, now)
        for key, entry in list(self._reachable.items()):
            if now - entry.at > TOKEN_LIFETIME:
                del self._reachable[key]

    # --- entry points ------------------------------------------------------------------------
    async def on_command(self, interaction: discord.Interaction, name: str, *args: object) -> None:
        """A slash command: ``/name args`` as a core text line; a user option is written
        ``<@id>`` and listed in the request's mentions (Discord resolved that user)."""
        words = [
            f"<@{a.user_id}>" if isinstance(a, Mention) else str(a)
            for a in args
            if a is not None and a != ""
        ]
        line = " ".join([f"/{name}", *words])
        mentions = tuple(a for a in args if isinstance(a, Mention))
        req = dataclasses.replace(request_of(interaction), mentions=mentions)
        await self._handle(
            interaction,
            req,
            lambda: self.core.handle_text(req, line),
            ephemeral=name in PRIVATE_COMMANDS,
        )

    async def on_button(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A button press: the custom id is the core's button id."""
        req = request_of(interaction)
        await self._handle(
            interaction, req, lambda: self.core.handle_button(req, custom_id), ephemeral=True
        )

    async def _handle(
        self,
        interaction: discord.Interaction,
        req: Request,
        ask: Callable[[], Awaitable[list[Reply]]],
        *,
        ephemeral: bool,
    ) -> None:
        async with self._working():
            self._remember(interaction, req)
            answer = _Answer(interaction)
            task = asyncio.ensure_future(ask())
            if self.ack_budget is not None:
                if self.ack_budget <= 0:
                    await answer.defer(ephemeral)
                else:
                    done, _ = await asyncio.wait({task}, timeout=self.ack_budget)
                    if not done:
                        await answer.defer(ephemeral)
            try:
                replies = await task
            except Exception:
                log.exception("core failed in chat %s", pseudonym(req.chat_id))
                replies = [
                    Reply(
                        "error.internal",
                        text(answer.lang, "error.busy"),
                        visibility="private",
                        to_user=req.user_id,
                    )
                ]
            board_link = await self.deliver(replies, req, answer)
            await answer.finish(board_link)
