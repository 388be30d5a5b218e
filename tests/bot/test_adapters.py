"""Platforms behind one ``Adapter`` Protocol, chosen from one table, and adapters that never
read the core's button ids (the facts they need are plain fields of ``Button``)."""

from __future__ import annotations

import ast
import asyncio
import io
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

import bot.platforms
from bot import i18n
from bot.__main__ import CONSOLE, PLATFORMS, chosen_platforms, serve
from bot.app import open_core
from bot.core import Core
from bot.platforms.base import Adapter
from bot.platforms.console import ConsolePlatform
from bot.platforms.discord import DiscordPlatform
from bot.platforms.telegram import TelegramPlatform
from bot.platforms.telegram.delivery import _PrivateNotice
from bot.platforms.telegram.format import language_of
from tests.bot.core_fakes import FakePlatform, fake_render


def settings(telegram: str = "", discord: str = "") -> SimpleNamespace:
    return SimpleNamespace(telegram_token=telegram, discord_token=discord)


def test_every_platform_is_an_adapter() -> None:
    for adapter in (ConsolePlatform(), TelegramPlatform(), DiscordPlatform()):
        assert isinstance(adapter, Adapter)
    assert [p.name for p in PLATFORMS] == ["telegram", "discord"]
    assert {p.make().name for p in (*PLATFORMS, CONSOLE)} == {"telegram", "discord", "console"}


def test_the_table_runs_the_platforms_whose_token_is_set() -> None:
    def names(s: SimpleNamespace, console: bool = False) -> list[str]:
        return [p.name for p in chosen_platforms(s, console)]  # type: ignore[arg-type]

    assert names(settings()) == ["console"]
    assert names(settings(telegram="1:x")) == ["telegram"]
    assert names(settings(discord="d")) == ["discord"]
    assert names(settings(telegram="1:x", discord="d")) == ["telegram", "discord"]
    assert names(settings(telegram="1:x", discord="d"), console=True) == ["console"]


class Waiting:
    """An adapter that serves until stopped (or fails at once with ``fail``)."""

    def __init__(self, name: str, fail: bool = False) -> None:
        self.name = name
        self.fail = fail
        self.stopped = asyncio.Event()
        self.ran = False

    async def run(self, core: object, settings: object) -> None:
        self.ran = True
        if self.fail:
            raise RuntimeError(f"{self.name} lost its connection")
        await self.stopped.wait()

    async def stop(self) -> None:
        self.stopped.set()


class Ending(Waiting):
    async def run(self, core: object, settings: object) -> None:
        self.ran = True  # ends on its own, like the console at end of input


async def test_one_platform_ending_stops_the_others() -> None:
    first, second = Waiting("a"), Ending("b")
    await asyncio.wait_for(serve(None, None, [first, second]), 5)  # type: ignore[arg-type]
    assert first.ran and second.ran and first.stopped.is_set()


async def test_a_failing_platform_stops_the_others_then_its_error_is_raised() -> None:
    healthy, failing = Waiting("a"), Waiting("b", fail=True)
    with pytest.raises(RuntimeError, match="lost its connection"):
        await asyncio.wait_for(serve(None, None, [healthy, failing]), 5)  # type: ignore[arg-type]
    assert healthy.stopped.is_set()


@pytest.fixture
async def core() -> Core:
    core = await open_core("sqlite:///:memory:", "en", renderer=fake_render, sweep_interval=None)
    yield core
    await core.close()


async def test_the_console_answers_lines_until_end_of_input(core: Core) -> None:
    out = io.StringIO()
    console = ConsolePlatform(io.StringIO("/help\n"), out)
    await asyncio.wait_for(console.run(core, None), 10)
    assert "/play" in out.getvalue()


async def test_the_console_stops_while_waiting_for_a_line(core: Core) -> None:
    read_end, write_end = os.pipe()  # a terminal nobody types into
    with os.fdopen(read_end) as stdin, os.fdopen(write_end, "w") as typist:
        console = ConsolePlatform(stdin, io.StringIO())
        running = asyncio.create_task(console.run(core, None))
        await asyncio.sleep(0.05)
        await console.stop()
        await asyncio.wait_for(running, 5)
        typist.write("\n")  # lets the reading thread finish
        typist.flush()


def test_adapters_never_read_button_ids() -> None:
    # every module, the adapters' packages (bot/platforms/discord/, telegram/) included
    for path in Path(bot.platforms.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = {alias.name for alias in node.names}
                assert node.module != "bot.core.buttons", path
                assert not (node.module == "bot.core" and "buttons" in names), path


async def test_buttons_carry_what_adapters_need(core: Core) -> None:
    chat = FakePlatform(core)
    await chat.say("ana", "/play solitario 5")  # its "draw" button plays "d"
    moves = [b for b in chat.board().buttons if b.move is not None]
    assert moves and all(not b.opens_hand for b in chat.board().buttons)
    assert all(b.id.endswith(":" + b.move) for b in moves)  # the notation it plays
    await chat.say("ana", "/challenge")
    await chat.say("bo", "/join")
    await chat.say("ana", "/start")
    hand = [b for r in chat.replies for b in r.buttons if b.opens_hand]
    assert hand, "a started table's board offers the private hand"


def test_adapters_keep_no_texts_of_their_own() -> None:
    """What an adapter says itself comes from the catalogues like every other text (so a
    translator finds it and a new language gets it): no table of texts by language in code."""
    languages = set(i18n.LANGUAGES)
    found = []
    for path in Path(bot.platforms.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if languages <= keys:
                    found.append(f"{path.name}:{node.lineno}")
    assert found == []


class _Bot:
    """Just enough of a Telegram bot to see what the private notice posts."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str, list[str]]] = []

    async def send_message(self, chat_id: int, text: str, **options: object) -> None:
        markup = options["reply_markup"]
        labels = [button.text for row in markup.inline_keyboard for button in row]  # type: ignore[attr-defined]
        self.sent.append((chat_id, text, labels))


@pytest.mark.parametrize(
    ("telegram_language", "default", "expected"),
    [("fr", "es", "es"), ("pt-br", "it", "it"), (None, "es", "es"), ("it-IT", "es", "it")],
)
async def test_telegram_speaks_the_bots_default_language_to_a_player_whose_own_it_does_not_speak(
    telegram_language: str | None, default: str, expected: str
) -> None:
    """The notice "open a chat with me" in the group: in the player's Telegram language when
    the bot speaks it, else in the bot's DEFAULT_LANGUAGE (it was English whatever the default)."""
    lang = language_of(telegram_language, default)
    telegram_bot = _Bot()
    await _PrivateNotice(7, "Ana <3", lang).send(telegram_bot, -100, "tavolo_bot")
    [(chat, text, labels)] = telegram_bot.sent
    link = '<a href="tg://user?id=7">Ana &lt;3</a>'
    assert chat == -100
    assert text == i18n.t(expected, "telegram.open_private_chat", name=link)
    assert labels == [i18n.t(expected, "telegram.open_private_button")]
