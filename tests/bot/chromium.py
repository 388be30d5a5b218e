"""Headless Chromium driven over the Chrome DevTools protocol, with aiohttp's websocket client
(nothing downloaded: Debian's ``chromium`` package, which ``.ci/run`` installs when missing).

>>> CHROMIUM_NAMES[0]
'chromium'
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
#: how long Chromium may take to start, and a page to load (or answer a command). Bounds for
#: a browser that hangs, never a measure of speed: on a machine busy with other work (load
#: 10 on 2 cores) one page load took over 20 s, so they are generous
START_SECONDS = 120.0
LOAD_SECONDS = 120.0


def chromium_path() -> str:
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError("no chromium: install Debian's package (apt-get install -y chromium)")


class Tab:
    """One page of the browser, driven by DevTools commands."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse, session_id: str) -> None:
        self.socket = socket
        self.session_id = session_id
        self._ids = itertools.count(1000)
        self._events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}

    def dispatch(self, message: dict[str, Any]) -> None:
        if "id" in message and message["id"] in self._waiting:
            self._waiting.pop(message["id"]).set_result(message)
        elif message.get("method"):
            self._events.put_nowait(message)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        await self.socket.send_json(
            {"id": ident, "method": method, "params": params, "sessionId": self.session_id}
        )
        answer = await asyncio.wait_for(future, LOAD_SECONDS)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    async def resize(self, width: int, height: int = 900) -> None:
        """The window made ``width`` CSS pixels wide (a phone below 500): the page in it is
        laid out again for that width (its media queries too) without loading it again."""
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=width < 500,
        )

    async def open(self, url: str, width: int, height: int = 900) -> None:
        """Load ``url`` in a window ``width`` CSS pixels wide (a phone below 500)."""
        await self.resize(width, height)
        while not self._events.empty():
            self._events.get_nowait()
        await self.send("Page.navigate", url=url)
        deadline = asyncio.get_running_loop().time() + LOAD_SECONDS
        while True:
            left = deadline - asyncio.get_running_loop().time()
            event = await asyncio.wait_for(self._events.get(), max(left, 0.01))
            if event["method"] == "Page.loadEventFired":
                return

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def screenshot(self, path: Path) -> None:
        """The whole page (below the fold too) as a PNG file."""
        shot = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))


@contextlib.asynccontextmanager
async def browser() -> AsyncIterator[Tab]:
    """A headless Chromium with one tab; closed (and its profile removed) afterwards."""
    profile = tempfile.mkdtemp(prefix="tavolo-chromium-")
    process = await asyncio.create_subprocess_exec(
        chromium_path(),
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--hide-scrollbars",
        "--mute-audio",
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        start_new_session=True,
    )
    reader: asyncio.Task[None] | None = None
    try:
        port_file = Path(profile) / "DevToolsActivePort"
        deadline = asyncio.get_running_loop().time() + START_SECONDS
        while not port_file.exists() or not port_file.read_text().strip():
            if asyncio.get_running_loop().time() > deadline or process.returncode is not None:
                raise RuntimeError("chromium did not start")
            await asyncio.sleep(0.1)
        port, path = port_file.read_text().split()[:2]
        async with aiohttp.ClientSession() as http:
            socket = await http.ws_connect(f"ws://127.0.0.1:{port}{path}", max_msg_size=0)
            await socket.send_json(
                {"id": 1, "method": "Target.createTarget", "params": {"url": "about:blank"}}
            )
            target = await _answer(socket, 1)
            await socket.send_json(
                {
                    "id": 2,
                    "method": "Target.attachToTarget",
                    "params": {"targetId": target["targetId"], "flatten": True},
                }
            )
            attached = await _answer(socket, 2)
            tab = Tab(socket, attached["sessionId"])

            async def read() -> None:
                async for message in socket:
                    if message.type == aiohttp.WSMsgType.TEXT:
                        tab.dispatch(json.loads(message.data))

            reader = asyncio.create_task(read())
            await tab.send("Page.enable")
            await tab.send("Runtime.enable")
            yield tab
            reader.cancel()
            await socket.close()
    finally:
        if reader is not None:
            reader.cancel()
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)  # the browser and its helpers, only
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
        shutil.rmtree(profile, ignore_errors=True)


async def _answer(socket: aiohttp.ClientWebSocketResponse, ident: int) -> dict[str, Any]:
    while True:
        message = json.loads((await asyncio.wait_for(socket.receive(), START_SECONDS)).data)
        if message.get("id") == ident:
            if "error" in message:
                raise RuntimeError(str(message["error"]))
            return message["result"]
