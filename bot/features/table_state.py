"""A table's play state that the engine does not keep (``TablePlay``, stored by
``storage.play``): the turn timer, the running turn's deadline, each player's timeouts in a
row, who left, and which seats the computer plays."""

from __future__ import annotations

from bot.storage import Storage, TablePlay


async def load_play(store: Storage, session_id: str) -> TablePlay:
    """The table's play state (defaults for a table that has none stored yet)."""
    return await store.play.table(session_id) or TablePlay(session_id)
