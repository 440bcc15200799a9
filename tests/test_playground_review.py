"""The playground's game review in a real browser (Debian's chromium, driven by
Playwright): the Review button reviews the game showing its progress, the
graph is drawn under the board with its text alternative in the page's
language, the move list carries the judgements, a click on the graph shows
the position before that move with the played and better moves as arrows,
and Stop stops a review under way."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import pytest
from browser_support import require

require()

from page_support import idle
from playwright.sync_api import Page

from stawvs_ap import StawvsGame

pytest_plugins = ("page_support",)  # the fixtures url, browser, page and errors

MARKS = {"?!", "?", "??"}


def first_moves_game(plies: int) -> str:
    """A game whose every move is the first legal one: it has blunders to find."""
    game = StawvsGame.new(2, seed=3)
    for _ in range(plies):
        game.move(game.moves()[0])
    return game.serialize()


def review(page: Page, state: str) -> None:
    page.evaluate("text => window.stawvs.load(text)", state)
    idle(page)
    page.click("#review-button")
    page.wait_for_selector("#review-button:not([hidden])", timeout=60_000)


@pytest.mark.slow  # a whole review in the browser
def test_the_review_button_draws_the_graph_and_marks_the_moves(page: Page) -> None:
    review(page, first_moves_game(6))
    assert page.locator("#review-section").is_visible()
    graph = page.locator("#review-graph svg")
    assert graph.get_attribute("role") == "img"
    assert page.locator("#review-graph svg desc").text_content()
    assert graph.locator("g.player-line").count() == 2
    assert page.locator("#review-players li").count() == 2
    marks = page.locator("#moves .review-mark").all_inner_texts()
    judged = graph.locator("g.mark").count()
    assert len(marks) == judged and set(marks) <= MARKS
    assert "click the graph" in page.inner_text("#review-status")


@pytest.mark.slow
def test_a_click_on_the_graph_shows_the_position_with_the_played_and_better_moves(
    page: Page,
) -> None:
    state = first_moves_game(6)
    review(page, state)
    page.locator('#review-graph rect.ply-column[data-ply="3"]').click(force=True)
    view = idle(page)
    assert view["ply"] == 2
    played = StawvsGame(state).move_history()[1][0]
    arrows = page.locator("#board g.hint")
    assert played in [arrows.nth(i).get_attribute("data-move") for i in range(arrows.count())]


@pytest.mark.slow
def test_the_review_speaks_the_pages_language(page: Page, url: str) -> None:
    page.goto(url + "?lang=de")
    page.wait_for_selector('body[data-ready="yes"]', timeout=20_000)
    assert page.inner_text("#review-button") == "Analysieren"
    review(page, first_moves_game(4))
    assert "Anteil am Sieg" in (page.locator("#review-graph-title").text_content() or "")
    assert "Genauigkeit" in page.inner_text("#review-players")


@pytest.mark.slow
def test_stop_stops_a_review_under_way(page: Page) -> None:
    page.evaluate("text => window.stawvs.load(text)", first_moves_game(30))
    idle(page)
    page.click("#review-button")
    page.wait_for_selector("#review-stop:not([hidden])")
    page.click("#review-stop")
    page.wait_for_selector("#review-button:not([hidden])", timeout=60_000)
    status = page.inner_text("#review-status")
    assert "stopped" in status and "of 31 positions" in status
