"""The repository's top level is the design card's, plus what a Python project
conventionally keeps at its root: a stray file (a state left by a test run, a
scratch script) fails here.

The test reads the files git tracks (``git ls-files``), so that what a checkout
holds untracked (``.venv`` made by ``.ci/run``, caches, builds) never counts;
without git (an unpacked sdist) it is skipped.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The design card's layout.
CARD = {"pyproject.toml", "README.md", "stawvs_ap", "schemas", "tests", "fixtures", "CHANGELOG.md"}
#: The files and folders a Python project conventionally keeps at its root.
CONVENTIONAL = {
    "LICENSE",
    "MANIFEST.in",
    ".ci",
    "docs",
    "benchmarks",
    "examples",
    "devtools",
    "babel.cfg",
    ".gitignore",
    "conftest.py",  # pytest's root configuration (tests/ has its own)
    "Dockerfile",  # the Abstract Play bot's container (docs/abstract-play-bot.md)
    ".dockerignore",
}


def top_level(tracked: list[str]) -> set[str]:
    """The first component of each tracked path."""
    return {path.split("/", 1)[0] for path in tracked if path}


def strays(tracked: list[str]) -> set[str]:
    """What the top level holds beyond the card and the conventional root files."""
    return top_level(tracked) - CARD - CONVENTIONAL


def _tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: nothing tells tracked files from build leftovers")
    done = subprocess.run(
        ["git", "ls-files", "-z"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"git ls-files failed: {done.stderr.strip()}")
    return done.stdout.split("\0")


def test_the_top_level_holds_the_card_and_the_conventional_root_files_only() -> None:
    tracked = _tracked_files()
    assert not strays(tracked), f"stray files at the top level: {sorted(strays(tracked))}"
    assert top_level(tracked) >= CARD


def test_a_stray_file_at_the_top_level_is_caught() -> None:
    tracked = [*_tracked_files(), "after.json"]
    assert strays(tracked) == {"after.json"}
