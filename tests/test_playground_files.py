"""The playground's files, read as shipped: the page's messages
(:mod:`stawvs_ap.playground.messages`) hold every word it shows, and the page
uses each of them; every file the page loads is served from the package, and
nothing is asked of another site (no CDN: the page works offline)."""

from __future__ import annotations

import re
import tomllib
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

import pytest

from stawvs_ap.core.pyramids import PYRAMIDS
from stawvs_ap.i18n import catalogue
from stawvs_ap.playground.messages import PAGE_IDS

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "stawvs_ap" / "playground" / "assets"
SCRIPTS = {p.name: p.read_text(encoding="utf-8") for p in sorted(ASSETS.glob("*.js"))}
PAGE = (ASSETS / "index.html").read_text(encoding="utf-8")
TABLE = catalogue("en").table(PAGE_IDS)["messages"]


class _Texts(HTMLParser):
    """The page's text outside scripts and styles, and every file it refers to."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.files: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.files.append(value)

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(data.strip())


def _page() -> _Texts:
    parser = _Texts()
    parser.feed(PAGE)
    return parser


def test_the_page_holds_no_words_of_its_own() -> None:
    # Numbers (the player counts offered) are not words.
    assert [text for text in _page().texts if not text.isdigit()] == []


def test_every_message_the_page_uses_is_in_the_table_and_every_entry_is_used() -> None:
    prefixes = "|".join(sorted({key.split(".")[0] for key in TABLE}))
    pattern = re.compile(rf'"((?:{prefixes})\.[a-z.-]+)"')
    used = set(pattern.findall(PAGE)) | {m for js in SCRIPTS.values() for m in pattern.findall(js)}
    seats = re.search(r"const SEATS = \[(.*?)\];", SCRIPTS["controls.js"])
    assert seats is not None
    used |= {f"page.seat.{name}" for name in re.findall(r'"(\w+)"', seats.group(1))}
    assert "t(`pyramid.claimed.${code}`)" in SCRIPTS["panel.js"]  # each pyramid of a collection
    used |= {f"pyramid.claimed.{pyramid.code}" for pyramid in PYRAMIDS}
    used.add("page.language-name")  # the server names the language menu's languages with it
    assert used == set(TABLE) == set(PAGE_IDS)


def test_every_placeholder_of_a_message_is_named() -> None:
    for key, words in TABLE.items():
        for text in [words] if isinstance(words, str) else words:
            assert re.sub(r"\{[a-z]+\}", "", text).count("{") == 0, key


def test_every_file_the_page_loads_is_an_asset_the_server_serves() -> None:
    pytest.importorskip("starlette")
    from stawvs_ap.playground.app import ASSETS as SERVED

    wanted = {f.removeprefix("assets/") for f in _page().files}
    for js in SCRIPTS.values():
        wanted |= set(re.findall(r'from "\./([\w.]+)"', js))
    assert wanted <= set(SERVED)
    assert set(SERVED) == {p.name for p in ASSETS.iterdir() if p.is_file()} - {"index.html"}


def test_the_wheel_ships_every_asset() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["stawvs_ap.playground"]
    package = ROOT / "stawvs_ap" / "playground"
    shipped = {p for pattern in patterns for p in package.glob(pattern) if p.is_file()}
    assert shipped == {p for p in ASSETS.rglob("*") if p.is_file()}
    assert resources.files("stawvs_ap.playground").joinpath("assets", "index.html").is_file()


def test_nothing_is_asked_of_another_site() -> None:
    everything = PAGE + "".join(SCRIPTS.values()) + (ASSETS / "playground.css").read_text()
    addresses = set(re.findall(r"(?:https?:)?//[\w.-]+\.\w+[^\s\"')]*", everything))
    assert addresses <= {"http://www.w3.org/2000/svg"}  # an XML namespace, never fetched
    assert "@import" not in everything
