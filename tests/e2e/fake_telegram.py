"""A fake Telegram Bot API server for end-to-end tests of the Telegram adapter.

It speaks just enough of the Bot API (HTTP, form-encoded or multipart, JSON answers) for the real
python-telegram-bot ``Application`` to run against it: the adapter is pointed at it with
``base_url``. Every call is recorded with a monotonic timestamp so tests can check what users
would see (messages, photos, keyboards) and how fast the bot talked (rate limits).

Tests play the users: ``send_text`` (a command typed in a chat), ``press`` (a callback button),
``inline_query`` (``@bot ...`` typed in a chat). Updates reach the bot through ``getUpdates``
long polling, like the real server.

>>> fake = FakeTelegram()            # doctest: +SKIP
>>> await fake.start()               # doctest: +SKIP
>>> fake.send_text(GROUP, ALICE, "/play solitario")   # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import itertools
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

TOKEN = "123456789:TEST-token-never-log-me"
#: bounds on waiting for something that does come (an answer, the outbox drained): generous, so
#: that a starved machine makes a test slow, never failed
GENEROUS_SECONDS = 60.0
BOT_USER = {
    "id": 999000,
    "is_bot": True,
    "first_name": "Tavolo",
    "username": "TavoloTestBot",
    "can_join_groups": True,
    "can_read_all_group_messages": False,
    "supports_inline_queries": True,
}

# Methods that put something in a chat: what Telegram's flood limits count.
CHAT_SENDING_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendAnimation",
        "sendDocument",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
        "deleteMessage",
    }
)


@dataclass
class Call:
    """One Bot API call as the fake server received it."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes]
    at: float  # time.monotonic()
    ok: bool = True
    error: str | None = None

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return None if value is None else int(value)


@dataclass
class FakeMessage:
    """The current state of one message in a chat, as a user would see it."""

    chat_id: int
    message_id: int
    text: str | None = None
    caption: str | None = None
    photo_sha: str | None = None  # digest of the image bytes
    photo: bytes | None = None
    animation: bytes | None = None  # an animated GIF sent with sendAnimation
    reply_markup: dict[str, Any] | None = None
    from_bot: bool = True
    edits: int = 0
    reply_to: int | None = None  # the message (same chat) this one answers

    def buttons(self) -> list[dict[str, Any]]:
        """Every inline keyboard button, row by row."""
        if not self.reply_markup:
            return []
        return [b for row in self.reply_markup.get("inline_keyboard", []) for b in row]

    def callback_data(self) -> list[str]:
        return [b["callback_data"] for b in self.buttons() if "callback_data" in b]


@dataclass
class _Failure:
    method: str
    code: int
    description: str
    retry_after: int | None = None
    times: int = 1


@dataclass
class FakeTelegram:
    """The fake server. ``strict_limits`` answers 429 when a chat is flooded, like Telegram."""

    token: str = TOKEN
    strict_limits: bool = False
    calls: list[Call] = field(default_factory=list)
    messages: dict[tuple[int, int], FakeMessage] = field(default_factory=dict)
    started_privately: set[int] = field(default_factory=set)
    kicked_from: set[int] = field(default_factory=set)
    admins: set[tuple[int, int]] = field(default_factory=set)  # (chat, user)
    callback_answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    inline_answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    webhook: dict[str, Any] | None = None
    #: setMyCommands: language code ("" for the default menu) -> command names, in order
    command_menus: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self.last_update_id = 0
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._query_ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._failures: list[_Failure] = []
        self._runner: web.AppRunner | None = None
        self._closing = False
        self._deleted: dict[tuple[int, int], FakeMessage] = {}
        self.port = 0
        self.users: dict[int, dict[str, Any]] = {}
        self.chats: dict[int, dict[str, Any]] = {}

    # ----- server life ----------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        self._closing = True  # long polls return at once
        async with self._changed:
            self._changed.notify_all()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    # ----- the world: users, chats, what tests do as users --------------------------------
    def user(self, user_id: int, name: str, language: str = "en") -> dict[str, Any]:
        user = {"id": user_id, "is_bot": False, "first_name": name, "username": name.lower()}
        user["language_code"] = language
        self.users[user_id] = user
        return user

    def group(self, chat_id: int, title: str = "Card room") -> dict[str, Any]:
        chat = {"id": chat_id, "type": "supergroup", "title": title}
        self.chats[chat_id] = chat
        return chat

    def private_chat(self, user_id: int) -> dict[str, Any]:
        user = self.users[user_id]
        chat = {"id": user_id, "type": "private", "first_name": user["first_name"]}
        self.chats[user_id] = chat
        return chat

    def send_text(
        self,
        chat_id: int,
        user_id: int,
        text: str,
        mentions: Sequence[tuple[str, int]] = (),
    ) -> FakeMessage:
        """A user types ``text`` in a chat. ``mentions``: (words of the text, user id) the
        user picked from the members list: Telegram sends them as ``text_mention`` entities
        carrying the user (offsets in UTF-16 code units)."""
        if chat_id == user_id:
            self.private_chat(user_id)
            if text.startswith("/start"):
                self.started_privately.add(user_id)
        message = self._store(chat_id, text=text, from_bot=False)
        payload = self._message_json(message, sender=self.users[user_id])
        entities = []
        if text.startswith("/"):
            length = len(text.split(maxsplit=1)[0])
            entities.append({"type": "bot_command", "offset": 0, "length": length})
        for words, mentioned in mentions:
            start = text.index(words)
            entities.append(
                {
                    "type": "text_mention",
                    "offset": len(text[:start].encode("utf-16-le")) // 2,
                    "length": len(words.encode("utf-16-le")) // 2,
                    "user": self.users[mentioned],
                }
            )
        payload["entities"] = entities
        self._push({"message": payload})
        return message

    def send_via_bot(self, chat_id: int, user_id: int, text: str) -> FakeMessage:
        """A user picks an inline result: Telegram posts its message as the user, via the bot."""
        message = self.send_text(chat_id, user_id, text)
        self._updates[-1]["message"]["via_bot"] = BOT_USER
        return message

    def press(self, chat_id: int, user_id: int, message_id: int, data: str) -> str:
        """A user presses a callback button; returns the callback query id."""
        query_id = f"cq{next(self._query_ids)}"
        key = (chat_id, message_id)
        message = self.messages.get(key) or self._deleted[key]  # pressed just before deletion
        self._push(
            {
                "callback_query": {
                    "id": query_id,
                    "from": self.users[user_id],
                    "chat_instance": f"ci{chat_id}",
                    "data": data,
                    "message": self._message_json(message, sender=BOT_USER),
                }
            }
        )
        return query_id

    def inline_query(self, user_id: int, query: str, chat_type: str = "supergroup") -> str:
        query_id = f"iq{next(self._query_ids)}"
        self._push(
            {
                "inline_query": {
                    "id": query_id,
                    "from": self.users[user_id],
                    "query": query,
                    "offset": "",
                    "chat_type": chat_type,
                }
            }
        )
        return query_id

    def choose_inline_result(self, user_id: int, result_id: str, query: str) -> None:
        """A user picked an inline result (sent when inline feedback is on)."""
        self._push(
            {
                "chosen_inline_result": {
                    "result_id": result_id,
                    "from": self.users[user_id],
                    "query": query,
                }
            }
        )

    def delete(self, chat_id: int, message_id: int) -> None:
        """Someone deletes a message (an admin, or the user in a private chat)."""
        message = self.messages.pop((chat_id, message_id), None)
        if message is not None:
            self._deleted[(chat_id, message_id)] = message

    def kick(self, chat_id: int) -> None:
        """The bot is removed from a group: every later call for it fails with 403."""
        self.kicked_from.add(chat_id)

    def fail_next(
        self,
        method: str,
        code: int,
        description: str,
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail as Telegram would."""
        self._failures.append(_Failure(method, code, description, retry_after, times))

    async def deliver(self, url: str) -> list[int]:
        """Telegram's side of a webhook: POST each pending update to ``url`` (one worker
        behind the webhook's address) with the secret the last ``setWebhook`` registered; the
        status each delivery got. A refused update stays pending: Telegram tries it again."""
        import aiohttp

        secret = (self.webhook or {}).get("secret_token", "")
        statuses = []
        async with aiohttp.ClientSession() as http:
            for update in list(self._updates):
                async with http.post(
                    url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret}
                ) as answer:
                    statuses.append(answer.status)
                if answer.status == 200:
                    self._updates.remove(update)
        return statuses

    # ----- what tests read ------------------------------------------------------------------
    def calls_of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def chat_messages(self, chat_id: int) -> list[FakeMessage]:
        return sorted(
            (m for (c, _), m in self.messages.items() if c == chat_id), key=lambda m: m.message_id
        )

    def bot_messages(self, chat_id: int) -> list[FakeMessage]:
        return [m for m in self.chat_messages(chat_id) if m.from_bot]

    def latest_photo(self, chat_id: int) -> FakeMessage | None:
        photos = [m for m in self.bot_messages(chat_id) if m.photo_sha]
        return photos[-1] if photos else None

    async def wait_until(
        self,
        condition: Callable[[], Any],
        timeout: float = GENEROUS_SECONDS,
        what: str = "condition",
    ) -> Any:
        """Wait until ``condition()`` is truthy (re-checked after every call); return it."""
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                value = condition()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)

    async def answer_of(self, query_id: str, timeout: float = GENEROUS_SECONDS) -> dict[str, Any]:
        return await self.wait_until(
            lambda: self.callback_answers.get(query_id), timeout, f"answer to {query_id}"
        )

    async def inline_answer_of(
        self, query_id: str, timeout: float = GENEROUS_SECONDS
    ) -> dict[str, Any]:
        return await self.wait_until(
            lambda: self.inline_answers.get(query_id), timeout, f"inline answer {query_id}"
        )

    # ----- the HTTP side ----------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        method = request.match_info["method"]
        params, files = await self._read_params(request)
        call = Call(method, params, files, time.monotonic())
        if method != "getUpdates":
            self.calls.append(call)
        try:
            failure = self._failure_for(call)
            if failure is not None:
                return self._error(call, *failure)
            handler = getattr(self, f"_api_{method}", None)
            if handler is None:
                return self._error(call, 404, "Not Found: method not found")
            result = handler(params, files)
            if asyncio.iscoroutine(result):
                result = await result
            if isinstance(result, tuple):  # (code, description, retry_after)
                return self._error(call, *result)
            return web.json_response({"ok": True, "result": result})
        finally:
            async with self._changed:
                self._changed.notify_all()

    def _error(
        self, call: Call, code: int, description: str, retry_after: int | None = None
    ) -> web.Response:
        call.ok = False
        call.error = description
        body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
        if retry_after is not None:
            body["parameters"] = {"retry_after": retry_after}
        return web.json_response(body, status=code)

    def _failure_for(self, call: Call) -> tuple[int, str, int | None] | None:
        chat = call.chat_id
        if chat is not None and chat in self.kicked_from:
            return 403, "Forbidden: bot was kicked from the supergroup chat", None
        for failure in self._failures:
            if failure.method == call.method and failure.times > 0:
                failure.times -= 1
                return failure.code, failure.description, failure.retry_after
        if self.strict_limits and call.method in CHAT_SENDING_METHODS and chat is not None:
            earlier = [
                c.at
                for c in self.calls[:-1]
                if c.ok and c.method in CHAT_SENDING_METHODS and c.chat_id == chat
            ]
            if earlier and call.at - earlier[-1] < 0.9:
                return 429, "Too Many Requests: retry after 1", 1
            if chat < 0 and len([t for t in earlier if call.at - t < 60]) >= 20:
                return 429, "Too Many Requests: retry after 5", 5
        return None

    @staticmethod
    async def _read_params(request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        if request.method == "POST" and request.can_read_body:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = value.file.read()
                else:
                    params[key] = value
        for key, value in list(params.items()):
            # PTB JSON-encodes every non-string value; strings arrive as they are.
            looks_like_json = value[:1] in ("[", "{") or value in ("true", "false")
            if isinstance(value, str) and looks_like_json:
                with contextlib.suppress(ValueError):
                    params[key] = json.loads(value)
        return params, files

    def _push(self, update: dict[str, Any]) -> None:
        update["update_id"] = self.last_update_id = next(self._update_ids)
        self._updates.append(update)

        async def notify() -> None:
            async with self._changed:
                self._changed.notify_all()

        asyncio.get_running_loop().create_task(notify())

    def _store(self, chat_id: int, **fields: Any) -> FakeMessage:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        message = FakeMessage(chat_id=chat_id, message_id=next(counter), **fields)
        self.messages[(chat_id, message.message_id)] = message
        return message

    def _chat_json(self, chat_id: int) -> dict[str, Any]:
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id > 0 and chat_id in self.users:
            return self.private_chat(chat_id)
        return {"id": chat_id, "type": "supergroup" if chat_id < 0 else "private"}

    def _message_json(self, message: FakeMessage, sender: dict[str, Any]) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "message_id": message.message_id,
            "date": int(time.time()),
            "chat": self._chat_json(message.chat_id),
            "from": sender,
        }
        if message.text is not None:
            payload["text"] = message.text
        if message.caption is not None:
            payload["caption"] = message.caption
        if message.photo_sha is not None:
            payload["photo"] = [
                {
                    "file_id": message.photo_sha,
                    "file_unique_id": message.photo_sha[:16],
                    "width": 640,
                    "height": 480,
                }
            ]
        if message.animation is not None:
            digest = hashlib.sha1(message.animation).hexdigest()
            payload["animation"] = {
                "file_id": digest,
                "file_unique_id": digest[:16],
                "width": 640,
                "height": 480,
                "duration": 1,
                "mime_type": "image/gif",
            }
        if message.reply_markup:
            payload["reply_markup"] = message.reply_markup
        return payload

    def _can_send(self, chat_id: int) -> tuple[int, str, None] | None:
        if chat_id > 0 and chat_id not in self.started_privately:
            return 403, "Forbidden: bot can't initiate conversation with a user", None
        return None

    def _target(self, params: dict[str, Any]) -> FakeMessage | tuple[int, str, None]:
        key = (int(params["chat_id"]), int(params["message_id"]))
        if key not in self.messages:
            return 400, "Bad Request: message to edit not found", None
        return self.messages[key]

    # ----- Bot API methods ------------------------------------------------------------------
    def _api_getMe(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return BOT_USER

    def _api_logOut(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return True

    def _api_deleteWebhook(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        self.webhook = None
        return True

    def _api_setWebhook(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        self.webhook = params
        return True

    def _api_getWebhookInfo(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        # as Telegram: the address and the update types, never the secret
        webhook = self.webhook or {}
        info: dict[str, Any] = {
            "url": webhook.get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": 0,
        }
        if webhook.get("allowed_updates"):
            allowed = webhook["allowed_updates"]
            info["allowed_updates"] = json.loads(allowed) if isinstance(allowed, str) else allowed
        return info

    def _api_setMyCommands(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        for command in params["commands"]:
            name = command["command"]
            if not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                return 400, f"Bad Request: BOT_COMMAND_INVALID {name!r}", None
            if not 1 <= len(command["description"]) <= 256:
                return 400, "Bad Request: command description is invalid", None
        names = [command["command"] for command in params["commands"]]
        self.command_menus[params.get("language_code") or ""] = names
        return True

    async def _api_getUpdates(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        offset = int(params.get("offset", 0) or 0)
        timeout = float(params.get("timeout", 0) or 0)
        self._updates = [u for u in self._updates if u["update_id"] >= offset]
        if not self._updates and timeout > 0:
            with contextlib.suppress(AssertionError):
                await self.wait_until(
                    lambda: self._updates or self._closing, timeout=timeout, what="updates"
                )
        return list(self._updates)

    def _api_getChatMember(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat, user = int(params["chat_id"]), int(params["user_id"])
        status = "creator" if (chat, user) in self.admins else "member"
        member: dict[str, Any] = {"status": status, "user": self.users[user]}
        if status == "creator":
            member["is_anonymous"] = False
        return member

    def _check_keyboard(self, params: dict[str, Any]) -> tuple[int, str, None] | None:
        markup = params.get("reply_markup") or {}
        for row in markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(data.encode()) <= 64:
                    return 400, "Bad Request: BUTTON_DATA_INVALID", None
        return None

    def _api_sendMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = int(params["chat_id"])
        problem = self._can_send(chat) or self._check_keyboard(params)
        if problem:
            return problem
        if not 1 <= len(params.get("text", "")) <= 4096:
            return 400, "Bad Request: message text is empty or too long", None
        reply_to = self._reply_target(chat, params)
        if isinstance(reply_to, tuple):
            return reply_to
        message = self._store(
            chat, text=params["text"], reply_markup=params.get("reply_markup"), reply_to=reply_to
        )
        return self._message_json(message, BOT_USER)

    def _reply_target(
        self, chat: int, params: dict[str, Any]
    ) -> int | None | tuple[int, str, None]:
        """The message a new one replies to (``reply_parameters`` or the older
        ``reply_to_message_id``), checked as Telegram does: it must be in the same chat unless
        ``allow_sending_without_reply`` is set (then a missing one is dropped)."""
        wanted = params.get("reply_parameters") or {}
        if isinstance(wanted, str):
            wanted = json.loads(wanted)
        message_id = wanted.get("message_id", params.get("reply_to_message_id"))
        if message_id is None:
            return None
        if int(wanted.get("chat_id", chat)) != chat:
            return 400, "Bad Request: replies to other chats are not supported here", None
        if (chat, int(message_id)) in self.messages:
            return int(message_id)
        if wanted.get("allow_sending_without_reply"):
            return None
        return 400, "Bad Request: message to be replied not found", None

    def _api_sendPhoto(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return self._send_media(params, files, "photo")

    def _api_sendAnimation(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return self._send_media(params, files, "animation")

    def _send_media(self, params: dict[str, Any], files: dict[str, bytes], kind: str) -> Any:
        """sendPhoto / sendAnimation: the same checks as Telegram, the file under ``kind``."""
        chat = int(params["chat_id"])
        problem = self._can_send(chat) or self._check_keyboard(params)
        if problem:
            return problem
        if caption_length(params) > 1024:
            return 400, "Bad Request: message caption is too long", None
        media = files.get(kind)
        if media is None:
            return 400, f"Bad Request: there is no {kind} in the request", None
        if kind == "animation" and len(media) > 50 * 1024 * 1024:
            return 413, "Request Entity Too Large", None
        stored: dict[str, Any] = {kind: media}
        if kind == "photo":
            stored["photo_sha"] = hashlib.sha1(media).hexdigest()
        message = self._store(
            chat, caption=params.get("caption"), reply_markup=params.get("reply_markup"), **stored
        )
        return self._message_json(message, BOT_USER)

    def _api_editMessageMedia(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        target = self._target(params)
        if isinstance(target, tuple):
            return target
        problem = self._check_keyboard(params)
        if problem:
            return problem
        media = params["media"]
        reference = media["media"]
        photo = (
            files.get(reference.removeprefix("attach://"))
            if reference.startswith("attach://")
            else None
        )
        if photo is None:
            return 400, "Bad Request: wrong file identifier/HTTP URL specified", None
        sha = hashlib.sha1(photo).hexdigest()
        markup = params.get("reply_markup")
        caption = media.get("caption")
        if caption_length(media) > 1024:
            return 400, "Bad Request: message caption is too long", None
        if (sha, caption, markup) == (target.photo_sha, target.caption, target.reply_markup):
            return (
                400,
                "Bad Request: message is not modified: specified new message content and reply markup are exactly the same",
                None,
            )
        target.photo, target.photo_sha, target.caption = photo, sha, caption
        target.reply_markup = markup
        target.edits += 1
        return self._message_json(target, BOT_USER)

    def _api_editMessageReplyMarkup(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        target = self._target(params)
        if isinstance(target, tuple):
            return target
        if params.get("reply_markup") == target.reply_markup:
            return 400, "Bad Request: message is not modified", None
        target.reply_markup = params.get("reply_markup")
        target.edits += 1
        return self._message_json(target, BOT_USER)

    def _api_editMessageText(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        target = self._target(params)
        if isinstance(target, tuple):
            return target
        target.text = params["text"]
        target.reply_markup = params.get("reply_markup")
        target.edits += 1
        return self._message_json(target, BOT_USER)

    def _api_deleteMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        key = (int(params["chat_id"]), int(params["message_id"]))
        if self.messages.pop(key, None) is None:
            return 400, "Bad Request: message to delete not found", None
        return True

    def _api_answerCallbackQuery(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        query_id = params["callback_query_id"]
        if query_id in self.callback_answers:
            return 400, "Bad Request: query is too old and response timeout expired", None
        if len(params.get("text") or "") > 200:
            return 400, "Bad Request: MESSAGE_TOO_LONG", None
        self.callback_answers[query_id] = params
        return True

    def _api_answerInlineQuery(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        query_id = params["inline_query_id"]
        if query_id in self.inline_answers:
            return 400, "Bad Request: query is too old and response timeout expired", None
        results = params.get("results", [])
        if len(results) > 50:
            return 400, "Bad Request: RESULTS_TOO_MUCH", None
        for result in results:
            if not 1 <= len(str(result.get("id", "")).encode()) <= 64:
                return 400, "Bad Request: RESULT_ID_INVALID", None
        self.inline_answers[query_id] = params
        return True


# ----- a whole bot against the fake server ------------------------------------------------------
class TelegramWorld:
    """The fake server, a real ``Core`` on a SQLite file and the real adapter, wired together.

    >>> async with TelegramWorld(tmp_path) as world:          # doctest: +SKIP
    ...     world.fake.send_text(GROUP, ALICE, "/help")
    """

    def __init__(
        self, tmp_path: Any, limits: Any = None, strict_limits: bool = False, renderer: Any = None
    ) -> None:
        from bot.platforms.telegram.outbox import flood_limits

        self.renderer = renderer
        self.database_url = f"sqlite:///{tmp_path / 'tavolo.db'}"
        self.limits = limits if limits is not None else flood_limits(0.0, 10_000, 10_000)
        self.fake = FakeTelegram(strict_limits=strict_limits)
        self.core: Any = None
        self.adapter: Any = None

    async def __aenter__(self) -> TelegramWorld:
        await self.fake.start()
        await self.start_bot()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop_bot()
        await self.fake.stop()
        assert_callback_data_fits(self.fake.calls)

    async def start_bot(self) -> None:
        """A new Core and a new Application, as after a restart of the process."""
        from bot.app import open_core
        from bot.platforms.telegram import TelegramAdapter, TelegramConfig

        self.core = await open_core(self.database_url, sweep_interval=None, renderer=self.renderer)
        config = TelegramConfig(
            token=self.fake.token, base_url=self.fake.base_url, limits=self.limits, poll_timeout=5
        )
        self.adapter = TelegramAdapter(self.core, config)
        self.core.set_push(self.adapter.push)
        await self.adapter.start()

    async def stop_bot(self) -> None:
        if self.adapter is not None:
            await self.adapter.stop()
            await self.core.close()
            self.adapter = self.core = None

    async def settled(self, timeout: float = GENEROUS_SECONDS) -> None:
        """Wait until every queued message has been sent."""
        await self.adapter.outbox.drain(timeout)

    async def command(
        self, chat_id: int, user_id: int, text: str, mentions: Sequence[tuple[str, int]] = ()
    ) -> None:
        """A user types a command; returns once the bot has sent everything it answered."""
        self.fake.send_text(chat_id, user_id, text, mentions)
        await self.handled(self.fake.last_update_id)

    async def press(self, chat_id: int, user_id: int, message_id: int, data: str) -> dict[str, Any]:
        """A user presses a button; returns the callback answer once replies are sent."""
        query_id = self.fake.press(chat_id, user_id, message_id, data)
        await self.handled(self.fake.last_update_id)
        return await self.fake.answer_of(query_id)

    async def handled(self, update_id: int, timeout: float = GENEROUS_SECONDS) -> None:
        """Wait until the bot processed update ``update_id`` and sent all its replies."""
        await asyncio.wait_for(self.adapter.processed(update_id), timeout)
        await self.settled(timeout)


def assert_callback_data_fits(calls: list[Call]) -> None:
    """Every callback button the bot ever sent carries 1-64 bytes of data (Telegram's limit)."""
    for call in calls:
        markup = call.params.get("reply_markup") or {}
        media = call.params.get("media")
        for row in markup.get("inline_keyboard", []):
            for button in row:
                if "callback_data" in button:
                    size = len(button["callback_data"].encode())
                    assert 1 <= size <= 64, (call.method, button)
        assert media is None or isinstance(media, dict), call.method
        for result in call.params.get("results", []):
            assert 1 <= len(str(result["id"]).encode()) <= 64, result


def button_verb(data: str) -> str:
    """The verb of a core button id (``v1:verb:session:revision:arg``)."""
    return data.split(":")[1]


def button_session(data: str) -> str:
    return data.split(":")[2]


def button_revision(data: str) -> int:
    return int(data.split(":")[3])


def caption_length(params: dict[str, Any]) -> int:
    """A caption's length as Telegram counts it: after reading its HTML (``parse_mode``), in
    UTF-16 code units; an unknown or unclosed tag is refused as Telegram refuses it."""
    caption = str(params.get("caption") or "")
    if str(params.get("parse_mode") or "").upper() != "HTML":
        return len(caption.encode("utf-16-le")) // 2
    tags = re.findall(r"<(/?)([a-z-]+)[^>]*>", caption)
    open_tags: list[str] = []
    for closing, name in tags:
        if name not in HTML_TAGS:
            return 10**6  # Telegram: "can't parse entities"
        if closing:
            if not open_tags or open_tags.pop() != name:
                return 10**6
        else:
            open_tags.append(name)
    if open_tags:
        return 10**6
    shown = html.unescape(re.sub(r"<[^>]*>", "", caption))
    return len(shown.encode("utf-16-le")) // 2


#: the HTML tags Telegram's parse mode reads
HTML_TAGS = frozenset(
    {
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "a",
        "code",
        "pre",
        "blockquote",
        "tg-spoiler",
        "span",
        "tg-emoji",
    }
)
