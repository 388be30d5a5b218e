"""Features fill the registry; the core dispatches through it and gives them a public service."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import bot
from bot.app import wire_features
from bot.core import Core
from bot.core.registry import Registry
from bot.replies import Reply, Request

BOT_DIR = Path(bot.__file__).parent


async def test_a_feature_wired_in_answers_its_command_without_any_change_to_the_core(
    tmp_path: Path,
):
    def wiring(registry, service):
        features = wire_features(registry, service)

        async def hello(ctx, args):
            return [service.say(ctx, "lang.set", language=" ".join(args) or "-")]

        registry.command("hello", hello)
        return features

    core = await Core.create(f"sqlite:///{tmp_path / 't.db'}", sweep_interval=None, wiring=wiring)
    try:
        replies = await core.handle_text(Request("console", "c", "ana", "Ana"), "/hello there")
        assert [r.key for r in replies] == ["lang.set"] and replies[0].params == {
            "language": "there"
        }
    finally:
        await core.close()


def test_core_create_without_wiring_is_the_whole_bot(tmp_path: Path):
    """``Core.create(url)`` is a public entry point: in a fresh process that imports only the
    core, a player's first commands work on it."""
    script = f"""
import asyncio
from bot.core import Core
from bot.replies import Request

async def main():
    core = await Core.create("sqlite:///{tmp_path / "t.db"}", sweep_interval=None)
    try:
        request = Request("console", "c", "ana", "Ana")
        started = await core.handle_text(request, "/play canfield 3")
        moved = await core.handle_text(request, "d")
        print(any(r.image for r in started), any(r.image for r in moved),
              any(r.refusal for r in moved))
    finally:
        await core.close()

asyncio.run(main())
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=BOT_DIR.parent,
    )
    assert done.stdout.split() == ["True", "True", "False"], done.stderr[-2000:]


async def test_the_core_refuses_to_start_when_a_command_has_no_handler(tmp_path: Path):
    with pytest.raises(RuntimeError, match="/challenge"):
        await Core.create(
            f"sqlite:///{tmp_path / 't.db'}",
            sweep_interval=None,
            wiring=lambda registry, service: {},
        )


def test_a_command_or_button_verb_registered_twice_is_a_wiring_mistake():
    registry = Registry()

    async def handler(*args) -> list[Reply]:
        return []

    registry.command("play", handler)
    with pytest.raises(ValueError, match="/play"):
        registry.command("play", handler)
    registry.button("mv", handler)
    with pytest.raises(ValueError, match="mv"):
        registry.button("mv", handler)


def test_no_module_outside_the_core_reaches_a_private_name_of_the_core_or_its_service():
    """``core._say(...)``, ``self.core._board(...)``: features and adapters use public names."""
    found = []
    for path in sorted(BOT_DIR.rglob("*.py")):
        if path.is_relative_to(BOT_DIR / "core"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                continue
            owner = node.value
            named = (
                owner.id
                if isinstance(owner, ast.Name)
                else owner.attr
                if isinstance(owner, ast.Attribute)
                else ""
            )
            if named in ("core", "service"):
                found.append(f"{path.relative_to(BOT_DIR)}:{node.lineno} {named}.{node.attr}")
    assert found == []
