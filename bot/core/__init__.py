"""The core: dispatch, registry, the public service for features, sessions, presentation.

``from bot.core import Core, Ctx`` is the way in; features use ``bot.core.service.Service``.
"""

from bot.core.background import SWEEP_INTERVAL_SECONDS
from bot.core.context import Ctx
from bot.core.dispatch import Core
from bot.core.service import IDLE_LIMIT

__all__ = ["IDLE_LIMIT", "SWEEP_INTERVAL_SECONDS", "Core", "Ctx"]
