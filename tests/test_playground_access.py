"""The playground for a screen-reader or keyboard user (Debian's chromium, driven by
Playwright): the board is a grid of eight rows of named cells with one tab stop,
the arrow keys move between cells and Enter plays, and every move is said."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import random
import re

import pytest
from browser_support import require, require_axe

require()

from collections.abc import Iterator

from page_support import idle, open_page, people_only, watch
from playwright.sync_api import Browser, Page
from service_support import state_after

from stawvs_ap import StawvsGame

pytest_plugins = ("page_support",)  # the fixtures url, browser, page and errors


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_a_first_visit_is_a_person_against_the_mcts_bot_and_a_change_is_remembered(
    browser: Browser, url: str, errors: list[str]
) -> None:
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    watch(page, errors)
    open_page(page, url)
    seats = page.locator("#seats select")
    assert [seats.nth(i).input_value() for i in range(2)] == ["human", "mcts"]
    seats.nth(1).select_option("greedy")
    other = context.new_page()  # another tab, or a later visit
    open_page(other, url)
    assert other.locator("#seats select").nth(1).input_value() == "greedy"
    context.close()
    assert errors == []


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
    said = page.inner_text("#status")  # what the move did, in words and in notation
    assert re.match(
        r"Player 1 placed a cap on the (small|medium|large) (pink|blue|green|orange) "
        r"pyramid at d5\. \(d5\) Player 2 to place a cap",
        said,
    ), said
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
    people_only(opened)
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


@pytest.mark.slow
def test_axe_finds_nothing_serious_at_the_start(axe_page: Page) -> None:
    page = axe_page
    assert axe_violations(page) == []
    # The check can fail: a button with no name is a critical violation.
    page.evaluate("document.body.append(document.createElement('button'))")
    assert any(v.startswith("button-name") for v in axe_violations(page))


@pytest.mark.slow  # a long browser session (the long battery runs it)
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


# -- the keyboard alone ------------------------------------------------------------------


def go_to(page: Page, square: str) -> None:
    """Move the focus over the board's cells with the arrow keys to ``square``."""
    here = page.evaluate("document.activeElement.dataset.square")
    files, ranks = ord(square[0]) - ord(here[0]), int(square[1]) - int(here[1])
    for _ in range(abs(files)):
        page.keyboard.press("ArrowRight" if files > 0 else "ArrowLeft")
    for _ in range(abs(ranks)):
        page.keyboard.press("ArrowUp" if ranks > 0 else "ArrowDown")
    assert page.evaluate("document.activeElement.dataset.square") == square


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_the_board_stays_put_when_words_come_and_go(page: Page) -> None:
    top = page.locator("#board").bounding_box()
    page.fill("#move-input", "zz9")
    page.press("#move-input", "Enter")  # refused: a message under the move box
    idle(page)
    assert page.inner_text("#move-message")
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")  # a move made and said
    idle(page)
    assert "pyramid at d4. (d4)" in page.inner_text("#status")
    assert page.locator("#board").bounding_box() == top


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_the_describe_key_reads_players_then_rows(page: Page) -> None:
    page.keyboard.press("b")
    go_to(page, "c3")
    page.keyboard.press("Enter")
    idle(page)
    page.keyboard.press("d")
    assert page.locator("#said").get_attribute("aria-live") == "polite"
    said = page.text_content("#said") or ""
    assert said.startswith("Player 1: 0 points, caps on c3. Player 2: 0 points, caps on –.")
    assert "Row 8: a8, no pyramid; b8, " in said and "Row 1: a1, no pyramid;" in said
    assert "c3, " in said and ", cap of Player 1;" in said


@pytest.mark.slow  # a whole game, key by key
def test_a_whole_game_played_by_keyboard_alone_is_said_move_by_move(page: Page) -> None:
    page.evaluate(
        "text => window.stawvs.load(text)", StawvsGame.new(2, ["pieces-2"], seed=5).serialize()
    )
    idle(page)
    rng = random.Random(5)
    page.keyboard.press("b")
    while True:
        game = StawvsGame(page.evaluate("window.stawvs.state()"))
        if game.gameover:
            break
        move = rng.choice(game.legal_moves)
        if str(move) == "pass":
            page.keyboard.press("p")
            page.keyboard.press("b")
        else:
            for square in filter(None, [move.source, move.dest, move.target]):
                go_to(page, str(square))
                page.keyboard.press("Enter")
                idle(page)  # as a person waits to hear the page's answer
        view = idle(page)
        assert view["history"][len(game.stack) - 1]["move"] == str(move)
        # The page then passes for a player who has passed (they can do nothing
        # else): what is said is the last move made, by whom.
        last = view["history"][-1]
        words = StawvsGame(page.evaluate("window.stawvs.state()")).moves_in_words()[-1]
        assert words.startswith(f"Player {last['player']} ")
        said = page.inner_text("#status")
        assert said.startswith(f"{words} ({last['move']})"), said
    assert "The game is over." in page.inner_text("#status")


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_a_dialog_keeps_the_focus_inside_and_gives_it_back(page: Page) -> None:
    page.click("#help-button")
    dialog = page.locator("#help-dialog")
    assert dialog.is_visible()
    for _ in range(12):  # past the dialog's last control: never out into the page
        page.keyboard.press("Tab")
        assert page.evaluate(
            "document.querySelector('#help-dialog').contains(document.activeElement)"
        )
    page.keyboard.press("Escape")
    assert not dialog.is_visible()
    assert page.evaluate("document.activeElement.id") == "help-button"
