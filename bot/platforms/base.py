"""What every chat platform adapter is: one ``Adapter`` Protocol, so ``python -m bot`` runs any
of them the same way from one table (``bot/__main__.py``).

An adapter turns its platform's updates into ``Request``s for the core and the core's
``Reply``s into platform calls; it holds no game logic and never reads the core's button ids
(``Button.id`` is opaque: the facts an adapter needs are plain fields of ``Button``).

>>> from bot.platforms.console import ConsolePlatform
>>> isinstance(ConsolePlatform(), Adapter)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from bot.core import Core


@runtime_checkable
class Adapter(Protocol):
    """One chat platform. ``run`` serves ``core`` until the platform ends (the console: end of
    input) or ``stop`` is called, and then returns; ``stop`` may be called at any time, also
    before ``run`` or after it returned, and more than once."""

    name: str

    async def run(self, core: Core, settings: Any) -> None: ...

    async def stop(self) -> None: ...
