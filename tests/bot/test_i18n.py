"""The language layer: lookup, fallback, placeholders, card names, Babel helpers."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

import bot.i18n as i18n
from bot.i18n import LANGUAGES, card_label, card_name, catalogue, has_key, language_name, t

LOCALES = Path(i18n.__file__).parent / "locales"


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _all_keys() -> set[str]:
    return set().union(*(i18n.keys(lang) for lang in LANGUAGES))


def test_languages_are_english_spanish_italian() -> None:
    assert LANGUAGES == ("en", "es", "it")


def test_each_language_speaks_its_own_words() -> None:
    assert (t("en", "button.undo"), t("es", "button.undo"), t("it", "button.undo")) == (
        "Undo",
        "Deshacer",
        "Annulla",
    )


@pytest.mark.parametrize("lang", ["fr", "", "xx", "EN"])
def test_unknown_language_speaks_english(lang: str) -> None:
    assert t(lang, "button.draw") == "Draw"


def test_regional_codes_map_to_their_language() -> None:
    assert t("es-AR", "button.draw") == "Robar"
    assert t("it_IT", "button.draw") == "Pesca"


def test_key_missing_everywhere_raises_key_error() -> None:
    with pytest.raises(KeyError):
        t("it", "button.no_such_button")
    assert not has_key("button.no_such_button")
    assert has_key("button.draw")


def test_missing_parameter_raises_key_error() -> None:
    with pytest.raises(KeyError):
        t("en", "pile.column_n")
    assert t("es", "pile.column_n", n=3) == "columna 3"


def test_key_missing_in_one_language_falls_back_to_english(tmp_path, monkeypatch) -> None:
    for lang, body in (("en", 'msgid "x.only_en"\nmsgstr "Only {who}"\n'), ("it", "")):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "x.po").write_text(body)
    monkeypatch.setattr(catalogue, "LOCALES_DIR", tmp_path)
    i18n.reload()
    try:
        assert t("it", "x.only_en", who="English") == "Only English"
    finally:
        monkeypatch.undo()
        i18n.reload()


def test_plural_forms_follow_count(tmp_path, monkeypatch) -> None:
    (tmp_path / "es").mkdir()
    (tmp_path / "es" / "x.po").write_text(
        'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "x.cards"\nmsgid_plural "x.cards"\nmsgstr[0] "{count} carta"\nmsgstr[1] "{count} cartas"\n'
    )
    monkeypatch.setattr(catalogue, "LOCALES_DIR", tmp_path)
    i18n.reload()
    try:
        assert t("es", "x.cards", count=1) == "1 carta"
        assert t("es", "x.cards", count=5) == "5 cartas"
    finally:
        monkeypatch.undo()
        i18n.reload()


def test_every_key_exists_in_all_three_languages_with_the_same_placeholders() -> None:
    keys = _all_keys()
    assert len(keys) > 50
    for key in sorted(keys):
        english = {frozenset(_placeholders(form)) for form in i18n.raw_forms("en", key)}
        for lang in LANGUAGES:
            assert key in i18n.keys(lang), f"{key} missing in {lang}"
            forms = {frozenset(_placeholders(form)) for form in i18n.raw_forms(lang, key)}
            assert forms == english, f"{key}: placeholders differ in {lang}"


def test_no_key_is_defined_twice_in_one_language() -> None:
    for lang in LANGUAGES:
        seen: dict[str, str] = {}
        for path in sorted((LOCALES / lang).glob("*.po")):
            with path.open("rb") as handle:
                catalog = read_po(handle)
            for message in catalog:
                key = message.id[0] if isinstance(message.id, tuple) else message.id
                if key:
                    assert key not in seen, f"{lang}: {key} in {seen.get(key)} and {path.name}"
                    seen[key] = path.name


def test_every_text_formats_with_its_placeholders_filled() -> None:
    for lang in LANGUAGES:
        for key in i18n.keys(lang):
            for form in i18n.raw_forms(lang, key):
                params = {name: 1 for name in _placeholders(form)}
                assert t(lang, key, **params).strip()


def test_numbers_are_written_the_local_way(tmp_path, monkeypatch) -> None:
    for lang in LANGUAGES:
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "x.po").write_text('msgid "x.n"\nmsgstr "{n:n} {p:%} {m:$} {n}"\n')
    monkeypatch.setattr(catalogue, "LOCALES_DIR", tmp_path)
    i18n.reload()
    try:
        assert t("en", "x.n", n=1234, p=0.25, m=55) == "1,234 25% $55 1234"
        assert t("it", "x.n", n=1234, p=0.25, m=55).startswith("1.234 25%")
        # Canfield dollars are written as the board draws them, in every language
        assert t("es", "x.n", n=1234, p=0.25, m=-55).endswith(" -$55 1234")
    finally:
        monkeypatch.undo()
        i18n.reload()


@pytest.mark.parametrize(
    ("code", "deck", "faces", "lang", "name"),
    [
        ("Ah", "italian40", "napoletane", "it", "Asso di coppe"),
        ("Ah", "italian40", "napoletane", "es", "As de copas"),
        ("Ah", "italian40", "napoletane", "en", "Ace of cups"),
        ("Kd", "italian40", "piacentine", "it", "Re di denari"),
        ("Qc", "italian40", "piacentine", "es", "Caballo de bastos"),
        ("Js", "italian40", "napoletane", "en", "Jack of swords"),
        ("7s", "italian40", "piacentine", "es", "Siete de espadas"),
        ("Ah", "italian40", "francesi", "en", "Ace of hearts"),
        ("Qh", "italian40", "francesi", "it", "Donna di cuori"),
        ("Kc", "italian40", "francesi", "es", "Rey de tréboles"),
        ("Ah", "french52", "francesi", "en", "Ace of hearts"),
        ("Ah", "french52", "francesi", "es", "As de corazones"),
        ("Ah", "french52", "francesi", "it", "Asso di cuori"),
        ("Td", "french52", "francesi", "en", "Ten of diamonds"),
        ("10d", "french52", "francesi", "it", "Dieci di quadri"),
        ("Js", "french52", "francesi", "es", "Jota de picas"),
        ("9c", "french52", "francesi", "it", "Nove di fiori"),
    ],
)
def test_card_names_follow_face_style_and_language(code, deck, faces, lang, name) -> None:
    assert card_name(code, deck, faces, lang) == name


def test_every_card_of_every_style_has_a_distinct_name_in_every_language() -> None:
    from engine.cards import FRENCH_52, ITALIAN_40, full_deck

    for deck, styles in (
        (ITALIAN_40, ("napoletane", "piacentine", "francesi")),
        (FRENCH_52, ("francesi",)),
    ):
        for faces in styles:
            for lang in LANGUAGES:
                names = {card_name(c.code, deck, faces, lang) for c in full_deck(deck)}
                assert len(names) == len(full_deck(deck))


def test_card_labels_are_symbols_for_french_faces_and_names_for_italian_faces() -> None:
    assert card_label("7c", "french52", "francesi", "it") == "7♣"
    assert card_label("Td") == "10♦"
    assert card_label("Jh", "italian40", "francesi", "en") == "J♥"
    assert card_label("Jh", "italian40", "napoletane", "it") == "Fante di coppe"
    assert card_label("zz") == "zz"


def test_card_name_refuses_a_non_card() -> None:
    with pytest.raises(ValueError):
        card_name("8h", "italian40", "napoletane", "it")


@given(st.sampled_from(LANGUAGES), st.sampled_from(LANGUAGES))
def test_language_names_come_from_babel(lang: str, in_lang: str) -> None:
    name = language_name(lang, in_lang)
    assert name and name != lang


def test_language_names_read_naturally() -> None:
    assert language_name("es", "es") == "español"
    assert language_name("it", "it") == "italiano"
    assert language_name("en", "es") == "inglés"
    assert language_name("zz", "en") == "zz"


def test_a_french_deck_keeps_french_names_whatever_the_chosen_faces() -> None:
    assert card_name("Kd", "french52", "napoletane", "it") == "Re di quadri"
    assert card_name("Td", "french52", "piacentine", "es") == "Diez de diamantes"
    assert card_label("Td", "french52", "napoletane", "it") == "10♦"


async def test_boards_are_drawn_with_the_chat_languages_words(core, chat):
    """The renderer knows no language: the core hands it the board words from the catalogues."""
    import json

    chat.admins.add("ana")
    await chat.say("ana", "/lang it")
    board = (await chat.say("ana", "/play canfield 7"))[1]
    style = json.loads(board.image.removeprefix(b"PNG "))
    assert style["words"]["score"] == "Punti" and style["words"]["stock"] == "Tallone"
    assert set(style["words"]) == set(i18n.BOARD_WORDS)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_gallerys_sample_words_are_the_catalogues_board_words(lang):
    """The gallery draws without the bot; its Spanish and Italian words may not drift from
    what players see."""
    from renderer import fonts
    from tools import samples

    titles = {key for key in i18n.BOARD_WORDS if key.startswith(fonts.TITLE)}
    words = {key: text for key, text in i18n.board_words(lang).items() if key not in titles}
    assert samples.GALLERY_WORDS[lang] == words
    english = {key: text for key, text in i18n.board_words("en").items() if key not in titles}
    assert english == fonts.WORDS
    # a board's title is its game's (GameInfo.title), the same with or without the bot's words
    for key in titles:
        assert i18n.board_words(lang)[key] == fonts.word(key, lang)
    assert i18n.board_words(lang)["title_squadratik"] == "El Solitario"
