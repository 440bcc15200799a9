"""The playground in a real browser (Debian's chromium, driven by Playwright):
a whole game by clicks against a bot ends as the same moves make it through
the Python API; a loaded record replays to its end; a hint draws its arrows;
the keyboard alone plays; tabs never meet and a reload restores the game; a
phone-sized screen needs no sideways scrolling; and no page ever logs an
error. The page is checked through its contract: ``data-square`` elements,
``#moves``, ``#move-input``, ``window.stawvs.state()`` and ``.load(text)``.
"""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from browser_support import require

require()

from page_support import idle, open_page, watch
from playwright.sync_api import Browser, Page
from records_support import in_progress
from service_support import ROOT, state_after

from stawvs_ap import StawvsGame, from_record, solve
from stawvs_ap.core.moves import Move

pytest_plugins = ("page_support",)  # the fixtures url, browser, page and errors

GOLDEN = ROOT / "fixtures" / "golden" / "2p-default-seed-1.json"


def without_timestamps(state: str) -> dict[str, Any]:
    doc = json.loads(state)
    for entry in doc["stack"]:
        entry.pop("_timestamp", None)
    return doc


def click_move(page: Page, move: str) -> None:
    """Play ``move`` as a player would: its squares by clicks, or the Pass button."""
    if move == "pass":
        page.click("#pass-button")
        return
    parsed = Move.parse(move)
    game = StawvsGame(page.evaluate("window.stawvs.state()"))
    squares = [parsed.source, parsed.dest, parsed.target]
    if "hey" in game.variants:
        squares = squares[:2]  # the claim of FROM comes with the slide
    for square in filter(None, squares):
        page.click(f'[data-square="{square}"]')


# -- whole games ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed", "variants"), [(2, 7, []), (3, 11, ["hey"])])
def test_a_whole_game_by_clicks_against_bots_ends_as_the_python_api_game(
    page: Page, tmp_path: Path, players: int, seed: int, variants: list[str]
) -> None:
    page.click("#new-button")
    page.select_option("#new-players", str(players))
    for variant in variants:
        page.check(f"#variant-{variant}")
    page.fill("#new-seed", str(seed))
    page.click("#new-start")
    idle(page)
    for player in range(2, players + 1):
        page.select_option(f"#seat-{player}", "greedy" if player == 2 else "random")
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(400):
        view = idle(page)
        if view["gameover"]:
            break
        assert view["currplayer"] == 1, "a bot did not move"
        game = StawvsGame(page.evaluate("window.stawvs.state()"))
        move = rng.choice(game.moves())
        kinds.add("pass" if move == "pass" else "place" if "-" not in move else "slide")
        click_move(page, move)
    view = idle(page)
    assert view["gameover"]
    assert kinds == {"place", "slide", "pass"}

    state = page.evaluate("window.stawvs.state()")
    replayed = StawvsGame(players, variants=variants, seed=seed)
    for entry in view["history"]:
        replayed.move(entry["move"])
    assert without_timestamps(state) == without_timestamps(replayed.serialize())
    moves = page.locator("#moves button").all_inner_texts()
    assert moves == [entry["move"] for entry in view["history"]]
    page.click("#load-button")
    saved = {}
    for button in ("save-state", "save-record", "save-svg"):
        with page.expect_download() as download:
            page.click(f"#{button}")
        saved[button] = Path(download.value.path()).read_text(encoding="utf-8")
    assert saved["save-state"] == state + "\n"
    assert from_record(json.loads(saved["save-record"])).position == replayed.position
    assert saved["save-svg"].startswith("<svg") and saved["save-svg"].count("data-square=") == 64
    page.screenshot(path=str(tmp_path / "game-over.png"), full_page=True)
    assert (tmp_path / "game-over.png").stat().st_size > 10_000


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_a_loaded_record_replays_to_its_end(page: Page) -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    record = json.loads(text)["record"]
    final = from_record(record)
    page.click("#load-button")
    page.fill("#load-text", text)
    page.click("#load-go")
    view = idle(page)
    plies = len(record["moves"]) and view["plies"]
    assert view["ply"] == 0 and plies == sum(map(len, final.move_history()))
    page.focus("#players")
    for ply in range(1, plies + 1):
        page.keyboard.press("ArrowRight")
        if ply % 10 == 0 or ply == plies:
            assert idle(page)["ply"] == ply
    assert idle(page)["gameover"]
    assert page.evaluate("window.stawvs.state()") == final.serialize()
    names = [p["name"] for p in record["header"]["players"]]
    winners = ", ".join(names[p - 1] for p in final.winner)
    assert winners in page.inner_text("#result")
    page.click('#moves button[data-ply="5"]')
    assert idle(page)["ply"] == 5
    page.locator("#ply-slider").focus()
    page.keyboard.press("End")
    assert idle(page)["ply"] == plies


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_a_record_opened_from_a_file_loads_as_a_pasted_one(page: Page) -> None:
    page.click("#load-button")
    page.set_input_files("#load-file", str(GOLDEN))
    view = idle(page)
    assert (view["ply"], view["gameover"]) == (0, False)
    assert (
        page.evaluate("window.stawvs.state()")
        == from_record(json.loads(GOLDEN.read_text(encoding="utf-8"))["record"]).serialize()
    )
    assert not page.locator("#load-dialog").is_visible()


def test_the_record_of_a_game_in_progress_loads_to_be_played_on(page: Page) -> None:
    record = in_progress(json.loads(GOLDEN.read_text(encoding="utf-8"))["record"], 10)
    page.evaluate("text => window.stawvs.load(text)", json.dumps(record))
    view = idle(page)
    assert (view["plies"], view["gameover"]) == (20, False)
    loaded = StawvsGame(page.evaluate("window.stawvs.state()"))
    assert loaded.move_history() == record["moves"] and not loaded.gameover


def test_load_takes_a_state_as_text_and_refuses_what_is_not_one(page: Page) -> None:
    state = state_after(15, seed=2)
    page.evaluate("text => window.stawvs.load(text)", state)
    assert page.evaluate("window.stawvs.state()") == state
    assert idle(page)["plies"] == 15
    with pytest.raises(Exception, match="not JSON"):
        page.evaluate("window.stawvs.load('not json')")
    with pytest.raises(Exception, match=r"BAD_STATE|state"):
        page.evaluate('window.stawvs.load(\'{"game": "stawvs"}\')')
    assert page.evaluate("window.stawvs.state()") == state  # nothing lost


# -- hints, keys, tabs, screens -----------------------------------------------------------


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_a_hint_draws_the_top_candidates_as_arrows_with_their_values(page: Page) -> None:
    page.evaluate("text => window.stawvs.load(text)", state_after(14, seed=3))
    page.fill("#think", "0.3")
    page.locator("#think").dispatch_event("change")
    page.click("#hint-button")
    idle(page)
    hints = page.locator("#board g.hint")
    assert 1 <= hints.count() <= 3
    assert page.locator("#board g.hint line.arrow").count() == hints.count()
    assert page.locator("#hint-list li").count() == hints.count()
    best = page.locator("#board g.hint").first.get_attribute("data-move")
    assert best in StawvsGame(page.evaluate("window.stawvs.state()")).moves()
    assert best in page.inner_text("#status")


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_a_hint_in_a_proven_endgame_says_the_solvers_verdict(page: Page) -> None:
    from test_service_solve import endgame_state

    page.evaluate("text => window.stawvs.load(text)", endgame_state(6))
    idle(page)  # the bots' seats may answer first
    game = StawvsGame(page.evaluate("window.stawvs.state()"))
    solution = solve(game)
    assert solution.margin is not None and solution.margin > 0 and solution.best
    page.click("#hint-button")
    idle(page)
    words = f"Player {game.currplayer} wins by {solution.margin} points (proven)"
    assert words in page.inner_text("#status")
    arrows = page.locator("#board g.hint")
    assert [arrows.nth(i).get_attribute("data-move") for i in range(arrows.count())] == [
        str(move) for move in solution.best[:3]
    ]


@pytest.mark.slow
def test_the_keyboard_alone_plays_moves_undoes_and_redoes(page: Page) -> None:
    page.keyboard.press("m")
    page.keyboard.type("C3")  # moves are case-insensitive
    page.keyboard.press("Enter")
    assert [h["move"] for h in idle(page)["history"]] == ["c3"]
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    for key in ("ArrowRight", "ArrowRight", "ArrowUp"):  # d4 → f5
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    assert [h["move"] for h in idle(page)["history"]] == ["c3", "f5"]
    page.locator("#players").focus()
    page.keyboard.press("z")
    assert idle(page)["plies"] == 1
    page.keyboard.press("y")
    assert [h["move"] for h in idle(page)["history"]] == ["c3", "f5"]
    page.keyboard.press("r")  # a random legal move
    after = idle(page)["history"]
    assert len(after) == 3 and after[2]["move"] not in ("c3", "f5")
    page.keyboard.press("?")
    assert page.locator("#help-dialog").is_visible()


def said_of_cells(page: Page, words: str) -> set[str]:
    """The squares whose cell's accessible name says ``words``."""
    labels = page.eval_on_selector_all(
        "#board [role=gridcell]", "cells => cells.map(c => [c.dataset.square, c.ariaLabel])"
    )
    return {square for square, label in labels if words in label}


@pytest.mark.slow
def test_a_partial_move_is_previewed_with_where_it_can_go(page: Page) -> None:
    state = state_after(12, seed=8)
    game = StawvsGame(state)
    move = game.legal_moves[0]
    page.evaluate("text => window.stawvs.load(text)", state)
    idle(page)
    panel = page.inner_html(".side")
    page.click(f'[data-square="{move.source}"]')
    idle(page)
    # Only the board was redrawn (the same position): the panel is as a full redraw left it.
    assert page.inner_html(".side") == panel
    destinations = {m.dest for m in game.legal_moves if m.source == move.source}
    shown = page.locator("#board circle.destination")
    assert {shown.nth(i).get_attribute("data-at") for i in range(shown.count())} == {
        str(d) for d in destinations
    }
    assert said_of_cells(page, ", the cap can slide here") == {str(d) for d in destinations}
    assert said_of_cells(page, ", selected") == {str(move.source)}
    page.click(f'[data-square="{move.dest}"]')
    idle(page)
    targets = {
        m.target for m in game.legal_moves if m.source == move.source and m.dest == move.dest
    }
    assert page.locator("#board circle.target").count() == len(targets)
    assert said_of_cells(page, ", can be claimed") == {str(t) for t in targets}
    assert said_of_cells(page, ", the cap can slide here") == set()
    assert page.evaluate("window.stawvs.partial()") == f"{move.source}-{move.dest}"
    page.locator("#players").focus()
    page.keyboard.press("Escape")  # drops the move: a full redraw
    idle(page)
    assert page.evaluate("window.stawvs.partial()") == ""
    assert page.inner_html(".side") == panel


#: The board and the move list as a page shows them: the picture's layers
#: (all but the cells), each cell's name and state, and the rounds of moves.
_SHOWN = """() => {
    const svg = document.querySelector("#board svg");
    const layers = [...svg.children].filter((c) => !c.matches("g.squares")).map((c) => c.outerHTML);
    const cells = [...svg.querySelectorAll("[role=gridcell]")].map((c) =>
        [c.dataset.square, c.ariaLabel, c.ariaSelected, c.parentElement.getAttribute("role")]);
    return [svg.getAttribute("viewBox"), layers, cells, document.getElementById("moves").innerHTML];
}"""


@pytest.mark.slow
def test_the_board_and_moves_updated_click_by_click_are_those_of_a_page_drawn_anew(
    page: Page,
) -> None:
    # The page replaces only what changed (grid.showPicture, panel.showMoves); a
    # page opened on the same game draws everything at once: they must agree.
    page.evaluate("text => window.stawvs.load(text)", state_after(22, seed=4))
    idle(page)
    rng = random.Random(4)
    for _ in range(3):
        move = rng.choice(StawvsGame(page.evaluate("window.stawvs.state()")).legal_moves)
        for square in filter(None, [move.source, move.dest, move.target]):
            page.click(f'[data-square="{square}"]')
            idle(page)
    source = StawvsGame(page.evaluate("window.stawvs.state()")).legal_moves[0].source
    page.click(f'[data-square="{source}"]')  # a move being built, its destinations marked
    idle(page)
    updated = page.evaluate(_SHOWN)
    page.reload()
    page.wait_for_selector('body[data-ready="yes"]')
    page.click(f'[data-square="{source}"]')
    idle(page)
    assert page.evaluate(_SHOWN) == updated


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_two_tabs_never_meet_and_a_reload_restores_the_game(
    browser: Browser, url: str, errors: list[str]
) -> None:
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        watch(tab, errors)
        open_page(tab, url)
    untouched = second.evaluate("window.stawvs.state()")
    first.click('[data-square="c3"]')
    idle(first)
    played = first.evaluate("window.stawvs.state()")
    assert played != untouched
    assert second.evaluate("window.stawvs.state()") == untouched
    first.reload()
    first.wait_for_selector('body[data-ready="yes"]')
    assert first.evaluate("window.stawvs.state()") == played
    context.close()
    assert errors == []


@pytest.mark.slow
def test_the_page_is_ready_within_a_second_and_fits_a_phone(
    browser: Browser, url: str, errors: list[str], tmp_path: Path
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    phone = context.new_page()
    watch(phone, errors)
    open_page(phone, url)  # once to warm the server's caches
    seconds = min(open_page(phone, url) for _ in range(3))
    assert seconds < 5  # the figure itself (1 s) is measured by benchmarks/http.py
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    box = phone.locator("#board svg").bounding_box()
    assert box is not None and box["width"] <= 360
    phone.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    context.close()
    assert errors == []


@pytest.mark.slow  # a long browser session (the long battery runs it)
def test_colour_letters_mark_every_pyramid_and_can_be_turned_off(page: Page) -> None:
    on_board = sum(
        1
        for row in StawvsGame(page.evaluate("window.stawvs.state()")).render()["pieces"]
        for c in row
        if c
    )
    assert page.locator("#board g.pieces text.colour-mark").count() == on_board
    page.uncheck("#marks")
    idle(page)
    assert page.locator("#board text.colour-mark").count() == 0
