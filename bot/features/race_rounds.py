"""A race's rounds: dealing every racer the same deal on a board of their own,
knowing which boards are a race's, and ending the round when its time is up (the unfinished
boards are resigned as they stand) or when every board is finished (solved, stalled or
resigned): the ranking (:mod:`bot.features.race_rules`), or, senza tempo and a tie for first,
a new round. The clock ticks here too: join windows closing, time running out.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import engine
from bot import i18n
from bot.core.commands import random_deal
from bot.core.context import system_ctx
from bot.core.names import short_name
from bot.core.session import Session, iso
from bot.features.race_rules import (
    MIN_RACERS,
    RACING,
    TIME_UP,
    Entry,
    rank,
    tie_for_first,
)
from bot.replies import Reply
from bot.storage import LOBBY, OVER, AlreadyExists, Race, RaceBoard, RaceEntry, Storage

if TYPE_CHECKING:
    from bot.core.context import Ctx
    from bot.core.service import Service

log = logging.getLogger("tavolo.races")

#: race entries remembered by session id (a lookup past them is one indexed read)
ENTRY_CACHE_SIZE = 4096


class RaceRounds:
    """The rounds of every race and their clock (see module doc); the commands are
    :class:`~bot.features.races.Races`, built on it."""

    def __init__(self, core: Service) -> None:
        self.core = core
        # bounded: every solo board asks once; the recent ones are the ones asked again
        self._entry_cache: OrderedDict[str, RaceEntry | None] = OrderedDict()
        #: picks each round's deal number of the race's game (tests pin it; the shuffle itself
        #: is engine.rng's)
        self.pick_deal: Callable[[], int] | None = None

    @property
    def store(self) -> Storage:
        return self.core.store

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

    # ----- rounds ---------------------------------------------------------------------------
    async def _start_round(self, ctx: Ctx, lobby: Session, round_number: int) -> list[Reply]:
        """Under the lobby's lock: deal one deal to every racer and show their boards."""
        core = self.core
        rec = lobby.record
        race = await self.store.play.race(lobby.id)
        assert race is not None
        deal = random_deal(rec.game_id) if self.pick_deal is None else self.pick_deal()
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
                    rec.game_id,
                    {},
                    deal,
                    engine.game_info(rec.game_id).default_faces,
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
