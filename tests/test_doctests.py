"""The examples in the docstrings of engine/, renderer/ and bot/ run as tests: an example that
no longer matches the code fails here, so the documentation cannot drift from what it shows.

One test per docstring that has examples, named after it (``engine.piles.move_table``). The
examples run with ``ELLIPSIS`` (``...`` matches anything) and each module's globals, as
``python -m doctest`` would run them.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from collections.abc import Iterator

import pytest

PACKAGES = ("engine", "renderer", "bot")
#: modules that are programs, not libraries: importing them would run them
PROGRAMS = {"bot.__main__"}


def module_names() -> Iterator[str]:
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        yield package_name
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}."):
            if info.name not in PROGRAMS:
                yield info.name


def docstring_tests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(exclude_empty=True)
    found: list[doctest.DocTest] = []
    for name in module_names():
        module = importlib.import_module(name)
        # only the module's own objects: re-exported names are tested where they are defined
        found.extend(test for test in finder.find(module) if test.examples)
    return sorted(found, key=lambda test: test.name)


DOCTESTS = docstring_tests()


def test_the_docstrings_hold_examples_of_every_layer():
    """Guards the collection itself: an import or a walk that finds nothing would make every
    doctest below vanish silently."""
    examples = sum(len(test.examples) for test in DOCTESTS)
    layers = {test.name.split(".")[0] for test in DOCTESTS}
    assert examples >= 250, examples
    assert layers == set(PACKAGES)


@pytest.mark.parametrize("test", DOCTESTS, ids=[test.name for test in DOCTESTS])
def test_docstring_examples(test: doctest.DocTest) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    # the test's globals are a copy made by the finder: running it changes nothing elsewhere
    result = runner.run(test, out=report.append, clear_globs=False)
    assert result.failed == 0, "".join(report)
