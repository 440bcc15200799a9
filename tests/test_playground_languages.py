"""The playground speaks the player's language, in a real browser: the
browser's own (``navigator.languages``), a choice from the language menu
(remembered), or ``?lang=``. Every word then is that language's: the page's
labels (none left in English), the panel, the engine's refusals and click
instructions, the picture's labels; the state is the same in every language.
The page's plural rule (gettext's expression, evaluated without eval) picks
the form gettext picks."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import gettext
import html
import re
from typing import Any

import pytest
from babel.messages.plurals import get_plural
from browser_support import require
from hostile import thinned

require()

from page_support import idle, open_page, watch
from playwright.sync_api import Browser, Page

from stawvs_ap import StawvsGame
from stawvs_ap.i18n import EXPECTED_LANGUAGES, Phrase, catalogue, languages
from stawvs_ap.playground.messages import PAGE_IDS, PANEL_POINTS
from stawvs_ap.service.methods import call

pytest_plugins = ("page_support",)  # the fixtures url, browser, page and errors

ENGLISH = catalogue("en").table(PAGE_IDS)["messages"]
#: What each attribute of the page's elements names a message for.
LABELS = """() => [
  ...[...document.querySelectorAll("[data-msg]")].map((e) => [e.dataset.msg, e.textContent]),
  ...[...document.querySelectorAll("[data-msg-label]")].map(
    (e) => [e.dataset.msgLabel, e.ariaLabel]),
  ...[...document.querySelectorAll("[data-msg-placeholder]")].map(
    (e) => [e.dataset.msgPlaceholder, e.placeholder]),
  ...[...document.querySelectorAll("[data-msg-role]")].map(
    (e) => [e.dataset.msgRole, e.getAttribute("aria-roledescription")]),
]"""


def needs(*tags: str) -> None:
    missing = [tag for tag in tags if tag not in languages()]
    if missing:
        pytest.skip(f"no catalogue for {missing}")


def opened(browser: Browser, url: str, errors: list[str], locale: str) -> Page:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale=locale)
    tab = context.new_page()
    watch(tab, errors)
    open_page(tab, url)
    return tab


def svg_texts(svg: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def assert_speaks(tab: Page, tag: str) -> None:
    """Every word of ``tab`` is in language ``tag``: its labels (none English),
    the seats, the keys, the panel, a refused click, a refused typed move and
    the picture."""
    words = catalogue(tag)
    table = words.table(PAGE_IDS)["messages"]
    assert tab.evaluate("window.stawvs.language()") == tag
    assert tab.evaluate("document.documentElement.lang") == tag
    assert tab.title() == table["page.title"]
    labels = tab.evaluate(LABELS)
    assert len(labels) > 40
    for ident, text in labels:
        assert text == table[ident] != ENGLISH[ident], ident
    seats = tab.locator("#seat-1 option").all_inner_texts()
    assert seats == [
        table[f"page.seat.{seat}"] for seat in ("human", "random", "greedy", "uct", "mcts")
    ]
    assert tab.locator("#help-keys dd").first.inner_text() == table["page.keys.plies"]

    view = idle(tab)
    state = tab.evaluate("window.stawvs.state()")
    game = StawvsGame(state)
    names = [str(table["player.name"]).format(player=p) for p in range(1, 5)]
    panel = tab.inner_text("#players")
    points = words.say(Phrase(PANEL_POINTS, {"points": view["players"][0]["score"]}))
    assert names[0] in panel and points in panel
    # The picture's labels are the engine's, in this language.
    picture = call("svg", {"state": state, "names": names, "marks": True, "locale": tag})["svg"]
    english = call("svg", {"state": state, "names": names, "marks": True})["svg"]
    shown = tab.locator("#board svg text").all_text_contents()
    assert shown == svg_texts(picture) != svg_texts(english)
    # A refused click and a refused typed move: the engine's reasons, in this language.
    taken = next(str(m) for m in game.legal_moves)  # a square any player could take...
    tab.click(f'[data-square="{taken}"]')
    idle(tab)
    after = StawvsGame(tab.evaluate("window.stawvs.state()"))
    tab.click(f'[data-square="{taken}"]')  # ...and then not the next player
    idle(tab)
    row, col = 8 - int(taken[1]), "abcdefgh".index(taken[0])
    refused = after.handle_click("", row, col, locale=tag).message
    assert tab.inner_text("#status") == refused != after.handle_click("", row, col).message
    tab.fill("#move-input", "a1-b1,c1")
    tab.press("#move-input", "Enter")
    idle(tab)
    verdict = after.validate_move("a1-b1,c1", locale=tag).message
    assert tab.inner_text("#move-message") == verdict != after.validate_move("a1-b1,c1").message


@pytest.mark.slow
def test_the_page_speaks_the_browsers_language(
    browser: Browser, url: str, errors: list[str]
) -> None:
    needs("de")
    tab = opened(browser, url, errors, "de-AT")  # navigator.languages: ["de-AT"]
    assert_speaks(tab, "de")
    assert tab.inner_text("#pass-button") == "Passen"
    assert "Spieler 1" in tab.inner_text("#players")
    tab.context.close()
    assert errors == []


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_the_language_menu_switches_the_page_and_the_choice_is_remembered(
    browser: Browser, url: str, errors: list[str]
) -> None:
    needs("de", "ru")
    tab = opened(browser, url, errors, "en-GB")
    assert tab.evaluate("window.stawvs.language()") == "en"
    menu = tab.locator("#language option")
    assert menu.evaluate_all("(options) => options.map((o) => o.value)") == list(languages())
    assert "Русский" in menu.all_inner_texts() and "Deutsch" in menu.all_inner_texts()
    tab.click('[data-square="c3"]')
    state = idle(tab) and tab.evaluate("window.stawvs.state()")
    tab.select_option("#language", "ru")
    idle(tab)
    assert tab.evaluate("window.stawvs.state()") == state  # the game is the same in every language
    assert tab.inner_text("#pass-button") == "Пас"
    assert_speaks(tab, "ru")
    # Remembered: a reload, and another tab, speak Russian; ?lang= says otherwise.
    tab.reload()
    tab.wait_for_selector('body[data-ready="yes"]')
    assert tab.evaluate("window.stawvs.language()") == "ru"
    other = tab.context.new_page()
    watch(other, errors)
    open_page(other, url)
    assert other.evaluate("window.stawvs.language()") == "ru"
    open_page(other, f"{url}?lang=de-CH")
    assert other.evaluate("window.stawvs.language()") == "de"
    assert other.inner_text("#pass-button") == "Passen"
    other.select_option("#language", "fr" if "fr" in languages() else "en")
    idle(other)
    assert "lang=fr" in other.url or "lang=en" in other.url  # the address follows the menu
    tab.context.close()
    assert errors == []


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_an_unknown_language_is_english(browser: Browser, url: str, errors: list[str]) -> None:
    tab = opened(browser, url, errors, "en-GB")
    open_page(tab, f"{url}?lang=tlh")
    assert tab.evaluate("window.stawvs.language()") == "en"
    assert tab.inner_text("#pass-button") == ENGLISH["page.button.pass"]
    tab.context.close()
    assert errors == []


# -- the plural rule -------------------------------------------------------------------

NUMBERS = [*range(201), 1000, 1001, 10_000, 100_000, 1_000_000, 2_000_000, 10**9]
EVALUATE = """async ([address, headers, numbers]) => {
  const { pluralRule } = await import(address);
  return headers.map((header) => {
    const rule = pluralRule(header);
    return [rule.count, numbers.map(rule.form)];
  });
}"""


def _gettext_forms(header: str) -> list[int]:
    # As the standard library's gettext reads a catalogue's Plural-Forms.
    rule = gettext.c2py(header.split(";")[1].split("plural=")[1])
    return [rule(n) for n in NUMBERS]


def test_the_pages_plural_rule_picks_the_form_gettext_picks(page: Page, url: str) -> None:
    # The installed catalogues' rules, and CLDR's for every language Abstract Play
    # has (as `pybabel init` will write them) and a few with more forms.
    headers = {tag: catalogue(tag).plural_forms for tag in languages()}
    for tag in (*EXPECTED_LANGUAGES, "ar", "cy", "ga", "lt", "pl", "sl", "cs"):
        rule = get_plural(tag.replace("-", "_"))
        headers.setdefault(tag, f"nplurals={rule.num_plurals}; plural={rule.plural_expr};")
    answers: list[Any] = page.evaluate(
        EVALUATE, [f"{url}assets/plural.js", list(headers.values()), NUMBERS]
    )
    for (tag, header), (count, forms) in zip(headers.items(), answers, strict=True):
        assert count == int(header.split("nplurals=")[1].split(";")[0]), tag
        assert forms == _gettext_forms(header), tag
    assert {"ru", "fr", "de"} <= set(headers)


@pytest.mark.slow  # a long browser session (the long battery runs it)
@pytest.mark.parametrize(
    "header",
    thinned(
        [
            "nplurals=2; plural=alert(1);",
            "nplurals=2; plural=n != 1 ? fetch('x') : 0;",
            "nplurals=2; plural=constructor;",
            "nplurals=2; plural=n ? 1;",
            "nplurals=2; plural=(n != 1;",
            "nplurals=2; plural=" + "(" * 60 + "n" + ")" * 60 + ";",
            "nplurals=2; plural=" + "n+" * 600 + "1;",
            "plural=(n != 1);",
            "",
        ],
        3,
    ),
)
def test_a_plural_rule_that_is_not_gettexts_grammar_is_refused(
    page: Page, url: str, header: str
) -> None:
    refused = page.evaluate(
        """async ([address, header]) => {
          const { pluralRule } = await import(address);
          try { pluralRule(header); return null; } catch (error) { return error.name; }
        }""",
        [f"{url}assets/plural.js", header],
    )
    assert refused == "SyntaxError"
