"""The composition root: which features this bot has, and how they are wired to the core.

The core imports no feature: :func:`open_core` builds the core with :func:`wire_features`,
which builds each feature on the core's :class:`~bot.core.service.Service` and registers its
commands, button verbs and hooks. A new feature is one module in ``bot/features/`` and a few
lines here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from bot.core import Core
from bot.core.background import SWEEP_INTERVAL_SECONDS
from bot.core.context import Ctx
from bot.core.dispatch import set_default_wiring
from bot.core.limits import Limits
from bot.core.presentation import RenderFn
from bot.core.registry import Registry
from bot.core.service import Service
from bot.core.session import Session
from bot.features import daily, hints, info, leaderboards, replays, streaks, timers, web
from bot.features.lobby import Lobby
from bot.features.races import Races
from bot.features.solutions import Solutions
from bot.features.tables import Tables
from bot.features.web_reads import FeatureReads
from bot.replies import Reply
from bot.storage import DEFAULT_DATABASE_URL
from bot.storage.postgres import PoolSettings


def wire_features(registry: Registry, core: Service) -> dict[str, Any]:
    """Build every feature on ``core`` and fill ``registry``; returns the feature objects by
    name (tests reach a race's deal picker through them)."""
    tables = Tables(core)
    races = Races(core, tables)
    Lobby(core, tables, races).register(registry)
    info.register(registry, core)

    registry.command("hint", functools.partial(hints.command, core))
    registry.command("daily", functools.partial(daily.command, core))
    registry.command("leaderboard", functools.partial(leaderboards.command, core))
    registry.command("stats", functools.partial(streaks.command, core, tables))
    registry.command("web", functools.partial(web.command, core))
    registry.command(
        "forgetme", functools.partial(web.forgetme, core, forget_images=replays.forget_sessions)
    )
    solutions = Solutions(core, races)
    registry.command("replay", functools.partial(replays.command, core, races, solutions=solutions))

    # Tables: computer and departed seats play after each move, the turn clock restarts;
    # their boards show each seat's timeouts.
    registry.table_moved.append(tables.after_change)

    async def table_view(
        session: Session, view: Mapping[str, Any], style: dict[str, Any]
    ) -> Mapping[str, Any]:
        return await tables.view_extras(session, view) if session.is_table else view

    async def race_clock(
        session: Session, view: Mapping[str, Any], style: dict[str, Any]
    ) -> Mapping[str, Any]:
        if not session.is_table:
            clock = await races.clock(session)
            if clock is not None:
                style["clock"] = clock
                # every racer's board looks alike: it names whose it is
                style["player"] = session.name_of(session.record.players[0])
        return view

    registry.board_style += [table_view, race_clock]

    # A solo game's end: the race's standings (after a last move), the daily verdict.
    async def race_ended(ctx: Ctx, session: Session, how: str) -> list[Reply]:
        return await races.after_move(ctx, session) if how == "move" else []

    async def daily_ended(ctx: Ctx, session: Session, how: str) -> list[Reply]:
        return await daily.game_ended(core, ctx, session.id)

    # after the daily verdict: "could it have been won?", pushed when the solver is done
    registry.solo_ended += [race_ended, daily_ended, solutions.game_ended]
    # last: the ended game's race entry leaves memory once every hook has asked for it
    registry.solo_ended.append(races.forget_board)
    registry.closing.append(solutions.close)
    # A race board refuses undo (and shows no Undo button) and, ranked like the daily, hints.
    registry.undo_forbidden.append(races.forbids_undo)
    registry.hint_forbidden.append(races.forbids_undo)
    registry.play_guard.append(functools.partial(daily.play_refusal, core))
    # which game a player means: a race's boards and lobby are "race", a left seat is not theirs
    registry.game_kind += [races.game_kind, tables.game_kind]
    registry.leave_table = tables.leave
    registry.table_move = tables.move_plan
    # the web page reads leaderboards, streaks and ratings by the features' own rules
    registry.web_reads = FeatureReads(core.store)
    registry.tickers += [
        functools.partial(timers.table_timeouts, core, tables.time_out),
        races.tick,
    ]
    return {"tables": tables, "races": races, "solutions": solutions}


async def open_core(
    database_url: str = DEFAULT_DATABASE_URL,
    default_language: str = "en",
    clock: Callable[[], datetime] | None = None,
    *,
    renderer: RenderFn | None = None,
    sweep_interval: float | None = SWEEP_INTERVAL_SECONDS,
    limits: Limits | None = None,
    pool: PoolSettings | None = None,
) -> Core:
    """The bot: ``Core.create`` (see there) with every feature of :func:`wire_features`."""
    return await Core.create(
        database_url,
        default_language,
        clock,
        renderer=renderer,
        sweep_interval=sweep_interval,
        wiring=wire_features,
        limits=limits,
        pool=pool,
    )


# ``Core.create`` without ``wiring=`` builds the bot with these features.
set_default_wiring(wire_features)
