"""What players see of a session: board replies, their buttons, private hands, the end and
turn messages, and the hand-off to the renderer.

Nothing here changes a game: it reads the session and the engine's view, asks the features'
``board_style`` hooks what to add to the drawing (a table's timeouts, a race's clock), draws
off the event loop, and lays the buttons out (at most ``MAX_BUTTONS``, ``PER_ROW`` a row).
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Mapping
from typing import Any

import engine
from bot import i18n
from bot.core import buttons as button_ids
from bot.core import handoff, labels
from bot.core.board_words import ALT_MAX, board_text
from bot.core.context import Ctx
from bot.core.explain import only_pass_text, standings_lines
from bot.core.registry import Registry
from bot.core.session import Session
from bot.replies import BoardRef, Button, Reply
from engine import Move

log = logging.getLogger("tavolo.core")

RenderFn = Callable[..., bytes]

#: Discord shows at most 25 buttons (5 rows of 5); Telegram takes more, but stays readable
MAX_BUTTONS = 25
PER_ROW = 5
#: a text board's longest message: Discord's (2,000 characters) with room to spare
TEXT_BOARD_MAX = 1900
#: the rotation at the end of a Cartas Maestras placement's notation ("3Wr1")
_ROTATION = re.compile(r"r\d$")


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


def with_row(button: Button, row: int) -> Button:
    """``button`` in keyboard row ``row`` (``dataclasses.replace`` costs several times more,
    for every button of every board)."""
    return Button(
        button.id, button.label, row, button.style, button.opens_hand, button.move, button.key
    )


def pile_ids(view: Mapping[str, Any], kind: str) -> set[str]:
    """The ids of the view's piles of one kind (``foundation``, ``stock``)."""
    return {p["id"] for p in view.get("piles") or [] if p.get("kind") == kind}


class Presenter:
    """Board replies and buttons for one core (its renderer and the features' board hooks)."""

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
            seated = ", ".join(session.name_of(p) for p in rec.players)
            # a solo game's lobby is a race's (everyone plays the same deal), not a table's
            lobby = "table.lobby" if engine.game_info(rec.game_id).table else "race.lobby"
            answer = reply(
                ctx.lang,
                lobby,
                game=name,
                players=seated,
                count=len(rec.players),
                creator=session.name_of(rec.creator),
            )
            answer.buttons = self.lobby_buttons(ctx.lang, session)
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
                answer.buttons = self.solo_buttons(ctx.lang, session, view, selected, undo)
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
            seated = ", ".join(session.name_of(p) for p in rec.players)
            lobby = "table.lobby" if engine.game_info(rec.game_id).table else "race.lobby"
            return reply(
                ctx.lang,
                lobby,
                game=name,
                players=seated,
                count=len(rec.players),
                creator=session.name_of(rec.creator),
            )
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

    def lobby_buttons(self, lang: str, session: Session) -> list[Button]:
        rid, rev = session.id, session.record.revision
        return [
            Button(button_ids.encode("join", rid, rev), i18n.t(lang, "button.join"), 0, "primary"),
            Button(button_ids.encode("leave", rid, rev), i18n.t(lang, "button.leave"), 0),
            Button(
                button_ids.encode("start", rid, rev), i18n.t(lang, "button.start"), 0, "success"
            ),
        ]

    @staticmethod
    def move_button_id(session: Session, legal: list[Move], move: Move) -> str:
        rec = session.record
        try:
            return button_ids.encode("mv", rec.id, rec.revision, str(move))
        except button_ids.ButtonIdTooLong:
            # Long notation: the index into legal_moves() (same revision = same position).
            return button_ids.encode("mv", rec.id, rec.revision, f"#{legal.index(move)}")

    def solo_buttons(
        self,
        lang: str,
        session: Session,
        view: Mapping[str, Any],
        selected: str | None,
        undo: bool = True,
    ) -> list[Button]:
        """Select-then-target buttons: first a source (``move.src``), then its targets
        (``move.dst``); moves without a target (turning the stock) and "to foundation" are one
        tap; undo (when ``undo`` and the game allows it) and resign close the list."""
        game = session.game
        assert game is not None
        rec = session.record
        legal = game.legal_moves()
        foundations = pile_ids(view, "foundation")
        faces = rec.faces
        found: list[Button] = []
        if selected is None:
            sources: list[str] = []
            stock = pile_ids(view, "stock")
            for move in legal:
                src = move.src
                dst = move.dst
                if dst is None:
                    label = i18n.t(lang, "button.draw") if src in stock else str(move)
                    key = f"pile:{src}" if src in stock else f"mv:{move}"
                    found.append(
                        Button(
                            self.move_button_id(session, legal, move), label, 0, "primary", key=key
                        )
                    )
                elif src is not None and src not in sources:
                    sources.append(str(src))
            if any(m.dst in foundations for m in legal):
                found.append(
                    Button(
                        button_ids.encode("found", rec.id, rec.revision, "*"),
                        i18n.t(lang, "button.to_foundation"),
                        0,
                        "success",
                    )
                )
            for src in sources:
                found.append(
                    Button(
                        button_ids.encode("sel", rec.id, rec.revision, src),
                        labels.source_label(lang, view, faces, src),
                        key=f"pile:{src}",
                    )
                )
        else:
            targets = [m for m in legal if str(m.src) == selected and m.dst is not None]
            per_dst: dict[str, list[Move]] = {}
            for move in targets:
                per_dst.setdefault(str(move.dst), []).append(move)
            for dst, moves in per_dst.items():
                for move in moves:
                    label = (
                        labels.target_label(lang, view, faces, dst)
                        if len(moves) == 1
                        else str(move)
                    )
                    # a target keeps its pile's number: "#3" is column 3 as source and target
                    key = f"pile:{dst}" if len(moves) == 1 else f"mv:{move}"
                    found.append(
                        Button(
                            self.move_button_id(session, legal, move),
                            i18n.t(lang, "button.target", target=label),
                            0,
                            "primary",
                            key=key,
                        )
                    )
            found.append(
                Button(
                    button_ids.encode("back", rec.id, rec.revision),
                    i18n.t(lang, "button.cancel"),
                    0,
                )
            )
        tail = []
        if undo and game.moves and not rec.ranked:
            tail.append(
                Button(
                    button_ids.encode("undo", rec.id, rec.revision), i18n.t(lang, "button.undo"), 0
                )
            )
        tail.append(
            Button(
                button_ids.encode("resign", rec.id, rec.revision),
                i18n.t(lang, "button.resign"),
                0,
                "danger",
            )
        )
        found = found[: MAX_BUTTONS - len(tail)] + tail
        return [with_row(b, i // PER_ROW) for i, b in enumerate(found)]

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
                        self.move_button_id(table, legal, m),
                        labels.hand_move_label(ctx.lang, m),
                        0,
                        "primary",
                    )
                    for m in legal
                ]
                if flat
                else self.hand_buttons(ctx.lang, table, legal, placing, view.get("hand"))
            )
            shown = found[:MAX_BUTTONS]
            answer.buttons = [
                Button(b.id, b.label, i // PER_ROW, b.style) for i, b in enumerate(shown)
            ]
            if len(found) > len(shown):
                answer.params["more"] = len(found) - len(shown)
        self.add_words(answer, table, view, ctx.lang)  # after the text: they share a caption
        return answer

    def hand_buttons(
        self,
        lang: str,
        table: Session,
        legal: list[Move],
        placing: str | None,
        hand: list[dict[str, Any]] | None = None,
    ) -> list[Button]:
        """A hand's buttons (see ``hand``), never more than fit: one per card and place
        (``Card 2 → path N``; a ``turn`` button when several rotations fit there); when those
        are too many, one per card first (``turn`` with ``c2``), its places next. ``placing``:
        the card (``c2``) or card and place (``2N``) chosen so far; a way back follows."""
        rec = table.record

        def place(move: Move) -> str:  # the notation without its rotation ("2Nr3" -> "2N")
            return (
                _ROTATION.sub("", str(move))
                if getattr(move, "slot", None) is not None
                else str(move)
            )

        def card(move: Move) -> str:
            slot = getattr(move, "slot", None)
            return str(move) if slot is None or move.dst is None else f"c{slot}"

        back = Button(
            button_ids.encode("hand", rec.id, rec.revision), i18n.t(lang, "button.cancel"), 0
        )
        rotations = [m for m in legal if place(m) == placing]
        if placing is not None and len(rotations) > 1:
            return [
                *(
                    Button(
                        self.move_button_id(table, legal, m),
                        labels.rotation_label(lang, m),
                        0,
                        "primary",
                    )
                    for m in rotations
                ),
                back,
            ]
        chosen_card = placing is not None and placing.startswith("c")
        moves = [m for m in legal if card(m) == placing] if chosen_card else legal
        groups: dict[str, list[Move]] = {}
        for move in moves:
            groups.setdefault(place(move), []).append(move)
        if not chosen_card and len(groups) > MAX_BUTTONS:
            by_card: dict[str, list[Move]] = {}
            for move in moves:
                by_card.setdefault(card(move), []).append(move)
            found = []
            for key, members in by_card.items():
                slot = getattr(members[0], "slot", None)
                if not key.startswith("c") or slot is None:
                    found.append(
                        Button(
                            self.move_button_id(table, legal, members[0]),
                            labels.hand_move_label(lang, members[0]),
                            0,
                            "primary",
                        )
                    )
                    continue
                shown = hand[slot - 1] if hand and 1 <= slot <= len(hand) else {}
                label = labels.hand_card_label(lang, shown, slot) + " …" if shown else f"{slot} …"
                found.append(
                    Button(
                        button_ids.encode("turn", rec.id, rec.revision, key), label, 0, "primary"
                    )
                )
            return found
        found = []
        for key, members in groups.items():
            if len(members) == 1:
                found.append(
                    Button(
                        self.move_button_id(table, legal, members[0]),
                        labels.hand_move_label(lang, members[0]),
                        0,
                        "primary",
                    )
                )
            else:
                found.append(
                    Button(
                        button_ids.encode("turn", rec.id, rec.revision, key),
                        labels.hand_group_label(lang, members[0]),
                        0,
                        "primary",
                    )
                )
        return [*found, back] if chosen_card else found

    @staticmethod
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
            answer.text = "\n".join(
                [answer.text, *standings_lines(ctx.lang, results, session.name_of)]
            )
            return answer
        return reply(
            ctx.lang,
            f"outcome.{outcome}",
            game=name,
            score=game.score,
            moves=game.move_number,
            name=session.name_of(session.record.players[0]),
        )

    @staticmethod
    def turn_announcement(lang: str, session: Session) -> Reply:
        """Whose turn it is at a table, mentioning them."""
        game = session.game
        assert game is not None
        player = game.current_player
        answer = reply(lang, "table.turn", player=session.name_of(player))
        answer.mentions = [player]
        return answer
