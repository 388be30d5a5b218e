"""The rate limits' token buckets, shared by every process through one table.

A bucket holds up to ``burst`` tokens and gains ``per_second`` tokens a second; each request
takes one. The whole step (refill by the time passed, take a token or count a refusal) is one
``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` statement, atomic on both backends, so three
processes serving one flooder draw on the same bucket as one process would.

>>> import asyncio
>>> async def demo():
...     store = await Storage.open("sqlite:///:memory:")
...     taken = [await store.limits.take_token("user", "t:1", 2, 1.0, 100.0) for _ in range(4)]
...     later = await store.limits.take_token("user", "t:1", 2, 1.0, 101.0)  # a second later: 1 token
...     await store.close()
...     return taken, later
>>> from bot.storage import Storage
>>> asyncio.run(demo())
([0, 0, 1, 2], 0)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.backend import Queued
from bot.storage.base import Store
from bot.storage.migrations.dialect import POSTGRES


def _all_taken(done: Sequence[Queued]) -> bool:
    """Whether every bucket drawn on so far gave a token (its answer, ``refused``, is 0)."""
    return all(q.rows and int(q.rows[0][0]) == 0 for q in done)


def _number(value: float) -> str:
    """A float as an SQL literal (our own numbers only: never a player's text)."""
    return repr(float(value))


@functools.cache
def _chained_takes_sql(count: int) -> str:
    """PostgreSQL: ``take_tokens`` for ``count`` buckets as one statement of the same text
    every time (prepared once per connection, one round trip a request). Bucket ``i``'s
    scope, key, burst, rate, time, need, cost and floor are its eight parameters (``Bucket``);
    it is drawn on only if every bucket before it gave a token (a skipped bucket answers
    NULL)."""
    parts = []
    for i in range(count):

        def c(name: str, i: int = i) -> str:
            return f"(SELECT {name} FROM c{i})"

        grown = f"(rate_buckets.tokens + ({c('n')} - rate_buckets.updated_at) * {c('r')})"
        # never above the burst, never below what was stored (a process whose clock is behind)
        fill = (
            f"(CASE WHEN {grown} > {c('b')} THEN {c('b')} "
            f"WHEN {grown} < rate_buckets.tokens THEN rate_buckets.tokens ELSE {grown} END)"
        )
        drawn = f" WHERE (SELECT refused FROM t{i - 1}) = 0" if i else ""
        need, cost, floor = c("need"), c("cost"), c("fl")
        given = f"(CASE WHEN {fill} - {cost} < {floor} THEN {floor} ELSE {fill} - {cost} END)"
        parts.append(
            f"c{i} AS (SELECT ?::text AS scope, ?::text AS key, ?::float8 AS b, ?::float8 AS r, "
            f"?::float8 AS n, ?::float8 AS need, ?::float8 AS cost, ?::float8 AS fl), "
            f"t{i} AS (INSERT INTO rate_buckets (scope, key, tokens, updated_at, refused) "
            f"SELECT scope, key, CASE WHEN b - cost < fl THEN fl ELSE b - cost END, n, 0 "
            f"FROM c{i}{drawn} "
            "ON CONFLICT (scope, key) DO UPDATE SET "
            f"tokens = CASE WHEN {fill} >= {need} THEN {given} ELSE {fill} END, "
            f"refused = CASE WHEN {fill} >= {need} THEN 0 ELSE rate_buckets.refused + 1 END, "
            f"updated_at = CASE WHEN {c('n')} > rate_buckets.updated_at THEN {c('n')} "
            "ELSE rate_buckets.updated_at END RETURNING refused)"
        )
    answers = ", ".join(f"(SELECT refused FROM t{i})" for i in range(count))
    return "WITH " + ", ".join(parts) + f" SELECT {answers}"


@dataclass(frozen=True, slots=True)
class Bucket:
    """One token bucket: ``scope`` ("user", "chat", "move") and ``key`` name it; it holds up
    to ``burst`` tokens and gains ``per_second`` tokens a second.

    What one draw does: when the bucket holds at least ``need`` tokens it gives ``cost`` of
    them (never going below ``floor``), else it refuses. The default is the plain "take one
    token"; ``need=0, cost=0`` only asks whether the bucket is in debt; a large negative
    ``need`` with ``floor=-1`` charges after the fact what a request cost (the messages it
    posted), at most one token into debt."""

    scope: str
    key: str
    burst: float
    per_second: float
    need: float = 1.0
    cost: float = 1.0
    floor: float = 0.0


class LimitsStore(Store):
    """Token buckets (``storage.limits``)."""

    async def take_token(
        self, scope: str, key: str, burst: float, per_second: float, now: float, wait: bool = False
    ) -> int:
        """Take a token from the bucket ``(scope, key)``: 0 when one was taken, else how many
        requests in a row found it empty (1: the first, which gets the notice). ``wait=False``:
        ``StorageBusy`` at once rather than wait on another process's write lock."""
        return (await self.take_tokens([Bucket(scope, key, burst, per_second)], now, wait))[0]

    async def take_tokens(
        self, buckets: Sequence[Bucket], now: float, wait: bool = False
    ) -> list[int]:
        """``take_token`` from each of ``buckets`` in turn, stopping at the first that refuses: what each answered, in one transaction (one
        hand-off to SQLite's thread: every request of a rate-limited bot takes its tokens)."""
        if self.dialect == POSTGRES:
            params = [
                v
                for b in buckets
                for v in (b.scope, b.key, b.burst, b.per_second, now, b.need, b.cost, b.floor)
            ]
            rows = await self._fetch(_chained_takes_sql(len(buckets)), tuple(params))
            return [int(value) for value in rows[0] if value is not None]
        async with self._transaction(wait) as tx:
            taken: list[Queued] = []
            for bucket in buckets:
                # a bucket after one that refused is not drawn on (nor is its refusal counted)
                sql = self._take_sql(bucket, now)
                taken.append(
                    tx.add(
                        sql,
                        (bucket.scope, bucket.key),
                        returning=True,
                        only_if=functools.partial(_all_taken, list(taken)),
                    )
                )
        return [int(t.rows[0][0]) for t in taken if t.rows]

    @staticmethod
    def _take_sql(bucket: Bucket, now: float) -> str:
        b, r, n = _number(bucket.burst), _number(bucket.per_second), _number(now)
        need, cost, floor = _number(bucket.need), _number(bucket.cost), _number(bucket.floor)
        grown = f"(rate_buckets.tokens + ({n} - rate_buckets.updated_at) * {r})"
        # never above the burst, never below what was stored (a process whose clock is behind)
        fill = (
            f"(CASE WHEN {grown} > {b} THEN {b} "
            f"WHEN {grown} < rate_buckets.tokens THEN rate_buckets.tokens ELSE {grown} END)"
        )
        given = f"(CASE WHEN {fill} - {cost} < {floor} THEN {floor} ELSE {fill} - {cost} END)"
        first = max(bucket.burst - bucket.cost, bucket.floor)
        sql = (
            "INSERT INTO rate_buckets (scope, key, tokens, updated_at, refused) "
            f"VALUES (?, ?, {_number(first)}, {n}, 0) "
            "ON CONFLICT (scope, key) DO UPDATE SET "
            f"tokens = CASE WHEN {fill} >= {need} THEN {given} ELSE {fill} END, "
            f"refused = CASE WHEN {fill} >= {need} THEN 0 ELSE rate_buckets.refused + 1 END, "
            f"updated_at = CASE WHEN {n} > rate_buckets.updated_at THEN {n} "
            "ELSE rate_buckets.updated_at END "
            "RETURNING refused"
        )
        return sql

    async def prune(self, idle_before: float) -> int:
        """Forget buckets untouched since ``idle_before`` (full again by then: a missing row
        is a full bucket); how many."""
        async with self._transaction(False) as tx:
            return await tx.execute("DELETE FROM rate_buckets WHERE updated_at < ?", (idle_before,))
