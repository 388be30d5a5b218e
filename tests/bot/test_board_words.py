"""Every board in words (issue 36): each board image carries its text alternative, in the
chat's language, within the platforms' 1,024 characters; a table's group board says nothing
of any hand, a player's hand and ``/board text`` only reach that player; the names of seats
the computer plays read naturally, and a computer seat keeps its name on the web replay."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from core_fakes import FakeClock, FakePlatform, fake_render, play_out
from hypothesis import given
from hypothesis import strategies as st
from web_fakes import Person

import engine
from bot import i18n
from bot.app import open_core
from bot.core import Core
from bot.core.board_words import ALT_MAX, board_text, side_words

#: the words every text alternative opens its last-move line with, per language
LAST_MOVE = {"en": "Last move:", "es": "Última jugada:", "it": "Ultima mossa:"}
SOLO_GAMES = [g for g in engine.GAMES if not engine.game_info(g).table]
TABLE_GAMES = [g for g in engine.GAMES if engine.game_info(g).table]


async def in_language(chat: FakePlatform, lang: str) -> None:
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")


def hand_sides(view: dict) -> list[str]:
    """Each hand card's first side as the words say it (what must never reach the group)."""
    return [" ".join(str(s) for s in card["sides"]) for card in view.get("hand") or []]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("game_id", SOLO_GAMES)
async def test_every_solo_board_carries_its_words_in_the_chats_language(
    chat: FakePlatform, game_id: str, lang: str
) -> None:
    await in_language(chat, lang)
    started = await chat.say("ana", f"/play {game_id} 3")
    board = next(r for r in started if r.board is not None and r.image is not None)
    assert board.alt_text and LAST_MOVE[lang] in board.alt_text
    assert len(board.text) + 1 + len(board.alt_text) <= ALT_MAX
    session = await chat.core.sessions.get(board.board.session_id)
    game = session.game
    move = next(  # a move after which the game goes on (a text board is of an open game)
        str(m)
        for m in game.legal_moves()
        if not engine.replay(
            game_id, game.deal, game.players, game.options, [*game.moves, str(m)]
        ).is_over
    )
    replies = await chat.say("ana", f"/move {move}")
    board = next(r for r in replies if r.board is not None and r.image is not None)
    assert f"({move})" in board.alt_text.splitlines()[0] + board.alt_text  # the move it says
    assert len(board.text) + 1 + len(board.alt_text) <= ALT_MAX
    others = [w for other, w in LAST_MOVE.items() if other != lang]
    assert not any(w in board.alt_text for w in others)
    # the text board: the same words, uncut, in the chat
    (text_board,) = await chat.say("ana", f"/board {i18n.t(lang, 'words.text_word')}")
    assert text_board.image is None and not text_board.is_private
    assert board.alt_text.removesuffix("\n…") in text_board.text or "…" not in board.alt_text


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
async def test_a_tables_group_board_never_says_a_hand_and_each_player_reads_their_own(
    chat: FakePlatform, lang: str
) -> None:
    await in_language(chat, lang)
    await chat.say("ana", "/challenge @bea")
    await chat.say("bea", "/join")
    started = await chat.say("ana", "/start")
    board = next(r for r in started if r.board is not None and r.image is not None)
    session = await chat.core.sessions.get(board.board.session_id)
    words = {p: board_text(lang, session.view(p), faces="squadratik") for p in ("ana", "bea")}
    yours = i18n.t(lang, "words.hand_yours", count=4).split(",")[0]
    for own in words.values():  # each hand's lines, as its player's words say them
        hand_lines = [line for line in own.splitlines() if line.startswith(yours)]
        assert hand_lines, own
    assert board.alt_text and yours not in board.alt_text
    card_lines = [ln for ln in words["ana"].splitlines() if ln.split(":")[0][-1:].isdigit()]
    for line in card_lines[:4]:
        assert line not in board.alt_text
    # the hand, privately, with its words
    (hand,) = await chat.say("ana", "/hand")
    assert hand.is_private and hand.to_user == "ana" and yours in (hand.alt_text or "")
    # /board text: a seated player's words are private (they hold their hand)
    (own,) = await chat.say("bea", f"/board {i18n.t(lang, 'words.text_word')}")
    assert own.is_private and own.to_user == "bea" and yours in own.text
    turn = i18n.t(lang, "words.turn", player="Ana")
    assert turn in board.alt_text or i18n.t(lang, "words.turn_yours") in (hand.alt_text or "")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_long_board_fits_the_platforms_limit_and_says_it_was_cut(lang: str) -> None:
    game = engine.new_game("freecell", 1)  # 52 face-up cards: the longest board at the deal
    view = game.view(None)
    full = board_text(lang, view, faces="francesi")
    fitted = board_text(lang, view, faces="francesi", limit=ALT_MAX - 60)
    assert len(full) > ALT_MAX - 60 >= len(fitted)
    # every card still there, by symbol, before anything is cut
    assert all(i18n.card_label(code) in fitted for pile in view["piles"] for code in pile["cards"])
    tight = board_text(lang, view, faces="francesi", limit=300)
    assert len(tight) <= 300 and tight.endswith("…")


def test_squadratik_sides_are_words_in_each_language() -> None:
    assert [side_words(lang, "R3") for lang in i18n.LANGUAGES] == ["3 red", "3 rojas", "3 rosse"]
    assert [side_words(lang, "B1") for lang in i18n.LANGUAGES] == ["1 black", "1 negra", "1 nera"]


@pytest.mark.parametrize(
    ("lang", "marked"),
    [("en", "Bea (computer)"), ("es", "Bea (ordenador)"), ("it", "Bea (computer)")],
)
async def test_a_seat_left_reads_as_played_by_the_computer(
    chat: FakePlatform, lang: str, marked: str
) -> None:
    await in_language(chat, lang)
    await chat.say("ana", "/challenge @bea")
    await chat.say("bea", "/join")
    await chat.say("ana", "/start")
    (left, *_) = await chat.leave("bea")
    # the news says who plays her seat now, in the words of her seat's new name
    assert left.key == "tables.left_game" and marked.split("(")[1].rstrip(")") in left.text
    (board,) = await chat.say("ana", "/board")
    seats = [line for line in (board.alt_text or "").splitlines() if line.startswith("Bea")]
    assert seats and seats[0].startswith(marked) and "(auto)" not in board.alt_text


@pytest.fixture
async def web_core(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Core]:
    core = await open_core(
        f"sqlite:///{tmp_path / 'web.db'}", "en", clock, renderer=fake_render, sweep_interval=None
    )
    yield core
    await core.close()


async def test_a_computer_seat_keeps_its_name_on_the_web_replay(web_core: Core) -> None:
    from bot.web import pages

    ana = Person(web_core, "uid-1001", "Ana")
    await ana.daily("imaginary13", 1)  # a daily attempt: Ana may be named on public pages
    chat = FakePlatform(web_core, ana.platform, ana.chat_id)
    await chat.say("uid-1001", "/challenge")
    await chat.say("uid-1001", "/addbot")
    started = await chat.say("uid-1001", "/start")
    session_id = next(r for r in started if r.board is not None).board.session_id
    await play_out(web_core, chat)
    record = await web_core.store.sessions.get(session_id)
    assert record is not None and record.status == "over"
    for lang, name in (("en", "Computer 1"), ("es", "Ordenador 1"), ("it", "Computer 1")):
        shown = await pages.replay(web_core.service, lang, session_id, date(2025, 3, 15))
        assert [n["name"] for n in shown.names] == [record.names["uid-1001"], name]
        assert shown.seats[1] == name and i18n.t(lang, "web.anonymous") not in shown.seats[1]


def test_a_telegram_caption_keeps_its_words_within_what_telegram_counts() -> None:
    from bot.platforms.telegram.format import CAPTION_MAX, caption_html, shown_length
    from bot.replies import Reply

    text = "FreeCell · deal 1 · move 0 · score 0 & <more>"
    words = ("Columna 1: 7♣ & <K♥>\n" * 60)[: ALT_MAX - len(text) - 1]  # as much as fits
    caption = caption_html(Reply("board.caption", text, alt_text=words))
    # HTML escaping (&amp;, &lt;) and the quote's tags do not count: Telegram reads them first,
    # so the words are all there though the HTML is longer than the limit
    assert len(caption) > CAPTION_MAX >= shown_length(caption) == ALT_MAX
    assert caption.endswith("</blockquote>") and "…" not in caption
    # words longer than the room left are cut, never the quote's closing tag
    long = caption_html(Reply("board.caption", text, alt_text="x" * 2000))
    assert shown_length(long) <= CAPTION_MAX and long.endswith("…</blockquote>")


async def test_the_text_board_of_a_full_table_fits_one_discord_message(chat: FakePlatform) -> None:
    await in_language(chat, "es")  # the longest words of the three
    await chat.say("ana", "/challenge")
    for _ in range(7):
        await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    (words,) = await chat.say("ana", "/board texto")
    seats = [line for line in words.text.splitlines() if "en la mano" in line]
    assert len(seats) == 8 and len(words.text) <= 2000 and "…" not in words.text


@given(
    game_id=st.sampled_from(list(engine.GAMES)),
    deal=st.integers(1, 500),
    moves=st.integers(0, 60),
    pick=st.randoms(use_true_random=False),
    lang=st.sampled_from(i18n.LANGUAGES),
    limit=st.integers(120, ALT_MAX),
)
def test_words_fit_their_limit_and_a_public_board_never_says_a_hand(
    game_id: str, deal: int, moves: int, pick: Any, lang: str, limit: int
) -> None:
    info = engine.game_info(game_id)
    players = ["ana", "bea", "cid"] if info.table else None
    game = engine.new_game(game_id, deal, players) if players else engine.new_game(game_id, deal)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(pick.choice(game.legal_moves()))
    public = board_text(lang, game.view(None), faces=info.default_faces, limit=limit)
    assert len(public) <= limit
    if players:
        for player in players:  # each hand's card lines, from that player's own words
            own = board_text(lang, game.view(player), faces=info.default_faces)
            hand = [ln for ln in own.splitlines() if re.match(r"^(Card|Carta) \d+: ", ln)]
            assert len(hand) == len(game.view(player)["hand"])
            assert not set(hand) & set(public.splitlines())


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_games_help_says_how_to_ask_for_the_board_in_words(lang: str) -> None:
    for game_id in engine.GAMES:
        assert f"/board {i18n.t(lang, 'words.text_word')}" in i18n.help_text(lang, game_id)
