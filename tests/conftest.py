"""Shared test settings. Hypothesis: no per-example deadline (CI machines vary), modest sizes,
and the same examples on every run (``derandomize``, no example database): a property test
that passes once passes always, and takes the same time; a new example set comes with a change
to the test or to Hypothesis, not with the day. A PostgreSQL server is started once per test
process for the tests that ask for one (``pg_server``).

The tests run in a random order (pytest-randomly, which also seeds ``random`` alike before
each test): a test that needs another to run first, or trips on what one left behind, fails
on some run instead of hiding. The seed is printed at the end of each run; ``--randomly-seed=N`` replays that order,
``-p no:randomly`` turns it off (the files' order).

A deal the bot picks at random (a table's deal, ``/play`` without a number) comes from
``secrets.randbelow``, which no seed reaches: every test gets it from a generator seeded by the
test's own name instead (``same_deals_every_run``), so a test plays the same deals on every run
and in any order."""

import io
import itertools
import random
import zlib
from collections.abc import Iterator

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
settings.load_profile("tavolo")


@pytest.fixture(autouse=True)
def same_deals_every_run(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """``secrets.randbelow`` (the bot's random deal numbers) seeded by the test's id: a test
    whose outcome depends on the deal it was given passes or fails the same way every run,
    never one run in many. A test that wants one deal still patches it itself, later."""
    picks = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr("secrets.randbelow", picks.randrange)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[object]:
    """One real PostgreSQL for the whole run, stopped (and its folder deleted) at the end."""
    import shutil
    import tempfile
    from pathlib import Path

    from tests.pg import PgServer

    # a folder of its own (as root the server runs as another user, who must reach it)
    folder = Path(tempfile.mkdtemp(prefix="tavolo-pg-"))
    folder.chmod(0o755)
    server = PgServer(folder)
    yield server
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
