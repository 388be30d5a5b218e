"""No secret anywhere (issue 27): the bot runs at DEBUG, in the console and in platform mode,
on PostgreSQL with a password (in ``user:pass@`` and ``?password=`` forms, with characters that
are percent-encoded in a URL) and with Telegram unreachable; nothing it prints, in any log
line, traceback or reply, holds a token, the password or the webhook secret in any spelling."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import asyncpg
import pytest

from bot.redact import spellings

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "Pa$$:w/rd@42%sekrit"
TELEGRAM_TOKEN = "987654321:AAFakeTokenForTestsOnly_abcdefghijklmnop"
DISCORD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.fakeDiscordTokenForTestsOnly123456"
WEBHOOK_SECRET = "webhook-secret-for-tests-0123456789"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def database_with_password(pg_server) -> tuple[str, str]:
    """A fresh database owned by a role with PASSWORD; its URL in both forms."""
    url = await pg_server.fresh_database()
    head, _, query = url.partition("?")
    database = head.rsplit("/", 1)[1]
    admin = await asyncpg.connect(pg_server.url(), timeout=10)
    try:
        role = f"r{database}"
        await admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{PASSWORD}'")
        await admin.execute(f"ALTER DATABASE {database} OWNER TO {role}")
        await admin.execute(f"GRANT ALL ON DATABASE {database} TO {role}")
    finally:
        await admin.close()
    conn = await asyncpg.connect(url, timeout=10)
    try:  # the tables were made by the server's superuser: hand them over
        for (table,) in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname='public'"
        ):
            await conn.execute(f'ALTER TABLE "{table}" OWNER TO {role}')
        for (seq,) in await conn.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname='public'"
        ):
            await conn.execute(f'ALTER SEQUENCE "{seq}" OWNER TO {role}')
    finally:
        await conn.close()
    userinfo = f"postgresql://{role}:{quote(PASSWORD, safe='')}@/{database}?{query}"
    keyword = f"postgresql:///{database}?{query}&user={role}&password={quote(PASSWORD, safe='')}"
    return userinfo, keyword


def run_bot(
    tmp_path: Path, env_extra: dict[str, str], lines: list[str], *args: str, timeout: float = 90
) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TELEGRAM_"))}
    env.update(PYTHONPATH=str(ROOT), LOG_LEVEL="DEBUG", **env_extra)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "bot", *args],
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=timeout,
        )
        return result.stdout + result.stderr
    except subprocess.TimeoutExpired as stopped:
        out = stopped.stdout or ""
        err = stopped.stderr or ""
        as_text = [x.decode() if isinstance(x, bytes) else x for x in (out, err)]
        return "".join(as_text)


def leaks(printed: str) -> list[str]:
    found = []
    for secret in (PASSWORD, TELEGRAM_TOKEN, DISCORD_TOKEN, WEBHOOK_SECRET):
        for spelling in spellings(secret):
            if spelling in printed:
                found.append(spelling)
    # the token's secret half alone is a secret too
    if TELEGRAM_TOKEN.split(":")[1] in printed:
        found.append("telegram token (secret half)")
    return found


@pytest.mark.parametrize("form", ["userinfo", "keyword"])
async def test_the_console_at_debug_on_postgresql_with_a_password_prints_no_secret(
    tmp_path: Path, pg_server, form: str
):
    userinfo, keyword = await database_with_password(pg_server)
    url = userinfo if form == "userinfo" else keyword
    printed = run_bot(
        tmp_path,
        {
            "DATABASE_URL": url,
            "TELEGRAM_TOKEN": TELEGRAM_TOKEN,
            "DISCORD_TOKEN": DISCORD_TOKEN,
            "TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
        },
        ["/help", "/play canfield 7", "/move d", "/move zz", "/stats", "/leaderboard"],
        "--console",
    )
    assert "DEBUG" in printed  # it did log at DEBUG
    assert "[1]" in printed or "out/console" in printed  # and played
    assert leaks(printed) == [], printed[-3000:]


async def test_platform_mode_with_telegram_unreachable_prints_no_secret(tmp_path: Path, pg_server):
    userinfo, _ = await database_with_password(pg_server)
    dead = free_port()  # nothing listens there: every call to "Telegram" fails
    printed = run_bot(
        tmp_path,
        {
            "DATABASE_URL": userinfo,
            "TELEGRAM_TOKEN": TELEGRAM_TOKEN,
            "TELEGRAM_BASE_URL": f"http://127.0.0.1:{dead}/bot",
            "TELEGRAM_WEBHOOK_URL": f"https://127.0.0.1:{dead}/hook",
            "TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "HTTP_PORT": str(free_port()),
        },
        [],
        timeout=40,
    )
    assert "DEBUG" in printed
    assert "telegram" in printed.lower()  # it tried, and said so
    assert leaks(printed) == [], printed[-3000:]


async def test_a_database_that_refuses_the_password_names_no_password(tmp_path: Path):
    dead = free_port()
    url = f"postgresql://bot:{quote(PASSWORD, safe='')}@127.0.0.1:{dead}/tavolo"
    printed = run_bot(tmp_path, {"DATABASE_URL": url}, [], "--console", timeout=60)
    assert "cannot" in printed
    assert leaks(printed) == [], printed[-3000:]
