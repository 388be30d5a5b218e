"""Fuzzing the core: whatever players type or press, the bot answers sensibly and a refused
input changes nothing.

Each example builds a fresh scene (chat-1: Ana plays Imaginary Thirteen, Bob plays El
Solitario; chat-2: Carl and Dan at a started Cartas Maestras table; Eve plays nothing) and
sends a few hypothesis-drawn inputs, as any of the five people, from either chat or a private
chat: random and unicode text, huge lines, every command with random arguments, real and
forged button ids, other players' buttons, out-of-date revisions, other games' moves.

After every input:
* no exception reached the core's safety net (no ``error.internal`` answer);
* every reply has text, every private reply names its one reader, button ids fit 64 ASCII bytes;
* when the bot only answered privately (a refusal) or not at all, nothing stored changed;
* every live game in memory has exactly the moves stored in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import string
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from core_fakes import FakeClock, fake_render
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.core.sessions
import engine
from bot.app import open_core
from bot.core import Core, buttons
from bot.core.commands import COMMANDS, FACES
from bot.replies import Reply, Request
from bot.storage import ACTIVE

PEOPLE = ("ana", "bob", "carl", "dan", "eve")
CHATS = ("chat-1", "chat-2", "dm")
STORED_TABLES = ("sessions", "moves", "results", "settings")
WORDS = (
    *engine.GAMES,
    *sorted(w for c in engine.GAMES.values() for w in c.info.aliases),
    *FACES,
    "poker",
    "solitario",
    "canfield",
    "today",
    "week",
    "all",
    "here",
    "global",
    "it",
    "en",
    "es",
    "fr",
    "@ana",
    "@bob",
    "@carl",
    "@dan",
    "@eve",
    "<@123>",
    "0",
    "1",
    "-1",
    "2147483648",
    "99999999999999999999",
    "#0",
    "#1",
    "#999",
    "cards=52",
    "draw=3",
    "=",
    "a=",
    "stock",
    "*",
    "t4",
    "t1",
    "b5",
    "w3",
    "zz9",
)


@contextlib.contextmanager
def repeatable() -> Iterator[None]:
    """Session ids and deal numbers the same on every run, so hypothesis can replay and
    shrink an example (it draws buttons and moves from what the scene shows)."""
    counter = itertools.count()
    with (
        mock.patch.object(bot.core.sessions, "new_session_id", lambda: f"s{next(counter):07d}"),
        mock.patch("secrets.randbelow", lambda limit: 12345 % limit),
    ):
        yield


class Scene:
    """A core on an in-memory database with games in two chats."""

    def __init__(self) -> None:
        self.clock = FakeClock()
        self.core: Core

    async def open(self) -> None:
        self.core = await open_core(
            "sqlite:///:memory:", "en", self.clock, renderer=fake_render, sweep_interval=None
        )
        await self.say("chat-1", "ana", "/play imaginary13 3")
        await self.say("chat-1", "ana", "/move t4")
        await self.say("chat-1", "bob", "/play squadratik 5")
        bob = engine.new_game("squadratik", 5, ["bob"], {})
        await self.say("chat-1", "bob", f"/move {bob.legal_moves()[0]}")
        await self.say("chat-2", "carl", "/challenge @dan")
        await self.say("chat-2", "dan", "/join")
        await self.say("chat-2", "carl", "/start")

    def request(self, chat: str, user: str, is_admin: bool = False) -> Request:
        return Request("fake", chat, user, user.capitalize(), chat != "dm", is_admin)

    async def say(self, chat: str, user: str, text: str, is_admin: bool = False) -> list[Reply]:
        return await self.core.handle_text(self.request(chat, user, is_admin), text)

    async def press(
        self, chat: str, user: str, button_id: str, is_admin: bool = False
    ) -> list[Reply]:
        return await self.core.handle_button(self.request(chat, user, is_admin), button_id)

    async def stored(self) -> dict[str, list[tuple[Any, ...]]]:
        state = {}
        for table in STORED_TABLES:
            async with self.core.store._db.execute(
                f"SELECT * FROM {table} ORDER BY 1, 2"
            ) as cursor:
                state[table] = [tuple(row) for row in await cursor.fetchall()]
        return state

    async def sessions(self) -> list[tuple[str, int, str]]:
        """(id, revision, chat) of every stored session."""
        async with self.core.store._db.execute(
            "SELECT id, revision, chat_id FROM sessions ORDER BY id"
        ) as cursor:
            return [(r[0], int(r[1]), r[2]) for r in await cursor.fetchall()]

    async def legal_words(self) -> list[str]:
        """Notations of the moves legal now in every live game (for anyone to try)."""
        words: list[str] = []
        for session in list(self.core.sessions._live.values()):
            if session.game is not None and not session.game.is_over:
                words.extend(str(m) for m in session.game.legal_moves()[:8])
        return words

    async def check_live_games_match_storage(self) -> None:
        for session in list(self.core.sessions._live.values()):
            if session.game is not None and session.record.status == ACTIVE:
                assert list(session.game.moves) == await self.core.store.sessions.moves(session.id)

    async def close(self) -> None:
        await self.core.close()


def check_replies(replies: list[Reply], user: str) -> None:
    for reply in replies:
        assert reply.key != "error.internal", "an exception reached the core's safety net"
        assert isinstance(reply.text, str) and reply.text.strip(), reply.key
        if reply.is_private:
            assert reply.to_user == user
        for button in reply.buttons:
            assert button.id.isascii() and len(button.id.encode()) <= buttons.MAX_BYTES
            assert buttons.decode(button.id) is not None


any_text = st.text(max_size=60)
huge_text = st.builds(
    lambda piece, times: piece * times, st.text(min_size=1, max_size=6), st.integers(80, 900)
)
word = st.one_of(
    st.sampled_from(WORDS),
    st.text(alphabet=st.characters(blacklist_categories=("Zs", "Cc")), min_size=1, max_size=12),
    st.integers(-(10**12), 10**12).map(str),
)


@st.composite
def command_line(draw: st.DrawFn, legal: list[str]) -> str:
    name = draw(st.sampled_from(COMMANDS))
    suffix = draw(st.sampled_from(["", "@TavoloBot", "@other_bot"]))
    words = draw(st.lists(st.one_of(word, st.sampled_from(legal)) if legal else word, max_size=4))
    return f"/{name}{suffix} " + " ".join(words)


@st.composite
def button_id(draw: st.DrawFn, sessions: list[tuple[str, int, str]], legal: list[str]) -> str:
    sid, revision = draw(
        st.one_of(
            st.sampled_from([(s, r) for s, r, _ in sessions]),
            st.tuples(
                st.text(alphabet=string.ascii_lowercase + string.digits, min_size=1, max_size=10),
                st.integers(0, 9),
            ),
        )
    )
    revision = draw(st.sampled_from([revision, revision - 1, revision + 1, 0, 10**9]))
    verb = draw(st.sampled_from(sorted(buttons.VERBS) + ["win"]))
    arg = draw(
        st.one_of(
            st.sampled_from(legal or ["t1"]),
            st.sampled_from(["*", "#0", "#7", "#-1", "", "t", "w", "1"]),
            any_text,
        )
    )
    return f"v1:{verb}:{sid}:{max(revision, 0) if draw(st.booleans()) else revision}:{arg}"


async def one_input(scene: Scene, data: st.DataObject) -> None:
    chat = data.draw(st.sampled_from(CHATS), label="chat")
    user = data.draw(st.sampled_from(PEOPLE), label="user")
    admin = data.draw(st.booleans(), label="admin")
    legal = await scene.legal_words()
    sessions = await scene.sessions()
    kind = data.draw(
        st.sampled_from(["text", "huge", "command", "plain move", "button", "real button"]),
        label="kind",
    )
    before = await scene.stored()
    if kind in ("button", "real button"):
        if kind == "real button":
            owner_chat = data.draw(st.sampled_from(["chat-1", "chat-2"]), label="board of")
            owner = data.draw(st.sampled_from(PEOPLE), label="board owner")
            shown = [r for r in await scene.say(owner_chat, owner, "/board") if r.buttons]
            shown += [r for r in await scene.say(owner_chat, owner, "/hand") if r.buttons]
            before = await scene.stored()  # /board and /hand change nothing, but keep it honest
            ids = [b.id for r in shown for b in r.buttons] or ["v1:mv:zzzz:0:t1"]
            pressed = data.draw(st.sampled_from(ids), label="button")
        else:
            pressed = data.draw(st.one_of(button_id(sessions, legal), any_text), label="button")
        replies = await scene.press(chat, user, pressed, admin)
    else:
        if kind == "text":
            line = data.draw(any_text, label="line")
        elif kind == "huge":
            line = data.draw(
                st.one_of(huge_text, huge_text.map(lambda t: "/move " + t)), label="line"
            )
        elif kind == "command":
            line = data.draw(command_line(legal), label="line")
        else:
            line = data.draw(st.sampled_from(legal or ["t4"]), label="line")
        replies = await scene.say(chat, user, line, admin)
    check_replies(replies, user)
    if all(r.is_private for r in replies):
        assert await scene.stored() == before, [r.key for r in replies]
    await scene.check_live_games_match_storage()


# 60 scenes here (1.5 x the profile's examples); make bench runs 10 times as many
@settings(max_examples=settings.default.max_examples * 3 // 2)
@given(data=st.data())
@pytest.mark.slow
def test_no_input_breaks_the_bot_and_refusals_change_nothing(data: st.DataObject):
    async def scenario() -> None:
        scene = Scene()
        await scene.open()
        try:
            for _ in range(data.draw(st.integers(1, 4), label="inputs")):
                await one_input(scene, data)
        finally:
            await scene.close()

    with repeatable():
        asyncio.run(scenario())


@settings(max_examples=25)
@given(data=st.data())
def test_concurrent_presses_of_one_board_apply_one_move(data: st.DataObject):
    """Several people (and the owner, several times) press Ana's current buttons at once:
    at most one move is played, the rest are told the board is out of date or not theirs."""

    async def scenario() -> None:
        scene = Scene()
        await scene.open()
        try:
            (board,) = await scene.say("chat-1", "ana", "/board")
            moves = [b.id for b in board.buttons if buttons.decode(b.id).verb in ("mv", "found")]
            if not moves:  # a source first: its targets are move buttons
                select = next(b.id for b in board.buttons if buttons.decode(b.id).verb == "sel")
                (board,) = await scene.press("chat-1", "ana", select)
                moves = [b.id for b in board.buttons if buttons.decode(b.id).verb == "mv"]
            pressed = data.draw(
                st.lists(st.sampled_from(moves), min_size=2, max_size=6), label="presses"
            )
            people = data.draw(
                st.lists(st.sampled_from(PEOPLE), min_size=len(pressed), max_size=len(pressed)),
                label="who",
            )
            before = len(await scene.core.store.sessions.moves(board.board.session_id))
            answers = await asyncio.gather(
                *(scene.press("chat-1", u, b) for u, b in zip(people, pressed, strict=True))
            )
            for user, replies in zip(people, answers, strict=True):
                check_replies(replies, user)
            played = [
                r for r in answers if r and r[0].key in ("board.caption", "board.caption_over")
            ]
            after = len(await scene.core.store.sessions.moves(board.board.session_id))
            assert after - before == len(played) <= 1
            assert len(played) == (1 if "ana" in people else 0)
            await scene.check_live_games_match_storage()
        finally:
            await scene.close()

    with repeatable():
        asyncio.run(scenario())
