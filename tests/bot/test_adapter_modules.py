"""The adapters and the texts are packages of a module per concept (their size:
tests/test_module_sizes.py) that keep the names the rest of the bot imports from them."""

from __future__ import annotations

from pathlib import Path

import bot.i18n
import bot.platforms

MAX_LINES = 500
FOLDERS = (Path(bot.platforms.__file__).parent, Path(bot.i18n.__file__).parent)


def test_the_packages_keep_what_the_bot_imports_from_them() -> None:
    from bot.platforms import discord, telegram

    for name in ("DiscordPlatform", "DiscordConfig", "create_client", "ACK_BUDGET"):
        assert hasattr(discord, name), name
    for name in ("TelegramPlatform", "TelegramAdapter", "TelegramConfig", "html_text"):
        assert hasattr(telegram, name), name
    # what bot/, bench/ and the tests use as ``i18n.<name>`` or import from bot.i18n
    used = [
        "t",
        "LANGUAGES",
        "DEFAULT",
        "GAME_IDS",
        "BOARD_WORDS",
        "board_words",
        "card_label",
        "card_name",
        "game_name",
        "game_names",
        "games_help",
        "has_key",
        "help_text",
        "is_games_word",
        "keys",
        "language_name",
        "normalise",
        "pile_name",
        "raw_forms",
        "reason_text",
        "reload",
        "rules_text",
        "dollars",
    ]
    assert [name for name in used if not hasattr(bot.i18n, name)] == []
