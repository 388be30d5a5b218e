# The C extension built from _canfield.c (see engine/solvers/canfield.py, which calls it the
# same way as its Python search): what mypy needs to check that call.
from collections.abc import Sequence

def search(
    piles: Sequence[bytes],
    reserve: bytes,
    talon: bytes,
    waste: int,
    fnd: Sequence[int],
    limit: int | None,
    deadline: float | None,
    nodes: int,
    relaxed_limit: int,
    /,
) -> tuple[int, list[tuple[int, ...]], int]: ...
