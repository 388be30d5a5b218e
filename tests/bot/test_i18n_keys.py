"""The catalogues against the bot's code: every key the code asks for has a text, and every
text in the catalogues is asked for somewhere (no leftover message a player can never see).

The code is read, not run: string literals in ``bot/**/*.py`` are the keys it uses, and an
f-string in a key position (``f"error.{reason}"``) makes every key under its fixed prefix
reachable."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import bot
from bot import i18n

BOT_DIR = Path(bot.__file__).parent
#: the web page's templates ask for texts as ``t('key')`` or ``t('prefix.' ~ name)``
TEMPLATE_KEY = re.compile(r"""\bt\(\s*'([a-z0-9_.]+)'\s*(~)?""")
#: calls whose argument at this position is a catalogue key: i18n.t(lang, key), core.say(ctx, key),
#: core.private(ctx, key), core.refuse(ctx, key), messages.reply(lang, key), Refusal(key, ...)
KEY_CALLS = {"t": 1, "say": 1, "private": 1, "refuse": 1, "reply": 1, "Refusal": 0}


def _sources() -> dict[Path, ast.Module]:
    return {
        path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(BOT_DIR.rglob("*.py"))
    }


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    if isinstance(node.func, ast.Name):
        return node.func.id
    return None


def _key_arguments(tree: ast.Module) -> list[ast.expr]:
    """The expressions passed as the key of a text lookup, and the values assigned to
    variables named ``key`` (``key = "a" if ... else "b"``, then ``t(lang, key)``)."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) in KEY_CALLS:
            position = KEY_CALLS[_call_name(node)]  # type: ignore[index]
            if len(node.args) > position:
                found.append(node.args[position])
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "key" for t in node.targets
        ):
            found.append(node.value)
    return found


def _constants(expression: ast.expr) -> list[str]:
    """The string literals an expression can evaluate to (through ``a if c else b``)."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        return [expression.value]
    if isinstance(expression, ast.IfExp):
        return _constants(expression.body) + _constants(expression.orelse)
    return []


def _prefix(expression: ast.expr) -> str | None:
    """The fixed start of an f-string key (``f"cmd.{name}"`` -> ``cmd.``)."""
    if isinstance(expression, ast.JoinedStr) and expression.values:
        first = expression.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str) and "." in first.value:
            return first.value
    return None


def used_keys() -> tuple[set[str], set[str], set[str]]:
    """(keys asked for literally in a key position, every string literal of the code,
    prefixes of keys built at run time)."""
    asked: set[str] = set()
    literals: set[str] = set()
    prefixes: set[str] = set()
    for tree in _sources().values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
            elif isinstance(node, ast.JoinedStr) and _prefix(node):
                prefixes.add(_prefix(node))  # type: ignore[arg-type]
        for argument in _key_arguments(tree):
            asked.update(_constants(argument))
            if _prefix(argument):
                prefixes.add(_prefix(argument))  # type: ignore[arg-type]
    for template in sorted(BOT_DIR.rglob("templates/*.html")):
        for key, built in TEMPLATE_KEY.findall(template.read_text(encoding="utf-8")):
            (prefixes if built else asked).add(key)
            literals.add(key)
    return asked, literals, prefixes


def test_the_scan_sees_literal_conditional_and_built_keys() -> None:
    asked, literals, prefixes = used_keys()
    assert {"play.started", "move.no_game", "race.opened_senza_tempo", "button.undo"} <= asked
    assert {"cmd.", "error.", "outcome.", "stats.best.", "pile."} <= prefixes
    assert "tables.plays" in literals  # a reply key that is no catalogue key
    assert {"web.home.title", "web.daily.deal_hidden"} <= asked  # asked for by the web templates
    assert "web.period." in prefixes


def test_every_key_the_code_asks_for_has_an_english_text() -> None:
    asked, _, _ = used_keys()
    # Keys that are only ids of composed replies (their text is built from other keys).
    catalogue_namespaces = {key.split(".")[0] for key in i18n.keys("en")}
    wanted = {key for key in asked if "." in key and key.split(".")[0] in catalogue_namespaces}
    missing = sorted(key for key in wanted if not i18n.has_key(key))
    assert missing == []


def test_every_key_in_the_catalogues_is_used_by_the_bot() -> None:
    _, literals, prefixes = used_keys()
    # counted words are asked for by the catalogues' own texts: {moves:#count.moves}
    for key in i18n.keys("en"):
        for text in i18n.raw_forms("en", key):
            literals.update(
                spec[1:]
                for _, _, spec, _ in string.Formatter().parse(text)
                if spec and spec[0] == "#"
            )
    unused = sorted(
        key
        for key in i18n.keys("en")
        if key not in literals and not any(key.startswith(p) for p in prefixes)
    )
    assert unused == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_catalogue_keeps_a_key_english_does_not_have(lang: str) -> None:
    assert sorted(i18n.keys(lang) - i18n.keys("en")) == []
