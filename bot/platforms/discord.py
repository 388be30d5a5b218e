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
posted before a restart keep working. Rate limits are handled by discord.py (it waits and
retries), so no move is lost to a 429.

>>> await serve(core, settings)   # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord import app_commands
from discord.app_commands import locale_str

from bot.commands import ALL_GAMES as GAMES
from bot.commands import COMMANDS, FACES, SOLO_GAMES, ascii_number
from bot.platforms.discord_texts import LANGUAGES, face_name, game_name, language_name, text
from bot.replies import BoardRef, Button, Reply, Request

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger(__name__)

PLATFORM = "discord"
#: seconds the core may take before an interaction is deferred (Discord allows 3)
ACK_BUDGET = 2.0
#: interaction tokens live 15 minutes; use them for private follow-ups a little less long
TOKEN_LIFETIME = 14 * 60
#: Discord's limits for classic message components
MAX_ROWS, MAX_PER_ROW, MAX_LABEL = 5, 5, 80
#: commands whose answer is private: defer them ephemerally when the core is slow
PRIVATE_COMMANDS = frozenset({"hand", "stats", "help", "rules"})
#: the core's turn announcement: its ``mentions`` are the player whose turn comes
TURN_KEY = "table.turn"
#: /challenge turn timer and /race time limit, in minutes (bot.md; the core checks them too)
MAX_TIMER_MINUTES = 24 * 60
MAX_RACE_MINUTES = 120
DEFAULT_TIMER_MINUTES = 3
#: what the /challenge ``timer`` option offers while typing (any 1-1440 may be typed)
TIMER_SUGGESTIONS = (1, 2, 3, 5, 10, 30, 60, 180, 720, 1440)
UNTIMED = "untimed"

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

_LOCALE_LANG = {
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.italian: "it",
}



# ----- settings and endpoints ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DiscordConfig:
    """What the adapter reads from the bot's settings (attributes, all optional but the token)."""

    token: str
    guild_id: int | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    default_language: str = "en"

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
        )


def configure_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Point discord.py at another REST base and gateway (a local test server).

    discord.py keeps both as class attributes, so this is process-wide.

    >>> configure_endpoints("http://127.0.0.1:8080", None)   # doctest: +SKIP
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


# ----- ids ---------------------------------------------------------------------------------------
def encode_board(channel_id: int, message_id: int) -> str:
    """The board message id the core stores.

    >>> encode_board(1, 2)
    '1:2'
    """
    return f"{channel_id}:{message_id}"


def decode_board(value: str) -> tuple[int | None, int] | None:
    """``(channel id or None, message id)`` of a stored board id; None when not ours.

    >>> decode_board("1:2"), decode_board("7"), decode_board("x")
    ((1, 2), (None, 7), None)
    """
    channel, _, message = value.rpartition(":")
    if ascii_number(message) is None or (channel and ascii_number(channel) is None):
        return None
    return (int(channel) if channel else None, int(message))


def lang_of(interaction: discord.Interaction) -> str:
    """The user's Discord language as one of ours (for autocomplete labels)."""
    return _LOCALE_LANG.get(interaction.locale, "en")


def request_of(interaction: discord.Interaction) -> Request:
    """The core's ``Request`` for an interaction: the channel (or thread) is the chat."""
    user = interaction.user
    permissions = interaction.permissions
    return Request(
        platform=PLATFORM,
        chat_id=str(interaction.channel_id),
        user_id=str(user.id),
        user_name=user.display_name,
        is_group=interaction.guild_id is not None,
        is_admin=bool(
            permissions.administrator or permissions.manage_guild or permissions.manage_channels
        ),
    )


# ----- buttons -----------------------------------------------------------------------------------
class TavoloButton(discord.ui.DynamicItem[discord.ui.Button], template=r"v1:[\x21-\x7e]{1,97}"):
    """A core button. Rebuilt from its custom id on every press, so it outlives restarts."""

    def __init__(self, custom_id: str, label: str = "\u200b", style: str = "secondary", row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=custom_id,
                label=(label or "\u200b")[:MAX_LABEL],
                style=_STYLES.get(style, discord.ButtonStyle.secondary),
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> TavoloButton:
        return cls(item.custom_id or match.group(0), item.label or "\u200b")

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        if isinstance(client, TavoloClient):
            await client.on_button(interaction, self.custom_id)


def build_view(buttons: Sequence[Button]) -> discord.ui.View | None:
    """The message components of a reply's buttons, rows kept, at most 5 rows of 5.

    A core row longer than 5 continues on the next row; what does not fit is dropped with a
    warning (the core keeps every action reachable by text commands too)."""
    if not buttons:
        return None
    rows: list[list[Button]] = []
    for row_number in sorted({b.row for b in buttons}):
        row = [b for b in buttons if b.row == row_number]
        rows.extend(row[i : i + MAX_PER_ROW] for i in range(0, len(row), MAX_PER_ROW))
    if len(rows) > MAX_ROWS:
        log.warning("dropping %d button rows that Discord cannot show", len(rows) - MAX_ROWS)
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows[:MAX_ROWS]):
        for button in row:
            view.add_item(TavoloButton(button.id, button.label, button.style, row=index))
    return view


def _file(reply: Reply) -> discord.File | None:
    if reply.image is None:
        return None
    return discord.File(io.BytesIO(reply.image), filename=reply.image_name)


def _content(reply: Reply) -> str:
    text = reply.text
    if reply.params.get("preformatted") and text:
        # Tables (leaderboards) line up only in a code block's fixed-width font.
        text = f"```\n{text.replace('```', 'ˋˋˋ')}\n```"
    mentions = " ".join(f"<@{user_id}>" for user_id in reply.mentions if ascii_number(user_id) is not None)
    return f"{mentions} {text}".strip() if mentions else text


_MENTION_RE = re.compile(r"<@!?(\d{5,20})>")


def _allowed(reply: Reply) -> discord.AllowedMentions:
    """Ping the users the core names (never @everyone or roles)."""
    ids = {u for u in reply.mentions if ascii_number(u) is not None} | set(_MENTION_RE.findall(reply.text))
    users = [discord.Object(int(u)) for u in sorted(ids)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


# ----- one interaction's answer ------------------------------------------------------------------
class _Answer:
    """Tracks how one interaction has been answered, so each reply takes the right road:
    the interaction response first, follow-ups after, and never a private text in a public
    "thinking" message."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.deferred_ephemeral: bool | None = None  # set by a "thinking" defer
        self.original_pending = False  # the "thinking" message still waits for its text
        self.said_something = False
        self.edited_own = False  # the pressed message was edited already

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def defer(self, ephemeral: bool) -> None:
        if self.done:
            return
        if self.interaction.type is discord.InteractionType.component:
            await self.interaction.response.defer()
        else:
            await self.interaction.response.defer(thinking=True, ephemeral=ephemeral)
            self.deferred_ephemeral = ephemeral
            self.original_pending = True

    async def send(self, reply: Reply, *, ephemeral: bool) -> discord.Message | None:
        kwargs: dict[str, Any] = {"content": _content(reply) or None, "allowed_mentions": _allowed(reply)}
        file = _file(reply)
        if file is not None:
            kwargs["file"] = file
        view = build_view(reply.buttons)
        if view is not None:
            kwargs["view"] = view
        self.said_something = True
        if not self.done:
            response = await self.interaction.response.send_message(ephemeral=ephemeral, **kwargs)
            resource = response.resource
            return resource if isinstance(resource, discord.Message) else None
        if self.original_pending and self.deferred_ephemeral != ephemeral:
            # The first follow-up would replace the "thinking" message and keep its visibility.
            await self.interaction.edit_original_response(content=text(self.lang, "ack.done"))
            self.original_pending = False
        self.original_pending = False
        return await self.interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)

    async def edit_own_message(self, reply: Reply) -> bool:
        """Edit the message whose button was pressed (board or ephemeral hand)."""
        kwargs = _edit_kwargs(reply)
        own = self.interaction.message
        self.edited_own = True
        if not self.done:
            await self.interaction.response.edit_message(**kwargs)
        elif own is None:
            return False
        elif own.flags.ephemeral:
            # By id, never "@original": after a reply that is the newest response message.
            await self.interaction.followup.edit_message(own.id, **kwargs)
        else:
            channel = self.interaction.client.get_partial_messageable(own.channel.id)
            await channel.get_partial_message(own.id).edit(**kwargs)
        return True

    @property
    def lang(self) -> str:
        return lang_of(self.interaction)

    async def finish(self, board_link: str | None) -> None:
        """Every interaction needs an answer: a silent one for buttons, a short one for commands."""
        if self.interaction.type is discord.InteractionType.component:
            if not self.done:
                await self.interaction.response.defer()
            return
        if self.said_something and not self.original_pending:
            return
        note = text(self.lang, "ack.board", link=board_link) if board_link else text(self.lang, "ack.done")
        if not self.done:
            await self.interaction.response.send_message(note, ephemeral=True)
        else:
            await self.interaction.edit_original_response(content=note)


def _edit_kwargs(reply: Reply) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "content": _content(reply) or None,
        "view": build_view(reply.buttons),
        "allowed_mentions": _allowed(reply),
    }
    file = _file(reply)
    kwargs["attachments"] = [file] if file is not None else []
    return kwargs


@dataclass(slots=True)
class _Reachable:
    """A user's latest interaction in a chat: its token sends them ephemeral follow-ups."""

    interaction: discord.Interaction
    at: float


# ----- the client --------------------------------------------------------------------------------
class TavoloClient(discord.Client):
    """discord.py client wired to the core. ``setup_hook`` registers the persistent buttons and
    the slash commands and syncs them (to one guild when ``guild_id`` is set)."""

    def __init__(self, core: Core, config: DiscordConfig, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("guild_ready_timeout", 0.2)
        super().__init__(intents=intents, **options)
        self.core = core
        self.config = config
        self.tree = app_commands.CommandTree(self)
        self.ack_budget = ACK_BUDGET  # seconds the core gets before the interaction is deferred
        self._reachable: dict[tuple[str, str], _Reachable] = {}
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # The core keeps one push callback; chain to the one set before (another platform).
        self._other_push = getattr(core, "_push", None)
        core.set_push(self.push)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(TavoloButton)
        await self.tree.set_translator(CommandTranslator(self.core))
        register_commands(self.tree, self)
        if self.config.guild_id is not None:
            guild = discord.Object(self.config.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d slash commands (%s)", len(synced), "guild" if self.config.guild_id else "global")

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
        """Wait until no interaction is being handled (before a clean shutdown)."""
        await self._idle.wait()

    async def close(self) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.drain(), 10)
        await super().close()

    def _remember(self, interaction: discord.Interaction, req: Request) -> None:
        now = time.monotonic()
        self._reachable[(req.chat_id, req.user_id)] = _Reachable(interaction, now)
        for key, entry in list(self._reachable.items()):
            if now - entry.at > TOKEN_LIFETIME:
                del self._reachable[key]

    # --- entry points ------------------------------------------------------------------------
    async def on_command(self, interaction: discord.Interaction, name: str, *args: object) -> None:
        """A slash command: ``/name args`` as a core text line."""
        line = " ".join([f"/{name}", *(str(a) for a in args if a is not None and a != "")])
        req = request_of(interaction)
        await self._handle(
            interaction, req, lambda: self.core.handle_text(req, line), ephemeral=name in PRIVATE_COMMANDS
        )

    async def on_button(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A button press: the custom id is the core's button id."""
        req = request_of(interaction)
        await self._handle(interaction, req, lambda: self.core.handle_button(req, custom_id), ephemeral=True)

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
            done, _ = await asyncio.wait({task}, timeout=self.ack_budget)
            if not done:
                await answer.defer(ephemeral)
            try:
                replies = await task
            except Exception:
                log.exception("core failed on %s", req)
                replies = [Reply("error.internal", text(answer.lang, "error.busy"), visibility="private", to_user=req.user_id)]
            board_link = await self.deliver(replies, req, answer)
            await answer.finish(board_link)

    # --- replies -------------------------------------------------------------------------------
    async def deliver(self, replies: Iterable[Reply], req: Request, answer: _Answer | None = None) -> str | None:
        """Send ``replies`` for a request in ``req.chat_id``; returns the link of the last board
        touched (for the acknowledgement of a command that only changed a board)."""
        link: str | None = None
        turn_of: list[str] = []
        for reply in replies:
            if reply.key == TURN_KEY:
                turn_of.extend(reply.mentions)
            try:
                if reply.is_private:
                    await self._private(reply, req, answer)
                elif reply.board is not None:
                    link = await self._board(reply, reply.board, req.chat_id, answer) or link
                elif answer is not None:
                    await answer.send(reply, ephemeral=False)
                else:
                    await self._channel(req.chat_id).send(
                        _content(reply), file=_file(reply) or discord.utils.MISSING,
                        view=build_view(reply.buttons) or discord.utils.MISSING,
                        allowed_mentions=_allowed(reply),
                    )
            except discord.HTTPException:
                log.exception("could not deliver %s in chat %s", reply.key, req.chat_id)
        try:
            await self._refresh_hands(req, answer, turn_of)
        except discord.HTTPException:
            log.exception("could not refresh hands in chat %s", req.chat_id)
        return link

    async def _refresh_hands(self, req: Request, answer: _Answer | None, turn_of: list[str]) -> None:
        """Cartas Maestras: a pressed hand message shows the hand after the move, and the
        player whose turn comes gets their hand privately when Discord lets us reach them."""
        own = answer.interaction.message if answer is not None else None
        if answer is not None and own is not None and own.flags.ephemeral and not answer.edited_own:
            hand = await self.core.hand_buttons(req)
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
            hand = await self.core.hand_buttons(who)
            if hand is not None:
                await self._private(hand, req, answer)

    async def push(self, platform: str, chat_id: str, reply: Reply) -> None:
        """The core's out-of-band messages (turn timers, races ending)."""
        if platform != PLATFORM:
            if self._other_push is not None and self._other_push != self.push:
                await self._other_push(platform, chat_id, reply)
            return
        req = Request(PLATFORM, chat_id, "", "")
        await self.deliver([reply], req, None)

    def _channel(self, chat_id: str) -> discord.PartialMessageable:
        return self.get_partial_messageable(int(chat_id), guild_id=None)

    async def _private(self, reply: Reply, req: Request, answer: _Answer | None) -> None:
        user = reply.to_user or req.user_id
        if answer is not None and user == req.user_id:
            own = answer.interaction.message
            if (
                reply.board is not None and own is not None and own.flags.ephemeral
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
            nudge = Reply("discord.nudge", text(self._chat_lang(reply), "nudge.hand", mention=f"<@{user}>"), mentions=[])
            await self._channel(req.chat_id).send(
                nudge.text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(user))])
            )

    def _chat_lang(self, reply: Reply) -> str:
        lang = reply.params.get("lang") if isinstance(reply.params, dict) else None
        return lang if lang in LANGUAGES else self.config.default_language

    async def _board(self, reply: Reply, board: BoardRef, chat_id: str, answer: _Answer | None) -> str | None:
        ref = decode_board(board.message_id) if board.message_id else None
        if ref is not None:
            channel_id = ref[0] or int(chat_id)
            message_id = ref[1]
            own = answer.interaction.message if answer is not None else None
            try:
                if answer is not None and own is not None and own.id == message_id:
                    await answer.edit_own_message(reply)
                else:
                    partial = self.get_partial_messageable(channel_id).get_partial_message(message_id)
                    await partial.edit(**_edit_kwargs(reply))
                return self._link(answer, channel_id, message_id)
            except discord.NotFound:
                log.info("board message %s is gone; posting a new one", board.message_id)
        if answer is not None:
            message = await answer.send(reply, ephemeral=False)
        else:
            message = None
        if message is None:
            message = await self._channel(chat_id).send(
                _content(reply), file=_file(reply) or discord.utils.MISSING,
                view=build_view(reply.buttons) or discord.utils.MISSING,
                allowed_mentions=_allowed(reply),
            )
        await self.core.board_posted(board.session_id, encode_board(message.channel.id, message.id))
        return None

    def _link(self, answer: _Answer | None, channel_id: int, message_id: int) -> str:
        guild = answer.interaction.guild_id if answer is not None else None
        return f"https://discord.com/channels/{guild or '@me'}/{channel_id}/{message_id}"


# ----- slash commands ----------------------------------------------------------------------------
def _d(name: str, english: str) -> locale_str:
    """A command description: English here, other languages from the core's command list."""
    return locale_str(english, kind="command", name=name)


def _o(key: str) -> locale_str:
    """An option description or choice name from the adapter's table."""
    return locale_str(text("en", key), kind="text", key=key)


class CommandTranslator(app_commands.Translator):
    """Localises descriptions for Discord's Spanish and Italian clients."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._commands: dict[str, dict[str, str]] = {}

    async def load(self) -> None:
        for lang in LANGUAGES:
            try:
                self._commands[lang] = {name: desc[:100] for name, desc in self.core.command_list(lang)}
            except Exception:  # a core without its texts yet: English only
                log.exception("no command list for %s", lang)
                self._commands[lang] = {}

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = _LOCALE_LANG.get(locale)
        if lang is None:
            return None
        if string.extras.get("kind") == "command":
            return self._commands.get(lang, {}).get(string.extras["name"])
        if string.extras.get("kind") == "text":
            return text(lang, string.extras["key"])[:100]
        return None


def _choices(interaction: discord.Interaction, current: str, items: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    needle = current.strip().lower()
    return [
        app_commands.Choice(name=label[:100], value=value)
        for value, label in items
        if not needle or needle in value.lower() or needle in label.lower()
    ][:25]


async def complete_solo_game(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    return _choices(interaction, current, ((g, game_name(lang, g)) for g in SOLO_GAMES))


async def complete_game(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    return _choices(interaction, current, ((g, game_name(lang, g)) for g in GAMES))


async def complete_faces(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    return _choices(interaction, current, ((f, face_name(lang, f)) for f in FACES))


async def complete_language(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    return _choices(interaction, current, ((code, f"{language_name(code, code)} ({language_name(code, lang)})") for code in LANGUAGES))


async def complete_timer(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Turn timer choices for /challenge: "untimed", the number being typed, common values."""
    lang = lang_of(interaction)
    typed = current.strip()
    number = ascii_number(typed)
    minutes = [number] if number is not None and 1 <= number <= MAX_TIMER_MINUTES else []
    minutes += [m for m in TIMER_SUGGESTIONS if m not in minutes and (number is None or str(m).startswith(typed))]

    def label(m: int) -> str:
        return text(lang, "timer.default" if m == DEFAULT_TIMER_MINUTES else "timer.minutes", minutes=m)

    items = [(UNTIMED, text(lang, "timer.untimed"))] + [(str(m), label(m)) for m in minutes]
    if number is not None:
        return [app_commands.Choice(name=name[:100], value=value) for value, name in items if value != UNTIMED][:25]
    return _choices(interaction, typed, items)


def timer_argument(value: str | None) -> str | None:
    """The core's /challenge word for the ``timer`` option: ``timer=<minutes>`` or ``untimed``.

    >>> timer_argument("5"), timer_argument(" Untimed "), timer_argument(None), timer_argument("5 m")
    ('timer=5', 'untimed', None, 'timer=5m')
    """
    if value is None or not value.strip():
        return None
    cleaned = "".join(value.split()).lower()
    return UNTIMED if cleaned == UNTIMED else f"timer={cleaned}"


_PERIODS = [app_commands.Choice(name=_o(f"choice.{p}"), value=p) for p in ("today", "week", "all")]
_SCOPES = [app_commands.Choice(name=_o(f"choice.{s}"), value=s) for s in ("here", "global")]


def _mention(user: discord.abc.User | None) -> str | None:
    return None if user is None else f"<@{user.id}>"


def register_commands(tree: app_commands.CommandTree, client: TavoloClient) -> None:
    """Add Tavolo's slash commands to ``tree``; each handler only forwards to the core."""
    run = client.on_command

    @tree.command(name="play", description=_d("play", "Start a solo game"))
    @app_commands.describe(game=_o("option.game"), faces=_o("option.faces"), deal=_o("option.deal"))
    @app_commands.autocomplete(game=complete_solo_game, faces=complete_faces)
    async def play(
        interaction: discord.Interaction, game: str, faces: str | None = None,
        deal: app_commands.Range[int, 0, 2_000_000_000] | None = None,
    ) -> None:
        await run(interaction, "play", game, faces, deal)

    @tree.command(name="daily", description=_d("daily", "Today's daily challenge"))
    @app_commands.describe(game=_o("option.game"))
    @app_commands.autocomplete(game=complete_solo_game)
    async def daily(interaction: discord.Interaction, game: str) -> None:
        await run(interaction, "daily", game)

    @tree.command(name="challenge", description=_d("challenge", "Open a Cartas Maestras table here"))
    @app_commands.describe(
        player1=_o("option.player"), player2=_o("option.player"), player3=_o("option.player"),
        timer=_o("option.timer"),
    )
    @app_commands.autocomplete(timer=complete_timer)
    async def challenge(
        interaction: discord.Interaction, player1: discord.User | None = None,
        player2: discord.User | None = None, player3: discord.User | None = None,
        timer: app_commands.Range[str, 1, 16] | None = None,
    ) -> None:
        players = (_mention(p) for p in (player1, player2, player3))
        await run(interaction, "challenge", *players, timer_argument(timer))

    @tree.command(name="race", description=_d("race", "Race on the same Solitario deal"))
    @app_commands.describe(minutes=_o("option.minutes"), senza_tempo=_o("option.senza_tempo"))
    async def race(
        interaction: discord.Interaction,
        minutes: app_commands.Range[int, 1, MAX_RACE_MINUTES] | None = None,
        senza_tempo: bool = False,
    ) -> None:
        await run(interaction, "race", minutes, "senza-tempo" if senza_tempo else None)

    @tree.command(name="kick", description=_d("kick", "Remove a player from the table"))
    @app_commands.describe(player=_o("option.kick_player"))
    async def kick(interaction: discord.Interaction, player: discord.User) -> None:
        await run(interaction, "kick", _mention(player))

    @tree.command(name="replay", description=_d("replay", "An animated replay of your last game"))
    @app_commands.describe(game=_o("option.replay_game"))
    @app_commands.autocomplete(game=complete_game)
    async def replay(interaction: discord.Interaction, game: str | None = None) -> None:
        await run(interaction, "replay", game)

    @tree.command(name="move", description=_d("move", "Play a move in text notation"))
    @app_commands.describe(text=_o("option.text"))
    async def move(interaction: discord.Interaction, text: app_commands.Range[str, 1, 100]) -> None:
        await run(interaction, "move", text)

    @tree.command(name="stats", description=_d("stats", "Games, wins, best scores, streaks"))
    @app_commands.describe(player=_o("option.player"))
    async def stats(interaction: discord.Interaction, player: discord.User | None = None) -> None:
        await run(interaction, "stats", _mention(player))

    @tree.command(name="leaderboard", description=_d("leaderboard", "Leaderboards"))
    @app_commands.describe(game=_o("option.game"), period=_o("option.period"), scope=_o("option.scope"))
    @app_commands.autocomplete(game=complete_game)
    @app_commands.choices(period=_PERIODS, scope=_SCOPES)
    async def leaderboard(
        interaction: discord.Interaction, game: str | None = None,
        period: app_commands.Choice[str] | None = None, scope: app_commands.Choice[str] | None = None,
    ) -> None:
        await run(interaction, "leaderboard", game, period and period.value, scope and scope.value)

    @tree.command(name="rules", description=_d("rules", "The rules of a game"))
    @app_commands.describe(game=_o("option.game"))
    @app_commands.autocomplete(game=complete_game)
    async def rules(interaction: discord.Interaction, game: str) -> None:
        await run(interaction, "rules", game)

    @tree.command(name="lang", description=_d("lang", "This channel's language"))
    @app_commands.describe(language=_o("option.language"))
    @app_commands.autocomplete(language=complete_language)
    async def lang(interaction: discord.Interaction, language: str) -> None:
        await run(interaction, "lang", language)

    simple = {
        "join": "Join the table", "leave": "Leave the table", "start": "Start the table's game",
        "hand": "Your hand (privately)", "undo": "Take back the last move", "hint": "A hint",
        "resign": "Give up this game", "board": "Post the board again", "help": "Commands and notation",
        "addbot": "Seat a computer player at the table", "end": "End this channel's table",
    }
    for name, english in simple.items():
        tree.add_command(_simple_command(name, english, run))
    # Every core command has a slash command: one the core gained after this list was
    # written is registered too, without options (its description from the catalogue).
    for name in COMMANDS:
        if tree.get_command(name) is None:
            tree.add_command(_simple_command(name, _english_description(name), run))


def _english_description(name: str) -> str:
    """A command's English description from the core's catalogue (its name if it has none)."""
    try:
        from bot import i18n

        return i18n.t("en", f"cmd.{name}")[:100]
    except (ImportError, KeyError):
        return name


def _simple_command(
    name: str, english: str, run: Callable[..., Awaitable[None]]
) -> app_commands.Command[Any, Any, None]:
    async def forward(interaction: discord.Interaction) -> None:
        await run(interaction, name)

    return app_commands.Command(name=name, description=_d(name, english), callback=forward)


# ----- running -------------------------------------------------------------------------------------
def create_client(core: Core, settings: Any, **options: Any) -> TavoloClient:
    """A client for ``core``, with endpoints and token redaction set from ``settings``."""
    config = DiscordConfig.from_settings(settings)
    configure_endpoints(config.api_base, config.gateway_url)
    install_token_redaction(config.token)
    return TavoloClient(core, config, **options)


async def serve(core: Core, settings: Any) -> None:
    """Run the Discord bot until it is stopped (``settings.discord_token`` must be set)."""
    client = create_client(core, settings)
    async with client:
        await client.start(client.config.token)
