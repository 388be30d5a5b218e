"""The optional C part of the Klondike solver (engine/solvers/_cardsets.c).

Everything else is in pyproject.toml. ``optional=True``: without a C compiler the install
still succeeds and the solver runs its pure-Python code, which gives the same answers.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.solvers._cardsets",
            sources=["engine/solvers/_cardsets.c"],
            depends=["engine/solvers/_search.h"],
            optional=True,
        )
    ]
)
