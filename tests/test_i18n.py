"""The translation layer (stawvs_ap.i18n): language negotiation, the environment,
catalogues loaded once, phrases worded in a language, the table for web pages."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stawvs_ap.cli.messages as tools_messages
import stawvs_ap.host.messages as host_messages
import stawvs_ap.i18n as i18n
import stawvs_ap.pictures.messages as picture_messages
import stawvs_ap.playground.messages as page_messages
import stawvs_ap.service.messages as service_messages
from stawvs_ap.i18n import (
    LIST_AND,
    Listing,
    Message,
    Phrase,
    catalogue,
    language_of_environment,
    languages,
    message,
    messages,
    negotiate,
)

OFFERED = ["en", "de", "fr", "pt-BR", "ru"]

# -- negotiation --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "answer"),
    [
        ("de", "de"),
        ("de-AT", "de"),
        ("DE-at", "de"),
        ("de_DE.UTF-8", "de"),
        ("fr_FR@euro", "fr"),
        ("pt", "pt-BR"),
        ("pt-PT", "pt-BR"),
        ("pt_BR", "pt-BR"),
        ("pt-br", "pt-BR"),
        ("en-GB", "en"),
        ("zh-Hant-TW", "en"),
        ("x-klingon", "en"),
        ("", "en"),
        ("*", "en"),
        ("../../etc/passwd", "en"),
        ("de" * 400, "en"),
    ],
)
def test_a_tag_finds_its_language_or_english(asked: str, answer: str) -> None:
    assert negotiate(asked, OFFERED) == answer


def test_preferences_are_tried_in_order_and_by_weight() -> None:
    assert negotiate("zh, ru", OFFERED) == "ru"
    assert negotiate("fr;q=0.5, de;q=0.9", OFFERED) == "de"
    assert negotiate("de;q=0, fr", OFFERED) == "fr"
    assert negotiate("it:fr:de", OFFERED) == "fr"  # as LANGUAGE lists them
    assert negotiate(["xx", "de-CH"], OFFERED) == "de"


@given(st.one_of(st.none(), st.text(max_size=300), st.lists(st.text(max_size=20), max_size=5)))
def test_negotiation_never_fails(asked: object) -> None:
    assert negotiate(asked, OFFERED) in OFFERED  # type: ignore[arg-type]
    assert catalogue(asked).language in languages()  # type: ignore[arg-type]


def test_english_is_always_offered() -> None:
    assert "en" in languages()
    assert catalogue().language == catalogue("en").language == "en"


@pytest.mark.parametrize(
    ("environ", "answer"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "de_DE.UTF-8", "LANGUAGE": "fr:de"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "POSIX", "LANG": "de_DE"}, "en"),
        ({"LANGUAGE": "", "LANG": "ru_RU"}, "ru"),
        ({"LANG": "sw_KE.UTF-8"}, "en"),
    ],
)
def test_the_environment_names_the_language_as_gettext_reads_it(
    environ: dict[str, str], answer: str
) -> None:
    if answer not in languages():
        pytest.skip(f"no {answer} catalogue")
    assert language_of_environment(environ) == answer


# -- catalogues ----------------------------------------------------------------------


def test_a_catalogue_is_loaded_once_and_then_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    language = next(tag for tag in languages() if tag != "en")
    monkeypatch.setattr(i18n, "_BY_TAG", {})
    loads: list[str] = []
    real = i18n._load

    def counting(tag: str) -> i18n.Catalogue:
        loads.append(tag)
        return real(tag)

    monkeypatch.setattr(i18n, "_load", counting)
    first = catalogue(language)
    for asked in [language, f"{language}-XX", language.upper(), language, "en", language]:
        catalogue(asked)
    assert catalogue(language) is first
    assert loads == [language, "en"]


def test_a_phrase_words_its_arguments_phrases_and_lists_in_its_language() -> None:
    words = catalogue("en")
    pyramids = Listing([host_messages.under_cap(5), host_messages.under_cap(0)])
    said = Phrase(host_messages.ELIMINATED_CAPS, {"actor": "Ann", "pyramids": pyramids})
    assert words.say(said) == (
        "Ann had no move left and passed, and will pass for the rest of the game. "
        "Ann's caps still stand on a large blue pyramid and a small pink pyramid."
    )
    assert words.listing([]) == ""
    assert words.listing(["Ann"]) == "Ann"
    assert words.listing(["Ann", "Bo", "Cy"]) == "Ann, Bo and Cy"


def test_a_plural_takes_the_form_of_its_number() -> None:
    words = catalogue("en")
    label = host_messages.SCORES
    assert words.say(label) == "Scores"
    svg = picture_messages.SVG_PLAYER
    assert words.say(Phrase(svg, {"name": "Ann", "points": 1})) == "Ann: 1 point"
    assert words.say(Phrase(svg, {"name": "Ann", "points": 0})) == "Ann: 0 points"
    with pytest.raises(TypeError):
        words.say(Phrase(svg, {"name": "Ann", "points": "many"}))


def test_a_missing_argument_is_a_programmers_error() -> None:
    with pytest.raises(KeyError):
        catalogue("en").say(Phrase(host_messages.PLACE_HERE))


def test_an_id_is_declared_once() -> None:
    assert message(LIST_AND.id, LIST_AND.text) == LIST_AND  # the same declaration again
    with pytest.raises(ValueError, match=r"list\.and"):
        message(LIST_AND.id, "{items} or {last}")


def test_every_message_id_is_unique_and_named_by_its_floor() -> None:
    declared = messages()
    assert len(declared) == len({m.id for m in declared.values()})
    for module in (
        host_messages,
        picture_messages,
        tools_messages,
        service_messages,
        page_messages,
    ):
        for value in vars(module).values():
            if isinstance(value, Message):
                assert declared[value.id] is value or declared[value.id] == value


# -- the table a web page reads -------------------------------------------------------


@pytest.mark.parametrize("language", languages())
def test_the_table_for_a_web_page_is_json_with_every_form(language: str) -> None:
    words = catalogue(language)
    table = words.table()
    assert json.loads(json.dumps(table)) == table
    assert table["language"] == language
    assert table["plural_forms"].startswith("nplurals=")
    texts = table["messages"]
    assert set(texts) == set(messages())
    nplurals = int(table["plural_forms"].split("nplurals=")[1].split(";")[0])
    for ident, declared in messages().items():
        if declared.plural_text is None:
            assert texts[ident] == words.template(declared)
        else:
            assert len(texts[ident]) == nplurals, ident


def test_the_table_holds_just_the_ids_asked_and_refuses_unknown_ones() -> None:
    table = catalogue("en").table(["player.name", "list.and"])
    assert table["messages"] == {"list.and": "{items} and {last}", "player.name": "Player {player}"}
    with pytest.raises(KeyError):
        catalogue("en").table(["no.such.message"])


@pytest.mark.parametrize("language", languages())
def test_templates_made_ready_for_the_percent_operator_word_as_str_format_does(
    language: str,
) -> None:
    # Catalogue.format (cached templates, % operator) against the plain way
    # (gettext's template every time, str.format_map): docs/DEVELOPMENT.md.
    words = catalogue(language)
    for declared in messages().values():
        fields = {f for _, f, _, _ in __import__("string").Formatter().parse(declared.text) if f}
        args: dict[str, object] = {name: f"<{name} 100%>" for name in fields}
        for name in declared.words:
            args[name] = host_messages.claimed(3)
        counts = [1] if declared.plural_by is None else [0, 1, 2, 5, 21, 1000000]
        for n in counts:
            if declared.plural_by is not None:
                args[declared.plural_by] = n
            fast = words.format(declared, args)  # type: ignore[arg-type]
            assert fast == words.plainly(declared, args), (language, declared.id, n)  # type: ignore[arg-type]
            assert words.template(declared, n) == words.looked_up(declared, n)
    assert "%" in words.say(
        Phrase(service_messages.HINT_CANDIDATE_LEAD, {"move": "a1", "percent": 5, "lead": "+1.0"})
    )
