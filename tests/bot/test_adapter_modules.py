"""The adapters and the texts are modules of one concept each (issue 38): none of
bot/platforms/ or bot/i18n/ grows past 500 lines (split it by concept instead), and the
packages keep the names the rest of the bot imports from them."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.i18n
import bot.platforms

MAX_LINES = 500
FOLDERS = (Path(bot.platforms.__file__).parent, Path(bot.i18n.__file__).parent)


@pytest.mark.parametrize(
    "path", [p for folder in FOLDERS for p in sorted(folder.rglob("*.py"))], ids=lambda p: p.name
)
def test_no_adapter_or_text_module_is_over_500_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path}: {lines} lines"


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
