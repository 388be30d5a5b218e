"""The catalogues against the rest of the project: every engine reason code has a message,
every game has rules and a notation guide that the engine really accepts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from bot.i18n import GAME_IDS, LANGUAGES, has_key, help_text, reason_text, rules_text, t

ENGINE_DIR = Path(engine.__file__).parent
_LITERAL_CODE = re.compile(r"\b(?:IllegalMove|BadSetup)\(\s*\"([a-z0-9_]+)\"")
_CONSTANT_CODE = re.compile(r"\b(?:IllegalMove|BadSetup)\(\s*([A-Z][A-Z0-9_]*)\b")
# ``reason = "a" if ... else "b"``, also wrapped in parentheses over several lines
_REASON_VARIABLE = re.compile(r"^\s*reason\s*=\s*(\([^)]*\)|.+)$", re.M)
_QUOTED_CODE = re.compile(r"\"([a-z][a-z0-9_]*)\"")
_CONSTANT_DEF = re.compile(r"^([A-Z][A-Z0-9_]*)\s*(?::[^=]+)?=\s*\"([a-z0-9_]+)\"", re.M)


def engine_reason_codes() -> set[str]:
    """Every reason code written in the engine sources: literals, strings assigned to a
    ``reason`` variable, and module constants raised directly or returned by pile rules
    (``engine/piles.py``)."""
    codes: set[str] = set()
    for path in ENGINE_DIR.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        constants = dict(_CONSTANT_DEF.findall(source))
        codes.update(_LITERAL_CODE.findall(source))
        for expression in _REASON_VARIABLE.findall(source):  # reason = "a" if ... else "b"
            codes.update(_QUOTED_CODE.findall(expression))
        codes.update(
            constants[name] for name in _CONSTANT_CODE.findall(source) if name in constants
        )
        if path.name == "piles.py":
            codes.update(constants.values())
    return codes


def _new_game(game_id: str) -> engine.Game:
    """A fresh game with as few players as it takes."""
    players = [f"p{n}" for n in range(engine.GAMES[game_id].min_players)]
    return engine.new_game(game_id, deal=1, players=players)


def test_the_scan_finds_the_codes_of_the_engine_base() -> None:
    codes = engine_reason_codes()
    assert {"game_over", "nothing_to_undo", "bad_deal", "unknown_game"} <= codes
    assert {"not_alternating_colour", "master_needed_first", "only_masters_open_paths"} <= codes


def test_every_engine_reason_code_has_a_message_in_every_language() -> None:
    codes = engine_reason_codes()
    missing = sorted(code for code in codes if not has_key(f"error.{code}"))
    assert not missing, f"reason codes without a message: {missing}"
    for code in codes:
        texts = {lang: reason_text(lang, code, {}) for lang in LANGUAGES}
        assert len(set(texts.values())) == 3, f"{code} is not translated: {texts}"


def test_detailed_messages_name_the_cards() -> None:
    assert (
        reason_text("en", "not_alternating_colour", {"card": "7c", "onto": "6s"})
        == "7♣ cannot go on 6♠: same colour."
    )
    assert reason_text(
        "it",
        "not_one_lower",
        {"card": "5h", "onto": "Kc", "deck": "italian40", "faces": "napoletane"},
    ) == ("Cinque di coppe non può andare su Re di bastoni: deve essere più bassa di uno.")
    assert "As de copas" in reason_text(
        "es", "wrong_suit", {"card": "Ah", "onto": "2d", "deck": "italian40", "faces": "piacentine"}
    )


def test_messages_name_piles_per_game() -> None:
    assert reason_text("en", "empty_source", {"pile": "3"}) == "Nothing to move: column 3 is empty."
    assert "descarte b" in reason_text("es", "waste_empty", {"pile": "b", "game_id": "imaginary13"})
    assert "base 2" in reason_text("it", "same_pile", {"pile": "f2"})
    assert "mazzetto" in reason_text("it", "empty_source", {"pile": "w", "game_id": "solitario"})
    assert "scarto" in reason_text("it", "empty_source", {"pile": "w", "game_id": "canfield"})


def test_imaginary_thirteen_values_and_choices_read_naturally() -> None:
    assert (
        reason_text("en", "does_not_fit", {"card": "9h", "needed": 12})
        == "9♥ doesn't fit: that foundation needs a Q."
    )
    assert "3, 5 o 7" in reason_text(
        "it", "must_play_to_foundation", {"card": "7c", "fits": ["3", "5", "7"]}
    )


def test_a_missing_or_empty_detail_falls_back_to_the_generic_message() -> None:
    assert reason_text("en", "not_one_lower", {"card": "5h", "onto": None}) == t(
        "en", "error.not_one_lower"
    )
    assert reason_text("es", "bad_notation", {}) == t("es", "error.bad_notation")


def test_an_unknown_reason_still_gets_a_polite_answer() -> None:
    assert reason_text("it", "brand_new_code", {"x": 1}) == "Non si può fare (brand_new_code)."


def test_real_engine_errors_get_specific_messages() -> None:
    for game_id in sorted(engine.GAMES):
        game = _new_game(game_id)
        with pytest.raises(engine.IllegalMove) as caught:
            game.play("zz9 nonsense")
        assert caught.value.reason == "bad_notation"
        text = reason_text("en", caught.value.reason, caught.value.details)
        if "text" in caught.value.details:
            assert "zz9 nonsense" in text, game_id
        else:
            assert text == t("en", "error.bad_notation"), game_id
    with pytest.raises(engine.BadSetup) as setup_error:
        engine.new_game("poker")
    assert "poker" in reason_text("es", setup_error.value.reason, setup_error.value.details)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rules_fit_in_one_chat_message_and_point_to_the_notation(lang: str, game_id: str) -> None:
    text = rules_text(lang, game_id)
    # one message on both platforms: Discord takes 2,000 characters, Telegram 4,096
    assert 300 < len(text) <= 2000
    assert f"/help {game_id}" in text
    if game_id == "maestras":  # the numbers on a card are explained once, with Squadratik's rules
        assert "/rules squadratik" in text


@pytest.mark.parametrize(
    ("game_id", "words"),
    [
        ("solitario", {"en": "only a Re", "es": "solo admite un Rey", "it": "accetta solo un Re"}),
        ("canfield", {"en": "$50", "es": "$50", "it": "$50"}),
        (
            "imaginary13",
            {"en": "2 4 6 8 10 Q A 3", "es": "2 4 6 8 10 Q A 3", "it": "2 4 6 8 10 Q A 3"},
        ),
        (
            "squadratik",
            {"en": "Solitario completo", "es": "Solitario completo", "it": "Solitario completo"},
        ),
        ("maestras", {"en": "master", "es": "maestra", "it": "maestra"}),
        # the supermove's size and the one famous deal that cannot be won
        ("freecell", {"en": "× 2 per empty", "es": "× 2 por cada", "it": "× 2 per ogni"}),
        ("freecell", {"en": "11982", "es": "11982", "it": "11982"}),
    ],
)
def test_rules_carry_the_rulings_a_player_needs(game_id: str, words: dict[str, str]) -> None:
    for lang in LANGUAGES:
        assert words[lang] in rules_text(lang, game_id)


def test_unknown_game_rules_and_help_answer_with_the_game_list() -> None:
    assert "solitario, canfield" in rules_text("en", "poker")
    assert "poker" in help_text("it", "poker")


#: the notation forms each game's guide must show (module docstrings of the engines)
def _guide_forms(text: str) -> list[str]:
    """The example moves of a guide: the ``• form, form — meaning`` lines."""
    forms = []
    for line in text.splitlines():
        if line.startswith("• ") and " — " in line:
            forms.extend(part.strip() for part in line[2:].split(" — ")[0].split(","))
    return forms


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_help_shows_every_notation_form_in_every_language(game_id: str) -> None:
    for lang in LANGUAGES:
        assert _guide_forms(help_text(lang, game_id)) == list(
            engine.game_info(game_id).notation_examples
        )


@pytest.mark.parametrize("game_id", sorted(set(GAME_IDS) & set(engine.GAMES)))
def test_every_move_in_the_guide_is_accepted_by_the_engine_notation(game_id: str) -> None:
    game = _new_game(game_id)
    info = engine.game_info(game_id)
    assert info.notation_examples, "the game's notation examples (GameInfo)"
    # e.g. Canfield's "wf" names the waste card's own foundation: the waste must hold a card
    for move in info.notation_setup:
        game.play(move)
    for form in info.notation_examples:
        move = game.parse_move(form)
        assert game.parse_move(str(move)) == move


def test_help_lists_every_command_in_every_language() -> None:
    commands = [
        "/play",
        "/daily",
        "/challenge",
        "/join",
        "/start",
        "/race",
        "/move",
        "/hand",
        "/undo",
        "/hint",
        "/resign",
        "/board",
        "/leaderboard",
        "/stats",
        "/rules",
        "/help",
        "/lang",
    ]
    for lang in LANGUAGES:
        text = help_text(lang)
        assert [c for c in commands if c not in text] == []
        assert len(text) <= 2000  # one Discord message


@pytest.mark.parametrize("lang", LANGUAGES)
def test_generic_buttons_and_piles_have_labels(lang: str) -> None:
    for name in (
        "draw",
        "to_foundation",
        "undo",
        "resign",
        "pass",
        "stop",
        "hand",
        "join",
        "leave",
        "start",
        "cancel",
    ):
        assert t(lang, f"button.{name}")
    assert t(lang, "pile.waste_pile_n", n="c").endswith("c")


_DETAIL_VALUES = st.one_of(
    st.none(),
    st.integers(-5, 60),
    st.text(max_size=6),
    st.sampled_from(["7c", "Td", "Ah", "Qs", "w", "f2", "3", "b", "t", "9z"]),
    st.lists(st.sampled_from(["1", "5", "8"]), max_size=3),
)


@given(
    lang=st.sampled_from([*LANGUAGES, "fr"]),
    reason=st.sampled_from(sorted(engine_reason_codes()) + ["never_seen_code"]),
    details=st.dictionaries(
        st.sampled_from(
            [
                "card",
                "onto",
                "pile",
                "needed",
                "fits",
                "count",
                "text",
                "deck",
                "faces",
                "game_id",
                "slot",
                "foundation",
                "playable",
                "option",
            ]
        ),
        _DETAIL_VALUES,
        max_size=5,
    ),
)
def test_reason_text_always_answers_whatever_the_details(
    lang: str, reason: str, details: dict
) -> None:
    text = reason_text(lang, reason, details)
    assert text.strip()
    assert "{" not in text or "{" in str(details)
