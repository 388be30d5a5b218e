"""Shared test settings. Hypothesis: no per-example deadline (CI machines vary), modest sizes.
A PostgreSQL server is started once per run for the tests that ask for one (``pg_server``)."""

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "tavolo",
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("tavolo")


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """One real PostgreSQL for the whole run, stopped (and its folder deleted) at the end."""
    from tests.pg import PgServer

    server = PgServer(tmp_path_factory.mktemp("postgres"))
    yield server
    server.stop()
