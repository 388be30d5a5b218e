"""The optional C parts of the solvers: the Klondike search (engine/solvers/_cardsets.c) and
the Canfield search (engine/solvers/_canfield.c) and the FreeCell search
(engine/solvers/_freecell.c).

Everything else is in pyproject.toml. ``optional=True``: without a C compiler the install
still succeeds and the solvers run their pure-Python code, which gives the same answers.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.solvers._cardsets",
            sources=["engine/solvers/_cardsets.c"],
            depends=["engine/solvers/_search.h"],
            optional=True,
        ),
        Extension(
            "engine.solvers._canfield",
            sources=["engine/solvers/_canfield.c"],
            depends=["engine/solvers/_search.h"],
            optional=True,
        ),
        Extension(
            "engine.solvers._freecell",
            sources=["engine/solvers/_freecell.c"],
            depends=["engine/solvers/_search.h"],
            optional=True,
        ),
    ]
)
