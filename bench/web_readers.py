"""Readers of the web page, in their own process (``bench_web`` starts it, so the server's
process does only the server's work): ``python -m bench.web_readers BASE PATH READERS
REQUESTS`` prints one JSON object: every request's seconds and how many failed."""

from __future__ import annotations

import asyncio
import json
import sys
import time

from aiohttp import ClientSession, TCPConnector


async def read(base: str, path: str, readers: int, requests: int) -> dict[str, object]:
    times: list[float] = []
    failures = 0

    async def reader(client: ClientSession) -> None:
        nonlocal failures
        for _ in range(requests):
            started = time.perf_counter()
            async with client.get(path) as response:
                await response.read()
                failures += response.status != 200
            times.append(time.perf_counter() - started)

    async with ClientSession(base, connector=TCPConnector(limit=readers)) as client:
        async with client.get(path) as response:  # one warm-up request (connection, page)
            await response.read()
        wall = time.perf_counter()
        await asyncio.gather(*(reader(client) for _ in range(readers)))
        wall = time.perf_counter() - wall
    return {"times": times, "failures": failures, "wall": wall}


if __name__ == "__main__":
    base, path, readers, requests = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps(asyncio.run(read(base, path, readers, requests))))
