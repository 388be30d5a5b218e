"""The numbered schema migrations, one module each, shared by SQLite and PostgreSQL.

A database records the numbers it has applied in ``schema_version``; start-up applies the
missing ones in order, each in its own transaction. To change the schema add the next module
(``mNNN_what.py`` with ``VERSION`` and ``script(dialect)``) and list it here.
"""

from __future__ import annotations

from types import ModuleType

from bot.storage.migrations import (
    m001_base,
    m002_playing_together,
    m003_daily,
    m004_expired_at,
    m005_invariants,
    m006_solo_games,
    m007_claims,
    m008_race_moves,
    m009_focus,
    m010_web,
    m011_rate_limits,
    m012_played_out,
    m013_forgetting,
    m014_chat_players,
    m015_player_games,
    m016_races_beside_tables,
)

_MODULES: list[ModuleType] = [
    m001_base,
    m002_playing_together,
    m003_daily,
    m004_expired_at,
    m005_invariants,
    m006_solo_games,
    m007_claims,
    m008_race_moves,
    m009_focus,
    m010_web,
    m011_rate_limits,
    m012_played_out,
    m013_forgetting,
    m014_chat_players,
    m015_player_games,
    m016_races_beside_tables,
]


# Branches that each add a migration meet at merge time: a number listed twice, out of order
# or skipped would leave some databases without a change, so a gap stops the import.
if [module.VERSION for module in _MODULES] != list(range(1, len(_MODULES) + 1)):
    raise RuntimeError(
        f"migrations must be numbered 1..{len(_MODULES)} in order: {[m.__name__ for m in _MODULES]}"
    )


def migration_name(version: int) -> str:
    """The module name of migration ``version`` (``m010_web``), for the log.

    >>> migration_name(1)
    'm001_base'
    """
    return _MODULES[version - 1].__name__.rsplit(".", 1)[-1]


def migrations(dialect: str) -> list[tuple[int, str]]:
    """(version, SQL script) of every migration, in order, for ``dialect``."""
    return [(module.VERSION, module.script(dialect)) for module in _MODULES]


#: SQLite's scripts (the historical name; ``MIGRATIONS[-1][0]`` is the latest version)
MIGRATIONS: list[tuple[int, str]] = migrations("sqlite")
LATEST = MIGRATIONS[-1][0]
