"""Test doubles for the bot core: a clock the test moves, a cheap renderer, and a fake
platform that plays the way a person does (typing lines, pressing the buttons it was shown)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from PIL import Image

from bot.core import Core
from bot.replies import Button, Reply, Request
from renderer.palette import new_board


class FakeClock:
    """A clock that stands still until the test moves it."""

    def __init__(self, start: datetime = datetime(2025, 3, 14, 12, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def fake_render(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
    """A cheap stand-in for the renderer that still encodes what it was asked to draw."""
    return (
        b"PNG " + json.dumps({"game": game_id, "move": view.get("move_number"), **style}).encode()
    )


class FakePlatform:
    """An in-memory adapter: remembers every reply, the latest buttons of each board and the
    board message ids it "posted", like Discord/Telegram adapters do."""

    def __init__(self, core: Core, platform: str = "fake", chat_id: str = "chat-1") -> None:
        self.core = core
        self.platform = platform
        self.chat_id = chat_id
        self.replies: list[Reply] = []
        self.boards: dict[str, Reply] = {}  # session id -> latest board reply
        self._posted = 0
        self.admins: set[str] = set()

    def request(self, user: str, is_group: bool = True) -> Request:
        return Request(
            self.platform, self.chat_id, user, user.capitalize(), is_group, user in self.admins
        )

    async def _record(self, replies: list[Reply]) -> list[Reply]:
        for reply in replies:
            self.replies.append(reply)
            if reply.board is not None:
                self.boards[reply.board.session_id] = reply
                if reply.board.message_id is None:
                    self._posted += 1
                    await self.core.board_posted(reply.board.session_id, f"m{self._posted}")
        return replies

    async def say(self, user: str, text: str, is_group: bool = True) -> list[Reply]:
        return await self._record(await self.core.handle_text(self.request(user, is_group), text))

    async def press(self, user: str, button_id: str) -> list[Reply]:
        return await self._record(await self.core.handle_button(self.request(user), button_id))

    async def answer(self, user: str, yes: bool = True) -> list[Reply]:
        """Press Yes (or No) under the most recent question the bot asked."""
        verb = "yes" if yes else "no"
        asked = next(
            r for r in reversed(self.replies) if r.key.startswith("confirm.") and r.buttons
        )
        button = self.button(lambda b: b.id.split(":")[1] == verb, asked)
        return await self.press(user, button.id)

    async def leave(self, user: str) -> list[Reply]:
        """``/leave``, answering Yes when the bot asks (leaving a game being played)."""
        return await self.resign(user, "/leave")

    async def resign(self, user: str, text: str = "/resign") -> list[Reply]:
        """``/resign`` as a player does: when the bot asks Yes/No (a ranked daily, a race, a
        table), answer Yes; the replies of the resignation itself."""
        replies = await self.say(user, text)
        if any(r.key.startswith("confirm.") for r in replies):
            return await self.answer(user)
        return replies

    async def pick(self, user: str, session_id: str) -> list[Reply]:
        """Press the button of ``session_id`` under the most recent "which game?" question."""
        asked = next(r for r in reversed(self.replies) if r.key.startswith("focus.which_"))
        button = self.button(lambda b: b.id.split(":")[2] == session_id, asked)
        return await self.press(user, button.id)

    def board(self) -> Reply:
        """The most recent board reply."""
        return next(r for r in reversed(self.replies) if r.board is not None)

    def button(self, predicate: Any, reply: Reply | None = None) -> Button:
        reply = reply or self.board()
        found = [b for b in reply.buttons if predicate(b)]
        assert found, f"no such button among {[(b.id, b.label) for b in reply.buttons]}"
        return found[0]


async def play_out(core: Core, chat: FakePlatform, limit: int = 800) -> None:
    """Whoever is announced plays the first move of their private hand until the table ends."""
    for _ in range(limit):
        turn = next(r for r in reversed(chat.replies) if r.key in ("table.turn", "table.over"))
        if turn.key == "table.over":
            return
        player = turn.mentions[0]
        hand = await core.hand_buttons(chat.request(player))
        assert hand is not None and hand.buttons, f"{player} has no move to press"
        await chat.press(player, hand.buttons[0].id)
    raise AssertionError("the table did not end")


class DrawSpy:
    """Stands in for ``renderer.draw`` inside the replay: remembers every view it was asked to
    draw and returns a tiny board that differs from frame to frame (so no frame is merged)."""

    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []
        self.styles: list[dict[str, Any]] = []

    def __call__(self, game_id: str, view: dict[str, Any], **style: Any) -> Image.Image:
        self.views.append(view)
        self.styles.append(style)
        board = new_board(16, 16)
        n = len(self.views)
        board.putpixel((n % 16, (n // 16) % 16), 0 if board.getpixel((0, 0)) else 1)
        return board
