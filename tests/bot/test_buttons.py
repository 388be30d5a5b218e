"""Button ids: what goes out comes back, nothing forged gets through, everything fits Telegram."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import buttons

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
