"""Cartas Maestras tables as people play them: computer players, hidden hands, turn timers,
timeouts, leaving and removing players, restarts, mentions and pushes to several platforms."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render, play_out

import engine
from bot.app import open_core
from bot.core import Core, buttons
from bot.core.commands import mention_name
from bot.replies import Mention, Reply


class Pushed:
    """Collects what the core pushes by itself (timers), as an adapter would."""

    def __init__(self, chat: FakePlatform) -> None:
        self.chat = chat
        self.replies: list[Reply] = []

    async def __call__(self, platform: str, chat_id: str, reply: Reply) -> None:
        self.replies.append(reply)
        await self.chat._record([reply])

    def reply_keys(self) -> list[str]:
        return [r.key for r in self.replies]


async def deal_ana_and_bea(chat: FakePlatform, *settings: str) -> None:
    """Ana opens a table inviting Bea (with the ``/challenge`` settings given), Bea joins and
    Ana deals: Ana plays first."""
    await chat.say("ana", " ".join(["/challenge @bea", *settings]))
    await chat.say("bea", "/join")
    await chat.say("ana", "/start")


async def stored_phases(core: Core, table_id: str) -> list[str]:
    """The phase after each stored move, replayed on the engine from the move log."""
    rec = await core.store.sessions.get(table_id)
    moves = await core.store.sessions.moves(table_id)
    game = engine.new_game("maestras", rec.deal, rec.players, rec.options)
    phases = []
    for move in moves:
        game.play(move)
        phases.append(game.view(None)["phase"])
    return phases


async def test_one_person_plays_seven_computers_to_the_end_including_the_final_phase(
    core: Core, chat: FakePlatform
):
    await chat.say("ana", "/challenge")
    for count in range(2, 9):
        joined, _ = await chat.say("ana", "/addbot")
        assert joined.key == "join.joined" and joined.params["count"] == count
    assert (await chat.say("ana", "/addbot"))[0].key == "join.full"
    started = await chat.say("ana", "/start")
    assert started[0].params["players"] == "Ana, " + ", ".join(f"Computer {n}" for n in range(1, 8))
    assert started[-1].key == "table.turn" and started[-1].mentions == ["ana"]
    hand = await core.hand_buttons(chat.request("ana"))
    replies = await chat.press("ana", hand.buttons[0].id)
    # the seven computers answer at once, before the board and Ana's next turn
    assert [r.key for r in replies] == ["tables.plays", "table.caption", "table.turn"]
    assert len(replies[0].params["moves"]) == 7 and replies[0].text.startswith("Ana ")
    # every play in one line (who, which card, where), people and computers alike
    plays = [line for line in replies[0].text.splitlines() if " completes path " not in line]
    assert [line.split(" ")[0] + line.split(" ")[1] for line in plays] == [
        "Anaplays" if "plays" in plays[0] else "Anapasses.",
        *(f"Computer{n}" for n in range(1, 8)),
    ]
    assert all(" on path " in line or line.endswith(" passes.") for line in plays)
    await play_out(core, chat)
    table_id = chat.board().board.session_id
    assert "final" in await stored_phases(core, table_id)
    assert await core.store.results.count(table_id) == 8
    rows = await core.store.fetch(
        "SELECT player_id, place, masters, cards FROM results WHERE session_id = ?", (table_id,)
    )
    assert {r[0] for r in rows} == {"ana", *(f"~cpu{n}" for n in range(1, 8))}
    assert all(r[1] >= 1 and r[2] >= 0 and r[3] >= 0 for r in rows)
    # a master still on the board when the main phase ends (stock empty, a round without a
    # placement) leaves play won by nobody (games.md, Cartas Maestras), so at most all eight
    assert sum(r[2] for r in rows) <= 8


async def test_no_hand_is_ever_shown_in_the_channel(db_url: str, clock: FakeClock):
    def hand_revealing_render(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
        return (
            b"PNG " + json.dumps({"viewer": view.get("viewer"), "hand": view.get("hand")}).encode()
        )

    core = await open_core(db_url, "en", clock, renderer=hand_revealing_render, sweep_interval=None)
    chat = FakePlatform(core)
    try:
        await chat.say("ana", "/challenge @bea @cid")
        await chat.say("bea", "/join")
        await chat.say("cid", "/join")
        await chat.say("ana", "/start")
        for _ in range(800):
            turn = next(r for r in reversed(chat.replies) if r.key in ("table.turn", "table.over"))
            if turn.key == "table.over":
                break
            player = turn.mentions[0]
            (hand,) = await chat.say(player, "/hand")
            assert hand.is_private and hand.to_user == player
            assert (
                json.loads(hand.image[4:])["viewer"] == player.capitalize()
            )  # drawn under the name players read
            button = hand.buttons[0]
            # A hand with many placements is chosen in steps (card, place, rotation): follow them.
            while buttons.decode(button.id).verb == "turn":
                (step,) = await chat.press(player, button.id)
                assert step.is_private and step.to_user == player
                button = step.buttons[0]
            await chat.press(player, button.id)
        assert chat.replies[-1].key == "table.over"
        channel = [r for r in chat.replies if not r.is_private]
        assert len(channel) > 50
        for reply in channel:
            if reply.image is not None:
                assert json.loads(reply.image[4:]) == {"viewer": None, "hand": []}
            assert {buttons.decode(b.id).verb for b in reply.buttons} <= {
                "hand",
                "join",
                "leave",
                "start",
                "rematch",
            }
    finally:
        await core.close()


async def test_an_idle_player_is_passed_and_leaves_after_three_timeouts_in_a_row(
    core: Core, chat: FakePlatform, clock
):
    pushed = Pushed(chat)
    core.set_push(pushed)
    await deal_ana_and_bea(chat)
    clock.advance(minutes=2, seconds=59)
    assert await core.tick() == 0  # not yet
    clock.advance(seconds=1)
    assert await core.tick() == 1
    assert pushed.reply_keys() == ["tables.timed_out", "table.caption", "table.turn"]
    assert pushed.replies[0].params["count"] == 1 and pushed.replies[-1].mentions == ["bea"]
    (first_move,) = await core.store.sessions.moves(chat.board().board.session_id)
    assert first_move  # Ana's timeout is a stored move like any other
    for expected in (2, 3):
        hand = await core.hand_buttons(chat.request("bea"))
        await chat.press("bea", hand.buttons[0].id)
        pushed.replies.clear()
        clock.advance(minutes=3)
        assert await core.tick() == 1
        assert (
            pushed.replies[0].key == "tables.timed_out"
            and pushed.replies[0].params["count"] == expected
        )
    assert "tables.removed" in pushed.reply_keys()
    assert pushed.replies[-1].key == "table.turn" and pushed.replies[-1].mentions == ["bea"]
    # from now on Ana's seat plays itself right after Bea's moves: Bea is always the one to play
    for _ in range(3):
        hand = await core.hand_buttons(chat.request("bea"))
        replies = await chat.press("bea", hand.buttons[0].id)
        if replies[-1].key == "table.over":
            break
        assert replies[0].key == "tables.plays" and replies[-1].mentions == ["bea"]
    # Ana pressing her hand changes nothing: it is never her turn
    assert (await chat.say("ana", "/hand"))[0].key in ("hand.wait", "hand.no_table")


async def test_own_moves_reset_the_timeouts_and_untimed_tables_never_time_out(
    core: Core, chat: FakePlatform, clock
):
    pushed = Pushed(chat)
    core.set_push(pushed)
    await deal_ana_and_bea(chat, "timer=5")
    clock.advance(minutes=4)
    assert await core.tick() == 0  # a five-minute timer
    clock.advance(minutes=1)
    assert await core.tick() == 1 and pushed.replies[0].params["count"] == 1
    for player in ("bea", "ana", "bea"):
        hand = await core.hand_buttons(chat.request(player))
        await chat.press(player, hand.buttons[0].id)
    pushed.replies.clear()
    clock.advance(minutes=5)
    assert await core.tick() == 1
    assert pushed.replies[0].params["count"] == 1  # Ana played in between: the count started again
    await chat.say("ana", "/end")

    opened = await chat.say("ana", "/challenge untimed @bea")
    assert opened[0].params["timer"] is None and "untimed" in opened[0].text
    await chat.say("bea", "/join")
    await chat.say("ana", "/start")
    clock.advance(days=3)
    assert await core.tick() == 0
    assert (await chat.say("ana", "/challenge timer=0x"))[0].key == "challenge.exists"
    await chat.say("ana", "/end")
    assert (await chat.say("ana", "/challenge timer=abc"))[0].key == "tables.bad_timer"


async def test_turn_timers_survive_a_restart(db_url: str, clock: FakeClock):
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    await deal_ana_and_bea(chat)
    hand = await core.hand_buttons(chat.request("ana"))
    await chat.press("ana", hand.buttons[0].id)
    await core.close()

    clock.advance(minutes=3)
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    pushed = Pushed(chat)
    core.set_push(pushed)
    try:
        assert await core.tick() == 1
        assert (
            pushed.replies[0].key == "tables.timed_out"
            and pushed.replies[0].params["player"] == "Bea"
        )
        assert pushed.replies[-1].mentions == ["ana"]
        hand = await core.hand_buttons(chat.request("ana"))
        replies = await chat.press("ana", hand.buttons[0].id)
        assert replies[-1].key == "table.turn" and replies[-1].mentions == ["bea"]
        assert len(await core.store.sessions.moves(chat.board().board.session_id)) == 3
    finally:
        await core.close()


async def test_the_background_task_resumes_timers_after_a_restart(tmp_path: Path, clock: FakeClock):
    db_url = f"sqlite:///{tmp_path / 'bg.db'}"
    core = await open_core(db_url, "en", clock, renderer=fake_render, sweep_interval=None)
    chat = FakePlatform(core)
    await deal_ana_and_bea(chat)
    await core.close()
    clock.advance(minutes=10)
    core = await open_core(db_url, "en", clock, renderer=fake_render)  # with its background tasks
    try:
        ticker = core.background.ticker
        assert ticker is not None and not ticker.done()
    finally:
        await core.close()
    assert core.background.ticker is None


async def test_creator_and_admins_kick_and_end_started_tables(core: Core, chat: FakePlatform):
    await chat.say("ana", "/challenge @bea @cid")
    await chat.say("bea", "/join")
    await chat.say("cid", "/join")
    assert (await chat.say("bea", "/addbot"))[0].key == "end.not_allowed"
    await chat.say("ana", "/start")
    assert (await chat.say("bea", "/kick @cid"))[0].key == "end.not_allowed"
    kicked = await chat.say("ana", "/kick @cid")
    assert kicked[0].key == "kick.kicked"
    assert (await chat.say("ana", "/kick @cid"))[0].key == "kick.not_seated"
    # Cid's seat now plays itself: after Bea, Ana is to play again
    hand = await core.hand_buttons(chat.request("ana"))
    await chat.press("ana", hand.buttons[0].id)
    hand = await core.hand_buttons(chat.request("bea"))
    replies = await chat.press("bea", hand.buttons[0].id)
    if replies[-1].key == "table.turn":
        assert replies[0].key == "tables.plays" and replies[-1].mentions == ["ana"]
    assert (await chat.say("bea", "/end"))[0].key == "end.not_allowed"
    chat.admins.add("zed")
    assert (await chat.say("zed", "/end"))[0].key == "end.ended"
    assert (await chat.say("ana", "/hand"))[0].key == "hand.no_table"


async def test_everyone_leaving_closes_the_table_without_a_result(core: Core, chat: FakePlatform):
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    replies = await chat.leave("ana")
    assert [r.key for r in replies] == ["tables.left_game", "tables.abandoned"]
    assert await core.store.results.count() == 0
    assert (await chat.say("ana", "/challenge"))[0].key == "challenge.opened"


async def test_discord_mentions_invite_by_user_id(core: Core, chat: FakePlatform):
    assert (
        mention_name("<@123>") == "123"
        and mention_name("<@!123>") == "123"
        and mention_name("@bea") == "bea"
    )
    await chat.say("123", "/stats")  # Discord ids are digits; the player has been seen
    # a typed <@!123> is no mention the platform made: it invites and pings nobody
    replies = await chat.say("ana", "/challenge <@!123> @nobody")
    assert replies[0].mentions == [] and replies[0].params["invited"] == "nobody"
    await chat.say("ana", "/end")
    # the platform's own mention (a Discord user option) names user 123 by their name
    request = replace(chat.request("ana"), mentions=(Mention("123", "Bea"),))
    replies = await core.handle_text(request, "/challenge <@!123> @nobody")
    assert replies[0].mentions == ["123"]
    assert replies[0].params["invited"] == "Bea, nobody"


async def test_every_adapter_push_gets_the_replies_once(core: Core, chat: FakePlatform, clock):
    seen: dict[str, list[str]] = {"discord": [], "telegram": []}

    def adapter(platform: str):
        async def push(reply_platform: str, chat_id: str, reply: Reply) -> None:
            if reply_platform == platform:
                seen[platform].append(reply.key)

        return push

    discord_push, telegram_push = adapter("discord"), adapter("telegram")
    core.set_push(telegram_push)
    core.set_push(discord_push)
    core.set_push(discord_push)  # set twice: still once
    await core.push("discord", "c", core.service.reply("en", "table.none"))
    await core.push("telegram", "c", core.service.reply("en", "table.none"))
    assert seen == {"discord": ["table.none"], "telegram": ["table.none"]}


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "timer=0 means no turn timer: this table is untimed"),
        ("es", "timer=0 significa sin tiempo por turno: esta mesa no tiene límite"),
        ("it", "timer=0 vuol dire nessun tempo per turno: questo tavolo è senza tempo"),
    ],
)
async def test_timer_zero_is_no_timer_and_the_reply_says_so(
    chat: FakePlatform, lang: str, said: str
):
    # on main /challenge timer=0 made an untimed table without a word about the 0
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    opened = next(
        r for r in await chat.say("ana", "/challenge timer=0") if r.key.startswith("challenge.")
    )
    assert opened.params["timer"] is None
    assert said in opened.text
    # an out-of-range timer is refused with the range and the way to say "none"
    await chat.say("ana", "/end")
    (refused, *_) = await chat.say("ana", "/challenge timer=2000")
    assert refused.key == "tables.bad_timer" and "timer=0" in refused.text
