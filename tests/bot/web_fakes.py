"""Helpers for the web page's tests: players with ids unlike their names, a daily played to a
chosen score, and an HTTP client on ``setup_web`` (the bot's own server adds the same routes)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from html import unescape

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from core_fakes import FakeClock

import engine
from bot.core import Core
from bot.replies import Reply, Request
from bot.web import setup_web

BASE = "https://tavolo.example"
GROUP = "chat-secret-4711"


class Person:
    """A player whose platform user id (``uid-...``) differs from the name others read."""

    def __init__(
        self,
        core: Core,
        user_id: str,
        name: str,
        chat_id: str = GROUP,
        platform: str = "telegram",
        admin: bool = False,
    ) -> None:
        self.core, self.user_id, self.name = core, user_id, name
        self.chat_id, self.platform, self.admin = chat_id, platform, admin

    def request(self) -> Request:
        return Request(self.platform, self.chat_id, self.user_id, self.name, True, self.admin)

    async def say(self, text: str) -> list[Reply]:
        return await self.core.handle_text(self.request(), text)

    async def daily(self, game_id: str, score: int) -> list[Reply]:
        """Start today's ranked ``game_id``, play until its score reaches ``score`` (a move that
        raises the score when there is one, else the first legal move), then resign; returns
        the replies to the resignation (the verdict among them)."""
        started = await self.say(f"/daily {game_id}")
        assert started[0].key == "daily.started", started[0].text
        session_id = started[-1].board.session_id
        for _ in range(300):
            game = (await self.core.sessions.get(session_id)).game
            legal = game.legal_moves()
            if game.score >= score or game.is_over or not legal:
                break
            chosen = legal[0]
            for move in legal:
                trial = engine.replay(game_id, game.deal, game.players, game.options, game.moves)
                trial.play(move)
                if trial.score > game.score:
                    chosen = move
                    break
            await self.say(f"/move {chosen}")
        return await self.resign()

    async def resign(self, text: str = "/resign") -> list[Reply]:
        """``/resign``, answering Yes when the bot asks (a ranked daily, a race, a table)."""
        replies = await self.say(text)
        asked = [r for r in replies if r.key.startswith("confirm.") and r.buttons]
        if not asked:
            return replies
        yes = next(b for b in asked[0].buttons if b.id.split(":")[1] == "yes")
        return await self.core.handle_button(self.request(), yes.id)


@asynccontextmanager
async def web_client(core: Core, clock: FakeClock | None = None) -> AsyncIterator[TestClient]:
    """An HTTP client on a fresh application carrying the web pages (and their page cache)."""
    app = web.Application()
    setup_web(app, core, clock)
    async with TestClient(TestServer(app)) as client:
        yield client


async def page(client: TestClient, path: str, lang: str = "en") -> tuple[int, str]:
    response = await client.get(path, headers={"Accept-Language": lang})
    return response.status, await response.text()


def links(html: str, kind: str) -> list[str]:
    """The ids of the ``/kind/<id>`` links of a page, in order."""
    return re.findall(rf'href="/{kind}/([A-Za-z0-9]+)', html)


def main_text(html: str) -> str:
    """The page's main part with tags removed (what a reader sees there)."""
    body = html[html.find("<main>") : html.find("</main>")]
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))
