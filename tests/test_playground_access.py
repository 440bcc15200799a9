"""The playground for a screen-reader or keyboard user (Debian's chromium, driven by
Playwright): the board is a grid of eight rows of named cells with one tab stop,
the arrow keys move between cells and Enter plays, and every move is said."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import re

import pytest
from browser_support import require, require_axe

require()

from collections.abc import Iterator

from page_support import idle, open_page, watch
from playwright.sync_api import Browser, Page
from service_support import state_after

from stawvs_ap import StawvsGame

pytest_plugins = ("page_support",)  # the fixtures url, browser, page and errors


def test_the_board_is_a_grid_of_eight_rows_of_named_cells_with_one_tab_stop(page: Page) -> None:
    board = page.locator("#board")
    assert board.get_attribute("role") == "grid"
    assert page.locator("#board [role=row]").count() == 8
    cells = page.locator("#board [role=row] [role=gridcell][data-square]")
    assert cells.count() == 64
    assert page.locator("#board [role=gridcell][tabindex='0']").count() == 1
    first_row = page.locator("#board [role=row]").first.locator("[role=gridcell]")
    assert [first_row.nth(i).get_attribute("data-square") for i in range(8)] == [
        f"{f}8" for f in "abcdefgh"
    ]
    corner = page.locator('[data-square="a8"]').get_attribute("aria-label")
    assert corner == "a8, no pyramid"  # the default setup leaves the corners empty
    label = page.locator('[data-square="d5"]').get_attribute("aria-label") or ""
    assert re.fullmatch(r"d5, (Small|Medium|Large) (pink|blue|green|orange) pyramid", label)


def test_arrows_move_the_focus_and_enter_plays_and_the_move_is_said(page: Page) -> None:
    page.keyboard.press("b")  # the cursor's cell, d4
    assert page.evaluate("document.activeElement.dataset.square") == "d4"
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.square") == "d5"
    page.keyboard.press("Enter")
    view = idle(page)
    assert [h["move"] for h in view["history"]] == ["d5"]
    assert page.evaluate("document.activeElement.dataset.square") == "d5"  # kept on the board
    assert page.locator("#status").get_attribute("aria-live") == "polite"
    said = page.inner_text("#status")
    assert said.startswith("Player 1 played d5. Player 2 to place a cap")
    label = page.locator('[data-square="d5"]').get_attribute("aria-label") or ""
    assert label.endswith(", cap of Player 1")


# -- axe-core: no serious or critical violations in any state of the page ------------


@pytest.fixture
def axe_page(browser: Browser, url: str, errors: list[str]) -> Iterator[Page]:
    """The page, in a context that lets axe-core's script in past the page's
    Content-Security-Policy (which allows only the page's own scripts)."""
    context = browser.new_context(
        viewport={"width": 1200, "height": 900}, locale="en-GB", bypass_csp=True
    )
    opened = context.new_page()
    watch(opened, errors)
    open_page(opened, url)
    yield opened
    context.close()
    assert errors == []


def axe_violations(page: Page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it stands."""
    page.add_script_tag(path=str(require_axe()))
    found = page.evaluate(
        """async () => (await axe.run(document)).violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(" ")}`)"""
    )
    return list(found)


def test_axe_finds_nothing_serious_at_the_start(axe_page: Page) -> None:
    page = axe_page
    assert axe_violations(page) == []
    # The check can fail: a button with no name is a critical violation.
    page.evaluate("document.body.append(document.createElement('button'))")
    assert any(v.startswith("button-name") for v in axe_violations(page))


def test_axe_finds_nothing_serious_mid_move_and_in_a_dialog(axe_page: Page) -> None:
    page = axe_page
    page.evaluate("text => window.stawvs.load(text)", state_after(14, seed=3))
    view = idle(page)
    game = StawvsGame(page.evaluate("window.stawvs.state()"))
    source = str(game.legal_moves[0].source)
    page.click(f'[data-square="{source}"]')  # a cap picked up: the move being built
    idle(page)
    assert view["mode"] == "collect" and axe_violations(page) == []
    page.click("#new-button")
    assert page.locator("#new-dialog").is_visible()
    assert axe_violations(page) == []


@pytest.mark.slow  # a search for the hint
def test_axe_finds_nothing_serious_with_a_hint_and_at_the_end(axe_page: Page) -> None:
    page = axe_page
    page.evaluate("text => window.stawvs.load(text)", state_after(14, seed=3))
    page.fill("#think", "0.3")
    page.locator("#think").dispatch_event("change")
    page.click("#hint-button")
    idle(page)
    assert page.locator("#hint-list li").count() >= 1 and axe_violations(page) == []
    page.evaluate("text => window.stawvs.load(text)", state_after(400, seed=3))
    assert idle(page)["gameover"]
    assert axe_violations(page) == []
