"""``python -m bot sync-commands``: the deploy step that tells the platforms what the bot is.

Run once per deploy (a release step), not by every process at start: Discord's slash commands
(replicas of a sharded bot do not sync them; a single process still does, see
``Settings.syncs_discord_commands``), Telegram's command menus, and in webhook mode Telegram's
webhook with the configured secret (workers set it at start only when Telegram's differs from
the settings, and Telegram never shows a secret back: a new secret takes effect here).
"""

from __future__ import annotations

import logging
from typing import Any

from bot.app import open_core

log = logging.getLogger("tavolo.sync")


class _Forced:
    """``settings`` with the Discord commands synced whatever this process's shards are."""

    def __init__(self, settings: Any) -> None:
        self._settings = settings
        self.syncs_discord_commands = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._settings, name)


async def sync_commands(settings: Any) -> list[str]:
    """Sync every platform whose token is set; returns one line per platform done."""
    done: list[str] = []
    core = await open_core(settings.database_url, settings.default_language, sweep_interval=None)
    try:
        if getattr(settings, "discord_token", None):
            from bot.platforms.discord import create_client

            client = create_client(core, _Forced(settings))
            async with client:
                await client.login(client.config.token)  # its setup hook syncs the commands
                done.append(f"discord: {client.synced_commands} slash commands synced")
        if getattr(settings, "telegram_token", None):
            from bot.platforms.telegram import TelegramAdapter, TelegramConfig

            adapter = TelegramAdapter(core, TelegramConfig.from_settings(settings))
            done += await adapter.sync()
    finally:
        await core.close()
    for line in done:
        log.info("%s", line)
    return done
