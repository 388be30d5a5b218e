"""Running Telegram as the ``Adapter`` ``python -m bot`` runs: polls or serves the webhook
until stopped."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.platforms.telegram.adapter import TelegramAdapter
from bot.platforms.telegram.config import PLATFORM, TelegramConfig
from bot.replies import Reply

if TYPE_CHECKING:
    from bot.core import Core


class TelegramPlatform:
    """Telegram as an ``Adapter`` (``python -m bot`` runs it when ``TELEGRAM_TOKEN`` is set):
    polls or serves the webhook until ``stop``."""

    name = PLATFORM

    def __init__(self) -> None:
        self._stopping = asyncio.Event()

    async def run(self, core: Core, settings: Any) -> None:
        adapter = TelegramAdapter(core, TelegramConfig.from_settings(settings))
        _attach_push(core, adapter.push)
        await adapter.start()
        try:
            await self._stopping.wait()
        finally:
            await adapter.stop()

    async def stop(self) -> None:
        self._stopping.set()


def _attach_push(core: Core, push: Callable[[str, str, Reply], Awaitable[None]]) -> None:
    """Register the adapter's push with the core."""
    core.set_push(push)
