"""A TCP proxy between the bot and its database: it adds a delay each way and counts round
trips, so that ``make bench`` (and a test) can say what a move costs on a network.

A round trip is counted each time the client starts sending after the server last spoke (or
for the first time): one request/answer exchange, however many packets it took. With one
request in flight at a time (as in the measurements) that is the number of times the bot
waited for the database.

>>> import asyncio
>>> async def demo():
...     async def echo(reader, writer):
...         while data := await reader.read(100):
...             writer.write(data)
...     server = await asyncio.start_server(echo, "127.0.0.1", 0)
...     port = server.sockets[0].getsockname()[1]
...     async with DelayProxy("127.0.0.1", port, delay=0.005) as proxy:
...         reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
...         for word in (b"a", b"b"):
...             writer.write(word)
...             await reader.read(1)
...         writer.close()
...     server.close()
...     return proxy.round_trips
>>> asyncio.run(demo())
2
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from types import TracebackType


class DelayProxy:
    """``async with DelayProxy(host, port, delay=0.01) as proxy``: listens on
    ``proxy.port`` and forwards to ``host:port``, each chunk ``delay`` seconds late in each
    direction (a round trip costs ``2 * delay`` more)."""

    def __init__(
        self, host: str, port: int, delay: float = 0.0, unix_path: str | None = None
    ) -> None:
        self.host, self.upstream_port, self.delay = host, port, delay
        #: a unix socket to forward to instead of ``host:port`` (a local PostgreSQL's)
        self.unix_path = unix_path
        self.round_trips = 0
        self.port = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> DelayProxy:
        self._server = await asyncio.start_server(self._connected, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 5)

    def reset(self) -> int:
        """The round trips counted so far; the count starts again at 0."""
        counted, self.round_trips = self.round_trips, 0
        return counted

    async def _connected(
        self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter
    ) -> None:
        try:
            opening = (
                asyncio.open_unix_connection(self.unix_path)
                if self.unix_path
                else asyncio.open_connection(self.host, self.upstream_port)
            )
            server_r, server_w = await asyncio.wait_for(opening, 10)
        except (OSError, TimeoutError):
            client_w.close()
            return
        last = {"side": "server"}  # who spoke last on this connection
        for reader, writer, side in (
            (client_r, server_w, "client"),
            (server_r, client_w, "server"),
        ):
            task = asyncio.create_task(self._pump(reader, writer, side, last))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        side: str,
        last: dict[str, str],
    ) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()

        sender = asyncio.create_task(deliver())
        try:
            while data := await reader.read(65536):
                if side == "client" and last["side"] != "client":
                    self.round_trips += 1
                last["side"] = side
                queue.put_nowait((time.monotonic() + self.delay, data))
            queue.put_nowait((0.0, b""))
            await sender
        except (OSError, asyncio.CancelledError):
            sender.cancel()
        finally:
            with contextlib.suppress(Exception):
                writer.close()


def proxied_postgres(url: str, proxy_port: int) -> tuple[str, str]:
    """``url`` (a PostgreSQL URL on a unix socket: ``postgresql://user:@/db?host=/folder``, as
    the embedded server gives) as a TCP URL through a proxy on ``proxy_port``, and the socket's
    path for the proxy to forward to.

    >>> proxied_postgres("postgresql://postgres:@/bench1?host=/tmp/x/pgdata", 6000)
    ('postgresql://postgres:@127.0.0.1:6000/bench1', '/tmp/x/pgdata/.s.PGSQL.5432')
    """
    from urllib.parse import parse_qs, urlsplit, urlunsplit

    parts = urlsplit(url)
    query = parse_qs(parts.query)
    folder = query.pop("host")[0]
    port = query.pop("port", ["5432"])[0]
    user = parts.netloc.rsplit("@", 1)[0]
    tcp = urlunsplit((parts.scheme, f"{user}@127.0.0.1:{proxy_port}", parts.path, "", ""))
    return tcp, f"{folder}/.s.PGSQL.{port}"
