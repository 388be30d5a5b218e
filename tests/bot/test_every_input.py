"""Every input gets an answer that names the right thing (issue 35): spaces inside a typed move
do not matter; words that name a game work in every command that names one (``/replay
table``, ``/hint daily``); a bad ``/play`` word gets the game's own usage line; a race and a
table live side by side in one chat, each command going to the one it means and each message
naming its own. On SQLite and PostgreSQL."""

from __future__ import annotations

from core_fakes import FakeClock, FakePlatform, play_out

from bot.core import Core


async def test_spaces_inside_a_typed_move_are_ignored(core: Core, chat: FakePlatform):
    await chat.say("ana", "/play solitario 1")  # deal 1 opens with 27
    (board, *_) = await chat.say("ana", "2 7")
    assert board.board is not None and board.params["move"] == 1
    session = await core.sessions.get(board.board.session_id)
    assert session.game.moves == ["27"]
    (refused,) = await chat.say("ana", "3 6")  # read as 36, refused by the rules in words
    assert refused.is_private and refused.key.startswith("illegal.")
    assert await chat.say("ana", "hello there") == []  # chatter in a group chat: no reply


async def test_kind_words_name_a_finished_game_for_replay(
    core: Core, chat: FakePlatform, clock: FakeClock
):
    for text in ("/challenge", "/addbot", "/start"):
        await chat.say("ana", text)
    await play_out(core, chat)
    clock.advance(minutes=1)
    await chat.say("ana", "/play imaginary13 3")
    await chat.resign("ana")
    clock.advance(minutes=1)
    for words in ("table", "maestras", "table maestras"):
        (replay,) = await chat.say("ana", f"/replay {words}")
        assert replay.key == "replay.table" and replay.image is not None, (words, replay.text)
    (casual,) = await chat.say("ana", "/replay casual")
    assert casual.key == "replay.solo" and "Imaginary Thirteen" in casual.text
    (none,) = await chat.say("ana", "/replay daily")
    assert none.key == "replay.none_named" and none.is_private and "daily" in none.text
    (unknown,) = await chat.say("ana", "/replay tabel")
    assert unknown.key == "focus.unknown" and "tabel" in unknown.text
    # the leaderboard, the rules and the help take the same words
    (table_board,) = await chat.say("ana", "/leaderboard table")
    assert table_board.key == "leaderboard.text" and "Cartas Maestras" in table_board.text
    assert "Imaginary Thirteen" not in table_board.text
    (casual_board,) = await chat.say("ana", "/leaderboard casual")
    assert "Imaginary Thirteen · free games" in casual_board.text
    assert "daily challenge" not in casual_board.text
    (race,) = await chat.say("ana", "/leaderboard race")
    assert race.key == "leaderboard.race" and "/stats" in race.text
    (rules,) = await chat.say("ana", "/rules table")
    assert rules.key == "rules.text" and rules.params["game"] == "maestras"
    (notation,) = await chat.say("ana", "/help race")
    assert notation.key == "help.text" and notation.params["game"] == "solitario"


async def test_kind_words_name_an_open_game_for_hint(chat: FakePlatform):
    await chat.say("ana", "/play canfield 3")
    (hint,) = await chat.say("ana", "/hint casual")
    assert hint.key.startswith("hint.") and hint.key != "hint.unavailable", hint.text
    (none,) = await chat.say("ana", "/hint daily")
    assert none.key == "focus.none_named" and "Canfield" in none.text
    (unknown,) = await chat.say("ana", "/hint tabel")
    assert unknown.key == "focus.unknown"


async def test_a_bad_play_word_shows_that_games_own_usage(chat: FakePlatform):
    (freecell,) = await chat.say("ana", "/play freecell -5")
    assert freecell.key == "play.bad_argument"
    assert "/play freecell [deal number, 1 to 1,000,000]" in freecell.text
    assert "napoletane" not in freecell.text  # Solitario's faces are Solitario's
    (solitario,) = await chat.say("ana", "/play solitario sideways")
    assert "/play solitario [napoletane|piacentine|francesi]" in solitario.text


async def test_a_race_and_a_table_live_side_by_side(core: Core, chat: FakePlatform):
    opened = await chat.say("ana", "/challenge")
    assert opened[0].key == "challenge.opened"
    (race, *_) = await chat.say("bea", "/race 5")
    assert race.key == "race.opened"  # a table open is no obstacle
    assert (await chat.say("cid", "/race"))[0].key == "race.exists"
    assert (await chat.say("cid", "/challenge"))[0].key == "challenge.exists"
    # /join fits both for cid: the bot asks which, naming both, and changes nothing
    (which,) = await chat.say("cid", "/join")
    assert which.key == "lobby.which" and "/join race" in which.text and "/join table" in which.text
    (joined, *_) = await chat.say("cid", "/join race")
    assert joined.key == "race.joined" and joined.text == "Cid joins the race (2 racers)."
    (seated, *_) = await chat.say("cid", "/join table")
    assert seated.key == "join.joined" and "sits down" in seated.text
    # ana is at the table only: /join can mean only the race, /start only her table
    (ana_joins, *_) = await chat.say("ana", "/join")
    assert ana_joins.key == "race.joined"
    (left, *_) = await chat.say("ana", "/leave race")
    assert left.key == "race.left" and "race" in left.text
    (computer, *_) = await chat.say("ana", "/addbot")  # only a table seats computers
    assert computer.text.startswith("Computer 1 sits down")
    (dealt, *_) = await chat.say("ana", "/start")
    assert dealt.key == "start.started"
    (started, *_) = await chat.say("bea", "/start")
    assert started.key == "race.started"
    # cid holds a race board and a table seat at once
    kinds = {g.kind for g in await core.service.open_games(chat_ctx(core, chat, "cid"))}
    assert kinds == {"race", "table"}
    (ended,) = await chat.say("ana", "/end table")
    assert ended.key == "end.ended" and "table" in ended.text
    (race_ended,) = await chat.say("bea", "/end")
    assert race_ended.key == "race.ended" and "race" in race_ended.text


def chat_ctx(core: Core, chat: FakePlatform, user: str):
    from bot.core.context import Ctx

    return Ctx(chat.request(user), "en", core.clock())
