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
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

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


class Console:
    """Turns input lines into core calls and replies into printed lines and image files."""

    def __init__(self, core: Core, out: TextIO, out_dir: Path = OUT_DIR) -> None:
        self.core = core
        self.out = out
        self.out_dir = out_dir
        self.buttons: dict[int, Button] = {}
        self._images: int | None = None  # the last image number used (read from out_dir first)
        self._messages = 0

    def request(self, name: str) -> Request:
        # The console is one shared table where everyone is trusted: a group whose members
        # are all admins (so /lang, /end and tables work as in a group chat).
        shown = (
            i18n.t(self.core.default_language, "console.player") if name == DEFAULT_PLAYER else name
        )
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
                self.print(
                    f"(#{number[:16]} is not a button number: type # and digits 0-9, e.g. #1)"
                )
                return
            button = self.buttons.get(index)
            if button is None:
                self.print(f"(no button #{number})")
                return
            replies = await self.core.handle_button(self.request(name), button.id)
        else:
            replies = await self.core.handle_text(self.request(name), rest)
        for reply in replies:
            await self.show(reply)

    async def show(self, reply: Reply) -> None:
        prefix = f"(private to {reply.to_user}) " if reply.is_private else ""
        self.print(prefix + reply.text)
        if reply.image is not None:
            self.print(str(self._save_image(reply)))
        if reply.buttons:
            self.buttons = {}
            for number, button in enumerate(reply.buttons, start=1):
                self.buttons[number] = button
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

    def print(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()


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
                # Reading stdin blocks: do it in a thread so timers on the loop keep running.
                read = loop.run_in_executor(None, stdin.readline)
                await asyncio.wait({read, stopped}, return_when=asyncio.FIRST_COMPLETED)
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
