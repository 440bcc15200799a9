"""The user documents hold together: every relative link of README.md and
docs/*.md points to a file that exists (and to a heading there, when it names
one), the tables the benchmark scripts print are the ones the pages show, and
no page speaks of commits or of the project's issues.

Anchors follow GitHub's rule for headings: lower case, punctuation dropped,
spaces turned into hyphens, ``-1``, ``-2``... for repeated headings.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^```.*?^```", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The text without code blocks and code spans, where links are only text."""
    return _CODE.sub("", _FENCE.sub("", text))


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown text."""
    found: set[str] = set()
    for heading in _HEADING.findall(_FENCE.sub("", text)):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower()).replace(" ", "-")
        anchor, n = slug, 0
        while anchor in found:
            n += 1
            anchor = f"{slug}-{n}"
        found.add(anchor)
    return found


def test_anchors_are_made_as_github_makes_them() -> None:
    text = "# Title\n## §2.1 Board and position notation\n## What `show` draws\n## Title\n"
    assert anchors(text) == {
        "title",
        "21-board-and-position-notation",
        "what-show-draws",
        "title-1",
    }


def _links(page: Path) -> list[str]:
    return [
        target
        for target in _LINK.findall(_prose(page.read_text(encoding="utf-8")))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # http:, https:, mailto:
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_to_a_file_and_heading_that_exist(page: Path) -> None:
    broken = []
    for target in _links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file}")
        elif (
            anchor
            and file.suffix == ".md"
            and anchor not in anchors(file.read_text(encoding="utf-8"))
        ):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    assert broken == []


def test_the_pages_link_to_each_other() -> None:
    # Every page of docs/ is reachable from the README, directly or through another page.
    reached, todo = set(), [ROOT / "README.md"]
    while todo:
        page = todo.pop()
        if page in reached or page.suffix != ".md":
            continue
        reached.add(page)
        todo += [(page.parent / t.partition("#")[0]).resolve() for t in _links(page)]
    assert set(PAGES) <= reached, sorted(p.name for p in set(PAGES) - reached)


#: The pages for users (DEVELOPMENT.md is the developers').
USER_PAGES = [page for page in PAGES if page.name != "DEVELOPMENT.md"]
#: What they do not say: commit hashes (hex, letters and digits), "issue 13", "the issue's".
#: Ed25519, the signature scheme, looks like one and is not.
PROJECT_TALK = re.compile(
    r"\b(?!ed25519\b)(?=[0-9]*[a-f])(?=[a-f]*[0-9])[0-9a-f]{7,40}\b|\bissues?\b", re.IGNORECASE
)


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_page_for_users_speaks_of_commits_or_issues(page: Path) -> None:
    # Code spans count (a hash is often written as code); code blocks do not.
    assert PROJECT_TALK.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))) == []


def _printed_tables() -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "strength.py"), "table"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


@pytest.mark.slow
def test_the_strength_and_balance_tables_are_those_strength_py_prints() -> None:
    printed = _printed_tables()
    for page in ("strength.md", "balance.md"):
        part = printed.split(f"docs/{page}:\n", 1)[1].split("\ndocs/", 1)[0]
        rows = [line for line in part.splitlines() if line.startswith("| ")]
        assert rows, page
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        assert [row for row in rows if row not in text] == [], page
