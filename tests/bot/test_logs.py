"""Logs (issue 27): every line redacted at the root handler, ``LOG_FORMAT=json`` one JSON object
a line with the chat and session ids, settings' text without any password."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render

from bot import logs
from bot.app import open_core
from bot.settings import Settings

PASSWORD = "Pa$$:w/rd@42"
QUOTED = "Pa%24%24%3Aw%2Frd%4042"


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bot:{QUOTED}@db:5432/tavolo",
        f"postgresql:///tavolo?host=/run/pg&user=bot&password={QUOTED}",
    ],
)
def test_settings_text_and_every_log_level_hide_the_database_password(captured, url):
    settings = Settings.from_mapping({"DATABASE_URL": url, "LOG_LEVEL": "debug"})
    assert QUOTED not in repr(settings) and PASSWORD not in str(settings)
    assert "postgresql://" in repr(settings)  # still says where
    logs.configure("DEBUG", "text", settings.secrets, captured)
    log = logging.getLogger("tavolo.test")
    log.debug("connecting with %s", url)
    log.info("raw %s and decoded %s", QUOTED, PASSWORD)
    try:
        raise RuntimeError(f"could not reach {url}")
    except RuntimeError:
        log.exception("failed")
    text = captured.getvalue()
    assert text.count("\n") >= 3
    assert QUOTED not in text and PASSWORD not in text


def test_a_library_logging_a_telegram_url_gets_it_masked(captured):
    logs.configure("DEBUG", "text", [], captured)  # not even told the token
    token = "123456789:AAFakeTokenForTestsOnly_abcdefghijk"
    logging.getLogger("httpx").warning("POST https://api.telegram.org/bot%s/getMe", token)
    assert token.split(":")[1] not in captured.getvalue()


async def test_json_lines_carry_chat_and_session_ids_and_no_message_text(captured, tmp_path: Path):
    logs.configure("DEBUG", "json", ["s3cr3t-token-value"], captured)
    core = await open_core(
        f"sqlite:///{tmp_path / 't.db'}",
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
    )
    try:
        chat = FakePlatform(core, chat_id="chat-42")
        await chat.say("ana", "/play canfield 7")
        session_id = chat.board().board.session_id
        await chat.say("ana", "/move d")
        logging.getLogger("tavolo.core").warning("a line about s3cr3t-token-value")
    finally:
        await core.close()
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    assert lines and all({"time", "level", "logger", "event"} <= set(e) for e in lines)
    last = lines[-1]
    # the chat by its keyed hash, never its platform id (a private chat's is its player's)
    assert last["chat_id"] == logs.pseudonym("chat-42") and last["session_id"] == session_id
    assert "chat-42" not in captured.getvalue()
    assert "s3cr3t-token-value" not in captured.getvalue()
    assert "/move d" not in captured.getvalue()  # what a player typed is not logged


def test_log_format_is_checked():
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        Settings.from_mapping({"LOG_FORMAT": "xml"})
    assert Settings.from_mapping({"LOG_FORMAT": "JSON"}).log_format == "json"


def test_libraries_that_dump_payloads_at_debug_keep_players_words_out(captured):
    logs.configure("DEBUG", "json", [], captured)
    typed = "my secret plan: move w3"
    logging.getLogger("discord.gateway").debug("WebSocket Event: {'text': %r}", typed)
    logging.getLogger("telegram.ext.Application").debug("Processing update %r", typed)
    logging.getLogger("aiosqlite").debug("executing INSERT ... (%r)", typed)
    logging.getLogger("tavolo.core").debug("our own debug line")
    assert typed not in captured.getvalue()
    assert "our own debug line" in captured.getvalue()
