"""The playground's board after a mouse's click: the keys' help line ("Square
e3: Enter or Space clicks it.") gives way to the board's own help, and no
keyboard frame is left on the square clicked (after a claim it would look like
a selection of the emptied square); the arrow keys bring the frame back."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

from browser_support import require

require()

from page_support import idle
from playwright.sync_api import Page

pytest_plugins = ("page_support",)  # the fixtures url, browser, page and errors

BOARD_HELP = "Click a square, or focus the board and use the arrow keys and Enter."


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
