"""What an operator of a busy bot meets (issue 27): memory per finished game, a live session's
size, CPU per command with and without its board image, and a flood.

* ``memory``: games are started and finished (resigned after a few moves) through the core,
  one player after another in many chats, the way a long-running process sees them. After a
  warm-up (caches filled to their bounds), the Python heap (tracemalloc) is compared before and
  after ``games`` more finished games: the growth divided by the games is what a process keeps
  for each game that ended (goal: under 0.2 KB). ``live_session_bytes`` is what one game in
  progress holds (goal: under 64 KB). To play its 11,000 games faster (a third less CPU, and
  no waiting for threads on a busy machine), the bench keeps everything on the event loop's
  thread (``one_thread``): the in-memory
  database's calls and the (stand-in) drawing run in place instead of being handed to a worker
  thread and back, some fifty hand-offs a game that cost far more than the game itself on a busy
  machine. That changes where work runs, not what the core keeps: the same core, features and
  storage code play every game, and a hand-off leaves nothing behind once it is done.
* ``memory_with_solver``: short games of every game the solver analyses (Solitario,
  Canfield, Imaginary Thirteen and FreeCell today, in turn: ``/play``, every other round one
  ``/move``, ``/resign``) finished
  as fast as the core takes them with the "could it have been won?" solver on, on its own
  thread as in the bot (issue 39: its queue had no bound, and RSS grew by 233 MB over 40,000
  games). The resident set (RSS, all of it: heap, arenas, SQLite's page cache; the games are
  stored in a database file) before, after each eighth of the games and after the answers,
  its peak (``VmHWM``), the growth divided by
  the games and by the distinct players (goal: under 0.5 KB each; the second half's growth
  alone says whether it is flat once the caches are full; ``held``: the same with freed memory
  given back to the system first), what a FreeCell search's tables held at each checkpoint
  (a search running then: part of that RSS, given back when it ends) and at most, with every
  game a new
  player and with 100 players taking turns; how many answers the solver gave and how many
  games were told it was busy, and the most searches ever waiting at once (at most
  ``solutions.WAITING_LIMIT``).
* ``cpu_per_command``: process CPU time per ``/move`` through the core, for each game
  (Solitario, Canfield, Imaginary Thirteen, El Solitario, Cartas Maestras, FreeCell), with the
  real renderer and with a stand-in that draws nothing (goal: at most 5 ms with the image).
  The process's every thread counts (the loop, SQLite's, the render threads), with the real
  hand-offs between them, except the "could it have been won?" search a lost game starts: it
  is held until the command is done, runs between two commands, and its CPU is reported apart
  (``analyses``, ``analysis_cpu_ms_each``: once per lost game, not per command).
* ``flood``: one user sends ``/help`` 300 times: how many answers they get, and how long a
  ``/help`` in another chat takes meanwhile; 999 replies queued for one chat in each platform's
  outbox: how many it keeps, how soon a quiet chat's message goes out.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import gc
import random
import statistics
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite
import aiosqlite.core

import engine
from bench.bench_core import rss_bytes
from bot.app import open_core
from bot.core import Core, handoff
from bot.core.limits import Limits
from bot.replies import Request
from engine.solvers import freecell as freecell_solver

#: games per round of the memory bench (they cycle through chats and players)
GAMES = 10_000
WARM_GAMES = 1_000
#: the game played: one the end-of-game solver does not analyse, so the run measures what
#: the core keeps (the solver's answers are a bounded cache of their own, measured apart)
MEMORY_GAME = "squadratik"
#: live games started to measure one live game's size (their mean: one alone is noise)
LIVE_GAMES = 100
CHATS = 200
#: /move commands timed for the CPU figures, per game, core and round (after as many untimed)
CPU_COMMANDS = 60
#: timed rounds per game, each on other deals (a game's figure is its median round)
CPU_ROUNDS = 5
#: simulated time between two games' starts
GAME_INTERVAL = timedelta(seconds=5)
#: an in-memory database: the bench measures Python memory, not the disk
IN_MEMORY = True


def cheap_render(game_id: str, view: dict[str, Any], **style: Any) -> bytes:
    return b"PNG " + f"{game_id}:{view.get('move_number')}".encode()


class BenchClock:
    """Time as a long-running process sees it: each game a few seconds after the last
    (a bench playing 10,000 games in a minute would make every player "seen just now")."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class _InPlace(concurrent.futures.ThreadPoolExecutor):
    """An executor that runs each call at once, on the caller's thread."""

    def submit(  # type: ignore[override]
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to the awaiting caller, as a pool would
            future.set_exception(error)
        return future


@contextlib.contextmanager
def one_thread(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """SQLite calls and ``run_in_executor`` work run on the loop's thread while inside (see
    the module docstring); everything is put back on leaving."""
    connect, execute = aiosqlite.connect, aiosqlite.core.Connection._execute

    def connect_anywhere(*args: Any, **kwargs: Any) -> aiosqlite.Connection:
        # the connection is opened on aiosqlite's thread and then used on the loop's
        kwargs.setdefault("check_same_thread", False)
        return connect(*args, **kwargs)

    async def execute_in_place(self: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        return fn(*args, **kwargs)

    aiosqlite.connect = connect_anywhere  # type: ignore[assignment]
    aiosqlite.core.Connection._execute = execute_in_place  # type: ignore[method-assign]
    in_place = _InPlace(max_workers=1)
    loop.set_default_executor(in_place)
    handoff.RENDER.in_place = True
    try:
        yield
    finally:
        handoff.RENDER.in_place = False
        aiosqlite.connect = connect  # type: ignore[assignment]
        aiosqlite.core.Connection._execute = execute  # type: ignore[method-assign]
        loop.set_default_executor(concurrent.futures.ThreadPoolExecutor())


async def _finish_games(core: Core, start: int, count: int) -> None:
    clock = core.clock
    for n in range(start, start + count):
        if isinstance(clock, BenchClock):
            clock.now += GAME_INTERVAL
        game = MEMORY_GAME
        req = Request("bench", f"chat{n % CHATS}", f"user{n}", f"Player {n}")
        await core.handle_text(req, f"/play {game} {n % 5000 + 1}")
        await core.handle_text(req, f"/resign {game}")
    solutions = core.features.get("solutions")
    if solutions is not None:
        await solutions.wait()


async def memory(
    games: int = GAMES, warm: int = WARM_GAMES, in_place: bool = True
) -> dict[str, Any]:
    """The memory figures; ``in_place=False`` plays with the worker threads, as the bot does
    (the same figures, several times slower)."""
    with contextlib.ExitStack() as stack:
        if in_place:
            stack.enter_context(one_thread(asyncio.get_running_loop()))
        return await _memory(games, warm)


async def _memory(games: int, warm: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        core = await open_core(
            "sqlite:///:memory:" if IN_MEMORY else f"sqlite:///{Path(folder) / 'bench.db'}",
            clock=BenchClock(),
            renderer=cheap_render,
            sweep_interval=None,
        )
        try:
            await _finish_games(core, 0, warm)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            started = time.perf_counter()
            await _finish_games(core, warm, games)
            seconds = time.perf_counter() - started
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
            # games in progress (Solitario, a few moves in): what each added to the heap
            live_before = tracemalloc.get_traced_memory()[0]
            for n in range(LIVE_GAMES):
                req = Request("bench", f"live{n % 10}", f"live-user{n}", "Live")
                await core.handle_text(req, f"/play solitario {n + 1}")
                for move in ("d", "d", "d"):
                    await core.handle_text(req, f"/move {move}")
            gc.collect()
            live = (tracemalloc.get_traced_memory()[0] - live_before) / LIVE_GAMES
            tracemalloc.stop()
        finally:
            await core.close()
    return {
        "games": games,
        "bytes_per_finished_game": round((after - before) / games, 1),
        "live_session_bytes": round(live),
        "seconds": round(seconds, 1),
    }


#: games of the memory run with the solver on: the issue's 40,000 (about 4,000 games a minute
#: on a quiet core, some 10-15 minutes for both runs on a busy shared machine;
#: ``python -m bench.bench_ops solver GAMES [PLAYERS]`` runs one with another count). A search
#: running at a checkpoint adds its tables to that RSS (up to some 80 MB, given back when it
#: ends): over fewer games that swing reads as growth per game
SOLVER_GAMES = 40_000
#: games of the run where FEW_PLAYERS take turns (a quarter: what it adds is how the same
#: players' many games are kept, which shows long before 40,000)
FEW_PLAYERS_GAMES = 10_000
#: RSS is read after each of this many equal parts of the games
SOLVER_CHECKPOINTS = 8
SOLVER_WARM_GAMES = 1_000
#: the players taking turns in the run with few players
FEW_PLAYERS = 100
#: the games whose lost deals "could it have been won?" analyses (read from their facts)
ANALYSED_GAMES = [
    game_id
    for game_id, game in engine.GAMES.items()
    if game.info.could_have_won and not game.info.table
]


def _peak_rss_bytes() -> int | None:
    """The process's highest resident set so far (Linux's ``VmHWM``; None elsewhere): the
    solver's searches' transient peaks, which a checkpoint may miss."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return None


def _held_rss_bytes() -> int:
    """The resident set once freed memory went back to the system (glibc's ``malloc_trim``;
    elsewhere the plain RSS): what the process still holds, without the arenas a search's
    transient peak left allocated."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    return rss_bytes()


async def memory_with_solver(
    games: int = SOLVER_GAMES, players: int | None = None, warm: int = SOLVER_WARM_GAMES
) -> dict[str, Any]:
    """RSS per finished game with the solver on (see the module docstring); ``players``:
    how many players take turns (None: every game a new one)."""
    # a database file, not one in memory: the stored games are the disk's, not the process's
    # (SQLite's page cache in the process is bounded)
    with tempfile.TemporaryDirectory() as folder, one_thread(asyncio.get_running_loop()):
        core = await open_core(
            f"sqlite:///{Path(folder) / 'bench.db'}",
            clock=BenchClock(),
            renderer=cheap_render,
            sweep_interval=None,
        )
        solutions = core.features["solutions"]
        counts = {"busy": 0, "answers": 0, "most_waiting": 0}

        async def push(platform: str, chat_id: str, reply: Any) -> None:
            counts["answers"] += reply.key == "solution.verdict"

        core.set_push(push)

        async def finish(first: int, count: int) -> None:
            for n in range(first, first + count):
                core.clock.now += GAME_INTERVAL  # type: ignore[attr-defined]
                player = n % players if players else n
                req = Request("bench", f"chat{n % CHATS}", f"user{player}", f"Player {player}")
                # every game the solver answers about, in turn; every other round with one
                # move first, so the search from where the player stopped runs too
                game_id = ANALYSED_GAMES[n % len(ANALYSED_GAMES)]
                deal = n % 5000 + 1
                await core.handle_text(req, f"/play {game_id} {deal}")
                if (n // len(ANALYSED_GAMES)) % 2:
                    moves = engine.new_game(game_id, deal).legal_moves()
                    if moves:  # a deal stalled as dealt offers none
                        await core.handle_text(req, f"/move {moves[0]}")
                replies = await core.handle_text(req, f"/resign {game_id}")
                counts["busy"] += any(reply.key == "solution.busy" for reply in replies)
                counts["most_waiting"] = max(counts["most_waiting"], len(solutions._searching))
                if n % 50 == 0:
                    await asyncio.sleep(0)  # the answers' own tasks get the loop now and then

        try:
            await finish(0, warm)
            await solutions.wait()
            counts.update(busy=0, answers=0, most_waiting=0)
            held_before = _held_rss_bytes()
            freecell_solver.table_bytes(reset=True)
            before = rss_bytes()
            started = time.perf_counter()
            checkpoints = [before]
            tables_at = [freecell_solver.table_bytes() or (0, 0)]
            part = games // SOLVER_CHECKPOINTS
            for n in range(SOLVER_CHECKPOINTS):
                last = n == SOLVER_CHECKPOINTS - 1
                await finish(warm + n * part, games - n * part if last else part)
                checkpoints.append(rss_bytes())
                tables_at.append(freecell_solver.table_bytes() or (0, 0))
            seconds = time.perf_counter() - started
            at_end = checkpoints[-1]
            at_half = checkpoints[SOLVER_CHECKPOINTS // 2]
            await solutions.wait()
            gc.collect()
            drained = rss_bytes()
            peak = _peak_rss_bytes()
            tables = freecell_solver.table_bytes()
            held_after = _held_rss_bytes()
        finally:
            await core.close()
    distinct = min(players, games) if players else games
    growth = max(at_end, drained) - before
    return {
        "games": games,
        "players": distinct,
        "rss_mb_before": round(before / 2**20, 1),
        "rss_mb_after_games": round(at_end / 2**20, 1),
        "rss_mb_after_answers": round(drained / 2**20, 1),
        # the highest RSS of the process (warm-up included): a search's transient peak
        "rss_mb_peak": None if peak is None else round(peak / 2**20, 1),
        # the most a FreeCell search's tables (seen set, nodes, frontier) held at once, and what
        # they held once the answers were in (None without the C module)
        "freecell_search_tables_mb_most": None if tables is None else round(tables[1] / 2**20, 1),
        "freecell_search_tables_mb_after": None if tables is None else round(tables[0] / 2**20, 1),
        # RSS before and after each eighth of the games
        "rss_mb_at_checkpoints": [round(rss / 2**20, 1) for rss in checkpoints],
        # what a FreeCell search running then held in tables (part of that checkpoint's RSS:
        # a search's transient, given back when it ends)
        "freecell_search_tables_mb_at_checkpoints": [
            round(held / 2**20, 1) for held, _ in tables_at
        ],
        "games_at_checkpoints": [
            n * (games // SOLVER_CHECKPOINTS) for n in range(SOLVER_CHECKPOINTS)
        ]
        + [games],
        "rss_bytes_per_game": round(growth / games),
        "rss_bytes_per_player": round(growth / distinct),
        # what the second half added: caches filling to their bounds (SQLite's pages, the
        # verdicts kept, the allocator's arenas) are in the first
        "rss_bytes_per_game_second_half": round(
            (at_end - at_half) / (games - SOLVER_CHECKPOINTS // 2 * (games // SOLVER_CHECKPOINTS))
        ),
        # freed memory given back first (glibc): what the games left held, per game
        "held_mb_before_and_after": [round(held_before / 2**20, 1), round(held_after / 2**20, 1)],
        "held_bytes_per_game": round((held_after - held_before) / games),
        "held_bytes_per_player": round((held_after - held_before) / distinct),
        "solver_answers": counts["answers"],
        "told_busy": counts["busy"],
        "most_waiting": counts["most_waiting"],
        "games_per_second": round(games / seconds),
        "seconds": round(seconds, 1),
    }


#: the games of the CPU figures, each played through the core as a player would: every game
CPU_GAMES = tuple(engine.GAMES)
#: table games: started as a table with a computer player, not with /play
TABLE_GAMES = {game_id for game_id, cls in engine.GAMES.items() if cls.info.table}


class _Player:
    """One core playing one game as a player would: the moves are picked (seeded) from the
    game's legal moves, a new game starts when one ends; only the ``/move`` commands are timed
    (process CPU: every thread, the loop, the database and the render pool)."""

    def __init__(self, core: Core, game_id: str, seed: int) -> None:
        self.core = core
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.deal = seed
        self.req = Request("bench", f"cpu-{game_id}", "cpu-user", "Cpu")
        self.times: list[float] = []
        #: CPU of the "could it have been won?" searches (between the commands, untimed)
        self.analysis_times: list[float] = []

    async def _analyses(self) -> None:
        """Let the end-of-game searches the last commands scheduled run now, untimed (see
        ``_SolverGate``), and count their CPU apart."""
        solutions = self.core.features.get("solutions")
        gate = _SolverGate.current
        if solutions is None or gate is None or not solutions.pending:
            return
        started = time.process_time()
        gate.open.set()
        try:
            await solutions.wait()
        finally:
            gate.open.clear()
        self.analysis_times.append(time.process_time() - started)

    async def _session(self) -> Any:
        sessions = self.core.sessions
        if self.game_id in TABLE_GAMES:
            return await sessions.table_of("bench", self.req.chat_id)
        return await sessions.solo_of("bench", self.req.chat_id, self.req.user_id)

    async def _new_game(self) -> None:
        self.deal += 1
        if self.game_id in TABLE_GAMES:
            for text in ("/challenge", "/addbot", "/start"):
                await self.core.handle_text(self.req, text)
        else:
            await self.core.handle_text(self.req, f"/play {self.game_id} {self.deal}")

    async def step(self) -> None:
        """One timed ``/move`` (a new game first, untimed, when there is none to play)."""
        await self._analyses()
        for _ in range(3):
            session = await self._session()
            game = session.game if session is not None and session.is_active else None
            legal = game.legal_moves() if game is not None and not game.is_over else []
            if game is not None and game.current_player in (None, self.req.user_id) and legal:
                break
            await self._new_game()
        else:  # pragma: no cover - every game offers a move at its start
            raise RuntimeError(f"no move to play in {self.game_id}")
        # the first-listed move half the time: games progress instead of cycling
        move = legal[0] if self.rng.random() < 0.5 else self.rng.choice(legal)
        started = time.process_time()
        await self.core.handle_text(self.req, f"/move {move}")
        self.times.append(time.process_time() - started)


async def cpu_per_command(commands: int = CPU_COMMANDS, rounds: int = CPU_ROUNDS) -> dict[str, Any]:
    """Process CPU per ``/move`` through the core, for each game, with the real board image and
    with a stand-in that draws nothing. The two cores play the same seeded games side by side,
    one command each in turn, so a busy machine slows both alike; the difference is what the
    image costs. The figures are a running bot's: the renderer is warmed up first, as the bot
    does when it starts, and each game is played once untimed (on cores of their own) before
    the timed rounds, so what a long-running process has cached for every game (a card's
    sprite, the text "Moves 12") is cached here too; the boards themselves are new.

    ``rounds`` timed rounds of ``commands`` moves each, every round on other deals. A game's
    figure (``with_image_ms``, ``without_image_ms``) is the mean of its median round: on a
    shared machine a round that a neighbour's burst slowed by half is not what a command
    costs, and one round alone moved by up to 50 %; every round's mean is reported too
    (``*_rounds_ms``), with the median of all commands."""
    import renderer

    renderer.warm_up()  # the card sprites, as the bot builds them when it starts (bot.warmup)
    found: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder, _SolverGate():
        for game_id in CPU_GAMES:
            renders = _RenderClock()
            await _play_side_by_side(Path(folder) / "warm", game_id, commands, 101, renders)
            with_rounds: list[list[float]] = []
            without_rounds: list[list[float]] = []
            render_rounds: list[list[float]] = []
            analyses: list[float] = []
            # other deals in each round: the timed boards are new, none comes from a cache
            for number in range(rounds):
                renders = _RenderClock()
                players = await _play_side_by_side(
                    Path(folder) / f"timed{number}", game_id, commands, 11 + 10 * number, renders
                )
                with_rounds.append(players[0].times)
                without_rounds.append(players[1].times)
                render_rounds.append(renders.times)
                analyses += [t for p in players for t in p.analysis_times]
            found[game_id] = {
                "with_image_ms": _median_round(with_rounds),
                "without_image_ms": _median_round(without_rounds),
                "with_image_rounds_ms": [_ms(statistics.fmean(r)) for r in with_rounds],
                "without_image_rounds_ms": [_ms(statistics.fmean(r)) for r in without_rounds],
                "with_image_median_ms": _ms(statistics.median(sum(with_rounds, []))),
                "without_image_median_ms": _ms(statistics.median(sum(without_rounds, []))),
                # the renderer's own CPU per image, in its thread: the rest of the difference
                # is the hand-off to the render threads and what the machine's load adds
                "render_cpu_ms": _median_round(render_rounds),
                "commands": commands * rounds,
                # the "could it have been won?" searches of the games that ended lost, both
                # cores, run between the commands (not in the figures above)
                "analyses": len(analyses),
                "analysis_cpu_ms_each": _ms(statistics.fmean(analyses or [0.0])),
            }
    games = [found[g] for g in CPU_GAMES]
    found["with_image_ms"] = max(g["with_image_ms"] for g in games)
    found["without_image_ms"] = max(g["without_image_ms"] for g in games)
    return found


def _median_round(rounds: list[list[float]]) -> float:
    """The mean of the median round (by mean), in ms."""
    return _ms(statistics.median_low(statistics.fmean(r) for r in rounds))


class _SolverGate:
    """While inside, the end-of-game searches ("could it have been won?", the solutions
    feature's one worker thread) wait for the bench to let them run, between two timed
    commands: a search costs ~0.1-3 s of CPU once per lost game, on its own thread, and a
    bench that loses a random game every ten moves would otherwise charge it to whichever
    commands it overlapped (one Imaginary Thirteen search added 2 ms to the mean of 60 moves).
    The search is no part of answering a command; its CPU is reported on its own."""

    current: _SolverGate | None = None

    def __init__(self) -> None:
        self.open = threading.Event()

    def __enter__(self) -> _SolverGate:
        from bot.features import solutions

        gate = self

        class Gated(concurrent.futures.ThreadPoolExecutor):
            def submit(  # type: ignore[override]
                self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
            ) -> concurrent.futures.Future[Any]:
                def when_let() -> Any:
                    gate.open.wait()
                    return fn(*args, **kwargs)

                return super().submit(when_let)

        self._real = solutions._executor
        solutions._executor = Gated(max_workers=1, thread_name_prefix="bench-solver")
        _SolverGate.current = self
        return self

    def __exit__(self, *exc: object) -> None:
        from bot.features import solutions

        self.open.set()  # a search still queued runs out on its own
        solutions._executor.shutdown(wait=False)
        solutions._executor = self._real
        _SolverGate.current = None


class _RenderClock:
    """``renderer.render``, timing each image in CPU of the thread that draws it."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def __call__(self, game_id: str, view: dict[str, Any], **style: Any) -> bytes:
        import renderer

        started = time.thread_time()
        try:
            return renderer.render(game_id, view, **style)
        finally:
            self.times.append(time.thread_time() - started)


async def _play_side_by_side(
    folder: Path, game_id: str, commands: int, seed: int, render: _RenderClock
) -> list[_Player]:
    """``commands`` timed moves of ``game_id`` on two new cores (real images through
    ``render``, none), in turn, from deal ``seed + 1`` on."""
    folder.mkdir(exist_ok=True)
    cores = [
        await open_core(
            f"sqlite:///{folder / f'{game_id}-{label}.db'}", renderer=draw, sweep_interval=None
        )
        for label, draw in (("image", render), ("none", cheap_render))
    ]
    try:
        players = [_Player(core, game_id, seed) for core in cores]
        for _ in range(commands):
            for player in players:
                await player.step()
    finally:
        for core in cores:
            await core.close()
    return players


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


async def flood(requests: int = 300) -> dict[str, Any]:
    """One user sends ``/help`` ``requests`` times as fast as the core answers, with the
    default limits and with none (the behaviour before issue 27); meanwhile another chat's
    ``/help`` is timed. Then the Telegram and Discord outboxes: 999 replies queued for one
    chat, how many each keeps and how soon another chat's one message goes out."""
    found: dict[str, Any] = {}
    for label, limits in (("limited", Limits()), ("unlimited", None)):
        with tempfile.TemporaryDirectory() as folder:
            core = await open_core(
                f"sqlite:///{Path(folder) / 'flood.db'}",
                renderer=cheap_render,
                sweep_interval=None,
                limits=limits,
            )
            try:
                flooder = Request("bench", "flooded", "flooder", "Flooder")
                other = Request("bench", "quiet", "neighbour", "Neighbour")
                answers = notices = 0
                waits = []
                for n in range(requests):
                    replies = await core.handle_text(flooder, "/help")
                    answers += bool(replies and replies[0].key == "help.text")
                    notices += bool(replies and replies[0].key == "error.slow_down")
                    if n % 30 == 0:
                        started = time.perf_counter()
                        await core.handle_text(other, "/help")
                        waits.append(time.perf_counter() - started)
                found[label] = {
                    "flooder_requests": requests,
                    "flooder_answers": answers,
                    "slow_down_notices": notices,
                    "other_chat_help_ms_max": round(max(waits) * 1000, 2),
                }
            finally:
                await core.close()
    found["telegram_outbox"] = await _outbox_flood("telegram")
    found["discord_outbox"] = await _outbox_flood("discord")
    return found


async def _outbox_flood(platform: str) -> dict[str, Any]:
    """999 replies queued for one chat of ``platform``'s outbox (with its own limits): how many
    it keeps, how soon a quiet chat's one message goes out; on Telegram, how long the flooded
    chat takes to drain at 20 messages a minute in a group (Discord paces a channel by its
    per-route buckets, which discord.py keeps, so no such figure is given for it)."""
    from bot.platforms.discord.outbox import discord_outbox
    from bot.platforms.telegram.outbox import flood_limits, telegram_outbox

    outbox_of = telegram_outbox if platform == "telegram" else discord_outbox
    loop = asyncio.get_running_loop()
    sent: list[tuple[float, int]] = []
    started = loop.time()

    async def deliver(chat_id: int, item: Any) -> None:
        await asyncio.sleep(0)
        sent.append((loop.time() - started, chat_id))

    outbox = outbox_of(deliver)
    for n in range(999):
        outbox.put(-100, f"reply {n}")
    kept = outbox.pending(-100)
    outbox.put(-200, "a quiet chat's reply")
    while not any(chat == -200 for _, chat in sent):
        await asyncio.sleep(0.01)
    other_after = next(t for t, chat in sent if chat == -200)
    await outbox.close(timeout=0)
    found = {
        "queued_for_one_chat": 999,
        "kept": kept,
        "other_chat_first_send_ms": round(other_after * 1000, 1),
    }
    if platform == "telegram":
        group_per_minute = flood_limits().per_minute
        found["drain_minutes_for_the_flooded_chat"] = round(kept / group_per_minute, 1)
        found["drain_minutes_before_the_bound"] = round(999 / group_per_minute, 1)
    return found


def run() -> dict[str, Any]:
    return {
        "memory": asyncio.run(memory()),
        "memory_with_solver": {
            "every_game_a_new_player": asyncio.run(memory_with_solver()),
            f"{FEW_PLAYERS}_players": asyncio.run(
                memory_with_solver(FEW_PLAYERS_GAMES, players=FEW_PLAYERS)
            ),
        },
        "cpu_per_command": asyncio.run(cpu_per_command()),
        "flood": asyncio.run(flood()),
    }


if __name__ == "__main__":
    import json
    import sys

    what = sys.argv[1] if len(sys.argv) > 1 else "memory"
    if what == "memory":
        numbers = [word for word in sys.argv[2:] if word.isdigit()]
        count = int(numbers[0]) if numbers else GAMES
        threads = "--threads" in sys.argv  # as the bot runs: the same figures, slower
        result = asyncio.run(memory(count, min(WARM_GAMES, count // 4), in_place=not threads))
    elif what == "solver":
        numbers = [int(word) for word in sys.argv[2:] if word.isdigit()]
        result = asyncio.run(memory_with_solver(*numbers[:2]))
    elif what == "cpu":
        result = asyncio.run(cpu_per_command())
    else:
        result = asyncio.run(flood())
    print(json.dumps(result, indent=2))
