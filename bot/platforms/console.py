"""The console: play Tavolo in a terminal, no token needed (also what end-to-end tests drive).

A one-line banner says how to get help. One command per input line; replies are printed.
``@name /command ...`` acts as player ``name`` (default player: ``you``, named "Player" in the
chat's language). Each image is written to a file under ``out/console/`` and its path printed
on its own line; numbering goes on after the highest number already there, so a new run never
overwrites an earlier run's images. Each button is printed as ``[n] label`` and the line
``#n`` (or ``@name #n``) presses it. End of input ends the program.

Private replies are printed too (it is one screen), marked ``(private to name)``.

>>> split_speaker("@ana /join")
('ana', '/join')
>>> split_speaker("/play canfield")
('you', '/play canfield')
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from babel.lists import format_list

from bot import i18n
from bot.core.commands import ascii_number
from bot.replies import Button, Reply, Request

if TYPE_CHECKING:
    from bot.core import Core

PLATFORM = "console"
CHAT_ID = "console"
DEFAULT_PLAYER = "you"
OUT_DIR = Path("out/console")
#: an image file written by the console: ``0012-<name>``
_IMAGE_NAME = re.compile(r"^(\d{4,})-")


def split_speaker(line: str) -> tuple[str, str]:
    """(player name, the rest of the line) of an input line."""
    line = line.strip()
    if line.startswith("@"):
        name, _, rest = line[1:].partition(" ")
        if name:
            return name, rest.strip()
    return DEFAULT_PLAYER, line


def number_ranges(numbers: list[int], lang: str = "en") -> str:
    """Button numbers as a player reads them, runs joined: ``#1-#3, #7 or #99``.

    >>> number_ranges([1, 2, 3, 7, 99])
    '#1-#3, #7, or #99'
    >>> number_ranges([7, 9], "es")
    '#7 o #9'
    """
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    parts = [f"#{run[0]}" if len(run) == 1 else f"#{run[0]}-#{run[-1]}" for run in runs]
    return format_list(parts, style="or", locale=lang)


#: numbers that always mean the same action: taking something back or ending a game never
#: takes a number a card had (pressing again the numbers just used never lands on Resign)
FIXED_NUMBERS: dict[str, int] = {
    "cancel": 0,  # Cancel, and No to a question
    "hand": 90,
    "join": 91,
    "leave": 92,
    "start": 93,
    "undo": 97,
    "again": 98,
    "resign": 99,
    "yes": 100,
}
#: the other actions are numbered 1 .. LAST_NUMBER
LAST_NUMBER = 89


class StableNumbers:
    """Button numbers that stay with their action from one board to the next.

    A button's action is its ``key`` (``pile:3``: column 3, as source or as target; ``undo``).
    Fixed actions have fixed numbers (``FIXED_NUMBERS``); any other keeps the number it had
    the last time it was shown, and a new one takes the lowest number no other remembered
    action holds, so numbers do not wander from one action to another.

    >>> from bot.replies import Button
    >>> numbers = StableNumbers()
    >>> first = numbers.number([Button("v1:sel:s:1:w", "w", key="pile:w"),
    ...                         Button("v1:sel:s:1:3", "3", key="pile:3"),
    ...                         Button("v1:resign:s:1:", "Resign", key="resign")])
    >>> {n: b.label for n, b in first.items()}
    {1: 'w', 2: '3', 99: 'Resign'}
    >>> later = numbers.number([Button("v1:sel:s:2:3", "3", key="pile:3"),
    ...                         Button("v1:undo:s:2:", "Undo", key="undo"),
    ...                         Button("v1:resign:s:2:", "Resign", key="resign")])
    >>> {n: b.label for n, b in later.items()}
    {2: '3', 97: 'Undo', 99: 'Resign'}
    """

    def __init__(self) -> None:
        self._remembered: dict[str, int] = {}

    def number(self, buttons: list[Button]) -> dict[int, Button]:
        # the core describes every button it hands out (``key``); an undescribed one is its id
        keys = [button.key or button.id for button in buttons]
        numbers: dict[int, Button] = {}
        waiting: list[tuple[str, Button]] = []
        for key, button in zip(keys, buttons, strict=True):
            fixed = FIXED_NUMBERS.get(key)
            if fixed is not None and fixed not in numbers:
                numbers[fixed] = button
                continue
            known = self._remembered.get(key)
            if known is not None and known not in numbers:
                numbers[known] = button
            else:
                waiting.append((key, button))
        for key, button in waiting:
            number = self._fresh(numbers, set(keys))
            self._remembered[key] = number
            numbers[number] = button
        return dict(sorted(numbers.items()))

    def _fresh(self, taken: dict[int, Button], shown: set[str]) -> int:
        """The lowest number neither taken now nor held by another remembered action; when
        none is left, the actions not on this board are forgotten first."""
        held = set(self._remembered.values())
        for number in range(1, LAST_NUMBER + 1):
            if number not in taken and number not in held and number not in FIXED_NUMBERS.values():
                return number
        self._remembered = {k: n for k, n in self._remembered.items() if k in shown}
        held = set(self._remembered.values())
        for number in range(1, 10_000):
            if number not in taken and number not in held and number not in FIXED_NUMBERS.values():
                return number
        raise RuntimeError("no button number left")


class Console:
    """Turns input lines into core calls and replies into printed lines and image files."""

    def __init__(self, core: Core, out: TextIO, out_dir: Path = OUT_DIR) -> None:
        self.core = core
        self.out = out
        self.out_dir = out_dir
        self.buttons: dict[int, Button] = {}
        self.numbering = StableNumbers()
        self._images: int | None = None  # the last image number used (read from out_dir first)
        self._messages = 0

    async def request(self, name: str) -> Request:
        # The console is one shared table where everyone is trusted: a group whose members
        # are all admins (so /lang, /end and tables work as in a group chat). The default
        # player is named in the chat's language (after /lang es: "Jugador"), as every reply is.
        shown = name
        if name == DEFAULT_PLAYER:
            lang = await self.core.service.chat_language(PLATFORM, CHAT_ID)
            shown = i18n.t(lang, "console.player")
        return Request(PLATFORM, CHAT_ID, name, shown, is_group=True, is_admin=True)

    def banner(self) -> None:
        """One line at start, so the console never looks hung: how to get help."""
        self.print(i18n.t(self.core.default_language, "console.banner"))

    async def handle_line(self, line: str) -> None:
        name, rest = split_speaker(line)
        if not rest:
            return
        if rest.startswith("#"):
            number = rest[1:].strip()
            index = ascii_number(number)
            if index is None:
                # ``#²`` or ``#x``: refused here, before any button is looked up
                await self.say("console.not_a_number", number=number[:16])
                return
            button = self.buttons.get(index)
            if button is None:
                # the numbers that work now, as they were printed: "#1-#3, #7 or #99"
                if not self.buttons:
                    await self.say("console.no_buttons", number=number[:16])
                else:
                    lang = await self.core.service.chat_language(PLATFORM, CHAT_ID)
                    await self.say(
                        "console.no_button",
                        number=number[:16],
                        buttons=number_ranges(sorted(self.buttons), lang),
                    )
                return
            replies = await self.core.handle_button(await self.request(name), button.id)
        else:
            replies = await self.core.handle_text(await self.request(name), rest)
        for reply in replies:
            await self.show(reply)

    async def show(self, reply: Reply) -> None:
        prefix = f"(private to {reply.to_user}) " if reply.is_private else ""
        self.print(prefix + reply.text)
        if reply.image is not None:
            self.print(str(self._save_image(reply)))
        if reply.buttons:
            self.buttons = self.numbering.number(reply.buttons)
            self.print("  ".join(f"[{n}] {b.label}" for n, b in self.buttons.items()))
        if reply.board is not None and reply.board.message_id is None:
            self._messages += 1
            await self.core.board_posted(reply.board.session_id, f"console-{self._messages}")

    async def push(self, platform: str, chat_id: str, reply: Reply) -> None:
        """Replies not caused by a line (idle endings): printed like the others."""
        if platform == PLATFORM:
            await self.show(reply)

    def _save_image(self, reply: Reply) -> Path:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        if self._images is None:
            numbers = (_IMAGE_NAME.match(p.name) for p in self.out_dir.iterdir())
            self._images = max((int(found.group(1)) for found in numbers if found), default=0)
        self._images += 1
        path = self.out_dir / f"{self._images:04d}-{Path(reply.image_name).name}"
        path.write_bytes(reply.image or b"")
        return path

    async def say(self, key: str, **params: str) -> None:
        """The console's own answer, in the chat's language (``/lang``) like every reply."""
        lang = await self.core.service.chat_language(PLATFORM, CHAT_ID)
        self.print(i18n.t(lang, key, **params))

    def print(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()


def _read_line(loop: asyncio.AbstractEventLoop, stdin: TextIO) -> asyncio.Future[str]:
    """``stdin.readline()`` on a daemon thread of its own, as a future of this loop."""
    future: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(line or "")

    def read() -> None:
        try:
            line = stdin.readline()
        except BaseException as error:  # handed to the loop, raised there
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(settle, None, error)
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, line, None)

    threading.Thread(target=read, name="console-stdin", daemon=True).start()
    return future


class ConsolePlatform:
    """The console as an ``Adapter`` (the no-token default of ``python -m bot``): reads lines
    until end of input or ``stop``, answering each."""

    name = PLATFORM

    def __init__(self, stdin: TextIO | None = None, out: TextIO | None = None) -> None:
        self.stdin = stdin
        self.out = out
        self._stopping = asyncio.Event()

    async def run(self, core: Core, settings: Any = None) -> None:
        stdin = self.stdin or sys.stdin
        console = Console(core, self.out or sys.stdout)
        core.set_push(console.push)
        console.banner()
        loop = asyncio.get_running_loop()
        stopped = asyncio.ensure_future(self._stopping.wait())
        try:
            while not self._stopping.is_set():
                # Reading stdin blocks: do it in a thread so timers on the loop keep running
                # (a daemon thread: a stop while it waits for a line must not keep the
                # process alive until the terminal sends one).
                read = _read_line(loop, stdin)
                waiting: set[asyncio.Future[Any]] = {read, stopped}
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if not read.done():
                    return  # stopped while waiting for a line (the thread ends with the input)
                line = read.result()
                if not line:
                    return
                await console.handle_line(line)
        finally:
            stopped.cancel()

    async def stop(self) -> None:
        self._stopping.set()
