"""``python -m tests.adding_a_game.console <locales> [pytest args]``: Tavolo's console with
Golf added (or pytest, for the checks every game passes).

It runs exactly the registration lines ``docs/adding-a-game.md`` tells a new game to add, one
per layer, before the bot starts, and reads the catalogues from ``<locales>`` (a copy of
``bot/i18n/locales`` with Golf's ``<lang>/golf.po`` beside the shipped files): what the bot
would be with Golf's files in the repository.
"""

from __future__ import annotations

import sys
from pathlib import Path


def register(locales: Path) -> None:
    """Golf in every layer, before anything reads the games."""
    # engine/__init__.py: the game's class in GAMES
    import engine
    from tests.adding_a_game.golf import Golf

    engine.GAMES[Golf.game_id] = Golf
    # renderer/__init__.py: its drawing (the shared pile board, with its own PileBoard)
    import renderer
    from renderer.boards import PileBoard

    renderer.registry.register("golf", *renderer.PILE_BOARD, board=PileBoard(steady_fan=(0, 5)))
    # bot/: nothing to register; the texts are files of bot/i18n/locales/<lang>/
    from bot import i18n
    from bot.i18n import catalogue

    catalogue.LOCALES_DIR = locales  # a copy of the shipped folder with golf.po beside them
    i18n.reload()


def main(locales: Path, pytest_args: list[str]) -> int:
    """The console; with ``pytest_args``, pytest instead (the checks every game passes)."""
    register(locales)
    if pytest_args:
        import pytest

        return int(pytest.main(pytest_args))
    from bot.__main__ import main as run_bot

    return run_bot(["--console"])


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2:]))
