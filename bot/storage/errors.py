"""The errors storage raises: never a raw sqlite3 / aiosqlite / asyncpg exception."""

from __future__ import annotations


class StorageError(RuntimeError):
    """The database cannot be used: missing directory, not a database, corrupt, too new.

    Raised at start-up with a message a person can act on; never swallowed."""


class StorageBusy(StorageError):
    """The database cannot take this request now: locked by another writer beyond a bounded
    wait, read-only, full, or the connection was lost.

    Nothing of the request was written (its transaction rolled back); the core answers the
    player "busy, try again" in the chat's language and the process lives on."""


class AlreadyExists(StorageError):
    """An insert lost to a row the database already holds under a unique rule (one active casual
    and one active ranked solo game per player, chat and game; one open table and one open race per chat; one move per number; one
    ranked daily attempt per player, game and day).

    Nothing of the request was written. The caller answers with the refusal a player gets when
    asking twice (the winner may be another process)."""


class StaleRevision(StorageError):
    """A session changed (another process stored a move first) since this copy was read: the
    caller reloads the session and tries again if the move is still legal. Nothing written."""
