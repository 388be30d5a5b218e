"""Tavolo bot: asyncio core, storage, languages and platform adapters."""

# The composition root, loaded with the package: it hands the core its features
# (``bot.core.dispatch.set_default_wiring``), so ``Core.create(url)`` is the whole bot
# whichever of the bot's modules was imported first.
from bot import app as _app  # noqa: E402,F401  (imported for that effect)
