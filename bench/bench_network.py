"""A move with the database across a network: round trips per move and the move's latency on
PostgreSQL with 20 ms added between the bot and the server (10 ms each way, ``DelayProxy``).
Goals (issue 39): a solo ``/move`` at most 4 round trips, a table move with the computer's
answer at most 6, a move at most 100 ms. ``through_pgbouncer``: the same behind PgBouncer in
transaction mode (``DATABASE_POOLER=transaction``: no named prepared statements, so each
statement is parsed and run in two exchanges; Debian's ``pgbouncer`` package), the proxy
between the bot and PgBouncer."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.pg_server import PgBench
from bench.tcp_proxy import DelayProxy, proxied_postgres
from bot.app import open_core
from bot.core.limits import Limits
from bot.replies import Request
from bot.storage import PoolSettings
from bot.storage.postgres import TRANSACTION_POOLER

#: added each way: a round trip costs 20 ms more
ONE_WAY_SECONDS = 0.010
MOVES = 15


async def _as_an_adapter(core: Any, replies: list[Any]) -> None:
    """What an adapter does with the replies: a new board's message id is told to the core,
    so the next move edits that message (and posts nothing new)."""
    for reply in replies:
        if reply.board is not None and reply.board.message_id is None:
            await core.board_posted(reply.board.session_id, f"m-{reply.board.session_id}")


async def _measure(url: str, bouncer_port: int | None = None) -> dict[str, Any]:
    """``bouncer_port``: a PgBouncer in transaction mode in front of the server at ``url``,
    which the proxy forwards to (None: the proxy forwards to the server itself)."""
    _, socket_path = proxied_postgres(url, 0)
    if bouncer_port is None:
        upstream = DelayProxy("", 0, ONE_WAY_SECONDS, unix_path=socket_path)
        pool = None
    else:
        upstream = DelayProxy("127.0.0.1", bouncer_port, ONE_WAY_SECONDS)
        pool = PoolSettings(pooler=TRANSACTION_POOLER)
    async with upstream as proxy:
        tcp_url, _ = proxied_postgres(url, proxy.port)
        # the production limits' shape, with room for the bench's pace
        core = await open_core(
            tcp_url, "en", limits=Limits(1000, 6000, 1000, 6000), sweep_interval=None, pool=pool
        )
        try:
            solo: list[tuple[int, float]] = []
            ana = Request("bench", "c", "ana", "Ana")
            await _as_an_adapter(core, await core.handle_text(ana, "/play canfield 3"))
            for _ in range(MOVES):
                proxy.reset()
                started = time.perf_counter()
                replies = await core.handle_text(ana, "/move d")
                solo.append((proxy.reset(), time.perf_counter() - started))
                await _as_an_adapter(core, replies)
            table: list[tuple[int, float]] = []
            group = Request("bench", "g", "ana", "Ana")
            for text in ("/challenge", "/addbot", "/start"):
                await _as_an_adapter(core, await core.handle_text(group, text))
            session = await core.sessions.table_of("bench", "g")
            assert session is not None and session.game is not None
            for _ in range(MOVES):
                if session.game.is_over:
                    break
                move = str(session.game.legal_moves("ana")[0])
                proxy.reset()
                started = time.perf_counter()
                replies = await core.handle_text(group, f"/move {move}")
                table.append((proxy.reset(), time.perf_counter() - started))
                await _as_an_adapter(core, replies)
        finally:
            await core.close()

    def summary(rows: list[tuple[int, float]]) -> dict[str, Any]:
        later = rows[1:]  # the first move prepares its statements on the connection
        return {
            "moves": len(later),
            "round_trips_max": max(t for t, _ in later),
            "round_trips_median": statistics.median(t for t, _ in later),
            "latency_ms_median": round(statistics.median(s for _, s in later) * 1000, 1),
            "latency_ms_max": round(max(s for _, s in later) * 1000, 1),
        }

    return {"solo_move": summary(solo), "table_move": summary(table)}


def run() -> dict[str, Any]:
    from tests.pg import PgBouncer

    with PgBench() as pg, tempfile.TemporaryDirectory() as folder:
        url = pg.fresh_database()
        result = asyncio.run(_measure(url))
        bouncer = PgBouncer(url, Path(folder))
        try:
            result["through_pgbouncer"] = asyncio.run(_measure(url, bouncer.port))
        finally:
            bouncer.stop()
    result["added_round_trip_ms"] = ONE_WAY_SECONDS * 2000
    return result
