# The C extension built from _cardsets.c (see engine/solvers/klondike.py, which calls it the
# same way as its Python pass): what mypy needs to check that call.
from collections.abc import Sequence
from typing import Any

def search(
    king: int,
    base: Sequence[Sequence[int]],
    visible: int,
    heads: int,
    fnd: Sequence[int],
    talon: Sequence[int],
    p: int,
    limit: int | None,
    deadline: float | None,
    nodes: int,
    /,
) -> tuple[int, list[tuple[Any, ...]], int]: ...
