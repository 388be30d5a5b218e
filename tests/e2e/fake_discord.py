"""A small fake Discord (gateway websocket + REST API) for end-to-end tests of the adapter.

It speaks just enough of Discord's API v10 for the real discord.py client to log in, sync
application commands, receive interactions and answer them, with the rules a player would
notice enforced: every interaction is acknowledged once (and within ``ack_deadline`` seconds
when one is given: Discord's is 3), ephemeral messages are seen only by the user whose
interaction created them, a view sent with an interaction response is stored under the
returned ``response_message_id``.

The deadline is a test's choice: ``running_table`` gives none, so a test on a starved machine
does not fail for being slow; the rule itself is tested where it is set (``test_discord_outbox``).
For the outbox it can also answer 429s (as Discord does, or from the edge without Discord's
``Via`` header), keep a per-channel bucket with ``X-RateLimit-*`` headers, and hold channel
writes until a test lets them go.

>>> fake = FakeDiscord()                                  # doctest: +SKIP
>>> await fake.start()                                    # doctest: +SKIP
>>> interaction = await fake.slash(alice, general, "play", game="solitario")  # doctest: +SKIP

Tests drive it as users do: ``slash`` (a slash command), ``press`` (a button),
``autocomplete``; then read ``visible_to(user)`` / ``channel_messages(channel)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

EPHEMERAL = 1 << 6
LOADING = 1 << 7
ACK_DEADLINE_SECONDS = 3.0
#: bounds on waiting for something that does come (the bot ready, an interaction acknowledged):
#: generous, so that a starved machine makes a test slow, never failed
GENEROUS_SECONDS = 60.0
READY_SECONDS = GENEROUS_SECONDS  # how long the bot may take to log in, sync and get READY
_SNOWFLAKES = itertools.count(1_100_000_000_000_000_000)


def snowflake() -> int:
    """A fresh id, increasing like Discord's."""
    return next(_SNOWFLAKES)


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses a body as JSON only when Content-Type is exactly application/json.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def _content_type(filename: str) -> str:
    """What Discord reports for an uploaded file, from its name."""
    extension = filename.rsplit(".", 1)[-1].lower()
    return {"gif": "image/gif", "webp": "image/webp", "jpg": "image/jpeg"}.get(
        extension, "image/png"
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status=status)


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    admin: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class FakeChannel:
    id: int
    name: str
    type: int = 0  # 0 text channel, 11 public thread
    parent_id: int | None = None

    def payload(self, guild_id: int) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        if self.type == 11:
            data["owner_id"] = "1"
            data["message_count"] = 0
            data["member_count"] = 1
            data["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2025-01-01T00:00:00+00:00",
                "locked": False,
            }
        return data


@dataclass
class FakeMessage:
    """A message as Discord stores it; ``visible_to`` is None for public messages."""

    id: int
    channel_id: int
    author: FakeUser
    content: str = ""
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)  # + "data": bytes
    embeds: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    interaction_id: int | None = None
    edits: int = 0
    #: the ``allowed_mentions`` the bot sent (None: not sent, Discord's default applies)
    allowed_mentions: dict[str, Any] | None = None
    #: users pinged when the message was created (Discord pings on creation, not on edits)
    pinged: set[int] = field(default_factory=set)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def custom_ids(self) -> list[str]:
        return [
            child["custom_id"]
            for row in self.components
            for child in row.get("components", [])
            if "custom_id" in child
        ]

    def button(self, label_or_id: str) -> str:
        """The custom id of the button whose label or custom id is ``label_or_id``."""
        for row in self.components:
            for child in row.get("components", []):
                if label_or_id in (child.get("label"), child.get("custom_id")):
                    return child["custom_id"]
        raise KeyError(f"no button {label_or_id!r} in message {self.id}: {self.custom_ids}")

    @property
    def labels(self) -> list[str]:
        return [
            child.get("label", "") for row in self.components for child in row.get("components", [])
        ]

    def image(self) -> bytes | None:
        return self.attachments[0]["data"] if self.attachments else None

    def alt_text(self) -> str | None:
        """The picture's description (its alt text), as Discord shows it to a screen reader."""
        return self.attachments[0].get("description") if self.attachments else None

    def payload(self, guild_id: int) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(guild_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": "2025-01-01T00:00:00+00:00",
            "edited_timestamp": "2025-01-01T00:00:01+00:00" if self.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [{k: v for k, v in a.items() if k != "data"} for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": 0 if self.interaction_id is None else 20,
            "flags": self.flags,
            "components": self.components,
        }


@dataclass
class FakeInteraction:
    """One interaction sent to the bot and what the bot did with it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete
    user: FakeUser
    channel: FakeChannel
    sent_at: float
    acked_at: float | None = None
    callback_type: int | None = None
    callback_data: dict[str, Any] = field(default_factory=dict)
    response_message_id: int | None = None
    component_message_id: int | None = None
    acked: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def ack_seconds(self) -> float:
        assert self.acked_at is not None, "interaction was never acknowledged"
        return self.acked_at - self.sent_at

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete answers."""
        return self.callback_data.get("choices", [])


class FakeDiscord:
    """Gateway + REST on 127.0.0.1 (random port). See the module docstring."""

    def __init__(self, ack_deadline: float | None = ACK_DEADLINE_SECONDS) -> None:
        #: seconds an interaction may take to be acknowledged (None: no limit)
        self.ack_deadline = ack_deadline
        self.application_id = snowflake()
        self.guild_id = snowflake()
        self.bot_user = FakeUser(self.application_id, "Tavolo", bot=True)
        self.owner = FakeUser(snowflake(), "owner")
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.by_token: dict[str, FakeInteraction] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}  # "global" | guild id -> commands
        self.requests: list[tuple[str, str]] = []  # (method, path) of every REST call
        self.auth_headers: set[str] = set()
        self.identified = asyncio.Event()
        #: the ``shard`` field of every IDENTIFY (None: an unsharded client)
        self.identified_shards: list[list[int] | None] = []
        self.rate_limit_next: dict[str, int] = {}  # method -> how many 429s to answer first
        #: method -> how many 429s to answer first as the edge does (no ``Via`` header:
        #: discord.py hands these to the caller instead of retrying)
        self.edge_rate_limit_next: dict[str, int] = {}
        self.retry_after = 0.05  # what those 429s ask to wait
        self.rate_limited: list[str] = []
        #: (time, method, path, status) of every REST call, status 0 while it is held
        self.request_log: list[tuple[float, str, str, int]] = []
        #: channel message writes (POST, PATCH) wait while this is clear
        self.channel_writes = asyncio.Event()
        self.channel_writes.set()
        #: (limit, seconds): a per-channel bucket for new messages, with X-RateLimit headers
        self.channel_bucket: tuple[int, float] | None = None
        self._bucket_windows: dict[int, tuple[float, int]] = {}
        #: new messages refused because the bot ignored the bucket's headers
        self.bucket_overruns: list[str] = []
        self.errors: list[str] = []
        #: an IDENTIFY is answered (READY) only while this is set: clear it to keep a shard
        #: that reconnects from coming back (``drop``)
        self.ready_allowed = asyncio.Event()
        self.ready_allowed.set()
        #: the gateway link of each shard (0 for an unsharded client), by its IDENTIFY
        self.shard_sockets: dict[int, web.WebSocketResponse] = {}
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ----- world ----------------------------------------------------------------------------
    def add_user(self, name: str, *, admin: bool = False) -> FakeUser:
        user = FakeUser(snowflake(), name, admin=admin)
        self.users[user.id] = user
        return user

    def add_channel(self, name: str, *, thread_of: FakeChannel | None = None) -> FakeChannel:
        channel = FakeChannel(
            snowflake(),
            name,
            type=11 if thread_of else 0,
            parent_id=thread_of.id if thread_of else None,
        )
        self.channels[channel.id] = channel
        return channel

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def visible_to(self, user: FakeUser, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Every message ``user`` can see (in ``channel``), oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.visible_to in (None, user.id)
            and (channel is None or m.channel_id == channel.id)
            and not m.flags & LOADING
        ]

    def channel_messages(self, channel: FakeChannel) -> list[FakeMessage]:
        """The public messages of ``channel``: what everyone there sees."""
        return [
            m for m in self.messages.values() if m.channel_id == channel.id and m.visible_to is None
        ]

    def ephemerals(self, user: FakeUser | None = None) -> list[FakeMessage]:
        return [
            m
            for m in self.messages.values()
            if m.visible_to is not None and (user is None or m.visible_to == user.id)
        ]

    # ----- server -----------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ----- gateway ----------------------------------------------------------------------------
    async def _send(
        self, ws: web.WebSocketResponse, op: int, data: Any, event: str | None = None
    ) -> None:
        payload: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
        if op == 0:
            self._seq += 1
            payload["s"] = self._seq
        await ws.send_str(json.dumps(payload))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await self._send(ws, 10, {"heartbeat_interval": 45000})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data["op"]
            if op == 1:
                await self._send(ws, 11, None)
            elif op == 2:
                self.auth_headers.add(data["d"]["token"])
                self.identified_shards.append(data["d"].get("shard"))
                await self.ready_allowed.wait()
                self.shard_sockets[(data["d"].get("shard") or [0])[0]] = ws
                ready = self._ready()
                if data["d"].get("shard") is not None:
                    ready["shard"] = data["d"]["shard"]  # Discord echoes a sharded IDENTIFY's shard
                await self._send(ws, 0, ready, "READY")
                await self._send(ws, 0, self._guild(), "GUILD_CREATE")
                self._sockets.append(ws)
                self.identified.set()
            elif op == 6:  # resume: we keep no backlog, ask for a fresh session
                await self._send(ws, 9, False)
        if ws in self._sockets:
            self._sockets.remove(ws)
        return ws

    async def drop(self, shard: int = 0) -> None:
        """Close a shard's gateway link as Discord does when it goes away (close code 4000:
        the client reconnects, and identifies again once ``ready_allowed`` is set)."""
        await self.shard_sockets.pop(shard).close(code=4000)

    def _ready(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": f"session-{snowflake()}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def _guild(self) -> dict[str, Any]:
        channels = [c.payload(self.guild_id) for c in self.channels.values() if c.type != 11]
        threads = [c.payload(self.guild_id) for c in self.channels.values() if c.type == 11]
        return {
            "id": str(self.guild_id),
            "name": "Tavolo test guild",
            "icon": None,
            "owner_id": str(self.owner.id),
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "permissions": str(0x1_0000_0000 - 1),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": len(self.users) + 1,
            "members": [self._member(self.bot_user)],
            "channels": channels,
            "threads": threads,
            "presences": [],
            "voice_states": [],
            "large": False,
            "unavailable": False,
            "joined_at": "2025-01-01T00:00:00+00:00",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
        }

    def _member(self, user: FakeUser) -> dict[str, Any]:
        permissions = (1 << 3) if user.admin else (1 << 11) | (1 << 15) | (1 << 31)
        return {
            "user": user.payload(),
            "roles": [],
            "joined_at": "2025-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(permissions),
        }

    async def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        await asyncio.wait_for(self.identified.wait(), GENEROUS_SECONDS)
        if not self._sockets:
            raise RuntimeError("no bot is connected to the fake gateway")
        await self._send(self._sockets[-1], 0, data, event)

    # ----- interactions -----------------------------------------------------------------------
    async def _interact(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None = None,
        locale: str = "en-US",
    ) -> FakeInteraction:
        interaction_id = snowflake()
        token = f"itoken-{interaction_id}"
        record = FakeInteraction(interaction_id, token, kind, user, channel, time.monotonic())
        if message is not None:
            record.component_message_id = message.id
        self.interactions[interaction_id] = record
        self.by_token[token] = record
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(self.guild_id),
            "channel_id": str(channel.id),
            "channel": channel.payload(self.guild_id),
            "member": self._member(user),
            "app_permissions": str((1 << 40) - 1),
            "locale": locale,
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
        }
        if message is not None:
            payload["message"] = message.payload(self.guild_id)
        await self._dispatch("INTERACTION_CREATE", payload)
        await asyncio.wait_for(record.acked.wait(), GENEROUS_SECONDS)
        return record

    def _command(self, name: str) -> dict[str, Any]:
        for scope in (str(self.guild_id), "global"):
            for command in self.commands.get(scope, []):
                if command["name"] == name:
                    return command
        raise KeyError(f"command /{name} was not synced; have {self.command_names()}")

    def command_names(self) -> list[str]:
        return sorted(c["name"] for cs in self.commands.values() for c in cs)

    def _options(
        self, command: dict[str, Any], values: dict[str, Any], focused: str | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        declared = {o["name"]: o for o in command.get("options", [])}
        options, resolved = [], {"users": {}, "members": {}}
        for name, value in values.items():
            if name not in declared:
                raise KeyError(f"/{command['name']} has no option {name!r}; has {sorted(declared)}")
            kind = declared[name]["type"]
            if isinstance(value, FakeUser):
                resolved["users"][str(value.id)] = value.payload()
                member = self._member(value)
                member.pop("user")
                resolved["members"][str(value.id)] = member
                value = str(value.id)
            option: dict[str, Any] = {"name": name, "type": kind, "value": value}
            if name == focused:
                option["focused"] = True
            options.append(option)
        return options, resolved

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        *,
        locale: str = "en-US",
        **values: Any,
    ) -> FakeInteraction:
        """``user`` runs ``/name`` with option ``values`` in ``channel``."""
        command = self._command(name)
        options, resolved = self._options(command, values, None)
        data = {
            "id": command["id"],
            "name": name,
            "type": 1,
            "options": options,
            "resolved": resolved,
        }
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        return await self._interact(2, user, channel, data, locale=locale)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        focused: str,
        *,
        locale: str = "en-US",
        **values: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``user`` types option ``focused`` of ``/name``."""
        command = self._command(name)
        options, resolved = self._options(command, values, focused)
        data = {
            "id": command["id"],
            "name": name,
            "type": 1,
            "options": options,
            "resolved": resolved,
        }
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        record = await self._interact(4, user, channel, data, locale=locale)
        return record.choices

    async def press(self, user: FakeUser, message: FakeMessage, custom_id: str) -> FakeInteraction:
        """``user`` presses the button ``custom_id`` on ``message``."""
        if message.visible_to not in (None, user.id):
            raise PermissionError(f"{user.name} cannot see message {message.id}")
        if custom_id not in message.custom_ids:
            raise KeyError(f"no button {custom_id!r} on message {message.id}: {message.custom_ids}")
        channel = self.channels[message.channel_id]
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, user, channel, data, message=message)

    # ----- REST -------------------------------------------------------------------------------
    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """(JSON payload, uploaded files) of a JSON or multipart request."""
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            files: list[dict[str, Any]] = []
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    files.append(
                        {
                            "field": part.name,
                            "filename": part.filename,
                            "data": bytes(await part.read()),
                        }
                    )
            return payload, files
        if request.can_read_body:
            return await request.json(), []
        return {}, []

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        self.requests.append((method, path))
        entry = len(self.request_log)
        self.request_log.append((time.monotonic(), method, path, 0))
        response = await self._answer_rest(request, method, path)
        self.request_log[entry] = (*self.request_log[entry][:3], response.status)
        return response

    async def _answer_rest(
        self, request: web.Request, method: str, path: str
    ) -> web.StreamResponse:
        auth = request.headers.get("Authorization")
        if auth:
            self.auth_headers.add(auth)
        channel_write = path.startswith("/channels/") and method in ("POST", "PATCH")
        if channel_write:
            await self.channel_writes.wait()
        if not path.startswith("/interactions/"):
            for limited, via in ((self.rate_limit_next, True), (self.edge_rate_limit_next, False)):
                if limited.get(method, 0) > 0:
                    limited[method] -= 1
                    self.rate_limited.append(f"{method} {path}")
                    return self._429(via=via)
        bucket: dict[str, str] = {}
        if channel_write and method == "POST" and self.channel_bucket is not None:
            bucket = self._take_from_bucket(int(path.split("/")[2]))
            if bucket["X-RateLimit-Remaining"] == "-1":
                self.bucket_overruns.append(f"{method} {path}")
                return self._429(via=True, reset_after=float(bucket["X-RateLimit-Reset-After"]))
        payload, files = await self._body(request)
        parts = path.strip("/").split("/")
        try:
            response = await self._route(method, parts, payload, files, request)
        except KeyError as exc:
            self.errors.append(f"{method} {path}: {exc}")
            return _error(404, 10008, f"Unknown: {exc}")
        response.headers.update(bucket)
        return response

    def _429(self, *, via: bool, reset_after: float | None = None) -> web.Response:
        """Discord's 429 (with its ``Via`` header, which discord.py trusts and retries) or the
        edge's (without: discord.py raises it to the caller)."""
        wait = self.retry_after if reset_after is None else reset_after
        headers = {
            "Retry-After": f"{wait:.3f}",
            "X-RateLimit-Scope": "user",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{wait:.3f}",
            "X-RateLimit-Bucket": "fakebucket",
        }
        if via:
            headers["Via"] = "1.1 google"
        body = {"message": "You are being rate limited.", "retry_after": wait, "global": False}
        return _json(body, status=429, headers=headers)

    def _take_from_bucket(self, channel_id: int) -> dict[str, str]:
        """One new message from ``channel_id``'s bucket: its X-RateLimit headers (remaining
        ``-1``: the bucket was spent, the request is refused)."""
        assert self.channel_bucket is not None
        limit, seconds = self.channel_bucket
        now = time.monotonic()
        start, used = self._bucket_windows.get(channel_id, (now, 0))
        if now - start >= seconds:
            start, used = now, 0
        used += 1
        if used <= limit:
            self._bucket_windows[channel_id] = (start, used)
        return {
            "X-RateLimit-Bucket": f"messages-{channel_id}",
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(limit - used),
            "X-RateLimit-Reset-After": f"{max(start + seconds - now, 0.001):.3f}",
        }

    async def _route(
        self,
        method: str,
        parts: list[str],
        payload: dict[str, Any],
        files: list[dict[str, Any]],
        request: web.Request,
    ) -> web.StreamResponse:
        match parts:
            case ["users", "@me"]:
                return _json(self.bot_user.payload())
            case ["oauth2", "applications", "@me"] | ["applications", "@me"]:
                return _json(self._application())
            case ["applications", _, "guilds", guild, "commands"] if method == "PUT":
                return _json(self._store_commands(guild, payload))
            case ["applications", _, "commands"] if method == "PUT":
                return _json(self._store_commands("global", payload))
            case ["applications", _, "guilds", guild, "commands"]:
                return _json(self.commands.get(guild, []))
            case ["applications", _, "commands"]:
                return _json(self.commands.get("global", []))
            case ["interactions", interaction_id, token, "callback"]:
                return self._callback(int(interaction_id), token, payload, files, request)
            case ["webhooks", _, token] if method == "POST":
                return self._followup(token, payload, files)
            case ["webhooks", _, token, "messages", which]:
                return self._webhook_message(method, token, which, payload, files)
            case ["channels", channel, "messages"] if method == "POST":
                message = self._new_message(int(channel), payload, files)
                return _json(message.payload(self.guild_id))
            case ["channels", channel, "messages", message_id]:
                message = self.messages[int(message_id)]
                if message.channel_id != int(channel) or message.visible_to is not None:
                    raise KeyError(message_id)
                if method == "PATCH":
                    if message.author.id != self.bot_user.id:
                        return _error(403, 50005, "Cannot edit a message authored by another user")
                    self._edit(message, payload, files)
                elif method == "DELETE":
                    del self.messages[message.id]
                    return web.Response(status=204)
                return _json(message.payload(self.guild_id))
            case ["channels", channel]:
                return _json(self.channels[int(channel)].payload(self.guild_id))
        self.errors.append(f"unhandled {method} /{'/'.join(parts)}")
        return _error(404, 0, "404: Not Found")

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": "Tavolo",
            "description": "",
            "icon": None,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "interactions_endpoint_url": None,
            "summary": "",
        }

    def _store_commands(self, scope: str, payload: Any) -> list[dict[str, Any]]:
        stored = []
        for command in payload:
            entry = dict(command)
            entry.update(id=str(snowflake()), application_id=str(self.application_id), version="1")
            entry.setdefault("type", 1)
            entry.setdefault("options", [])
            entry.setdefault("default_member_permissions", None)
            entry.setdefault("nsfw", False)
            if scope != "global":
                entry["guild_id"] = scope
            stored.append(entry)
        self.commands[scope] = stored
        return stored

    def _new_message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: list[dict[str, Any]],
        *,
        visible_to: int | None = None,
        interaction_id: int | None = None,
    ) -> FakeMessage:
        if channel_id not in self.channels:
            raise KeyError(f"channel {channel_id}")
        flags = int(payload.get("flags") or 0)
        message = FakeMessage(
            snowflake(),
            channel_id,
            self.bot_user,
            flags=flags,
            visible_to=visible_to if flags & EPHEMERAL else None,
            interaction_id=interaction_id,
        )
        self._edit(message, payload, files, count=False)
        message.pinged = pinged_users(message.content, message.allowed_mentions)
        self.messages[message.id] = message
        return message

    def _edit(
        self,
        message: FakeMessage,
        payload: dict[str, Any],
        files: list[dict[str, Any]],
        count: bool = True,
    ) -> None:
        if "content" in payload:
            message.content = payload["content"] or ""
        if "allowed_mentions" in payload:
            message.allowed_mentions = payload["allowed_mentions"]
        if "components" in payload:
            message.components = payload["components"] or []
        if "embeds" in payload:
            message.embeds = payload["embeds"] or []
        if "attachments" in payload or files:
            kept = {str(a.get("id")) for a in payload.get("attachments", [])}
            attachments = [a for a in message.attachments if str(a["id"]) in kept]
            # a new file is named in the payload by its upload's index, with its alt text
            described = {
                str(a.get("id")): a.get("description") for a in payload.get("attachments", [])
            }
            for index, upload in enumerate(files):
                attachment_id = snowflake()
                field_index = str(upload.get("field") or "").removeprefix("files[").rstrip("]")
                description = described.get(field_index, described.get(str(index)))
                if description is not None and len(description) > 1024:
                    self.errors.append("attachment description longer than 1024")
                attachments.append(
                    {
                        "id": str(attachment_id),
                        **({"description": description} if description is not None else {}),
                        "filename": upload["filename"],
                        "size": len(upload["data"]),
                        "url": f"https://cdn.fake/{attachment_id}/{upload['filename']}",
                        "proxy_url": f"https://media.fake/{attachment_id}/{upload['filename']}",
                        "content_type": _content_type(upload["filename"] or ""),
                        "data": upload["data"],
                    }
                )
            message.attachments = attachments
        if count:
            message.edits += 1
            message.flags &= ~LOADING

    def _callback(
        self,
        interaction_id: int,
        token: str,
        body: dict[str, Any],
        files: list[dict[str, Any]],
        request: web.Request,
    ) -> web.Response:
        record = self.interactions[interaction_id]
        if record.token != token:
            return _error(401, 50027, "Invalid Webhook Token")
        if record.acked_at is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        record.acked_at = time.monotonic()
        if self.ack_deadline is not None and record.acked_at - record.sent_at > self.ack_deadline:
            self.errors.append(
                f"interaction {interaction_id} acknowledged after {self.ack_deadline} s"
            )
            return _error(404, 10062, "Unknown interaction")
        kind = body["type"]
        data = body.get("data") or {}
        record.callback_type, record.callback_data = kind, data
        message: FakeMessage | None = None
        if kind in (4, 5):  # a new message (5: "thinking" until the first follow-up)
            message = self._new_message(
                record.channel.id,
                data,
                files,
                visible_to=record.user.id,
                interaction_id=interaction_id,
            )
            if kind == 5:
                message.flags |= LOADING
        elif kind in (6, 7) and record.component_message_id is not None:
            message = self.messages[record.component_message_id]
            if kind == 7:
                self._edit(message, data, files)
        if message is not None:
            record.response_message_id = message.id
        record.acked.set()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction_id),
                "type": record.type,
                "response_message_id": None if message is None else str(message.id),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
        }
        if message is not None and kind in (4, 7):
            answer["resource"] = {"type": kind, "message": message.payload(self.guild_id)}
        else:
            answer["resource"] = {"type": kind}
        return _json(answer)

    def _followup(
        self, token: str, payload: dict[str, Any], files: list[dict[str, Any]]
    ) -> web.Response:
        record = self.by_token[token]
        if record.acked_at is None:
            return _error(404, 10015, "Unknown Webhook")
        original = self.messages.get(record.response_message_id or 0)
        if record.callback_type == 5 and original is not None and original.flags & LOADING:
            # The first follow-up after a "thinking" defer replaces the loading message.
            self._edit(original, payload, files)
            return _json(original.payload(self.guild_id))
        message = self._new_message(
            record.channel.id,
            payload,
            files,
            visible_to=record.user.id,
            interaction_id=record.id,
        )
        return _json(message.payload(self.guild_id))

    def _webhook_message(
        self,
        method: str,
        token: str,
        which: str,
        payload: dict[str, Any],
        files: list[dict[str, Any]],
    ) -> web.Response:
        record = self.by_token[token]
        if which == "@original":
            message_id = record.response_message_id or record.component_message_id
        else:
            message_id = int(which)
        message = self.messages[message_id or 0]
        if method == "PATCH":
            self._edit(message, payload, files)
        elif method == "DELETE":
            del self.messages[message.id]
            return web.Response(status=204)
        return _json(message.payload(self.guild_id))


# ----- the bot against the fake ----------------------------------------------------------------
TOKEN = "MTE0.fake-bot-token.s3cr3t-value-never-logged"


def pinged_users(content: str, allowed: dict[str, Any] | None) -> set[int]:
    """The users a new message pings, by Discord's rules: a ``<@id>`` in the content pings that
    user unless ``allowed_mentions`` leaves them out (its ``parse`` list with "users" allows
    every mentioned user; else only its ``users`` ids)."""
    mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", content)}
    if allowed is None:
        return mentioned
    if "users" in (allowed.get("parse") or []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users") or []}


def render_view(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
    """A PNG carrying ``view`` as text, in place of the real drawing (so a test can tell exactly
    which cards every image shows, and to whom)."""
    import io

    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text("view", json.dumps(view))
    out = io.BytesIO()
    Image.new("RGB", (4, 4)).save(out, "PNG", pnginfo=info)
    return out.getvalue()


def view_of(message: FakeMessage) -> dict[str, Any] | None:
    """The view drawn on a message's picture by :func:`render_view` (None: no picture)."""
    import io

    from PIL import Image

    data = message.image()
    if data is None:
        return None
    return json.loads(Image.open(io.BytesIO(data)).text["view"])


class Table:
    """A fake Discord with the bot (core + client) running against it."""

    def __init__(self, fake: FakeDiscord, db_url: str) -> None:
        self.fake = fake
        self.db_url = db_url
        self.core: Any = None
        self.client: Any = None
        self.task: asyncio.Task[None] | None = None
        self.renderer = render_view
        self._client_context = contextlib.AsyncExitStack()
        #: extra settings for the client (sharding: ``discord_shard_count`` / ``_ids``)
        self.settings: dict[str, Any] = {}
        #: the client's ``ack_budget``: None waits for the core's whole answer before
        #: acknowledging (never defers), 0 always defers first; so which path an interaction
        #: takes does not depend on how busy the machine is. Production's is ``ACK_BUDGET``.
        self.ack_budget: float | None = None

    async def start_bot(self) -> None:
        from types import SimpleNamespace

        from bot.app import open_core
        from bot.platforms.discord import create_client

        self.fake.identified.clear()
        self.core = await open_core(self.db_url, renderer=self.renderer, sweep_interval=None)
        settings = SimpleNamespace(
            discord_token=TOKEN,
            discord_guild_id=str(self.fake.guild_id),
            discord_api_base=self.fake.api_base,
            discord_gateway_url=self.fake.gateway_url,
            **self.settings,
        )
        self.client = create_client(self.core, settings)
        self.client.ack_budget = self.ack_budget
        # Started as ``bot.platforms.discord.serve`` starts it: entering the client's context
        # makes its asyncio state (the ready event among it) on this loop before anything waits
        # on it. Without that, waiting for readiness depended on the new task running first,
        # which Python 3.12's ``asyncio.wait_for`` (it awaits in place) no longer lets happen.
        self._client_context = contextlib.AsyncExitStack()
        await self._client_context.enter_async_context(self.client)
        self.task = asyncio.create_task(self.client.start(TOKEN))
        try:
            await self._until_ready()
        except BaseException:
            with contextlib.suppress(Exception):  # the error that matters is the one raised here
                await self.stop_bot()
            raise

    async def _until_ready(self) -> None:
        """Wait for discord.py's own readiness (READY received, guilds loaded) for at most
        ``READY_SECONDS``. If the client stops first (a login or gateway error), raise its error
        at once instead of waiting out the time."""
        assert self.task is not None
        ready = asyncio.create_task(self.client.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, self.task},
            timeout=READY_SECONDS,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if ready in done:
            ready.result()
            return
        ready.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ready
        if self.task in done:
            self.task.result()  # the client's own error, if it raised one
            raise RuntimeError("the Discord client stopped before it was ready")
        raise TimeoutError(f"the bot was not ready {READY_SECONDS:.0f} s after it started")

    async def stop_bot(self) -> None:
        """Close the client as a shutdown does, then the core; raises the client's error, if any."""
        try:
            await self.client.close()
            assert self.task is not None
            await asyncio.wait_for(self.task, GENEROUS_SECONDS)
        finally:
            await self._client_context.aclose()
            await self.core.close()

    async def slash(self, user: FakeUser, channel: FakeChannel, name: str, **options: Any) -> Any:
        record = await self.fake.slash(user, channel, name, **options)
        await self.client.drain()
        return record

    async def press(self, user: FakeUser, message: FakeMessage, custom_id: str) -> Any:
        record = await self.fake.press(user, message, custom_id)
        await self.client.drain()
        return record

    def board(self, channel: FakeChannel) -> FakeMessage:
        """The newest public board (a message whose picture is a drawn view) in ``channel``."""
        boards = [
            m
            for m in self.fake.channel_messages(channel)
            if m.attachments and m.attachments[0]["filename"].endswith(".png")
        ]
        assert boards, "no board in the channel"
        return boards[-1]


async def running_table(
    tmp_path: Any,
    caplog: Any,
    settings: dict[str, Any] | None = None,
    ack_deadline: float | None = None,
) -> Any:
    """An async generator for a pytest fixture: a started fake Discord with the bot logged in;
    afterwards, checks what must hold in every test (no protocol error, every interaction
    acknowledged, within ``ack_deadline`` when one is given, the token never logged)."""
    import logging

    caplog.set_level(logging.DEBUG)
    fake = FakeDiscord(ack_deadline)
    await fake.start()
    running = Table(fake, f"sqlite:///{tmp_path}/tavolo.db")
    running.settings.update(settings or {})
    try:
        await running.start_bot()
    except BaseException:
        await fake.stop()
        raise
    yield running
    await running.stop_bot()
    await fake.stop()
    assert fake.errors == []
    for interaction in fake.interactions.values():
        assert interaction.acked_at is not None, "an interaction was never acknowledged"
        if ack_deadline is not None:
            assert interaction.ack_seconds <= ack_deadline
    assert TOKEN not in caplog.text
    assert f"Bot {TOKEN}" in fake.auth_headers  # the bot did use the token
