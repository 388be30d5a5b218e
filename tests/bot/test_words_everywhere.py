"""Every text in every language (issue 26, finding 8): each catalogue key in en, es and it with
the same placeholders, plural entries with the forms of the language's CLDR rule (Babel), no
count written before a plural noun by hand ("after 1 moves", "dopo 1 mosse", "1 masters won"),
and every caption the renderer draws taken from the board words of the chat's language (the
Imaginary Thirteen header stayed English in es and it)."""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import babel
import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from core_fakes import FakePlatform

import engine
import renderer
from bot import i18n

LOCALES = Path(i18n.__file__).parent / "locales"
RENDERER_DIR = Path(renderer.__file__).parent


def _catalogues(lang: str) -> Iterator[Any]:
    for path in sorted((LOCALES / lang).glob("*.po")):
        with path.open("rb") as handle:
            yield read_po(handle, locale=lang, domain=path.stem)


def _fields(text: str) -> set[str]:
    """The placeholders of a text with their format specs (``moves:#count.moves``)."""
    return {
        f"{name}:{spec}" if spec else name
        for _, name, spec, _ in string.Formatter().parse(text)
        if name is not None
    }


def test_every_key_has_a_text_in_every_language_and_none_is_extra() -> None:
    english = i18n.keys("en")
    for lang in i18n.LANGUAGES:
        own = i18n.keys(lang)
        assert sorted(english - own) == [], f"missing in {lang}"
        assert sorted(own - english) == [], f"only in {lang}"


def test_placeholders_agree_across_languages() -> None:
    for key in sorted(i18n.keys("en")):
        wanted = set().union(*(_fields(form) for form in i18n.raw_forms("en", key)))
        for lang in ("es", "it"):
            found = set().union(*(_fields(form) for form in i18n.raw_forms(lang, key)))
            # a singular form may spell the number out ("one move"), so compare the union
            assert found == wanted, f"{key} in {lang}: {found} != {wanted}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_plural_entries_have_the_forms_of_the_languages_cldr_rule(lang: str) -> None:
    rule = get_plural(lang)
    # When a Babel release brings new CLDR plural rules (as 2.19 did: a "many" form for es and it),
    # say what to change rather than only that two numbers differ.
    advice = (
        f"Babel {babel.__version__} gives {lang!r} the plural rule {rule.plural_forms!r}: "
        f"update the Plural-Forms header of bot/i18n/locales/{lang}/*.po and give every plural "
        f"entry {rule.num_plurals} forms in that order (or pin Babel in the lock file)"
    )
    for catalogue in _catalogues(lang):
        assert catalogue.num_plurals == rule.num_plurals, f"{catalogue.domain}.po: {advice}"
        assert catalogue.plural_expr.replace(" ", "") == rule.plural_expr.replace(" ", ""), (
            f"{catalogue.domain}.po: {advice}"
        )
        for message in catalogue:
            if isinstance(message.id, tuple):
                assert len(message.string) == rule.num_plurals and all(message.string), (
                    f"{message.id[0]} in {catalogue.domain}.po: {advice}"
                )


@pytest.mark.parametrize(
    ("lang", "one", "million", "many"),
    [
        ("en", "1 move", "1000000 moves", "7 moves"),
        ("es", "1 jugada", "1000000 de jugadas", "7 jugadas"),
        ("it", "1 mossa", "1000000 di mosse", "7 mosse"),
    ],
)
def test_a_count_of_a_million_takes_the_languages_many_form(
    lang: str, one: str, million: str, many: str
) -> None:
    # CLDR 46: Spanish and Italian say "un millón de jugadas", "un milione di mosse"
    assert i18n.t(lang, "count.moves", count=1) == one
    assert i18n.t(lang, "count.moves", count=1_000_000) == million
    assert i18n.t(lang, "count.moves", count=7) == many


def test_every_counted_placeholder_names_a_plural_entry() -> None:
    for lang in i18n.LANGUAGES:
        for key in i18n.keys(lang):
            for form in i18n.raw_forms(lang, key):
                for field in _fields(form):
                    if ":#" in field:
                        counted = field.split(":#", 1)[1]
                        assert len(i18n.raw_forms(lang, counted)) > 1, f"{key}: {counted}"


def _plural_nouns(lang: str) -> set[str]:
    """The nouns of every counted word (``count.*``) in ``lang``'s plural form ("moves",
    "mosse"), and of the masters counted at tables."""
    nouns = set()
    for key in i18n.keys(lang):
        if not key.startswith("count.") and key != "tables.masters_count":
            continue
        forms = i18n.raw_forms(lang, key)
        if len(forms) > 1 and forms[-1].startswith("{count} "):
            nouns.add(forms[-1].removeprefix("{count} ").split()[0])
    return nouns


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_number_is_written_before_a_plural_noun_by_hand(lang: str) -> None:
    nouns = _plural_nouns(lang)
    assert {"en": "moves", "es": "jugadas", "it": "mosse"}[lang] in nouns
    by_hand = re.compile(r"\{[a-z_]+(?::n)?\} (" + "|".join(map(re.escape, nouns)) + r")\b")
    offending = [
        (key, form)
        for key in sorted(i18n.keys(lang))
        for form in i18n.raw_forms(lang, key)
        if len(i18n.raw_forms(lang, key)) == 1 and by_hand.search(form)
    ]
    assert offending == []


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "game over after 1 move", "after 2 moves"),
        ("es", "terminada tras 1 jugada", "tras 2 jugadas"),
        ("it", "finita dopo 1 mossa", "dopo 2 mosse"),
    ],
)
def test_a_finished_boards_caption_counts_its_moves(lang: str, one: str, two: str) -> None:
    assert one in i18n.t(lang, "board.caption_over", game="Canfield", move=1)
    assert two in i18n.t(lang, "board.caption_over", game="Canfield", move=2)


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [
        ("en", "1 won", "masters won in all: 1"),
        ("es", "1 ganada", "maestras ganadas en total: 1"),
        ("it", "1 vinta", "maestre vinte in tutto: 1"),
    ],
)
def test_stats_count_wins_and_masters_in_words(lang: str, one: str, many: str) -> None:
    line = i18n.t(
        lang, "stats.game_line_masters", game="Cartas Maestras", games=1, wins=1, masters=1
    )
    assert one in line and many in line and "best" not in line


# ----- the captions the renderer draws -----------------------------------------------------
def test_every_word_the_renderer_asks_for_is_a_board_word() -> None:
    asked = set()
    for path in RENDERER_DIR.glob("*.py"):
        asked |= set(
            re.findall(r"\bword\(\s*[\"']([a-z_]+)[\"']", path.read_text(encoding="utf-8"))
        )
    assert asked and asked <= set(i18n.BOARD_WORDS), asked - set(i18n.BOARD_WORDS)
    assert {f"title_{game}" for game in i18n.GAME_IDS} <= set(i18n.BOARD_WORDS)


class _Drawn:
    """Records every text drawn while a board is made (each one pasted, whether at once or
    through a display list, is recorded by ``renderer.fonts.record``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: list[str] = []
        original = renderer.fonts.record

        def spy(text: str, *args: Any, **kwargs: Any) -> Any:
            self.texts.append(str(text))
            return original(text, *args, **kwargs)

        for name, module in list(sys.modules.items()):
            if name.startswith("renderer") and getattr(module, "record", None) is original:
                monkeypatch.setattr(module, "record", spy)


def _views() -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(game id, view, style) for a board of every game: fresh, and finished."""
    for game_id in i18n.GAME_IDS:
        players = ["Ana", "Bo", "Cy"] if game_id == "maestras" else ["Ana"]
        game = engine.new_game(game_id, deal=3, players=players)
        yield game_id, game.view(None), {}
        if game_id == "maestras":
            yield game_id, game.view("Ana"), {"hand": True}
            continue
        game.resign()
        yield game_id, game.view(None), {}


@pytest.mark.parametrize("lang", ["es", "it"])
def test_every_caption_a_board_draws_is_in_the_chats_language(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    words = i18n.board_words(lang)
    english_only = {
        text for key, text in i18n.board_words("en").items() if words[key] != text and len(text) > 2
    }
    assert "Imaginary Thirteen" in english_only and "Score" in english_only
    drawn = _Drawn(monkeypatch)
    for game_id, view, style in _views():
        drawn.texts.clear()
        renderer.draw(game_id, view, lang=lang, words=words, **style)
        assert drawn.texts, game_id
        leaked = {
            w for w in english_only for text in drawn.texts if re.search(rf"\b{re.escape(w)}", text)
        }
        assert not leaked, f"{game_id} {style} draws {leaked} in {lang}: {drawn.texts}"
    header = i18n.board_words(lang)["title_imaginary13"]
    drawn.texts.clear()
    renderer.draw(
        "imaginary13", engine.new_game("imaginary13", 3).view(None), lang=lang, words=words
    )
    assert any(header in text for text in drawn.texts)


# ----- the race refused because of an open game -------------------------------------------
@pytest.mark.parametrize(
    ("lang", "casual", "daily", "resign"),
    [
        ("en", "Canfield, move 1", "Daily Solitario, move 0", "/resign daily solitario"),
        ("es", "Canfield, jugada 1", "Solitario diario, jugada 0", "/resign diario solitario"),
        (
            "it",
            "Canfield, mossa 1",
            "Solitario del giorno, mossa 0",
            "/resign giornaliera solitario",
        ),
    ],
)
async def test_a_refused_race_names_the_games_in_the_way_and_the_way_out(
    chat: FakePlatform, lang: str, casual: str, daily: str, resign: str
) -> None:
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    await chat.say("ana", "/play canfield 3")
    await chat.say("ana", "/move d")
    await chat.say("ana", "/daily solitario")
    (refused,) = await chat.say("ana", "/race")
    assert refused.key == "race.busy" and refused.refusal
    assert casual in refused.text and daily in refused.text and resign in refused.text
    assert refused.text.count("/resign ") == 2 and " canfield" in refused.text
    # one line per game: its name, then the command that ends it (on main: all in one sentence)
    lines = refused.text.splitlines()
    assert len(lines) == 3
    assert next(line for line in lines if casual in line).endswith("/resign canfield")
    assert next(line for line in lines if daily in line).endswith(resign)


#: words a text may share with English in Spanish or Italian: names of games and faces, and a
#: few words both languages use as they are
SHARED_WORDS = frozenset(
    [
        "Canfield",
        "FreeCell",
        "Cartas",
        "Maestras",
        "Solitario",
        "El",
        "No",
        "Completo",
        "completo",
        "Francesi",
        "Napoletane",
        "Piacentine",
        "min",
        "auto",
        "UTC",
        "Computer",
        "computer",
        "Replay",
        "replay",
        "link",
        "in",
    ]
)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_no_text_is_an_untranslated_copy_of_the_english(lang: str) -> None:
    untranslated = {}
    for key in sorted(i18n.keys("en")):
        if i18n.raw_forms(lang, key) != i18n.raw_forms("en", key):
            continue
        text = re.sub(r"\{[^}]*\}", " ", " ".join(i18n.raw_forms("en", key)))
        words = set(re.findall(r"[A-Za-z]+", text)) - SHARED_WORDS
        if words:
            untranslated[key] = sorted(words)
    assert untranslated == {}


@pytest.mark.parametrize(
    ("lang", "rule"),
    [
        ("en", "only an ace starts a foundation"),
        ("es", "solo un as empieza una fundación"),
        ("it", "solo un asso inizia una base"),
    ],
)
async def test_a_four_sent_to_an_empty_foundation_is_told_the_rule_it_broke(
    chat: FakePlatform, lang: str, rule: str
) -> None:
    # deal 6: column 1 shows the 4 of spades; "Foundations are built by suit" was the answer
    chat.admins.add("ana")
    await chat.say("ana", f"/lang {lang}")
    await chat.say("ana", "/play solitario 6")
    assert engine.new_game("solitario", 6).view(None)["piles"][6]["cards"] == ["4s"]
    (refused,) = await chat.say("ana", "/move 1f2")
    assert refused.refusal and rule in refused.text
    assert "Quattro di spade" in refused.text or lang != "it"


def test_spanish_calls_a_move_one_word_jugada() -> None:
    # on main the Spanish texts mixed "movimiento", "jugada" and "Jugadas" for the same thing
    other_words = re.compile(r"\b(movimientos?|movs?\.|movidas?)\b", re.IGNORECASE)
    found = []
    for catalogue in _catalogues("es"):
        for message in catalogue:
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            found += [(message.id, text) for text in texts if text and other_words.search(text)]
    assert found == []
    assert i18n.t("es", "count.moves", count=2) == "2 jugadas"
    assert i18n.t("es", "board.word.moves").lower().startswith("jugada")
