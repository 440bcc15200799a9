"""The examples in the package's docstrings (``>>>``) show the main API at a glance,
python-chess style, and they run: ``--doctest-modules`` in ``pyproject.toml``
collects them from ``stawvs_ap/`` in every run, the default one included. This
file checks that they are collected and that each module of the main API has some.
"""

from __future__ import annotations

import doctest
import importlib
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The modules (and classes) a reader meets first; each shows itself in examples.
SHOWN = (
    "stawvs_ap",
    "stawvs_ap.errors",
    "stawvs_ap.core.moves.Move",
    "stawvs_ap.core.squares.Square",
    "stawvs_ap.core.pyramids.Pyramid",
    "stawvs_ap.core.position.Position",
    "stawvs_ap.core.notation",
    "stawvs_ap.core.variants",
    "stawvs_ap.core.scoring",
    "stawvs_ap.host.game.StawvsGame",
    "stawvs_ap.bots",
    "stawvs_ap.schemas",
    "stawvs_ap.records",
)


def _examples(dotted: str) -> list[doctest.Example]:
    """The examples of a module's docstring, or of a class's (``module.Class``)."""
    try:
        target: object = importlib.import_module(dotted)
    except ModuleNotFoundError:
        module, name = dotted.rsplit(".", 1)
        target = getattr(importlib.import_module(module), name)
    tests = doctest.DocTestFinder(recurse=False).find(target, dotted)
    return [example for test in tests for example in test.examples]


def test_the_default_run_collects_the_docstring_examples_of_the_package() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = options["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in pytest_options["addopts"].split()
    assert "stawvs_ap" in pytest_options["testpaths"]


@pytest.mark.parametrize("dotted", SHOWN)
def test_the_main_api_shows_itself_in_examples(dotted: str) -> None:
    assert len(_examples(dotted)) >= 3, f"{dotted}: its docstring needs examples (>>>)"
