"""Settings: .env is read, the environment wins, tokens never show."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.logs import RedactSecrets
from bot.settings import Settings


def test_environment_wins_over_dotenv_and_empty_values_are_unset(tmp_path: Path):
    env_file = tmp_path / ".env"
    env_file.write_text("TELEGRAM_TOKEN=from-file\nDEFAULT_LANGUAGE=it\nDISCORD_TOKEN=\n")
    settings = Settings.load(env_file, {"TELEGRAM_TOKEN": "from-env", "PATH": "/bin"})
    assert settings.telegram_token == "from-env"
    assert settings.default_language == "it"
    assert settings.discord_token is None
    assert settings.database_url == "sqlite:///data/tavolo.db"


def test_repr_hides_tokens_and_the_webhook_secret():
    settings = Settings.from_mapping(
        {
            "TELEGRAM_TOKEN": "123:AAAbbb",
            "DISCORD_TOKEN": "mfa.zzz",
            "TELEGRAM_WEBHOOK_SECRET": "hush",
        }
    )
    text = repr(settings) + str(settings)
    for secret in ("123:AAAbbb", "mfa.zzz", "hush"):
        assert secret not in text
    assert "***" in text


def test_log_records_never_carry_a_token():
    record = logging.LogRecord(
        "x", logging.INFO, __file__, 1, "GET https://api/bot%s/getMe", ("123:AAAbbb",), None
    )
    RedactSecrets(["123:AAAbbb"]).filter(record)
    assert "123:AAAbbb" not in record.getMessage()
    assert "bot***" in record.getMessage()
