"""The daily challenge's shareable summary: a spoiler-free text a player can paste anywhere
(game, day, result, score, moves and a row of squares by phase), in the spirit of Wordle's grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import engine
from bot import i18n
from engine import Outcome

# ----- the shareable summary ---------------------------------------------------------------------
SQUARE_GAIN, SQUARE_SOME, SQUARE_NONE, SQUARE_LOSS = "🟩", "🟨", "⬜", "🟥"
FINISH_MARK: dict[str, str] = {  # Outcome is a str: the stored outcome text matches
    Outcome.WON: "🏆",
    Outcome.COMPLETO: "🏆",
    Outcome.PLAYED_OUT: "⭐",
    Outcome.LOST: "💀",
    Outcome.STALLED: "🧱",
    Outcome.RESIGNED: "🏳️",
}
#: how many squares the summary draws (phases of the game)
PHASES = 10


def phase_squares(scores: Sequence[int], phases: int = PHASES) -> str:
    """A row of squares, one per phase of the game: how much the score moved in that phase
    (green: a big gain, yellow: some, white: none, red: a loss). ``scores`` is the score after
    each move, starting with the score before the first.

    >>> phase_squares([0, 0, 10, 40, 40, 30], phases=5)
    '⬜🟨🟩⬜🟥'
    """
    if len(scores) < 2:
        return SQUARE_NONE * phases
    moves = len(scores) - 1
    shown = min(phases, moves)
    gains = []
    for p in range(shown):
        start = scores[p * moves // shown]
        end = scores[(p + 1) * moves // shown]
        gains.append(end - start)
    best = max(gains)
    row = []
    for gain in gains:
        if gain < 0:
            row.append(SQUARE_LOSS)
        elif gain == 0:
            row.append(SQUARE_NONE)
        elif gain * 2 >= best:
            row.append(SQUARE_GAIN)
        else:
            row.append(SQUARE_SOME)
    return "".join(row)


def score_curve(
    game_id: str, deal: int, options: dict[str, Any], moves: Sequence[str]
) -> list[int]:
    """The score before the first move and after each move of a game's move list."""
    game = engine.new_game(game_id, deal, None, options)
    scores = [int(game.score)]
    for text in moves:
        game.play(text)
        scores.append(int(game.score))
    return scores


def share_text(
    lang: str,
    game_id: str,
    day: str,
    outcome: str,
    score: int,
    moves: Sequence[str],
    deal: int,
    options: dict[str, Any] | None = None,
) -> str:
    """A spoiler-free summary a player can paste anywhere: game, day, result, score, moves and a
    row of squares by phase. No card and no move is named, so it gives nothing away.

    >>> g = engine.new_game("imaginary13", 3)
    >>> for _ in range(6): _ = g.play(g.legal_moves()[0])
    >>> print(share_text("en", "imaginary13", "2025-03-14", "resigned", g.score, g.moves, 3))  # doctest: +ELLIPSIS
    Tavolo daily · Imaginary Thirteen · 2025-03-14
    ...
    """
    squares = phase_squares(score_curve(game_id, deal, options or {}, moves))
    mark = FINISH_MARK.get(outcome, "")
    return "\n".join(
        [
            i18n.t(lang, "daily.share_title", game=i18n.game_name(lang, game_id), day=day),
            i18n.t(
                lang,
                f"daily.share_result.{game_id}",
                outcome=i18n.t(lang, f"daily.outcome.{outcome}"),
                score=score,
                moves=len(moves),
            ),
            f"{squares} {mark}".rstrip(),
        ]
    )
