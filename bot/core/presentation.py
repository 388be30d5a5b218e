"""What players see of a session: board replies (image, caption, words, buttons), the
board in words only, private hands, and the hand-off to the renderer.

Nothing here changes a game: it reads the session and the engine's view, asks the features'
``board_style`` hooks what to add to the drawing (a table's timeouts, a race's clock), draws
off the event loop; the buttons come from ``bot.core.keyboards``, the texts from
``bot.core.messages``.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from typing import Any

import engine
from bot import i18n
from bot.core import buttons as button_ids
from bot.core import handoff, keyboards, labels
from bot.core.board_words import ALT_MAX, board_text
from bot.core.context import Ctx
from bot.core.explain import only_pass_text
from bot.core.messages import private, reply, session_name
from bot.core.registry import Registry
from bot.core.session import Session
from bot.replies import BoardRef, Button, Reply

log = logging.getLogger("tavolo.core")

RenderFn = Callable[..., bytes]

#: a text board's longest message: Discord's (2,000 characters) with room to spare
TEXT_BOARD_MAX = 1900


class Presenter:
    """Board replies and hands for one core (its renderer and the features' board hooks)."""

    def __init__(self, registry: Registry, renderer: RenderFn | None) -> None:
        self.registry = registry
        self.renderer = renderer

    async def render(
        self,
        session: Session,
        view: Mapping[str, Any],
        lang: str,
        hand: bool = False,
        selected: str | None = None,
        targets: list[str] | None = None,
        full: bool = False,
    ) -> bytes | None:
        """The board image (or, with ``hand``, the viewer's private hand image), drawn off the
        event loop; None (text-only board) if drawing fails. ``selected``: the pile picked by a
        first tap, ringed on the image with ``targets``, the piles it may go to; ``full``: the
        whole board, however large (a Squadratik board is otherwise drawn for a phone)."""
        render = self.renderer
        if render is None:
            import renderer as renderer_module  # loaded on first board: start-up stays light

            render = getattr(renderer_module, "render", None)
            if render is None:
                return None
        style: dict[str, Any] = {
            "faces": session.record.faces,
            "lang": lang,
            "words": i18n.board_words(lang),
        }
        if hand:
            style["hand"] = True
        if full:
            style["full"] = True
        if session.record.ranked and not session.is_table:
            # the ranked daily says so on its picture too (the renderer draws the word)
            style["badge"] = i18n.t(lang, "focus.badge.daily")
        if selected is not None:
            style["selected"] = selected
            style["targets"] = list(targets or ())
        for hook in self.registry.board_style:
            view = await hook(session, view, style)
        call = functools.partial(render, session.record.game_id, view, **style)
        try:
            return await handoff.RENDER.run(call)
        except Exception:
            log.exception("rendering %s failed", session.record.game_id)
            return None

    async def board(
        self,
        ctx: Ctx,
        session: Session,
        fresh: bool = False,
        selected: str | None = None,
        full: bool = False,
    ) -> Reply:
        """The session's board: image, caption and buttons. ``fresh``: post a new message
        instead of editing the stored one; ``selected``: the source picked by a first tap;
        ``full``: the whole board (``/board full``)."""
        rec = session.record
        ref = BoardRef(rec.id, None if fresh else rec.board_message_id)
        name = session_name(ctx.lang, session)
        if session.game is None:  # a lobby
            answer = lobby_reply(ctx.lang, session, name)
            answer.buttons = keyboards.lobby_buttons(ctx.lang, session)
            answer.board = ref
            return answer
        game = session.game
        view = session.view(None)
        if session.is_table:
            key = "board.caption_over" if game.is_over else "table.caption"
            params: dict[str, Any] = {
                "game": name,
                "move": game.move_number,
                "stock": view.get("stock", 0),
            }
            params["player"] = "" if game.is_over else session.name_of(game.current_player)
        else:
            key = "board.caption_over" if game.is_over else "board.caption"
            params = {"game": name, "deal": rec.deal, "move": game.move_number, "score": game.score}
        answer = reply(ctx.lang, key, **params)
        targets = None
        if selected is not None:  # the picked pile and where it may go, marked on the image
            targets = sorted(
                {
                    str(m.dst)
                    for m in game.legal_moves()
                    if str(m.src) == selected and m.dst is not None
                }
            )
        answer.image = await self.render(
            session, view, ctx.lang, selected=selected, targets=targets, full=full
        )
        answer.image_name = f"{rec.game_id}-{rec.id}-{game.move_number}.png"
        self.add_words(answer, session, view, ctx.lang)
        answer.board = ref
        if session.is_active and not game.is_over:
            if session.is_table:
                answer.buttons = [
                    Button(
                        button_ids.encode("hand", rec.id, rec.revision),
                        i18n.t(ctx.lang, "button.hand"),
                        0,
                        "primary",
                    )
                ]
            else:
                # no button for what is refused: undo in a ranked game or a race
                undo = not rec.ranked and game.moves != [] and not await self.is_race_board(session)
                answer.buttons = keyboards.solo_buttons(ctx.lang, session, view, selected, undo)
        elif session.is_table and game.is_over and "rematch" in self.registry.buttons:
            answer.buttons = [
                Button(
                    button_ids.encode("rematch", rec.id, rec.revision),
                    i18n.t(ctx.lang, "button.play_again"),
                    0,
                    "success",
                )
            ]
        elif not session.is_table and not session.is_open and not await self.is_race_board(session):
            # A race board's next deal comes from the race, not from this button.
            answer.buttons = [
                Button(
                    button_ids.encode("again", rec.id, rec.revision),
                    i18n.t(ctx.lang, "button.play_again"),
                    0,
                    "success",
                )
            ]
        return answer

    def text_board(self, ctx: Ctx, session: Session) -> Reply:
        """The board in words only (``/board text``), from the asker's own view: at a table
        they sit at, with their hand, so only they see it; else in the chat."""
        rec = session.record
        game = session.game
        name = session_name(ctx.lang, session)
        if game is None:  # a lobby has no board yet: the lobby's own text says who is seated
            return lobby_reply(ctx.lang, session, name)
        own = session.is_table and ctx.user in rec.players and not game.is_over
        view = session.view(ctx.user if own else None)
        answer = reply(ctx.lang, "words.text_board", game=name)
        words = board_text(
            ctx.lang,
            view,
            faces=rec.faces,
            name_of=session.name_of,
            limit=TEXT_BOARD_MAX - len(answer.text) - 1,
        )
        answer.text = f"{answer.text}\n{words}"
        answer.params["words"] = words
        if own:
            answer.visibility = "private"
            answer.to_user = ctx.user
        return answer

    @staticmethod
    def add_words(answer: Reply, session: Session, view: Mapping[str, Any], lang: str) -> None:
        """The image's text alternative, from the view it was drawn from (a group's board from
        the public view, a hand from its player's): fitted so the reply's text and the words
        make at most one caption. A board that could not be drawn shows its words as text."""
        if answer.image is None:
            words = board_text(
                lang,
                view,
                faces=session.record.faces,
                name_of=session.name_of,
                limit=TEXT_BOARD_MAX - len(answer.text) - 1,
            )
            answer.text = f"{answer.text}\n{words}"
            return
        answer.alt_text = board_text(
            lang,
            view,
            faces=session.record.faces,
            name_of=session.name_of,
            limit=ALT_MAX - len(answer.text) - 1,
        )

    async def is_race_board(self, session: Session) -> bool:
        """A board the features forbid undoing once it is over: a race's (see ``undo_forbidden``)."""
        for guard in self.registry.undo_forbidden:
            if await guard(session):
                return True
        return False

    async def hand(
        self, ctx: Ctx, table: Session, placing: str | None = None, flat: bool = False
    ) -> Reply:
        """The player's own hand, privately (call under the table's lock): image of their view
        and, when it is their turn, its buttons in two steps: first one button per card and
        place (``Card 2 → path N``), which plays at once when the card fits only one way;
        else, with ``placing`` (``2N``, ``1Se``: the notation without rotation) the rotations
        that fit there, and a way back (see ``hand_buttons``). ``flat``: one button per legal
        move instead (a list to choose from, Telegram's inline hand)."""
        game = table.game
        assert game is not None
        rec = table.record
        view: Mapping[str, Any] = table.view(ctx.user)
        my_turn = game.current_player == ctx.user and not game.is_over
        answer = private(
            ctx, "hand.yours" if my_turn else "hand.wait", player=table.name_of(game.current_player)
        )
        answer.image = await self.render(table, view, ctx.lang, hand=True)
        answer.image_name = f"hand-{rec.id}-{game.move_number}.png"
        if my_turn:
            legal = game.legal_moves(ctx.user)
            if [str(m) for m in legal] == ["pass"]:  # say why, from this player's own view
                answer.text += "\n" + only_pass_text(ctx.lang, view)
            found = (
                [
                    Button(
                        keyboards.move_button_id(table, legal, m),
                        labels.hand_move_label(ctx.lang, m),
                        0,
                        "primary",
                    )
                    for m in legal
                ]
                if flat
                else keyboards.hand_buttons(ctx.lang, table, legal, placing, view.get("hand"))
            )
            shown = found[: keyboards.MAX_BUTTONS]
            answer.buttons = [
                Button(b.id, b.label, i // keyboards.PER_ROW, b.style) for i, b in enumerate(shown)
            ]
            if len(found) > len(shown):
                answer.params["more"] = len(found) - len(shown)
        self.add_words(answer, table, view, ctx.lang)  # after the text: they share a caption
        return answer


def lobby_reply(lang: str, session: Session, name: str) -> Reply:
    """A lobby's text: who is seated and who opened it (a lobby has no board yet)."""
    rec = session.record
    # a solo game's lobby is a race's (everyone plays the same deal), not a table's
    lobby = "table.lobby" if engine.game_info(rec.game_id).table else "race.lobby"
    return reply(
        lang,
        lobby,
        game=name,
        players=", ".join(session.name_of(p) for p in rec.players),
        count=len(rec.players),
        creator=session.name_of(rec.creator),
    )
