"""The Discord adapter: slash commands and buttons in, boards and messages out (discord.py 2.7).

It only translates. A slash command becomes a core text line (``/move w3`` ->
``Core.handle_text(req, "/move w3")``), a button press becomes ``Core.handle_button`` with the
button's custom id, and each ``Reply`` becomes a Discord call:

* a board reply (``reply.board``) edits its board message in place (image + buttons), or posts
  a new one and tells the core its id (``"<channel id>:<message id>"``);
* a private reply goes only to its user, as an **ephemeral** message: in answer to that user's
  own interaction, or as an ephemeral follow-up of their latest one (a Cartas Maestras hand when
  their turn comes). Discord cannot show an ephemeral message to someone who has not interacted,
  so then the channel gets a mention telling them to use ``/hand``; nothing private is ever
  posted in the channel;
* any other reply is a channel message.

Every interaction is acknowledged within Discord's 3 seconds: the core gets ``ACK_BUDGET``
seconds to answer, and when it is slower the interaction is deferred first. Buttons are
``DynamicItem``\\ s matched by their ``v1:...`` custom id, registered in ``setup_hook``, so boards
posted before a restart keep working.

The answer to a user's own interaction (its response, follow-ups, the pressed message's edit)
goes out at once: Discord wants it within 3 s and it has its own bucket per interaction.
Everything else written to a channel (a board edited because of a command or another player's
move, the core's pushes: turn timers, races, nudges) goes through the channel's ``Outbox``
(``bot.platforms.discord_outbox``): channels served in turn, at most 40 waiting per channel, a
waiting board edit replaced by the newer board of the same game. discord.py keeps Discord's
per-route buckets and retries its 429s; a ``retry_after`` that reaches the outbox is waited out.
A board is never drawn older than the one shown: each board delivery carries the order in which
its reply reached the adapter, and an older one is not sent over a newer one.

>>> await DiscordPlatform().run(core, settings)   # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord import app_commands

from bot.core.commands import ascii_number
from bot.health import Health
from bot.logs import pseudonym
from bot.platforms.discord_messages import (  # noqa: F401 - the adapter's public names
    LANGUAGES,
    PLATFORM,
    TavoloButton,
    _allowed,
    _Answer,
    _content,
    _edit_kwargs,
    _file,
    _Reachable,
    build_view,
    decode_board,
    encode_board,
    lang_of,
    request_of,
    text,
)
from bot.platforms.discord_outbox import discord_outbox
from bot.platforms.discord_slash import (  # noqa: F401 - the adapter's public names
    MAX_TIMER_MINUTES,
    CommandTranslator,
    register_commands,
    timer_argument,
)
from bot.platforms.outbox import Bounded, OutboxLimits, OutItem
from bot.redact import add_secret
from bot.replies import BoardRef, Mention, Reply, Request

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger(__name__)
#: seconds the core may take before an interaction is deferred (Discord allows 3)
ACK_BUDGET = 2.0
#: interaction tokens live 15 minutes; use them for private follow-ups a little less long
TOKEN_LIFETIME = 14 * 60
#: commands whose answer is private: defer them ephemerally when the core is slow
PRIVATE_COMMANDS = frozenset({"hand", "stats", "help", "rules", "web", "forgetme"})
#: the core's turn announcement: its ``mentions`` are the player whose turn comes
TURN_KEY = "table.turn"
#: boards whose latest delivery the adapter remembers (to never draw an older one over it)
BOARD_NOTES = 10_000


# ----- settings and endpoints ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DiscordConfig:
    """What the adapter reads from the bot's settings (attributes, all optional but the token)."""

    token: str
    guild_id: int | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    default_language: str = "en"
    #: sharding (``DISCORD_SHARD_COUNT`` / ``DISCORD_SHARD_IDS``): None runs one plain client
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: the outbox's limits (None: Discord's, ``discord_limits()``)
    limits: OutboxLimits | None = None
    #: sync the slash commands at start (``Settings.syncs_discord_commands``): a replica of
    #: a sharded bot leaves it to the deploy step ``python -m bot sync-commands``
    sync_commands: bool = True

    @classmethod
    def from_settings(cls, settings: Any) -> DiscordConfig:
        """Read ``discord_token``, ``discord_guild_id``, ``discord_api_base``,
        ``discord_gateway_url`` and ``default_language`` from ``settings``.

        >>> from types import SimpleNamespace
        >>> DiscordConfig.from_settings(SimpleNamespace(discord_token="t", discord_guild_id="42")).guild_id
        42
        """
        guild = getattr(settings, "discord_guild_id", None)
        return cls(
            token=str(getattr(settings, "discord_token", "") or "").strip(),
            guild_id=int(guild) if guild not in (None, "") else None,
            api_base=getattr(settings, "discord_api_base", None) or None,
            gateway_url=getattr(settings, "discord_gateway_url", None) or None,
            default_language=getattr(settings, "default_language", None) or "en",
            shard_count=getattr(settings, "discord_shard_count", None),
            shard_ids=getattr(settings, "discord_shard_ids", None),
            limits=getattr(settings, "discord_limits", None),
            sync_commands=bool(getattr(settings, "syncs_discord_commands", True)),
        )


def configure_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Point discord.py at another REST base and gateway (a local test server).

    discord.py keeps both as class attributes, so this is process-wide.

    >>> before = discord.http.Route.BASE
    >>> configure_endpoints("http://127.0.0.1:8080", None)
    >>> discord.http.Route.BASE
    'http://127.0.0.1:8080/api/v10'
    >>> discord.http.Route.BASE = before  # process-wide: the example puts it back
    """
    if api_base:
        base = api_base.rstrip("/")
        if not re.search(r"/api/v\d+$", base):
            base += "/api/v10"
        discord.http.Route.BASE = base
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


_REDACTED: set[str] = set()


def install_token_redaction(token: str) -> None:
    """Replace ``token`` by ``[token]`` in every log record from now on, whoever logs it."""
    if not token or token in _REDACTED:
        return
    _REDACTED.add(token)
    add_secret(token)  # the root log handler masks it too, in every spelling
    previous = logging.getLogRecordFactory()

    def redact(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(token, "[token]")
        if token in repr(value):
            return repr(value).replace(token, "[token]")
        return value

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) for k, v in record.args.items()}
        return record

    logging.setLogRecordFactory(factory)


# ----- the client --------------------------------------------------------------------------------
class TavoloClient(discord.Client):
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

    def shard_latencies(self) -> list[tuple[int, float]]:
        """Each shard of this process with its heartbeat latency (an unsharded client is
        shard 0)."""
        latencies = getattr(self, "latencies", None)  # an AutoShardedClient's, per shard
        if latencies is not None:
            return [(int(shard), float(seconds)) for shard, seconds in latencies]
        return [(0, float(self.latency))]

    # --- readiness -------------------------------------------------------------------------
    def _shards(self) -> list[int]:
        """The shards this process runs (an unsharded client is shard 0)."""
        if isinstance(self, discord.AutoShardedClient):
            ids = self.shard_ids
            return sorted(ids) if ids is not None else list(range(self.shard_count or 1))
        return [0]

    def _latency(self, shard: int) -> str:
        if isinstance(self, discord.AutoShardedClient):
            info = self.get_shard(shard)
            seconds = info.latency if info is not None else float("nan")
        else:
            seconds = self.latency
        return f"{seconds * 1000:.0f} ms" if math.isfinite(seconds) else "no heartbeat yet"

    def connection_problem(self) -> Health:
        """Whether every shard of this process is connected (``/readyz``), with latencies."""
        if self.is_closed():
            return Health(False, "closed")
        shards = self._shards()
        sharded = isinstance(self, discord.AutoShardedClient)
        down = [shard for shard in shards if not self._links.get(shard)]
        up = [shard for shard in shards if shard not in down]
        latencies = ", ".join(
            f"shard {shard}: {self._latency(shard)}"
            if sharded
            else f"latency {self._latency(shard)}"
            for shard in up
        )
        if not down:
            return Health(True, latencies)
        missing = ("shards " if len(down) > 1 else "shard ") + ", ".join(map(str, down))
        what = f"{missing} not connected" if sharded else "not connected"
        return Health(False, f"{what} ({latencies})" if latencies else what)

    def _shard_link(self, shard: int, up: bool) -> None:
        if self._links.get(shard) != up:
            (log.info if up else log.warning)(
                "discord: shard %s %s", shard, "connected" if up else "disconnected"
            )
        self._links[shard] = up

    # discord.py's gateway events: a shard is up from its READY (or RESUMED) to its disconnect
    async def on_connect(self) -> None:
        if not isinstance(self, discord.AutoShardedClient):
            self._shard_link(0, True)

    async def on_resumed(self) -> None:
        await self.on_connect()

    async def on_disconnect(self) -> None:
        if not isinstance(self, discord.AutoShardedClient):
            self._shard_link(0, False)

    async def on_shard_connect(self, shard_id: int) -> None:
        self._shard_link(shard_id, True)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._shard_link(shard_id, True)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self._shard_link(shard_id, False)

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

    # --- replies -------------------------------------------------------------------------------
    async def deliver(
        self, replies: Iterable[Reply], req: Request, answer: _Answer | None = None
    ) -> str | None:
        """Send ``replies`` for a request in ``req.chat_id``; returns the link of the last board
        touched (for the acknowledgement of a command that only changed a board)."""
        link: str | None = None
        turn_of: list[str] = []
        stamp = self.outbox.stamp()  # the order of these replies, for their boards
        for reply in replies:
            if reply.key == TURN_KEY:
                turn_of.extend(reply.mentions)
            try:
                if reply.is_private:
                    await self._private(reply, req, answer)
                elif reply.board is not None:
                    link = await self._board(reply, reply.board, req.chat_id, answer, stamp) or link
                elif answer is not None:
                    await answer.send(reply, ephemeral=False)
                else:
                    self.outbox.put(int(req.chat_id), _Post(reply))
            except discord.HTTPException:
                log.exception("could not deliver %s in chat %s", reply.key, pseudonym(req.chat_id))
        try:
            await self._refresh_hands(req, answer, turn_of)
        except discord.HTTPException:
            log.exception("could not refresh hands in chat %s", pseudonym(req.chat_id))
        return link

    async def _refresh_hands(
        self, req: Request, answer: _Answer | None, turn_of: list[str]
    ) -> None:
        """Cartas Maestras: a pressed hand message shows the hand after the move, and the
        player whose turn comes gets their hand privately when Discord lets us reach them."""
        own = answer.interaction.message if answer is not None else None
        if answer is not None and own is not None and own.flags.ephemeral and not answer.edited_own:
            hand = await self.core.hand_buttons(req, flat=False)
            if hand is not None:
                await answer.edit_own_message(hand)
        for user_id in dict.fromkeys(turn_of):
            if user_id == req.user_id and answer is not None:
                if own is not None and own.flags.ephemeral:
                    continue  # their hand message was just refreshed in place
                who = req
            else:
                reachable = self._reachable.get((req.chat_id, user_id))
                if reachable is None or time.monotonic() - reachable.at >= TOKEN_LIFETIME:
                    continue  # the channel's turn announcement mentions them; /hand shows it
                who = request_of(reachable.interaction)
            hand = await self.core.hand_buttons(who, flat=False)
            if hand is not None:
                await self._private(hand, req, answer)

    async def push(self, platform: str, chat_id: str, reply: Reply) -> None:
        """The core's out-of-band messages (turn timers, races ending)."""
        if platform != PLATFORM:
            return
        req = Request(PLATFORM, chat_id, "", "")
        await self.deliver([reply], req, None)

    async def _private(self, reply: Reply, req: Request, answer: _Answer | None) -> None:
        user = reply.to_user or req.user_id
        if answer is not None and user == req.user_id:
            own = answer.interaction.message
            if (
                reply.board is not None
                and own is not None
                and own.flags.ephemeral
                and reply.board.message_id == encode_board(own.channel.id, own.id)
            ):
                await answer.edit_own_message(reply)
            else:
                await answer.send(reply, ephemeral=True)
            return
        reachable = self._reachable.get((req.chat_id, user))
        if reachable is not None and time.monotonic() - reachable.at < TOKEN_LIFETIME:
            # An ephemeral follow-up on their own latest interaction: only they see it.
            followup = _Answer(reachable.interaction)
            with contextlib.suppress(discord.NotFound):
                await followup.send(reply, ephemeral=True)
                return
        if ascii_number(user) is not None:
            nudge = Reply(
                "discord.nudge",
                text(self._chat_lang(reply), "nudge.hand", mention=f"<@{user}>"),
                mentions=[],
            )
            only = discord.AllowedMentions(users=[discord.Object(int(user))])
            self.outbox.put(int(req.chat_id), _Post(nudge, allowed=only))

    def _chat_lang(self, reply: Reply) -> str:
        lang = reply.params.get("lang") if isinstance(reply.params, dict) else None
        return lang if lang in LANGUAGES else self.config.default_language

    async def _board(
        self, reply: Reply, board: BoardRef, chat_id: str, answer: _Answer | None, stamp: int
    ) -> str | None:
        """A board: the pressed message edited at once as this interaction's answer; another
        board message edited through the outbox; a new board posted as the answer (or through
        the outbox for a push). Returns the link of an edited board."""
        ref = decode_board(board.message_id) if board.message_id else None
        if ref is not None:
            channel_id = ref[0] or int(chat_id)
            message_id = self._moved.get((channel_id, ref[1]), ref[1])
            own = answer.interaction.message if answer is not None else None
            key = (channel_id, board.session_id)
            queued = ("board", board.session_id)
            if (
                answer is not None
                and own is not None
                and own.id == message_id
                # an older edit of this board waiting or on its way would land after this one
                and not self.outbox.holds(channel_id, queued)
            ):
                if self._shown.get(key, 0) < stamp:
                    try:
                        await answer.edit_own_message(reply)
                        self._shown[key] = stamp
                    except discord.NotFound:  # deleted meanwhile: the outbox posts it anew
                        self.outbox.put(channel_id, _Post(reply), coalesce_key=queued, seq=stamp)
                # else: a newer board of this game is showing already; the press is answered
                # (silently) by ``_Answer.finish``
            else:
                # the press, if any, is answered silently and the board follows its elders
                self.outbox.put(channel_id, _Post(reply), coalesce_key=queued, seq=stamp)
            return self._link(answer, channel_id, message_id)
        message = await answer.send(reply, ephemeral=False) if answer is not None else None
        if message is None:
            self.outbox.put(
                int(chat_id), _Post(reply), coalesce_key=("board", board.session_id), seq=stamp
            )
            return None
        self._board_shown(message.channel.id, board.session_id, message.id, stamp)
        await self.core.board_posted(board.session_id, encode_board(message.channel.id, message.id))
        return None

    def _board_shown(self, channel_id: int, session_id: str, message_id: int, stamp: int) -> None:
        key = (channel_id, session_id)
        self._shown[key] = max(self._shown.get(key, 0), stamp)
        self._posted[key] = (message_id, self.outbox.stamp())

    async def _deliver_queued(self, channel_id: int, item: OutItem) -> None:
        """Send one item of a channel's outbox (errors are read by ``discord_outbox.classify``)."""
        post: _Post = item.payload
        reply = post.reply
        channel = self.get_partial_messageable(channel_id)
        if reply.board is None:
            await channel.send(
                _content(reply),
                file=_file(reply) or discord.utils.MISSING,
                view=build_view(reply.buttons) or discord.utils.MISSING,
                allowed_mentions=post.allowed or _allowed(reply),
            )
            return
        session = reply.board.session_id
        key = (channel_id, session)
        if self._shown.get(key, 0) > item.seq:
            return  # a newer board of this game went out meanwhile (as an interaction's answer)
        target = self._queued_target(channel_id, reply.board, item.seq)
        if target is not None:
            try:
                await channel.get_partial_message(target).edit(**_edit_kwargs(reply))
                self._shown[key] = max(self._shown.get(key, 0), item.seq)
                return
            except discord.NotFound:
                log.info("board message %s is gone; posting a new one", target)
            await self.outbox.limiter.wait_turn(channel_id)  # the new message is one more call
        message = await channel.send(
            _content(reply),
            file=_file(reply) or discord.utils.MISSING,
            view=build_view(reply.buttons) or discord.utils.MISSING,
            allowed_mentions=_allowed(reply),
        )
        if target is not None:
            self._moved[(channel_id, target)] = message.id
        self._board_shown(channel_id, session, message.id, item.seq)
        await self.core.board_posted(session, encode_board(channel_id, message.id))

    def _queued_target(self, channel_id: int, board: BoardRef, queued_seq: int) -> int | None:
        """Which message a queued board edits, None to post a new one."""
        ref = decode_board(board.message_id) if board.message_id else None
        if ref is None:
            # The core did not know the message yet; if one was posted since this reply was
            # queued, it is that one.
            posted = self._posted.get((channel_id, board.session_id))
            return posted[0] if posted is not None and posted[1] > queued_seq else None
        message_id = ref[1]
        while (channel_id, message_id) in self._moved:
            message_id = self._moved[(channel_id, message_id)]
        return message_id

    def _link(self, answer: _Answer | None, channel_id: int, message_id: int) -> str:
        guild = answer.interaction.guild_id if answer is not None else None
        return f"https://discord.com/channels/{guild or '@me'}/{channel_id}/{message_id}"


@dataclass(frozen=True, slots=True)
class _Post:
    """One item of a channel's outbox: a reply, and whom it may ping when that is not just
    the reply's own ``mentions`` (a nudge names its player in the text)."""

    reply: Reply
    allowed: discord.AllowedMentions | None = None


# ----- running -------------------------------------------------------------------------------------
class ShardedTavoloClient(TavoloClient, discord.AutoShardedClient):
    """The client running chosen shards of the bot in this process (``AutoShardedClient``):
    each process of a sharded bot runs its own ``DISCORD_SHARD_IDS`` out of
    ``DISCORD_SHARD_COUNT``, all on one database."""


def create_client(core: Core, settings: Any, **options: Any) -> TavoloClient:
    """A client for ``core``, with endpoints and token redaction set from ``settings``; a
    sharded one when ``discord_shard_count`` is set."""
    config = DiscordConfig.from_settings(settings)
    configure_endpoints(config.api_base, config.gateway_url)
    install_token_redaction(config.token)
    if config.shard_count is None:
        return TavoloClient(core, config, **options)
    shards: dict[str, Any] = {"shard_count": config.shard_count}
    if config.shard_ids is not None:
        shards["shard_ids"] = list(config.shard_ids)
    log.info(
        "discord: shards %s of %d in this process",
        ",".join(map(str, config.shard_ids or range(config.shard_count))),
        config.shard_count,
    )
    return ShardedTavoloClient(core, config, **shards, **options)


class DiscordPlatform:
    """Discord as an ``Adapter`` (``python -m bot`` runs it when ``DISCORD_TOKEN`` is set):
    the gateway client runs until ``stop`` closes it."""

    name = PLATFORM

    def __init__(self) -> None:
        self._client: TavoloClient | None = None
        self._stopped = False

    async def run(self, core: Core, settings: Any) -> None:
        client = create_client(core, settings)
        self._client = client
        if self._stopped:  # stopped before it started
            return
        async with client:
            await client.start(client.config.token)

    async def stop(self) -> None:
        self._stopped = True
        if self._client is not None and not self._client.is_closed():
            await self._client.close()
