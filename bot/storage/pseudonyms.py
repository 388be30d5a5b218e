"""Keyed hashes that stand for a player where the bot must recognise them again without
keeping who they are (``storage.pseudonyms``).

The key is random, made once per database by whichever process asks first (the others read
the same row), and never leaves the database and the processes' memory: a hash cannot be
turned back into a platform id without it. ``/forgetme`` keeps one such hash per ranked daily
of the current days (so forgetting never opens a second ranked attempt) and the log names a
chat or a player by one (``bot.logs.pseudonym``).

>>> keyed_hash(b"k", "telegram", "42", "freecell", "2025-03-14") == keyed_hash(
...     b"k", "telegram", "42", "freecell", "2025-03-14")
True
>>> keyed_hash(b"k", "telegram", "42") != keyed_hash(b"other", "telegram", "42")
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from bot.storage.base import Store

#: bytes of a new key (256 bits)
KEY_BYTES = 32


def keyed_hash(key: bytes, *parts: str) -> str:
    """HMAC-SHA-256 of ``parts`` (separated so that ``("a", "bc")`` differs from ``("ab", "c")``),
    in hex."""
    message = "\x1f".join(parts).encode("utf-8")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


class PseudonymStore(Store):
    """The database's pseudonym key (see module doc)."""

    _key: bytes | None = None

    async def key(self) -> bytes:
        """The key, made and stored on first use; kept in memory afterwards (it never changes)."""
        if self._key is None:
            rows = await self._fetch("SELECT secret FROM pseudonym_key WHERE id = 1")
            if not rows:
                async with self._transaction() as tx:
                    await tx.execute(
                        "INSERT INTO pseudonym_key (id, secret) VALUES (1, ?) "
                        "ON CONFLICT (id) DO NOTHING",
                        (secrets.token_hex(KEY_BYTES),),
                    )
                rows = await self._fetch("SELECT secret FROM pseudonym_key WHERE id = 1")
            self._key = bytes.fromhex(str(rows[0][0]))
        return self._key

    async def of(self, *parts: str) -> str:
        """The keyed hash of ``parts`` (a player on a platform, and what it is about)."""
        return keyed_hash(await self.key(), *parts)
