# The C extension built from _freecell.c (see engine/solvers/freecell.py, which calls it in
# place of its Python search): what mypy needs to check that call.
from collections.abc import Sequence

def search(
    columns: Sequence[bytes],
    cells: bytes,
    homes: Sequence[int],
    limit: int | None,
    deadline: float | None,
    nodes: int,
    weights: tuple[int, int, int, int],
    avoid: Sequence[tuple[Sequence[bytes], bytes, Sequence[int]]] = ...,
    /,
) -> tuple[int, list[tuple[int, int, int, int]], int]: ...
def table_bytes(reset: bool = ..., /) -> tuple[int, int]: ...
