"""Start-up (issue 39): every setting is checked at start, a mistake is one line and exit 2
(JSON under LOG_FORMAT=json), PORT goes through the settings and .env, webhook mode needs the
shared secret, a replica's shard range comes from one setting, the fonts are checked before
the first board, and SIGHUP never ends the bot."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import startup
from bot.settings import Settings, replica_shards
from renderer import typeface

ROOT = Path(__file__).resolve().parents[2]


def _bot(tmp_path: Path, env: dict[str, str], *args: str, **kw: object) -> subprocess.Popen[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_"))}
    base.update(PYTHONPATH=str(ROOT), DATABASE_URL=f"sqlite:///{tmp_path / 'tavolo.db'}")
    base.pop("LOG_FORMAT", None)
    base.update(env)
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=base,
    )


def _refused(tmp_path: Path, env: dict[str, str]) -> tuple[int, str]:
    bot = _bot(tmp_path, env, "--console")
    _out, err = bot.communicate("", timeout=60)
    return bot.returncode, err


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"PORT": "abc"}, "PORT must be a port number"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be one of"),
        ({"DEFAULT_LANGUAGE": "xx"}, "DEFAULT_LANGUAGE must be one of en, es, it"),
        (
            {"TELEGRAM_WEBHOOK_URL": "https://bot.example/hook"},
            "TELEGRAM_WEBHOOK_SECRET must be set",
        ),
        (
            {"TELEGRAM_WEBHOOK_URL": "https://bot.example/hook", "TELEGRAM_WEBHOOK_SECRET": "a b"},
            "1-256 characters",
        ),
        ({"DISCORD_REPLICA": "2/2", "DISCORD_SHARD_COUNT": "4"}, "index 2 is not below"),
        (
            {"DISCORD_REPLICA": "0/2", "DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "1"},
            "not both",
        ),
        ({"DISCORD_GUILD_ID": "my-server"}, "DISCORD_GUILD_ID must be"),
        ({"DISCORD_SYNC_COMMANDS": "maybe"}, "DISCORD_SYNC_COMMANDS must be 1 or 0"),
        ({"DATABASE_POOL_SIZE": "0"}, "DATABASE_POOL_SIZE must be a whole number 1-1000"),
        ({"DATABASE_POOL_TIMEOUT": "forever"}, "DATABASE_POOL_TIMEOUT must be a number"),
    ],
)
def test_a_setting_that_cannot_be_used_is_refused_in_one_line(env: dict[str, str], says: str):
    with pytest.raises(ValueError, match=says):
        Settings.from_mapping(env)


def test_a_bad_setting_stops_the_process_with_one_line_and_status_2(tmp_path: Path):
    code, err = _refused(tmp_path, {"LOG_LEVEL": "LOUD"})
    assert code == 2
    assert err.strip().splitlines() == [
        "tavolo: cannot start: LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL "
        "(got 'LOUD')"
    ]


def test_under_log_format_json_the_refusal_is_one_json_line(tmp_path: Path):
    (tmp_path / ".env").write_text("LOG_FORMAT=json\n")
    code, err = _refused(tmp_path, {"PORT": "abc"})
    assert code == 2
    [line] = err.strip().splitlines()
    entry = json.loads(line)
    assert entry["level"] == "CRITICAL"
    assert entry["event"] == "cannot start: PORT must be a port number 0-65535 (got 'abc')"


def test_an_http_port_in_use_is_one_line_and_status_2(tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, err = _refused(tmp_path, {"HTTP_PORT": str(port), "LOG_FORMAT": "json"})
    assert code == 2
    # the last line (a new database's schema is logged before it)
    event = json.loads(err.strip().splitlines()[-1])["event"]
    assert event.startswith(f"cannot start: the HTTP server cannot listen on 127.0.0.1:{port}")
    assert "Traceback" not in err


def test_a_host_that_is_not_this_machines_is_one_line_and_status_2(tmp_path: Path):
    code, err = _refused(tmp_path, {"HTTP_PORT": "0", "HTTP_HOST": "203.0.113.7"})
    assert code == 2
    assert (
        err.strip()
        .splitlines()[-1]
        .startswith("tavolo: cannot start: the HTTP server cannot listen on 203.0.113.7:0")
    )
    assert "Traceback" not in err


def test_the_pool_settings_reach_the_storage():
    pool = Settings.from_mapping({"DATABASE_POOL_SIZE": "25", "DATABASE_POOL_TIMEOUT": "2.5"}).pool
    assert (pool.size, pool.timeout) == (25, 2.5)


def test_port_in_dotenv_is_the_webhooks_port_and_its_own_setting_wins(tmp_path: Path):
    env_file = tmp_path / ".env"
    env_file.write_text("PORT=19555\nTELEGRAM_WEBHOOK_LISTEN=127.0.0.1\n")
    settings = Settings.load(env_file, {})
    assert (settings.webhook_port, settings.telegram_webhook_listen) == (19555, "127.0.0.1")
    assert Settings.load(env_file, {"TELEGRAM_WEBHOOK_PORT": "8444"}).webhook_port == 8444
    assert Settings.load(tmp_path / "none", {}).webhook_port == 8443


@given(count=st.integers(1, 64), data=st.data())
def test_replicas_share_the_shards_each_once_in_ranges(count: int, data: st.DataObject):
    replicas = data.draw(st.integers(1, count))
    shares = [replica_shards(f"{index}/{replicas}", count) for index in range(replicas)]
    assert [shard for share in shares for shard in share] == list(range(count))
    sizes = [len(share) for share in shares]
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 1


def test_a_replica_gets_its_shards_and_leaves_the_commands_to_the_deploy_step():
    replica = Settings.from_mapping({"DISCORD_SHARD_COUNT": "6", "DISCORD_REPLICA": "1/3"})
    assert replica.discord_shard_ids == (2, 3)
    assert not replica.syncs_discord_commands
    assert Settings.from_mapping({}).syncs_discord_commands  # one process: syncs at start
    forced = {"DISCORD_SHARD_COUNT": "6", "DISCORD_REPLICA": "0/3", "DISCORD_SYNC_COMMANDS": "1"}
    assert Settings.from_mapping(forced).syncs_discord_commands


def test_a_missing_font_file_stops_the_start_naming_it(tmp_path: Path, monkeypatch):
    startup.check_fonts()  # the shipped fonts load
    gone = tmp_path / "NotoSansThai-Regular.ttf"
    monkeypatch.setitem(typeface.CHAIN, "thai", (gone, typeface.CHAIN["thai"][1]))
    with pytest.raises(startup.StartupError, match="NotoSansThai-Regular.ttf cannot be read"):
        startup.check_fonts()


def test_sighup_does_not_end_the_bot(tmp_path: Path):
    bot = _bot(tmp_path, {}, "--console")
    try:
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write("/play canfield 7\n")
        bot.stdin.flush()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not bot.stdout.readline().strip().endswith(".png"):
            pass
        bot.send_signal(signal.SIGHUP)
        bot.stdin.write("/move d\n")
        bot.stdin.flush()
        while time.monotonic() < deadline and not bot.stdout.readline().strip().endswith(".png"):
            pass
        assert bot.poll() is None  # still running, and answered the move after SIGHUP
        bot.stdin.close()
        assert bot.wait(timeout=30) == 0
    finally:
        if bot.poll() is None:
            bot.kill()
    assert "SIGHUP: ignored" in (bot.stderr.read() if bot.stderr else "")
