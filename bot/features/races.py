"""Solitario races (seed 001's competitive play): everyone plays the same deal on their own
board, within a time limit, and is ranked by the seed's rules.

``/race [minutes] [senza-tempo]`` opens a join window (``JOIN_WINDOW`` seconds, or until the
creator presses Start / types ``/start``). The race's lobby is an ordinary table session (game
``solitario``, so ``/join``, ``/leave``, ``/kick`` and the lobby buttons work as for tables);
its ``races`` row keeps the rest. When the race starts, every player gets a solo Solitario
session on the same deal, linked to the race in ``race_entries``: ``/move``, buttons and
``/board`` work on it as on any solo game; undo is refused (a race is competitive), and the
board shows the race clock.

A round ends when its time is up (the unfinished boards are resigned as they stand) or when
every board is finished (solved, stalled or resigned). Ranking (:func:`rank`): higher score
first; equal scores: the player whose last scoring move came earlier in the race. Moves are
counted race-wide, as the seed's "contatore generale": every move of every racer advances one
counter (kept on the race's row in the database and stored with each move, so every process
and every restart sees the same numbers), and a racer's tie-break is that counter at their last
scoring move (the engine's ``score_move`` mapped onto it). Players who never moved last, in a
random order drawn from the race id (so it is the same after a restart). Variant *senza tempo* (no time limit): when the first two have
the same score, nobody wins on the move number: everyone plays a new deal from zero.

>>> rows = [Entry("ana", 50, 32, 40), Entry("bea", 50, 27, 30), Entry("cid", 0, 0, 0)]
>>> [(p.player, p.place) for p in rank(rows, "r1", 1)]
[('bea', 1), ('ana', 2), ('cid', 3)]
>>> tie_for_first(rank(rows, "r1", 1))
True
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import engine
from bot import i18n
from bot.core import focus
from bot.core.commands import ascii_number, random_deal
from bot.core.context import system_ctx
from bot.core.names import short_name
from bot.core.session import Session, iso
from bot.features.tables import Tables, lobby_key, may_manage
from bot.replies import Reply
from bot.storage import LOBBY, OVER, AlreadyExists, Race, RaceBoard, RaceEntry, Storage
from engine.rng import DealRandom

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service

log = logging.getLogger("tavolo.races")

# A race is the seed's Solitario race (its ranking reads Solitario's ``score_move``): the one
# game it is written for, so naming it is clearer than a fact every other game would lack.
GAME = "solitario"
#: a race lobby's status once its boards are dealt (not "active": the lobby holds no game)
RACING = "racing"
#: the stored outcome of a board the race's clock ended (not the player's resignation)
TIME_UP = "time_up"
JOIN_WINDOW = timedelta(seconds=60)
#: race entries remembered by session id (a lookup past them is one indexed read)
ENTRY_CACHE_SIZE = 4096
DEFAULT_MINUTES = 10
MAX_MINUTES = 120
MIN_RACERS, MAX_RACERS = 2, 8
#: the untimed option in every language's spelling, accepted in every language (help names
#: each language's own: untimed, sin-tiempo, senza-tempo)
SENZA_TEMPO_WORDS = (
    "senza-tempo",
    "senzatempo",
    "senza_tempo",
    "untimed",
    "sin-tiempo",
    "sintiempo",
    "sin_tiempo",
)
FACES = engine.game_info(GAME).default_faces


@dataclass(frozen=True, slots=True)
class Entry:
    """One racer's finished board: final score, the race-wide number of their last scoring
    move (0: never scored), and how many moves they made."""

    player: str
    score: int
    score_move: int
    moves: int


@dataclass(frozen=True, slots=True)
class Placed:
    player: str
    place: int
    score: int
    score_move: int
    moved: bool


def rank(entries: list[Entry], race_id: str, round_number: int) -> list[Placed]:
    """The seed's ranking (see module doc); equal score and score move share a place.

    >>> [p.place for p in rank([Entry("a", 10, 3, 5), Entry("b", 10, 3, 9)], "r", 1)]
    [1, 1]
    """
    movers = sorted(
        (e for e in entries if e.moves > 0), key=lambda e: (-e.score, e.score_move, e.player)
    )
    idle = sorted((e for e in entries if e.moves == 0), key=lambda e: e.player)
    DealRandom.for_deal(f"race:{race_id}", round_number).shuffle(idle)
    placed: list[Placed] = []
    for i, e in enumerate(movers):
        tied = i > 0 and (e.score, e.score_move) == (movers[i - 1].score, movers[i - 1].score_move)
        placed.append(
            Placed(e.player, placed[-1].place if tied else i + 1, e.score, e.score_move, True)
        )
    for e in idle:
        placed.append(Placed(e.player, len(placed) + 1, e.score, e.score_move, False))
    return placed


def tie_for_first(placed: list[Placed]) -> bool:
    """Senza tempo: do the first two have the same score (whatever the move numbers)?"""
    return len(placed) >= 2 and placed[0].score == placed[1].score


def clock_text(seconds: float) -> str:
    """``mm:ss`` (never negative).

    >>> clock_text(272.4), clock_text(-3)
    ('04:32', '00:00')
    """
    whole = max(0, int(seconds))
    return f"{whole // 60:02d}:{whole % 60:02d}"


class Races:
    """The race commands and clocks (see module doc)."""

    def __init__(self, core: Service, tables: Tables) -> None:
        self.core = core
        self.tables = tables
        # bounded: every solo board asks once; the recent ones are the ones asked again
        self._entry_cache: OrderedDict[str, RaceEntry | None] = OrderedDict()
        #: picks each round's deal number (tests pin it; the shuffle itself is engine.rng's)
        self.pick_deal: Callable[[], int] = lambda: random_deal(GAME)

    @property
    def store(self) -> Storage:
        return self.core.store

    @staticmethod
    def is_race_lobby(session: Session) -> bool:
        return session.is_table and session.record.game_id == GAME

    async def running_in_chat(self, platform: str, chat_id: str) -> str | None:
        """The id of the race being run in this chat, if any."""
        return await self.store.sessions.one_in_status(platform, chat_id, RACING)

    async def entry_of(self, session_id: str) -> RaceEntry | None:
        """(race id, round) of a racer's board session, None for any other session."""
        if session_id in self._entry_cache:
            self._entry_cache.move_to_end(session_id)
            return self._entry_cache[session_id]
        found = await self.store.play.race_entry(session_id)
        # A board is linked to its race when it is created, never later: "not a race board"
        # can be remembered too, so solo games pay one query, not one per board drawn.
        self._remember_entry(session_id, found)
        return found

    async def forget_board(self, ctx: object, session: Session, how: str) -> list[Reply]:
        """A solo game ended: its race entry is never asked again (the last end hook)."""
        self._entry_cache.pop(session.id, None)
        return []

    def _remember_entry(self, session_id: str, entry: RaceEntry | None) -> None:
        self._entry_cache[session_id] = entry
        self._entry_cache.move_to_end(session_id)
        while len(self._entry_cache) > ENTRY_CACHE_SIZE:
            self._entry_cache.popitem(last=False)

    async def game_kind(self, ctx: Ctx, session: Session, player: str) -> str | None:
        """A racer's board and a race's lobby are the player's "race" (``bot.core.focus``)."""
        if self.is_race_lobby(session) or await self.forbids_undo(session):
            return "race"
        return None

    async def forbids_undo(self, session: Session) -> bool:
        """Undo is refused on a race board."""
        return not session.is_table and await self.entry_of(session.id) is not None

    async def clock(self, session: Session) -> str | None:
        """The clock drawn on a race board: time left (timed), time played (senza tempo)."""
        if session.is_table:
            return None
        entry = await self.entry_of(session.id)
        if entry is None:
            return None
        race = await self.store.play.race(entry.race_id)
        now = self.core.clock()
        if race is None:
            return None
        if race.deadline is not None:
            return clock_text((datetime.fromisoformat(race.deadline) - now).total_seconds())
        if race.started_at is not None:
            return clock_text((now - datetime.fromisoformat(race.started_at)).total_seconds())
        return None

    # ----- commands -------------------------------------------------------------------------
    async def open(self, ctx: Ctx, args: list[str]) -> list[Reply]:
        """``/race [minutes] [senza-tempo]``: open the join window."""
        core = self.core
        refusal = self.tables.opening_refusal(ctx, GAME)
        if refusal is not None:
            return [refusal]
        minutes: int | None = DEFAULT_MINUTES
        senza_tempo = False
        for word in args:
            lowered = word.lower()
            if lowered in SENZA_TEMPO_WORDS:
                senza_tempo = True
            elif (number := ascii_number(lowered)) is not None and 1 <= number <= MAX_MINUTES:
                minutes = number
            else:
                return [core.refuse(ctx, "race.usage", max=MAX_MINUTES)]
        if senza_tempo:
            minutes = None
        platform, chat_id = ctx.req.platform, ctx.req.chat_id
        if await self.lobby_of_chat(platform, chat_id) is not None:
            return [core.refuse(ctx, "race.exists")]  # a table beside it is no obstacle
        busy = await self._busy_refusal(ctx)
        if busy is not None:
            return [busy]
        try:
            lobby = await core.sessions.new_table(
                platform, chat_id, ctx.user, ctx.req.user_name, GAME, [], iso(ctx.now)
            )
        except AlreadyExists:  # another process opened this chat's race a moment ago
            return [core.refuse(ctx, "race.exists")]
        lobby.record.faces = FACES
        await core.sessions.save(lobby)
        await self.store.play.insert_race(
            lobby.id, minutes, senza_tempo, iso(ctx.now + JOIN_WINDOW)
        )
        key = "race.opened_senza_tempo" if senza_tempo else "race.opened"
        opened = core.say(
            ctx,
            key,
            creator=ctx.req.user_name,
            minutes=minutes or 0,
            seconds=int(JOIN_WINDOW.total_seconds()),
        )
        return [opened, await core.board(ctx, lobby, fresh=True)]

    async def join(self, ctx: Ctx, lobby: Session) -> list[Reply]:
        busy = await self._busy_refusal(ctx)
        if busy is not None:
            return [busy]
        return await self.tables.join(ctx, lobby)

    async def _busy_refusal(self, ctx: Ctx) -> Reply | None:
        """A racer plays no solo game beside the race in this chat: the refusal names each open
        game as every reply names it ("Daily Canfield, move 14") and the command that gives
        it up (``/resign daily canfield``), or None when there is none."""
        core = self.core
        solos = await core.sessions.solos_of(ctx.req.platform, ctx.req.chat_id, ctx.user)
        if not solos:
            return None
        lang = ctx.lang
        games = [focus.OpenGame(s, focus.DAILY if s.record.ranked else focus.CASUAL) for s in solos]
        refusal = core.refuse(ctx, "race.busy")
        lines = [refusal.text]
        for game in games:
            # the shortest words that name this game alone: its game's word, with "daily" (or
            # "casual" when a daily of the same game is open too)
            twin = any(g.game_id == game.game_id and g.kind != game.kind for g in games)
            words = game.game_id
            if game.kind == focus.DAILY or twin:
                words = f"{focus.kind_word(lang, game.kind)} {game.game_id}"
            lines.append(
                i18n.t(
                    lang,
                    "race.busy_line",
                    game=focus.described(lang, game),
                    resign=f"/resign {words}",
                )
            )
        # one line per game: the game as every reply names it, then the command that ends it
        refusal.text = "\n".join(lines)
        return refusal

    async def start(self, ctx: Ctx, lobby: Session) -> list[Reply]:
        """The creator starts the race before the join window closes."""
        core = self.core
        async with core.sessions.lock(lobby.id):
            refusal = self.tables.start_refusal(ctx, lobby, MIN_RACERS)
            if refusal is not None:
                return [refusal]
            return await self._start_round(ctx, lobby, 1)

    async def end(self, ctx: Ctx, lobby: Session) -> list[Reply]:
        """``/end`` on a race: the creator or an admin stops it; boards are resigned, no ranking."""
        core = self.core
        if not may_manage(ctx, lobby):
            return [core.refuse(ctx, "end.not_allowed")]
        race = await self.store.play.race(lobby.id)
        if race is not None and race.round > 0:  # ended by hand: the boards are resigned
            await self._resign_unfinished(race, ctx.now, outcome=None)
        async with core.sessions.lock(lobby.id):
            await core.sessions.end_without_result(lobby, iso(ctx.now))
        return [core.say(ctx, lobby_key(lobby, "end.ended"), name=ctx.req.user_name)]

    async def lobby_of_chat(self, platform: str, chat_id: str) -> Session | None:
        """The race lobby open or running in this chat (for ``/end``)."""
        race_id = await self.running_in_chat(platform, chat_id)
        if race_id is not None:
            return await self.core.sessions.get(race_id)
        return await self.core.sessions.table_of(platform, chat_id, GAME)

    # ----- rounds ---------------------------------------------------------------------------
    async def _start_round(self, ctx: Ctx, lobby: Session, round_number: int) -> list[Reply]:
        """Under the lobby's lock: deal one deal to every racer and show their boards."""
        core = self.core
        rec = lobby.record
        race = await self.store.play.race(lobby.id)
        assert race is not None
        deal = self.pick_deal()
        replies: list[Reply] = []
        boards: list[tuple[str, Session]] = []
        for player in list(rec.players):
            if await core.sessions.solo_of(rec.platform, rec.chat_id, player) is not None:
                rec.players.remove(player)  # started a solo game meanwhile: one game at a time
                replies.append(core.say(ctx, "race.dropped", name=lobby.name_of(player)))
                continue
            try:
                board = await core.sessions.new_solo(
                    rec.platform,
                    rec.chat_id,
                    player,
                    lobby.name_of(player),
                    GAME,
                    {},
                    deal,
                    FACES,
                    iso(ctx.now),
                )
            except AlreadyExists:  # started that game in another process meanwhile
                rec.players.remove(player)
                replies.append(core.say(ctx, "race.dropped", name=lobby.name_of(player)))
                continue
            boards.append((player, board))
        deadline = None if race.minutes is None else iso(ctx.now + timedelta(minutes=race.minutes))
        rec.status = RACING
        rec.deal = deal
        rec.revision += 1
        rec.last_active_at = iso(ctx.now)
        for _player, board in boards:
            self._remember_entry(board.id, RaceEntry(lobby.id, round_number))
        await self.store.play.start_round(
            lobby.id,
            round_number,
            deadline,
            iso(ctx.now),
            [RaceBoard(player, board.id) for player, board in boards],
        )
        await core.sessions.save(lobby)
        names = ", ".join(lobby.name_of(p) for p, _ in boards)
        key = "race.started" if round_number == 1 else "race.new_round"
        limit = (
            i18n.t(ctx.lang, "race.no_limit")
            if race.minutes is None
            else i18n.t(ctx.lang, "tables.minutes", minutes=race.minutes)
        )
        replies.append(
            core.say(ctx, key, players=names, deal=deal, limit=limit, round=round_number)
        )
        for player, board in boards:
            await core.focus_players(ctx, board, [player])  # each racer's own board
            shown = await core.board(ctx, board, fresh=True)
            shown.text = i18n.t(
                ctx.lang, "race.board_of", name=lobby.name_of(player), caption=shown.text
            )
            shown.mentions = [player]
            replies.append(shown)
        return replies

    async def _round_boards(self, race: Race) -> list[RaceBoard]:
        return await self.store.play.round_boards(race.id, race.round)

    async def _all_finished(self, race: Race) -> bool:
        for board in await self._round_boards(race):
            session = await self.core.sessions.get(board.session_id)
            if (
                session is not None
                and session.is_active
                and session.game is not None
                and not session.game.is_over
            ):
                return False
        return True

    async def _resign_unfinished(
        self, race: Race, now: datetime, outcome: str | None = TIME_UP
    ) -> None:
        """Time is up: every board still being played ends as it stands, stored as
        ``outcome`` (``time_up``; None: resigned, when the race is ended by hand). Each board
        under its own lock, never while holding the race's (the board's mover may be waiting
        for the race's lock)."""
        for board in await self._round_boards(race):
            session = await self.core.sessions.get(board.session_id)
            if session is None:
                continue
            async with self.core.sessions.lock(board.session_id):
                if session.is_active and session.game is not None and not session.game.is_over:
                    await self.core.sessions.resign(session, now, touch=False, outcome=outcome)

    async def _finish_round(self, ctx: Ctx, race_id: str, round_number: int) -> list[Reply]:
        """Rank a round whose boards are all finished: announce the results, or (senza tempo,
        a tie for first) deal a new round. Nothing when another caller finished it already."""
        core = self.core
        lobby = await core.sessions.get(race_id)
        if lobby is None:
            return []
        async with core.sessions.lock(race_id):
            race = await self.store.play.race(race_id)
            if race is None or lobby.record.status != RACING or race.round != round_number:
                return []
            entries = []
            boards = await self._round_boards(race)
            for board in boards:
                result = await self.store.results.first(board.session_id)
                score, score_move, moves = (
                    (result.score, result.tiebreak_move, result.move_count) if result else (0, 0, 0)
                )
                race_move = await self._race_move(board.session_id, score_move)
                entries.append(Entry(board.player_id, score, race_move, moves))
            placed = rank(entries, race_id, round_number)
            if race.senza_tempo and tie_for_first(placed):
                tie = core.say(
                    ctx,
                    "race.tie_replay",
                    score=placed[0].score,
                    players=", ".join(
                        lobby.name_of(p.player) for p in placed if p.score == placed[0].score
                    ),
                )
                return [tie, *await self._start_round(ctx, lobby, round_number + 1)]
            # each board's result keeps its place in the race (its page and /stats show it)
            board_of = {b.player_id: b.session_id for b in boards}
            await self.store.results.set_places({board_of[p.player]: p.place for p in placed})
            lines = [i18n.t(ctx.lang, "race.results_header")]
            for p in placed:
                key = "race.result_line" if p.moved else "race.result_idle"
                lines.append(
                    i18n.t(
                        ctx.lang,
                        key,
                        place=p.place,
                        name=short_name(lobby.name_of(p.player)),
                        score=p.score,
                        move=p.score_move,
                    )
                )
            lobby.record.status = OVER
            lobby.record.outcome = "finished"
            lobby.record.revision += 1
            lobby.record.last_active_at = iso(ctx.now)
            await core.sessions.save(lobby)
            core.sessions.forget(race_id)
            winners = [lobby.name_of(p.player) for p in placed if p.place == 1]
            return [
                Reply(
                    key="race.results",
                    text="\n".join(lines),
                    params={
                        "ranking": [(p.player, p.place, p.score, p.score_move) for p in placed],
                        "winners": winners,
                    },
                )
            ]

    async def _race_move(self, session_id: str, board_move: int) -> int:
        """The race-wide number of a board's move ``board_move`` (0 stays 0: never scored).
        A board whose moves predate the race-wide counter keeps its own number."""
        if board_move <= 0:
            return 0
        race_move = await self.store.play.race_move_at(session_id, board_move)
        return board_move if race_move is None else race_move

    async def after_move(self, ctx: Ctx, session: Session) -> list[Reply]:
        """Under a board's lock, after its move: when that move finished the last board of
        the round, the round's results (or the new deal)."""
        game = session.game
        if game is None or not game.is_over:
            return []
        entry = await self.entry_of(session.id)
        if entry is None:
            return []
        race = await self.store.play.race(entry.race_id)
        if race is None or race.round != entry.round or not await self._all_finished(race):
            return []
        return await self._finish_round(ctx, entry.race_id, entry.round)

    async def tick(self, now: datetime) -> int:
        """Close join windows, end rounds whose time is up or whose boards are all finished;
        push what happened. Returns how many races changed."""
        changed = 0
        for lobby in await self.store.play.races_in_status((LOBBY, RACING)):
            race_id, platform, chat_id = lobby.race_id, lobby.platform, lobby.chat_id
            try:
                # one process acts on a race's clock at a time (status read again under the claim)
                async with self.store.claims.hold(f"race:{race_id}") as mine:
                    if mine and await self._tick_race(race_id, platform, chat_id, now):
                        changed += 1
            except Exception:
                log.exception("race %s tick failed", race_id)
        return changed

    async def _tick_race(self, race_id: str, platform: str, chat_id: str, now: datetime) -> bool:
        core = self.core
        status = await self.store.sessions.status(race_id)
        race = await self.store.play.race(race_id)
        if race is None or status not in (LOBBY, RACING):
            return False
        lang = await core.chat_language(platform, chat_id)
        ctx = system_ctx(platform, chat_id, lang, now)
        replies: list[Reply] = []
        if status == LOBBY and race.join_deadline is not None and race.join_deadline <= iso(now):
            replies = await self._close_window(ctx, race_id)
        elif status == RACING:
            time_up = race.deadline is not None and race.deadline <= iso(now)
            if time_up:
                await self._resign_unfinished(race, now)
            if time_up or await self._all_finished(race):
                replies = await self._finish_round(ctx, race_id, race.round)
                if time_up and replies:
                    replies.insert(0, core.say(ctx, "race.time_up"))
        for reply in replies:
            await core.push(platform, chat_id, reply)
        return bool(replies)

    async def _close_window(self, ctx: Ctx, race_id: str) -> list[Reply]:
        core = self.core
        lobby = await core.sessions.get(race_id)
        if lobby is None:
            return []
        async with core.sessions.lock(race_id):
            if lobby.record.status != LOBBY:
                return []
            if len(lobby.record.players) < MIN_RACERS:
                await core.sessions.end_without_result(lobby, iso(ctx.now))
                return [core.say(ctx, "race.cancelled", min=MIN_RACERS)]
            return await self._start_round(ctx, lobby, 1)
