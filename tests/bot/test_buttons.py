"""Button ids: what goes out comes back, nothing forged gets through, everything fits Telegram."""

from __future__ import annotations

import re

import pytest
from core_fakes import FakePlatform
from hypothesis import given
from hypothesis import strategies as st

from bot.core import Core, buttons

session_ids = st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
args = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=30)


@given(st.sampled_from(sorted(buttons.VERBS)), session_ids, st.integers(0, 10**6), args)
def test_every_encoded_id_decodes_to_the_same_action_and_fits_64_bytes(verb, sid, rev, arg):
    bid = buttons.encode(verb, sid, rev, arg)
    assert len(bid.encode()) <= 64 and bid.isascii()
    assert buttons.decode(bid) == buttons.ButtonAction(verb, sid, rev, arg)


@given(st.text(max_size=80))
def test_decoding_arbitrary_text_never_raises(text):
    action = buttons.decode(text)
    assert action is None or action.verb in buttons.VERBS


@pytest.mark.parametrize(
    "forged",
    [
        "v2:mv:abc:1:w3",  # another version
        "v1:steal:abc:1:w3",  # unknown verb
        "v1:mv:ABC:1:w3",  # session ids are lower-case
        "v1:mv:abc:-1:w3",  # negative revision
        "v1:mv:abc:one:w3",
        "v1:mv:abc:1",  # missing field
        "v1:mv:abc:1:" + "x" * 60,  # longer than Telegram allows
        "v1:mv:abc:1:w\u00e93",  # not ASCII
    ],
)
def test_forged_ids_are_rejected(forged):
    assert buttons.decode(forged) is None


def test_an_id_that_would_not_fit_is_refused_at_encoding():
    with pytest.raises(buttons.ButtonIdTooLong):
        buttons.encode("mv", "abcdefgh", 123, "x" * 60)


async def test_squadratik_hand_cards_and_paths_are_labelled_in_words(chat: FakePlatform):
    await chat.say("ana", "/play squadratik 1")
    labels = [b.label for b in chat.board().buttons]
    # deal 1's hand: a normal card, a master, a normal card and an empty card, then Resign
    assert labels == [
        "Card 1 · B4 R2 R2 B2",
        "Card 2 · master B4 R4 B2 R2",
        "Card 3 · B4 B4 R2",
        "Card 4 · empty",
        "Resign",
    ]
    await chat.press("ana", chat.button(lambda b: b.label.startswith("Card 3")).id)
    assert [b.label for b in chat.board().buttons] == [
        "→ path N",
        "→ path E",
        "→ path S",
        "→ path W",
        "Cancel",
        "Resign",
    ]
    await chat.press("ana", chat.button(lambda b: b.label == "→ path E").id)
    session = await chat.core.sessions.solo_of("fake", "chat-1", "ana")
    assert session is not None and session.game.moves == ["3E"]
    chat.admins.add("ana")
    await chat.say("ana", "/lang it")
    await chat.say("ana", "/board")
    assert chat.board().buttons[0].label == "Carta 1 · B4 R2 R2 B2"


TURNS = {"1": "¼ turn", "2": "½ turn", "3": "¾ turn"}
DIRECTIONS = {"n": "north", "e": "east", "s": "south", "w": "west"}


def expected_hand_label(notation: str) -> str:
    """How a Cartas Maestras hand button reads, from the move it plays."""
    if notation in ("pass", "stop"):
        return notation.capitalize()
    slot, side, turn, rotation = re.fullmatch(
        r"(\d+)([NESW])([nesw]?)(?:r(\d))?", notation
    ).groups()
    path = f"path {side}" + (f", turning {DIRECTIONS[turn]}" if turn else "")
    return f"Card {slot} ({TURNS[rotation]}) → {path}" if rotation else f"Card {slot} → {path}"


async def test_cartas_maestras_hand_buttons_name_the_card_the_path_and_the_turn(
    core: Core, chat: FakePlatform
):
    await chat.say("ana", "/challenge")
    await chat.say("ana", "/addbot")
    await chat.say("ana", "/start")
    seen: set[str] = set()
    for _ in range(400):
        (hand,) = await chat.say("ana", "/hand")
        if hand.key != "hand.yours":
            break
        await check_hand_steps(chat, hand, seen)
        await chat.press("ana", await first_move(chat, hand))
    assert hand.key == "hand.no_table" and "table.over" in [r.key for r in chat.replies]
    assert {"Card", "two steps"} <= seen  # placements, turned ones in two steps, were offered


async def check_hand_steps(chat: FakePlatform, hand, seen: set[str]) -> None:
    """Every button of a hand step: a move (labelled with card, path and turn) or the next
    step (a card's places, or one place's rotations), never more than 25 (no list is cut)."""
    assert len(hand.buttons) <= 25 and "more" not in hand.params
    for button in hand.buttons:
        action = buttons.decode(button.id)
        if action.verb == "hand":  # the way back to the whole hand
            assert button.label == "Cancel"
            continue
        if action.verb == "mv":  # a card that fits one way only: one tap
            assert button.label == expected_hand_label(action.arg)
            seen.add("rotated" if "(" in button.label else button.label.split(" ")[0])
            continue
        assert action.verb == "turn"
        (step,) = await chat.press("ana", button.id)
        assert step.is_private and step.key == "hand.yours"
        assert buttons.decode(step.buttons[-1].id).verb == "hand"  # a way back
        if action.arg.startswith("c"):  # many cards and places: the card first, then its places
            assert button.label.startswith(f"Card {action.arg[1:]} · ") and button.label.endswith(
                " …"
            )
            seen.add("card first")
            await check_hand_steps(chat, step, seen)
            continue
        # several rotations fit: first the card and the side, then the rotation
        assert button.label == expected_hand_label(action.arg) + " …"
        *rotations, _back = step.buttons
        assert len(rotations) >= 2
        for rotation in rotations:
            notation = buttons.decode(rotation.id).arg
            assert notation.startswith(action.arg)
            assert rotation.label == (TURNS[notation[-1]] if "r" in notation else "No turn")
        seen.add("two steps")


async def first_move(chat: FakePlatform, hand) -> str:
    """The id of a move button, going through the steps when needed."""
    for button in hand.buttons:
        if buttons.decode(button.id).verb == "mv":
            return button.id
    (step,) = await chat.press("ana", hand.buttons[0].id)
    return await first_move(chat, step)
