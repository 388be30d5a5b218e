"""Tavolo bot: asyncio core, storage, languages and platform adapters."""
