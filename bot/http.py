"""The bot's one small HTTP server: ``/livez``, ``/readyz``, ``/metrics`` and the web pages.

Started by ``python -m bot`` when ``HTTP_PORT`` is set, bound to ``HTTP_HOST`` (default
127.0.0.1: an operator exposes it on purpose, never by accident). It runs in the bot process,
on the bot's event loop, beside the platforms.

- ``GET /livez``: 200 ``ok`` whenever the process and its event loop answer. No dependency
  is asked: a database outage must not make a liveness probe restart every replica at once.
- ``GET /readyz`` (and its old name ``/healthz``): one line per dependency, each named:
  ``database`` (a real table read fresh, for SQLite the file still the one opened, and a write
  that changes nothing), then each chat platform this process runs (``telegram``,
  ``discord``). 200 when every one is ok, else 503.
- ``GET /metrics``: the Prometheus text of the core's own registry (``bot.metrics``), readiness
  included (``tavolo_ready``, ``tavolo_dependency_ready``).
- the web pages: when the package ``bot.web`` exists, ``bot.web.setup_web(app, core)`` adds
  its routes to the same application.

>>> import asyncio
>>> from aiohttp.test_utils import TestClient, TestServer
>>> from bot.core import Core
>>> async def demo():
...     from bot.app import open_core
...     core = await open_core("sqlite:///:memory:", sweep_interval=None)
...     async with TestClient(TestServer(build_app(core))) as client:
...         response = await client.get("/readyz")
...         status, text = response.status, await response.text()
...     await core.close()
...     return status, text
>>> asyncio.run(demo())
(200, 'database: ok\\n')
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import logging
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.health import Health, as_health
from bot.metrics import CONTENT_TYPE
from bot.startup import StartupError

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger("tavolo.http")

#: the application key under which the core is kept (pages reach it as ``app[CORE_KEY]``)
CORE_KEY: web.AppKey[Any] = web.AppKey("core", object)
#: how long /readyz waits for the database before calling it down
DATABASE_CHECK_SECONDS = 2.0
DEFAULT_HOST = "127.0.0.1"
#: the core's database check in flight (shared by concurrent probes, never cancelled: a write
#: probe cut off half-way would leave its transaction to the next write)
_CHECKS: web.AppKey[dict[str, asyncio.Task[str | None]]] = web.AppKey("checks", dict)


async def readiness(
    core: Core,
    checks: dict[str, asyncio.Task[str | None]] | None = None,
) -> list[tuple[str, Health]]:
    """Each dependency's name and health, the database first. The texts name the part and
    the kind of failure only (never a URL, which may hold a password, nor a path)."""
    checks = {} if checks is None else checks
    running = checks.get("database")
    if running is None or running.done():
        running = checks["database"] = asyncio.ensure_future(core.store.problem())
    try:
        problem = await asyncio.wait_for(asyncio.shield(running), DATABASE_CHECK_SECONDS)
    except TimeoutError:
        problem = f"no answer within {DATABASE_CHECK_SECONDS:g} s"
    except Exception as error:  # any failure means "down"; its class says which kind
        problem = type(error).__name__
    found = [("database", Health(problem is None, problem or ""))]
    for platform, status in sorted(core.platform_status.items()):
        try:
            health = as_health(status())
        except Exception as error:
            health = Health(False, f"status check failed ({type(error).__name__})")
        found.append((platform, health))
    return found


async def health_problems(core: Core) -> list[str]:
    """Why the bot is not ready: one line per dependency that is down, none when ready."""
    return [health.line(name) for name, health in await readiness(core) if not health.ok]


async def livez(request: web.Request) -> web.Response:
    # answering at all is the proof: this runs on the bot's own event loop
    return web.Response(text="ok\n")


async def readyz(request: web.Request) -> web.Response:
    found = await readiness(request.app[CORE_KEY], request.app[_CHECKS])
    body = "".join(health.line(name) + "\n" for name, health in found)
    return web.Response(status=200 if all(h.ok for _, h in found) else 503, text=body)


async def metrics(request: web.Request) -> web.Response:
    core = request.app[CORE_KEY]
    # readiness as gauges too, so that alerts need no second probe (deploy/prometheus)
    found = await readiness(core, request.app[_CHECKS])
    core.metrics.set_readiness([(name, health.ok) for name, health in found])
    return web.Response(body=core.metrics.exposition(), headers={"Content-Type": CONTENT_TYPE})


def build_app(core: Core) -> web.Application:
    """The application: health, metrics, and ``bot.web``'s pages when that package exists."""
    app = web.Application()
    app[CORE_KEY] = core
    app[_CHECKS] = {}
    app.router.add_get("/livez", livez)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/healthz", readyz)  # the old name: readiness
    app.router.add_get("/metrics", metrics)
    # The pages are a separate package: imported only when present, so the server works
    # without it (and a failure inside it is its own, raised at start-up, not hidden).
    if importlib.util.find_spec("bot.web") is not None:
        importlib.import_module("bot.web").setup_web(app, core)
    return app


class HttpServer:
    """The running server: ``await HttpServer.start(core, host, port)``, then ``stop()``."""

    def __init__(self, runner: web.AppRunner) -> None:
        self.runner = runner

    @classmethod
    async def start(cls, core: Core, host: str = DEFAULT_HOST, port: int = 0) -> HttpServer:
        runner = web.AppRunner(build_app(core), access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as error:  # the port is taken, the host is not this machine's...
            await runner.cleanup()
            raise StartupError(
                f"the HTTP server cannot listen on {host}:{port} ({error.strerror or error}): "
                "set HTTP_HOST / HTTP_PORT"
            ) from None
        server = cls(runner)
        log.info("HTTP server on %s:%s (/livez, /readyz, /metrics)", host, server.port)
        return server

    @property
    def port(self) -> int | None:
        """The port really listened on (useful with port 0)."""
        for site in self.runner.sites:
            server = getattr(site, "_server", None)
            if server is not None and server.sockets:
                return int(server.sockets[0].getsockname()[1])
        return None

    async def stop(self) -> None:
        await self.runner.cleanup()
