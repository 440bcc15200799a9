"""The browser tests' fixtures (a pytest plugin: a module that needs them says
``pytest_plugins = ("page_support",)`` after ``browser_support.require()``):
the playground served on a free loopback port (``url``), Debian's chromium
driven by Playwright (``browser``), and a page opened on it (``page``) that
fails its test if it logs an error (``errors``); with the helpers to watch,
open and wait for a page."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import CHROMIUM, FLAGS
from http_support import running
from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

from stawvs_ap.playground import app as playground


@pytest.fixture(scope="session")
def url() -> Iterator[str]:
    with running(lambda hosts: playground.create_app(hosts=hosts)) as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def errors() -> list[str]:
    return []


@pytest.fixture
def page(browser: Browser, url: str, errors: list[str]) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB")
    opened = context.new_page()
    watch(opened, errors)
    open_page(opened, url)
    people_only(opened)
    yield opened
    context.close()
    assert errors == []  # no console errors, no uncaught exceptions


def watch(page: Page, errors: list[str]) -> None:
    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda error: errors.append(str(error)))


def open_page(page: Page, url: str) -> float:
    """Open the page; the seconds until it is ready (the first board drawn)."""
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector('body[data-ready="yes"]', timeout=20_000)
    return time.perf_counter() - started


def people_only(page: Page) -> None:
    """Make every seat a person's (the page starts a person against the MCTS bot):
    the tests then play both sides, each seat changed where a test needs a bot."""
    page.evaluate("window.stawvs.setSeats(['human', 'human', 'human', 'human'])")


def idle(page: Page) -> Any:
    """Wait until the page runs no action and no bot is about to move; its view."""
    page.evaluate("window.stawvs.idle()")
    return page.evaluate("window.stawvs.view()")
