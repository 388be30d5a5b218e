"""A chat line is read once per request (issue 38): the rate limit, the metrics label and the
dispatch share one parsed line, and a typed move's move word is worked out once, however many
games are asked whether they read it. Counted on the public functions wherever a module of the
bot holds them, so the count does not depend on which module calls them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest
from core_fakes import FakePlatform

from bot.core import commands


def count_calls(monkeypatch: pytest.MonkeyPatch, function: Callable[..., Any]) -> list[int]:
    """Replace ``function`` in every loaded module of the bot that holds it by a counting
    wrapper; the returned one-item list holds the number of calls so far."""
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return function(*args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("bot") and getattr(module, function.__name__, None) is function:
            monkeypatch.setattr(module, function.__name__, counted)
    return calls


@pytest.mark.parametrize(
    "line",
    ["/help", "/move w3", "/undo", "/nosuchcommand x", "hello there", "w3", "x" * 600],
)
async def test_each_chat_line_is_parsed_once(
    chat: FakePlatform, monkeypatch: pytest.MonkeyPatch, line: str
):
    await chat.say("ana", "/play canfield 7")
    parsed = count_calls(monkeypatch, commands.parse_line)
    replies = await chat.say("ana", line)
    assert parsed[0] == (0 if len(line) > commands.MAX_LINE else 1)
    if len(line) > commands.MAX_LINE:
        assert replies[0].key == "error.too_long"


async def test_a_move_word_is_read_once_and_still_played_at_a_table(
    chat: FakePlatform, monkeypatch: pytest.MonkeyPatch
):
    chat.admins.add("ana")
    await chat.say("ana", "/lang es")
    await chat.say("ana", "/play canfield 7")  # a second game open beside the table
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    for line in ("pasar", "/move pasar"):
        words = count_calls(monkeypatch, commands.move_word)
        replies = await chat.say("ana", line)
        assert words[0] == 1, line
        monkeypatch.undo()
        # read as the pass move: played, or refused by the rules when Ana must place a master
        assert replies[0].key in ("tables.plays", "illegal.must_place"), replies[0].key
        if replies[0].key == "tables.plays":
            assert replies[0].text.splitlines()[0] == "Ana pasa."
            break
