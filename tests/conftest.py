"""Shared test settings. Hypothesis: no per-example deadline (CI machines vary), modest sizes,
and the same examples on every run (``derandomize``, no example database): a property test
that passes once passes always, and takes the same time; a new example set comes with a change
to the test or to Hypothesis, not with the day. One PostgreSQL server serves the tests that ask
for one (``pg_server``): under pytest-xdist the controller starts it while the workers start,
and every worker makes its own databases on it (``tests/pg.py``).

The tests run in a random order (pytest-randomly, which also seeds ``random`` alike before
each test): a test that needs another to run first, or trips on what one left behind, fails
on some run instead of hiding. The seed is printed at the end of each run; ``--randomly-seed=N`` replays that order,
``-p no:randomly`` turns it off (the files' order).

A deal the bot picks at random (a table's deal, ``/play`` without a number) comes from
``secrets.randbelow``, which no seed reaches: every test gets it from a generator seeded by the
test's own name instead (``same_deals_every_run``), so a test plays the same deals on every run
and in any order."""

import concurrent.futures
import contextlib
import io
import itertools
import random
import shutil
import sys
import tempfile
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "tavolo",
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,
)
#: ten times the examples, for make bench (bench/bench_properties.py): the property tests whose
#: examples are whole games take a share of the profile's count (``settings.default``)
settings.register_profile(
    "tavolo-thorough", parent=settings.get_profile("tavolo"), max_examples=400
)
settings.load_profile("tavolo")


@pytest.fixture(autouse=True)
def same_deals_every_run(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """``secrets.randbelow`` (the bot's random deal numbers) seeded by the test's id: a test
    whose outcome depends on the deal it was given passes or fails the same way every run,
    never one run in many. A test that wants one deal still patches it itself, later."""
    picks = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr("secrets.randbelow", picks.randrange)


#: the workers' key for the shared PostgreSQL's folder (``pytest_configure_node``)
PG_FOLDER = "tavolo_pg_folder"
_shared_pg = pytest.StashKey[tuple[Path, "concurrent.futures.Future[object]"]]()
_hypothesis_primer = pytest.StashKey[threading.Thread]()


def _new_pg_folder() -> Path:
    # a folder of its own (as root the server runs as another user, who must reach it)
    folder = Path(tempfile.mkdtemp(prefix="tavolo-pg-"))
    folder.chmod(0o755)
    return folder


def _is_xdist_controller(config: pytest.Config) -> bool:
    """This process hands tests to pytest-xdist workers (``-n N``, N > 0)."""
    return (
        config.pluginmanager.hasplugin("xdist")
        and not hasattr(config, "workerinput")
        and config.getoption("dist", "no") != "no"
        and bool(config.getoption("tx", None))
    )


def _prime_hypothesis_caches() -> None:
    """What every process's first property tests would otherwise compute from scratch on a fresh
    clone, computed once into ``.hypothesis/`` (the workers read it): the characters the default
    text strategy may draw (2.8 s of CPU: every code point encoded once), the Unicode
    categories, and the constants Hypothesis collects from the source of engine/, renderer/
    and bot/ (1.3 s). A cache only: if Hypothesis moves these, the workers compute them."""
    try:
        import types

        from hypothesis.internal import charmap
        from hypothesis.internal.constants_ast import constants_from_module

        # the constants first: each worker reads them at the end of its collection
        root = Path(__file__).resolve().parents[1]
        for package in ("engine", "renderer", "bot"):
            for path in sorted((root / package).rglob("*.py")):
                module = types.ModuleType(".".join(path.relative_to(root).with_suffix("").parts))
                module.__file__ = str(path)
                constants_from_module(module)
        charmap.charmap()
        charmap.intervals_from_codec("utf-8")
    except Exception:  # noqa: BLE001 - a cache that is not filled costs time, nothing else
        pass


def _rewrite_test_modules_once(config: pytest.Config) -> None:
    """The test modules with their asserts rewritten, cached once (``__pycache__/*-pytest-*``)
    before the workers start, and Tavolo's modules compiled: on a fresh clone every worker would
    otherwise do both at the same time, 5 s of CPU each (2,700 asserts), to write the same
    files. pytest's own rewriting functions, as its import hook calls them; if they move, the
    workers rewrite."""
    if sys.dont_write_bytecode:
        return  # told to write no bytecode (PYTHONDONTWRITEBYTECODE): the workers rewrite
    with contextlib.suppress(Exception):
        import compileall

        from _pytest.assertion import rewrite

        for package in ("engine", "renderer", "bot"):
            compileall.compile_dir(Path(__file__).parents[1] / package, quiet=1)
        state = config.stash[rewrite.assertstate_key]
        for path in sorted(Path(__file__).parent.rglob("test_*.py")):
            pyc = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(path, pyc, state.trace) is not None:
                continue  # already rewritten (and unchanged since)
            if rewrite.try_makedirs(pyc.parent):
                source_hash, code = rewrite._rewrite_test(path, config)
                rewrite._write_pyc(state, code, source_hash, pyc)


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist, the controller starts the one PostgreSQL server on a thread of its
    own while the workers start and collect; before the workers start, it rewrites the test
    modules' asserts once for all of them."""
    if not _is_xdist_controller(config):
        return
    from tests.pg import start_in_background

    folder = _new_pg_folder()
    config.stash[_shared_pg] = (folder, start_in_background(folder))
    _rewrite_test_modules_once(config)


@pytest.hookimpl(wrapper=True)
def pytest_sessionstart(session: pytest.Session) -> Iterator[None]:
    """The controller fills Hypothesis's caches on a thread while the workers (started by
    xdist's ``pytest_sessionstart``) collect: only once every plugin is set up, as Hypothesis
    asks (it warns of storage read during plugin set-up)."""
    yield
    if _is_xdist_controller(session.config):
        primer = threading.Thread(target=_prime_hypothesis_caches, name="tavolo-hypothesis")
        primer.start()
        session.config.stash[_hypothesis_primer] = primer


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: object) -> None:
    """Each xdist worker is told where the shared PostgreSQL is (its ``workerinput``)."""
    shared = node.config.stash.get(_shared_pg, None)  # type: ignore[attr-defined]
    if shared is not None:
        node.workerinput[PG_FOLDER] = str(shared[0])  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    """The controller, once every worker is done: the shared server stopped, its folder gone."""
    primer = config.stash.get(_hypothesis_primer, None)
    if primer is not None:
        primer.join()
    shared = config.stash.get(_shared_pg, None)
    if shared is None:
        return
    folder, started = shared
    with contextlib.suppress(Exception):  # a server that never started has nothing to stop
        started.result(timeout=300).stop()  # type: ignore[attr-defined]
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server(request: pytest.FixtureRequest) -> Iterator[object]:
    """A real PostgreSQL for the whole run: this process's databases on it. An xdist worker
    uses the server the controller started (its databases named after the worker); a run
    without xdist starts its own, stopped (and its folder deleted) at the end."""
    from tests.pg import PgServer, attach

    workerinput = getattr(request.config, "workerinput", {})
    if PG_FOLDER in workerinput:
        yield attach(Path(workerinput[PG_FOLDER]), prefix=f"{workerinput['workerid']}_t")
        return
    folder = _new_pg_folder()
    server = PgServer(folder)
    yield server.databases()
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, the longest tests (marked ``slow``) start first, spread over the
    workers: one started last would run alone at the end while the other CPUs are idle.

    Runs after pytest-randomly's shuffle (a wrapper that reorders before the other hooks), so
    the order is still the seed's; every worker computes the same order, as xdist requires.
    ``--dist worksteal`` first hands each worker one contiguous share of this list (the same
    sizes are computed here) and runs it from its start; idle workers steal from the ends."""
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    slow = [item for item in items if item.get_closest_marker("slow")]
    if workers < 2 or not slow:
        return
    rest = iter([item for item in items if not item.get_closest_marker("slow")])
    ordered: list[pytest.Item] = []
    left = len(items)
    for worker in range(workers):
        share = left // (workers - worker)
        left -= share
        firsts = slow[worker::workers]
        ordered += firsts
        ordered += itertools.islice(rest, max(share - len(firsts), 0))
    ordered += rest
    assert len(ordered) == len(items)
    items[:] = ordered


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """The random order's seed, after the results (``-q`` hides pytest-randomly's header)."""
    seed = getattr(config.option, "randomly_seed", None)
    if config.pluginmanager.has_plugin("randomly") and isinstance(seed, int):
        terminalreporter.write_line(
            f"random order: --randomly-seed={seed} repeats it (-p no:randomly: file order)"
        )


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """What the bot's logging writes (``bot.logs.configure(..., stream=captured)``), with the
    logging set-up it changes (root handlers and level, the chatty libraries' levels, the
    secrets it was told) put back afterwards, so no later test depends on this one's."""
    import logging

    from bot import logs
    from bot.redact import forget_all

    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    chatty = {name: logging.getLogger(name).level for name in logs.PAYLOAD_LOGGERS}
    yield stream
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])
    for name, level in chatty.items():
        logging.getLogger(name).setLevel(level)
    forget_all()
