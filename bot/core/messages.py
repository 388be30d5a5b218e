"""The texts of a session in the chat's language: a reply for everyone, a private answer, a
refusal; game and session names; how a game ended, and whose turn it is at a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import i18n
from bot.core.context import Ctx
from bot.core.explain import standings_lines
from bot.core.session import Session
from bot.replies import Reply


def reply(lang: str, key: str, **params: Any) -> Reply:
    """A message in ``lang`` for everyone in the chat."""
    return Reply(key=key, text=i18n.t(lang, key, **params), params=params)


def private(ctx: Ctx, key: str, **params: Any) -> Reply:
    """A refusal or answer only the sender / presser sees."""
    answer = reply(ctx.lang, key, **params)
    answer.visibility = "private"
    answer.to_user = ctx.user
    return answer


def refuse(ctx: Ctx, key: str, **params: Any) -> Reply:
    """A refusal meant for the sender that reveals nothing private (see ``Reply.refusal``)."""
    answer = private(ctx, key, **params)
    answer.refusal = True
    return answer


def game_name(lang: str, game_id: str) -> str:
    return i18n.game_name(lang, game_id)


def session_name(lang: str, session: Session) -> str:
    """The game's name as its board and messages say it: "Daily Canfield" for the ranked
    daily (the player must always see that a game is the ranked one), else the game's name."""
    name = game_name(lang, session.record.game_id)
    if session.record.ranked and not session.is_table:
        return i18n.t(lang, "focus.label.daily", game=name)
    return name


def end_message(ctx: Ctx, session: Session) -> Reply:
    """How the game ended: a table's winners, a solo game's outcome and score."""
    game = session.game
    assert game is not None
    outcome = str(game.outcome)
    name = session_name(ctx.lang, session)
    if session.is_table:
        view: Mapping[str, Any] = game.view(None)
        results = view.get("results") or []
        winners = [session.name_of(str(r["player"])) for r in results if r.get("place") == 1]
        answer = reply(ctx.lang, "table.over", game=name, winners=", ".join(winners) or "-")
        # the standings by place, with the seed's tie rule: "Winner: X" alone explained nothing
        answer.text = "\n".join([answer.text, *standings_lines(ctx.lang, results, session.name_of)])
        return answer
    return reply(
        ctx.lang,
        f"outcome.{outcome}",
        game=name,
        score=game.score,
        moves=game.move_number,
        name=session.name_of(session.record.players[0]),
    )


def turn_announcement(lang: str, session: Session) -> Reply:
    """Whose turn it is at a table, mentioning them."""
    game = session.game
    assert game is not None
    player = game.current_player
    answer = reply(lang, "table.turn", player=session.name_of(player))
    answer.mentions = [player]
    return answer
