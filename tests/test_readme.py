"""README facts that drift: the Discord permissions integer must be the sum of the
permissions listed beside it."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

#: Discord permission bits (discord.com/developers/docs/topics/permissions)
BITS = {
    "View Channels": 10,
    "Send Messages": 11,
    "Embed Links": 14,
    "Attach Files": 15,
    "Read Message History": 16,
    "Use Application Commands": 31,
    "Send Messages in Threads": 38,
}


def test_the_discord_permissions_integer_matches_the_listed_permissions() -> None:
    text = README.read_text(encoding="utf-8")
    step = text[text.index("bot permissions ") : text.index("The invite link is then")]
    listed = set(re.findall(r"\*\*([A-Za-z ]+)\*\*", step))
    assert listed and listed <= set(BITS), listed
    (integer,) = set(re.findall(r"permissions integer `(\d+)`", step))
    assert int(integer) == sum(1 << BITS[name] for name in listed)
    assert f"permissions={integer}" in text  # the invite link asks for the same
