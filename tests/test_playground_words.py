"""The page's words over HTTP, ``GET /messages/LANG``: one language's templates
of the page's messages, made from the same catalogues as the engine's words,
with gettext's plural rule and the installed languages by their own names; a
tag or a browser's list negotiated as everywhere (``de-AT`` is German, anything
unknown English, never an error). How the page evaluates the plural rule is
checked in the browser (tests/test_playground_languages.py)."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

from urllib.parse import quote

import pytest
from browser_support import require

require(browser=False)

from starlette.testclient import TestClient

from stawvs_ap.i18n import Phrase, catalogue, languages
from stawvs_ap.playground import app as playground
from stawvs_ap.playground import messages as page

TRANSLATED = [tag for tag in languages() if tag != "en"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(playground.create_app())


def table(client: TestClient, asked: str) -> dict[str, object]:
    answer = client.get(f"/messages/{quote(asked, safe='')}")
    assert answer.status_code == 200, asked
    assert answer.headers["content-type"] == "application/json; charset=utf-8"
    words: dict[str, object] = answer.json()
    return words


@pytest.mark.parametrize(
    ("asked", "language"),
    [("de-AT", "de"), ("DE", "de"), ("fr-CA", "fr"), ("ru_RU", "ru"), ("en-GB", "en")],
)
def test_a_regional_tag_gets_its_language(client: TestClient, asked: str, language: str) -> None:
    if language not in languages():
        pytest.skip(f"no {language} catalogue")
    words = table(client, asked)
    assert words["language"] == language
    assert words == {**catalogue(language).table(page.PAGE_IDS), "languages": words["languages"]}


def test_a_browsers_list_gets_its_first_language_the_server_has(client: TestClient) -> None:
    assert table(client, "tlh,ru-RU,de")["language"] == "ru"
    assert table(client, "tlh,de;q=0.5,fr;q=0.9")["language"] == "fr"


@pytest.mark.parametrize("asked", ["tlh", "xx-YY", "%2e%2e", "*", "1", "de" * 3000, ";q=1"])
def test_an_unknown_language_gets_english_never_an_error(client: TestClient, asked: str) -> None:
    words = table(client, asked)
    assert words["language"] == "en"
    assert words["messages"] == catalogue("en").table(page.PAGE_IDS)["messages"]


@pytest.mark.parametrize("tag", languages())
def test_every_page_message_is_in_every_languages_table_with_every_form(
    client: TestClient, tag: str
) -> None:
    words = table(client, tag)
    texts = words["messages"]
    assert isinstance(texts, dict) and set(texts) == set(page.PAGE_IDS)
    forms = len(catalogue(tag).representatives())
    assert str(words["plural_forms"]).startswith(f"nplurals={forms};")
    for declared in page.PAGE_MESSAGES:
        if declared.plural_text is None:
            assert isinstance(texts[declared.id], str), declared.id
        else:
            assert len(texts[declared.id]) == forms, declared.id


def test_the_language_menu_lists_every_installed_language_by_its_own_name(
    client: TestClient,
) -> None:
    listed = table(client, "en")["languages"]
    assert listed == table(client, "ru")["languages"]  # the same menu in every language
    assert [entry["tag"] for entry in listed] == list(languages())  # type: ignore[index]
    names = {entry["tag"]: entry["name"] for entry in listed}  # type: ignore[index]
    assert names["en"] == "English"
    assert {"de": "Deutsch", "fr": "Français", "ru": "Русский"}.items() <= names.items()
    assert len(set(names.values())) == len(names)


@pytest.mark.parametrize("tag", TRANSLATED)
def test_the_page_says_points_with_its_languages_plural_forms(tag: str) -> None:
    words = catalogue(tag)
    said = {n: words.say(Phrase(page.PANEL_POINTS, {"points": n})) for n in (1, 2, 5, 21)}
    expected = {
        "de": ["1 Punkt", "2 Punkte", "5 Punkte", "21 Punkte"],
        "fr": ["1 point", "2 points", "5 points", "21 points"],
        "ru": ["1 очко", "2 очка", "5 очков", "21 очко"],
    }
    if tag in expected:
        assert list(said.values()) == expected[tag]


@pytest.mark.slow
def test_tables_are_kept_once_a_language_however_many_ways_it_is_asked(
    client: TestClient,
) -> None:
    for number in range(300):
        table(client, f"x{number},de-AT;q=0.{number % 9 + 1}")
    assert playground._table.cache_info().currsize <= len(languages())


def test_the_page_arrives_worded_in_the_asked_language_before_any_script(
    client: TestClient,
) -> None:
    german = client.get("/", headers={"accept-language": "de-AT,de;q=0.9,en;q=0.5"}).text
    assert '<html lang="de">' in german and ">Passen</button>" in german
    board = catalogue("de").say(page.BOARD)
    assert f'data-msg-label="page.board.label" aria-label="{board}"' in german
    french = client.get("/?lang=fr").text
    assert '<html lang="fr">' in french and 'data-msg="page.title">Bac à sable Stawvs<' in french
    english = client.get("/", headers={"accept-language": "tlh"}).text
    assert '<html lang="en">' in english and ">Pass</button>" in english
    assert 'data-msg="page.skip"></a>' not in english  # no element left without its words
