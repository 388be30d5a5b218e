"""Every board in words, end to end on both platforms' fake servers: a player who cannot see
plays whole games of each of the six games from the words alone.

The player (``text_player.TextPlayer``) reads what a screen reader reads, nothing else: on
Discord the board picture's description (its alt text) and, at a table, the description of
their private hand's picture; on Telegram the board photo's caption and, at a table, the
caption of the hand the bot sends them privately. It chooses each move from those words (it
never sees a view or the legal moves), types it with ``/move``, and goes on until the words
say the game is over. Each game is played in each of the three languages: the words, and what
the player understands of them, in the chat's language.

Besides, the words must stay inside each platform's limit (the fakes refuse a longer caption
or description), and a table's group board must never name a card of any hand.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fake_telegram import TelegramWorld
from text_player import TextPlayer

import engine
from bot import i18n
from tests.e2e.fake_discord import render_view, running_table

#: a deal per solo game that the text player plays to the game's own end (stalled, lost...)
#: within the move budget; a table's deal is the table's own
DEALS = {"solitario": 4, "canfield": 2, "imaginary13": 4, "freecell": 6, "squadratik": 4}
#: at most this many moves a game; the games above end well before
MOVES = 160
GAMES = list(engine.GAMES)
GROUP, ALICE = -100777, 777
#: whole games: seconds each (put first on the workers, see docs/tests.md)
pytestmark = pytest.mark.slow
_QUOTE = re.compile(r"<blockquote expandable>(.*)</blockquote>", re.S)


def quoted_words(caption: str | None) -> tuple[str, str]:
    """(the caption's text, its folded words) of a Telegram caption sent as HTML."""
    caption = caption or ""
    found = _QUOTE.search(caption)
    words = html.unescape(found.group(1)) if found else ""
    return html.unescape(_QUOTE.sub("", caption)).strip(), words


async def play_from_words(driver: Any, game_id: str, lang: str) -> dict[str, int]:
    """Play the game the driver started until its words say it is over; the tally."""
    player = TextPlayer(game_id, lang)
    tally = {"played": 0, "refused": 0}
    for _ in range(MOVES):
        shown, words = await driver.words()
        assert words, f"no words under the picture: {shown!r}"
        if player.read(words).over:
            return tally
        if not player.read(words).my_turn:
            raise AssertionError(f"not the player's turn, and nothing else to do:\n{words}")
        for move in player.moves(words):
            await driver.move(move)
            if await driver.words() != (shown, words):
                player.played(words, move)
                tally["played"] += 1
                break
            tally["refused"] += 1
        else:
            raise AssertionError(f"the words gave the player no move:\n{words}")
    raise AssertionError(f"{game_id} did not end in {MOVES} moves")


def check_over(words: str, lang: str) -> None:
    over = {i18n.t(lang, key) for key in i18n.keys("en") if key.startswith("words.over.")}
    assert over & set(words.splitlines()), words


# ----- Discord ---------------------------------------------------------------------------------
class DiscordDriver:
    def __init__(self, table: Any, lang: str) -> None:
        self.table, self.fake = table, table.fake
        self.alice = self.fake.add_user("alice", admin=True)
        self.general = self.fake.add_channel("general")
        self.lang = lang
        self.at_table = False

    async def start(self, game_id: str) -> None:
        await self.table.slash(self.alice, self.general, "lang", language=self.lang)
        if engine.game_info(game_id).table:
            self.at_table = True
            for command in ("challenge", "addbot", "start"):
                await self.table.slash(self.alice, self.general, command)
        else:
            await self.table.slash(
                self.alice, self.general, "play", game=game_id, deal=DEALS[game_id]
            )

    async def words(self) -> tuple[str, str]:
        board = self.table.board(self.general)
        if self.at_table and not any(
            line in (board.alt_text() or "") for line in _over_lines(self.lang)
        ):
            await self.table.slash(self.alice, self.general, "hand")
            hand = [m for m in self.fake.ephemerals(self.alice) if m.attachments][-1]
            return hand.content, hand.alt_text() or ""
        return board.content, board.alt_text() or ""

    async def move(self, move: str) -> None:
        await self.table.slash(self.alice, self.general, "move", text=move)


def _over_lines(lang: str) -> set[str]:
    return {i18n.t(lang, key) for key in i18n.keys("en") if key.startswith("words.over.")}


@pytest.fixture
async def discord_table(tmp_path: Any, caplog: pytest.LogCaptureFixture) -> Any:
    async for running in running_table(tmp_path, caplog):
        yield running


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
async def test_discord_a_whole_game_played_from_the_pictures_descriptions(
    discord_table: Any, game_id: str, lang: str
) -> None:
    driver = DiscordDriver(discord_table, lang)
    await driver.start(game_id)
    tally = await play_from_words(driver, game_id, lang)
    board = discord_table.board(driver.general)
    words = board.alt_text() or ""
    check_over(words, lang)
    assert tally["played"] >= 5 and tally["refused"] <= tally["played"] // 10, tally
    assert len(words) <= 1024 and len(board.content) + 1 + len(words) <= 1024
    if driver.at_table:  # the group never read a hand: only counts of cards in hand
        yours = i18n.t(lang, "words.hand_yours", count=4).split(",")[0]
        for message in discord_table.fake.channel_messages(driver.general):
            assert yours not in (message.alt_text() or "") + message.content


# ----- Telegram --------------------------------------------------------------------------------
class TelegramDriver:
    def __init__(self, world: TelegramWorld, lang: str) -> None:
        self.world, self.fake, self.lang = world, world.fake, lang
        self.at_table = False

    async def start(self, game_id: str) -> None:
        self.fake.admins.add((GROUP, ALICE))
        await self.world.command(GROUP, ALICE, f"/lang {self.lang}")
        if engine.game_info(game_id).table:
            self.at_table = True
            # a private chat with the bot, where the hand goes
            self.fake.send_text(ALICE, ALICE, "/start")
            await self.world.handled(self.fake.last_update_id)
            for command in ("/challenge", "/addbot", "/start"):
                await self.world.command(GROUP, ALICE, command)
        else:
            await self.world.command(GROUP, ALICE, f"/play {game_id} {DEALS[game_id]}")

    async def words(self) -> tuple[str, str]:
        board = self.fake.latest_photo(GROUP)
        shown, words = quoted_words(board.caption if board else None)
        if self.at_table and not _over_lines(self.lang) & set(words.splitlines()):
            await self.world.command(GROUP, ALICE, "/hand")
            hand = self.fake.latest_photo(ALICE)
            return quoted_words(hand.caption if hand else None)
        return shown, words

    async def move(self, move: str) -> None:
        await self.world.command(GROUP, ALICE, f"/move {move}")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
async def test_telegram_a_whole_game_played_from_the_captions(
    tmp_path: Any, game_id: str, lang: str
) -> None:
    # a tiny picture stands in for the drawing (the words are the test, as on Discord's fake)
    async with TelegramWorld(tmp_path, renderer=render_view) as world:
        world.fake.user(ALICE, "Alice")
        world.fake.group(GROUP)
        driver = TelegramDriver(world, lang)
        await driver.start(game_id)
        tally = await play_from_words(driver, game_id, lang)
        board = world.fake.latest_photo(GROUP)
        shown, words = quoted_words(board.caption)
        check_over(words, lang)
        assert tally["played"] >= 5 and tally["refused"] <= tally["played"] // 10, tally
        if driver.at_table:  # the group never read a hand
            yours = i18n.t(lang, "words.hand_yours", count=4).split(",")[0]
            for message in world.fake.bot_messages(GROUP):
                assert yours not in (message.caption or "") + (message.text or "")
