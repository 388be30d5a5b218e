"""Squadratik: the 47-card deck and its two games (games.md §4-6).

- ``deck``: the cards (ids, sides, rotation, linking, points);
- ``board``: grid, paths, placement checks, completion, removal;
- ``el_solitario``: El Solitario, game id ``"squadratik"`` (one player);
- ``maestras``: Cartas Maestras, game id ``"maestras"`` (2-8 players);
- ``notation``: the move notation both games share.

Move notation (case-insensitive input; ``str(move)`` is canonical and parses back):

========  ===============================================================================
``2N``    hand card 2 (as the view lists the hand, from 1) at the end of path N, or on the
          central card's free N side (opening path N)
``1Se``   hand card 1 on path S, turning east right after an empty card (``1S>e`` also read)
``3Wr1``  Cartas Maestras: hand card 3 on path W after one quarter turn clockwise (r1-r3)
``1Ser2`` turn and rotation together: turn letter first, then ``r``
``pass``  Cartas Maestras: draw a card and pass (only when no card can be placed)
``stop``  Cartas Maestras final phase: end your tie-break path
========  ===============================================================================

Move values are frozen dataclasses (``Place``, ``Pass``, ``Stop``) with ``src`` (``"h2"``)
and ``dst`` (``"N"`` or ``"N>e"``; None for pass/stop) for select-then-target buttons.

>>> from engine.squadratik.notation import parse_notation
>>> [str(parse_notation(t)) for t in ("2n", "1S>e", "3wR1", "Pass")]
['2N', '1Se', '3Wr1', 'pass']
"""
