"""The playground for a screen-reader or keyboard user (Debian's chromium, driven by
Playwright): the board is a grid of eight rows of named cells with one tab stop,
the arrow keys move between cells and Enter plays, and every move is said."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import re

from browser_support import require

require()

from page_support import idle
from playwright.sync_api import Page

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
