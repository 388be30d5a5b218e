"""Leaderboard tables keep their columns on both platforms: they go out in a fixed-width block."""

from bot.platforms.discord.messages import _content
from bot.platforms.telegram import html_text
from bot.replies import Reply

TABLE = "Solitario — today\n 1. ana   120  m42\n 2. bob <3  95  m17"


def test_telegram_sends_tables_as_escaped_pre_blocks():
    text = html_text(Reply("leaderboard.table", TABLE, params={"preformatted": True}), 4096)
    assert text.startswith("<pre>") and text.endswith("</pre>")
    assert "bob &lt;3" in text  # still escaped inside the block


def test_telegram_keeps_a_cut_table_inside_its_block():
    text = html_text(Reply("leaderboard.table", TABLE * 50, params={"preformatted": True}), 200)
    assert len(text) <= 200 and text.endswith("…</pre>")


def test_plain_text_is_not_wrapped():
    assert html_text(Reply("help.text", "hello"), 4096) == "hello"
    assert _content(Reply("help.text", "hello")) == "hello"


def test_discord_sends_tables_in_a_code_block():
    content = _content(Reply("leaderboard.table", TABLE, params={"preformatted": True}))
    assert content.startswith("```\n") and content.endswith("\n```") and " 1. ana   120" in content
