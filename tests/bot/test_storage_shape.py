"""The shape of storage's interface (issue 28): the bot's one ``Storage`` is its named stores,
and every store method hands out named records, never positional rows."""

from __future__ import annotations

import inspect
import typing

import pytest

from bot.storage import Storage
from bot.storage.base import Store

STORES = (
    "sessions",
    "players",
    "daily",
    "play",
    "ratings",
    "results",
    "claims",
    "updates",
    "focus",
    "web",
    "limits",
)


@pytest.fixture
async def store() -> typing.AsyncIterator[Storage]:
    opened = await Storage.open("sqlite:///:memory:")
    yield opened
    await opened.close()


def public_methods(obj: object) -> dict[str, object]:
    return {
        name: member
        for name, member in inspect.getmembers(type(obj), inspect.isfunction)
        if not name.startswith("_")
    }


async def test_the_storage_itself_only_opens_closes_and_runs_raw_statements(store: Storage):
    # and says whether the database itself can be used (readiness): no records involved
    assert set(public_methods(store)) == {"close", "fetch", "problem", "schema_version", "write"}
    for name in STORES:
        assert isinstance(getattr(store, name), Store), name


async def test_no_store_method_is_reachable_by_two_names(store: Storage):
    owners: dict[object, str] = {}
    for name in STORES:
        for method_name, function in public_methods(getattr(store, name)).items():
            where = f"{name}.{method_name}"
            assert function not in owners, f"{where} is also {owners[function]}"
            owners[function] = where


async def test_every_store_method_returns_named_records_not_tuples(store: Storage):
    for name in STORES:
        for method_name, function in public_methods(getattr(store, name)).items():
            hints = typing.get_type_hints(function)
            for what, hint in hints.items():
                text = str(hint)
                assert "tuple" not in text.lower(), f"{name}.{method_name} {what}: {text}"
