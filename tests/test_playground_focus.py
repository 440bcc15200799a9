"""The playground's board after a mouse's click: the keys' help line ("Square
e3: Enter or Space clicks it.") gives way to the board's own help, and no
keyboard frame is left on the square clicked (after a claim it would look like
a selection of the emptied square); the arrow keys bring the frame back."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import pytest
from browser_support import require

require()

from page_support import idle
from playwright.sync_api import Page

pytest_plugins = ("page_support",)  # the fixtures url, browser, page and errors

BOARD_HELP = "Click a square, or focus the board and use the arrow keys and Enter."


@pytest.mark.slow
def test_a_mouse_click_puts_the_board_help_back_and_leaves_no_keyboard_frame(
    page: Page,
) -> None:
    page.keyboard.press("b")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#board-help") == "Square e4: Enter or Space clicks it."
    assert page.locator("#board .cursor").is_visible()
    page.click('[data-square="c3"]')
    assert [h["move"] for h in idle(page)["history"]] == ["c3"]
    assert page.inner_text("#board-help") == BOARD_HELP
    assert not page.locator("#board .cursor").is_visible()
    page.click('[data-square="f5"]')
    assert [h["move"] for h in idle(page)["history"]] == ["c3", "f5"]
    assert not page.locator("#board .cursor").is_visible()
    page.keyboard.press("ArrowLeft")  # the keyboard again: its frame shows
    assert page.locator("#board .cursor").is_visible()
    assert page.inner_text("#board-help") == "Square e5: Enter or Space clicks it."


# -- the analysis panel -----------------------------------------------------------------


@pytest.mark.slow
def test_the_analysis_panel_lists_lines_previews_one_and_shows_the_claim_map(
    page: Page,
) -> None:
    from records_support import golden_in_progress

    from stawvs_ap import from_record

    game = from_record(golden_in_progress("2p-default-seed-1.json", 23), allow_unfinished=True)
    page.evaluate("text => window.stawvs.load(text)", game.serialize())
    idle(page)
    assert page.locator("#claims-toggle").is_disabled()
    page.fill("#think", "1")
    page.locator("#think").dispatch_event("change")
    page.click("#analyse-button")
    idle(page)
    lines = page.locator("#analysis-lines button")
    assert lines.count() == 3
    first = lines.nth(0).inner_text()
    # The solver's best move, proven (+9) or estimated within a busy machine's time.
    assert first.startswith("a3-b4,a3: ") and " — a3-b4,a3 " in first
    lines.nth(0).click()
    idle(page)
    labels = page.locator("#board .hint-labels text").evaluate_all(
        "texts => texts.map((text) => text.textContent)"
    )
    assert labels[:2] == ["1", "2"]
    page.check("#claims-toggle")
    idle(page)
    assert page.locator("#board rect.claim").count() >= 10
    named = page.locator('[data-square="a3"]').get_attribute("aria-label") or ""
    assert "is likely to collect it (100%)" in named
    page.uncheck("#claims-toggle")
    idle(page)
    assert page.locator("#board rect.claim").count() == 0
    page.click('#moves button[data-ply="5"]')  # another position: the analysis goes
    idle(page)
    assert page.locator("#analysis-lines button").count() == 0


@pytest.mark.slow  # a whole review in the browser
def test_the_review_graph_marks_the_ply_shown_and_has_a_legend(page: Page) -> None:
    from stawvs_ap import StawvsGame

    game = StawvsGame.new(2, seed=3)
    for _ in range(6):
        game.move(game.moves()[0])
    page.evaluate("text => window.stawvs.load(text)", game.serialize())
    idle(page)
    page.click("#review-button")
    page.wait_for_selector("#review-button:not([hidden])", timeout=60_000)
    graph = page.locator("#review-graph svg")
    assert graph.locator("g.legend-entry").count() == 2
    page.click('#moves button[data-ply="3"]')  # a judged move shows the position before it
    shown = idle(page)["ply"]
    assert shown in (2, 3)
    marker = graph.locator("line.shown-ply")
    assert marker.get_attribute("data-ply") == str(shown)
    page.click('#moves button[data-ply="4"]')
    idle(page)
    assert marker.get_attribute("data-ply") == str(idle(page)["ply"])
    column = graph.locator(f'.ply-column[data-ply="{idle(page)["ply"]}"]')
    middle = float(column.get_attribute("x") or 0) + float(column.get_attribute("width") or 0) / 2
    assert abs(float(marker.get_attribute("x1") or 0) - middle) < 0.5


@pytest.mark.slow  # a whole review in the browser, then the retries
def test_retry_mistakes_asks_for_each_judged_move_blunders_first(page: Page) -> None:
    from stawvs_ap import StawvsGame

    game = StawvsGame.new(2, seed=3)
    for _ in range(6):
        game.move(game.moves()[0])
    page.evaluate("text => window.stawvs.load(text)", game.serialize())
    idle(page)
    page.click("#review-button")
    page.wait_for_selector("#review-button:not([hidden])", timeout=60_000)
    judged = page.locator("#review-graph svg g.mark")
    count = judged.count()
    assert count >= 1 and page.locator("#retry-button").is_visible()
    kinds = [judged.nth(i).get_attribute("class") for i in range(count)]
    page.click("#retry-button")
    idle(page)
    status = page.locator("#review-status")
    prompt = status.inner_text()
    assert prompt.startswith("Move ") and "find a better move than" in prompt
    ply = int(prompt.split()[1].rstrip(":"))
    if any("blunder" in kind for kind in kinds):  # blunders first
        first_blunder = page.locator("#review-graph svg g.mark.blunder").first
        assert first_blunder.get_attribute("data-ply") == str(ply)
    assert idle(page)["ply"] == ply - 1  # the position before the judged move
    played = prompt.split("than ")[1].rstrip(".")
    page.fill("#retry-input", played)
    page.press("#retry-input", "Enter")
    page.wait_for_function(
        "() => !document.getElementById('review-status').textContent.startsWith('Move ' + "
        f"'{ply}:')"
    )
    said = status.inner_text()
    assert "gives away a share of" in said or said.startswith("Found:")
    if not said.startswith("Found:"):  # a second search may find the played move good enough
        page.click("#retry-best")
        idle(page)
        assert status.inner_text().startswith("The best move: ")
        assert "better" in (page.locator("#board .hint-labels").text_content() or "")
    for _ in range(count):
        if not page.locator("#retry-panel").is_visible():
            break
        page.click("#retry-next")
        idle(page)
    assert status.inner_text().startswith(("Retry over: ", "Found: "))
    assert not page.locator("#retry-panel").is_visible()
