"""A platform's bot token never reaches a log record, whoever logs it, also inside the text of
an exception logged with it (a library quoting its request, a URL holding the token)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from bot.platforms.discord.config import install_token_redaction as discord_redaction
from bot.platforms.telegram.config import install_token_redaction as telegram_redaction


@pytest.mark.parametrize(
    ("install", "token"),
    [
        (discord_redaction, "MTAxNzQ0.GhTnQZ.discord-token-in-an-error-0123456789"),
        (telegram_redaction, "987654321:telegram-token-in-an-error-0123456789abcdef"),
    ],
)
def test_a_token_quoted_by_an_exception_is_masked_in_the_log(
    install: Callable[[str], None], token: str, caplog: pytest.LogCaptureFixture
) -> None:
    install(token)
    library = logging.getLogger("some.library")
    with caplog.at_level(logging.INFO):
        library.info("connecting with %s", token)
        try:
            raise ConnectionError(f"POST https://example.invalid/bot{token}/getMe refused")
        except ConnectionError:
            library.exception("login failed")
    assert "connecting with" in caplog.text and "login failed" in caplog.text
    assert "ConnectionError" in caplog.text  # the traceback is logged ...
    assert token not in caplog.text  # ... without the token
