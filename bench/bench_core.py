"""The bot core under load: command-to-reply latency, memory per session, a full load run.

Everything runs in-process through ``bot.core.Core`` on a temporary SQLite file (WAL), the
way an adapter calls it; only the platform is left out. Simulated players (``LoadPlayer``)
each keep their own copy of their game (same game id and deal) to pick a legal move, send it
as ``/move <notation>`` and check the reply: it must be *their* board (their session id, the
expected move number) and nothing private may be addressed to anyone else.

Measurements (``run()``):

* ``latency``: N = 1, 100, 1,000 active sessions exist (started, a few moves in, live in
  memory, rows in the database); commands then arrive at the Discord limit (50 per second,
  the highest platform rate) spread over random sessions, and each ``handle_text`` call is
  timed until its replies are ready, board image included (the real ``renderer.render``).
  Wall time on a shared machine includes other processes' work, so the process CPU time per
  command (all threads: loop, SQLite, render executor) is reported next to it, and so is the
  share of one core that the 50 commands per second cost.
* ``burst``: all N players press at once and again as soon as they get their answer:
  the most commands per second the process handles (one event loop, render in threads).
* ``memory``: bytes per active session, tracemalloc (Python objects the core keeps for a live
  session: engine game, record, lock) and the resident-set delta (upper bound: includes
  SQLite's page cache and freed-but-kept arenas).
* ``load``: 1,000 players making 20 moves each at once (cheap stand-in renderer: this checks
  the core and storage, the renderer has its own bench): every acknowledged move is stored,
  no reply crossed sessions, no legal move was refused.

>>> report = asyncio.run(load_check(players=4, moves=3))  # doctest: +SKIP
>>> report["problems"]  # doctest: +SKIP
[]
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bot.app import open_core
from bot.core import Core
from bot.replies import Reply, Request

#: solo games a load player starts, in turn: every solo game (the games' facts)
LOAD_GAMES: tuple[str, ...] = tuple(g for g, cls in engine.GAMES.items() if not cls.info.table)
#: players per chat: several solo games share a chat, as in a busy group
PLAYERS_PER_CHAT = 10
#: Discord's request limit per bot (Telegram's 30 messages per second is lower)
PLATFORM_RATE = 50.0
LATENCY_SIZES = (1, 100, 1000)
LATENCY_COMMANDS = 400
WARM_MOVES = 3
ACK_KEYS = frozenset({"board.caption", "board.caption_over"})


def cheap_render(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
    """A stand-in renderer for load runs that check the core, not the drawing."""
    return b"PNG " + f"{game_id}:{view.get('move_number')}".encode()


@dataclass
class LoadPlayer:
    """One simulated player with a solo game in a shared chat.

    ``acknowledged`` maps each session this player started to the notations the bot
    acknowledged (a board came back showing the move), in order; ``problems`` lists anything
    a player would complain about."""

    core: Core
    index: int
    platform: str = "load"
    game: Any = None
    session_id: str | None = None
    games_started: int = 0
    acknowledged: dict[str, list[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    busy: bool = False

    def __post_init__(self) -> None:
        self.user = f"p{self.index}"
        self.request = Request(
            self.platform, f"chat-{self.index // PLAYERS_PER_CHAT}", self.user, f"P{self.index}"
        )
        self.rng = random.Random(self.index)

    async def _send(self, text: str) -> list[Reply]:
        started = time.perf_counter()
        replies = await self.core.handle_text(self.request, text)
        self.latencies.append(time.perf_counter() - started)
        for reply in replies:
            if reply.to_user is not None and reply.to_user != self.user:
                self.problems.append(f"{self.user}: reply for {reply.to_user}: {reply.key}")
            if (
                reply.board is not None
                and self.session_id is not None
                and reply.board.session_id != self.session_id
            ):
                self.problems.append(
                    f"{self.user}: board of {reply.board.session_id}, not {self.session_id}"
                )
        return replies

    async def start(self) -> None:
        """``/play`` the next game (a new deal each time)."""
        game_id = LOAD_GAMES[(self.index + self.games_started) % len(LOAD_GAMES)]
        deal = self.index * 1000 + self.games_started
        self.games_started += 1
        self.session_id = None
        replies = await self._send(f"/play {game_id} {deal}")
        boards = [r for r in replies if r.board is not None]
        if [r.key for r in replies][:1] != ["play.started"] or not boards:
            self.problems.append(
                f"{self.user}: /play {game_id} {deal} answered {[r.key for r in replies]}"
            )
            self.game = None
            return
        self.session_id = boards[0].board.session_id  # type: ignore[union-attr]
        self.acknowledged[self.session_id] = []
        self.game = engine.new_game(game_id, deal, [self.user], {})

    async def step(self) -> None:
        """One move (starting a new game first when there is none or it ended)."""
        self.busy = True
        try:
            for _ in range(5):  # some deals are over before the first move: deal again
                if self.game is not None and not self.game.is_over and self.game.legal_moves():
                    break
                await self.start()
                if self.game is None:
                    return
            else:
                return
            legal = self.game.legal_moves()
            # prefer the first-listed moves: games progress instead of shuffling cards about
            move = legal[0] if self.rng.random() < 0.5 else self.rng.choice(legal)
            notation = str(move)
            replies = await self._send(f"/move {notation}")
            keys = [r.key for r in replies]
            if not replies or replies[0].key not in ACK_KEYS:
                self.problems.append(f"{self.user}: legal move {notation} answered {keys}")
                return
            expected = self.game.move_number + 1
            if replies[0].params.get("move") != expected or replies[0].board is None:
                self.problems.append(
                    f"{self.user}: board shows move {replies[0].params.get('move')}, expected {expected}"
                )
            assert self.session_id is not None
            self.acknowledged[self.session_id].append(notation)
            self.game.play(notation)
        finally:
            self.busy = False


async def stored_problems(core: Core, players: list[LoadPlayer]) -> list[str]:
    """Every acknowledged move is in the database, in order, and nothing else is."""
    problems = []
    for player in players:
        for session_id, notations in player.acknowledged.items():
            stored = await core.store.sessions.moves(session_id)
            if stored != notations:
                problems.append(
                    f"{session_id}: stored {len(stored)} moves, acknowledged {len(notations)}"
                )
    return problems


async def drive_all(players: list[LoadPlayer], moves: int) -> None:
    """Every player makes ``moves`` moves, all at the same time."""

    async def play(player: LoadPlayer) -> None:
        for _ in range(moves):
            await player.step()

    await asyncio.gather(*(play(p) for p in players))


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(
            ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))] * 1000, 2
        )

    return {
        "p50_ms": at(0.50),
        "p95_ms": at(0.95),
        "p99_ms": at(0.99),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


class SwitchableRenderer:
    """The real ``renderer.render`` or the cheap stand-in, switched between phases of a run
    (sessions are set up cheaply, then measured with real drawing)."""

    def __init__(self, real: bool = False) -> None:
        self.real = real

    def __call__(self, game_id: str, view: dict[str, Any], **style: Any) -> bytes:
        if self.real:
            import renderer

            return renderer.render(game_id, view, **style)
        return cheap_render(game_id, view, **style)


async def _new_core(
    folder: str, renderer: Callable[..., bytes] | None, database_url: str | None = None
) -> Core:
    url = database_url or f"sqlite:///{folder}/tavolo.db"
    return await open_core(url, "en", renderer=renderer, sweep_interval=None)


async def load_check(
    players: int, moves: int, renderer: Callable[..., bytes] | None = cheap_render
) -> dict[str, Any]:
    """``players`` players make ``moves`` moves each at once; what was acknowledged is checked
    against the database. Returns counts, throughput and ``problems`` (empty when all is well)."""
    with tempfile.TemporaryDirectory() as folder:
        core = await _new_core(folder, renderer)
        try:
            crowd = [LoadPlayer(core, i) for i in range(players)]
            wall0, cpu0 = time.perf_counter(), time.process_time()
            await drive_all(crowd, moves)
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
            problems = [p for player in crowd for p in player.problems]
            problems += await stored_problems(core, crowd)
            commands = sum(len(p.latencies) for p in crowd)
            acknowledged = sum(len(n) for p in crowd for n in p.acknowledged.values())
            async with core.store._db.execute("PRAGMA integrity_check") as cursor:
                integrity = [row[0] for row in await cursor.fetchall()]
        finally:
            await core.close()
    return {
        "players": players,
        "moves_each": moves,
        "commands": commands,
        "acknowledged_moves": acknowledged,
        "games_started": sum(p.games_started for p in crowd),
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "commands_per_s_wall": round(commands / wall, 1),
        "cpu_ms_per_command": round(cpu / commands * 1000, 3),
        "integrity": integrity,
        "problems": problems[:20],
        "problem_count": len(problems),
    }


async def _paced(
    players: list[LoadPlayer], rate: float, commands: int, seed: int = 1
) -> list[float]:
    """``commands`` moves arriving ``rate`` per second on random idle players; their latencies."""
    for player in players:
        player.latencies.clear()
    chooser = random.Random(seed)
    loop = asyncio.get_running_loop()
    tasks: list[asyncio.Task[None]] = []
    began = loop.time()
    for k in range(commands):
        delay = began + k / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        player = chooser.choice(players)
        while player.busy:  # nearly every player is idle at 50/s; wait when none is
            if all(p.busy for p in players):
                await asyncio.sleep(0.001)
            player = chooser.choice(players)
        player.busy = True  # claimed now: the task only starts on the next loop turn
        tasks.append(asyncio.create_task(player.step()))
    await asyncio.gather(*tasks)
    return [lat for p in players for lat in p.latencies]


async def latency(
    sessions: int,
    commands: int = LATENCY_COMMANDS,
    rate: float = PLATFORM_RATE,
    real_render: bool = True,
    database_url: str | None = None,
) -> dict[str, Any]:
    """Command-to-reply latency at ``rate`` commands per second with ``sessions`` active
    (``real_render`` False: the core alone, with the cheap stand-in renderer; ``database_url``:
    another database than a new SQLite file, e.g. PostgreSQL)."""
    render = SwitchableRenderer()
    with tempfile.TemporaryDirectory() as folder:
        core = await _new_core(folder, render, database_url)
        try:
            crowd = [LoadPlayer(core, i) for i in range(sessions)]
            await drive_all(crowd, WARM_MOVES)  # every session started and a few moves in
            render.real = real_render
            warm_problems = [p for player in crowd for p in player.problems]
            wall0, cpu0 = time.perf_counter(), time.process_time()
            paced = await _paced(crowd, rate, commands)
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
            # the same sessions pressing all at once: the most the process answers per second
            burst_players = crowd[: min(sessions, 200)]
            for player in burst_players:
                player.latencies.clear()
            bwall0, bcpu0 = time.perf_counter(), time.process_time()
            rounds = max(1, 200 // len(burst_players))
            await drive_all(burst_players, rounds)
            bwall, bcpu = time.perf_counter() - bwall0, time.process_time() - bcpu0
            burst = [lat for p in burst_players for lat in p.latencies]
            problems = warm_problems + [p for player in crowd for p in player.problems]
            problems += await stored_problems(core, crowd)
        finally:
            await core.close()
    return {
        "sessions": sessions,
        "rate_per_s": rate,
        "commands": len(paced),
        **_percentiles(paced),
        "cpu_ms_per_command": round(cpu / len(paced) * 1000, 2),
        "core_share_at_rate": round(cpu / wall, 3),
        "burst": {
            "concurrent": len(burst_players),
            "commands": len(burst),
            "commands_per_s_wall": round(len(burst) / bwall, 1),
            "cpu_ms_per_command": round(bcpu / len(burst) * 1000, 2),
            **_percentiles(burst),
        },
        "problem_count": len(problems),
        "problems": problems[:5],
    }


def rss_bytes() -> int:
    """Resident set size of this process (Linux ``/proc``; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


async def memory(sessions: int = 1000, moves: int = 20) -> dict[str, Any]:
    """Bytes the core keeps per active session (each ``moves`` moves in)."""
    with tempfile.TemporaryDirectory() as folder:
        core = await _new_core(folder, cheap_render)
        try:
            warm = [LoadPlayer(core, sessions + i) for i in range(PLAYERS_PER_CHAT)]
            await drive_all(warm, 2)  # imports, caches, prepared statements: not per session
            crowd = [LoadPlayer(core, i) for i in range(sessions)]
            gc.collect()
            tracemalloc.start()
            rss0 = rss_bytes()
            traced0 = tracemalloc.get_traced_memory()[0]
            await drive_all(crowd, moves)
            problems = [p for player in crowd for p in player.problems]
            for player in crowd:  # the players' own game copies are not the bot's memory
                player.game = None
                player.latencies = []
            gc.collect()
            traced = tracemalloc.get_traced_memory()[0] - traced0
            rss = rss_bytes() - rss0
            tracemalloc.stop()
            live = sum(1 for s in core.sessions._live.values() if s.is_active)
        finally:
            await core.close()
    return {
        "sessions": sessions,
        "moves_each": moves,
        "live_active_sessions": live,
        "traced_bytes_per_session": traced // max(1, live),
        "rss_bytes_per_session": rss // max(1, live),
        "problem_count": len(problems),
    }


def _renderer_works() -> str | None:
    """None when ``renderer.render`` draws a board, else why not (then the bench says so)."""
    try:
        import renderer

        game = engine.new_game(LOAD_GAMES[0], 1, ["p"], {})
        renderer.render(LOAD_GAMES[0], game.view(None))
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return None


#: session counts measured on PostgreSQL
POSTGRES_SIZES = (100, 1000)


def latency_postgres() -> dict[str, Any]:
    """Command-to-reply latency on PostgreSQL (an embedded server, durable defaults), with the
    real renderer and with the core alone, at ``POSTGRES_SIZES`` sessions."""
    from bench.pg_server import PgBench

    with PgBench() as pg:
        return {
            f"{n}{'' if real else '_core_only'}": asyncio.run(
                latency(n, real_render=real, database_url=pg.fresh_database())
            )
            for n in POSTGRES_SIZES
            for real in (True, False)
        }


def run() -> dict[str, Any]:
    report: dict[str, Any] = {"games": list(LOAD_GAMES)}
    broken = _renderer_works()
    if broken is not None:
        report["renderer_error"] = broken
    report["latency"] = {str(n): asyncio.run(latency(n)) for n in LATENCY_SIZES}
    report["latency_core_only"] = {
        str(n): asyncio.run(latency(n, real_render=False)) for n in LATENCY_SIZES
    }
    report["latency_postgres"] = latency_postgres()
    report["memory"] = asyncio.run(memory())
    report["load"] = asyncio.run(load_check(1000, 20))
    return report


if __name__ == "__main__":
    import json
    import sys

    real = "--cheap" not in sys.argv
    sizes = [int(a) for a in sys.argv[1:] if a.isdigit()] or list(LATENCY_SIZES)
    print(json.dumps({str(n): asyncio.run(latency(n, real_render=real)) for n in sizes}, indent=2))
