"""Every command the README shows runs, in the order it shows them.

The shell blocks of README.md are run line by line in an empty folder (with
``fixtures/`` and ``examples/`` of the checkout beside them), ``stawvs-ap`` and
``python`` being this interpreter's. The only lines left out are listed here
with the reason; they are still parsed, so their options exist.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from stawvs_ap.cli.cli import _build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

#: Lines not run, and why. Installing is the set-up's own job, not a command to test.
NOT_RUN = {
    'pip install -e ".[test]" && python -m pytest -n auto': "the test run itself",
    "stawvs-ap play --bot mcts --players 3 --variant hey": "a game for a person at a terminal",
    'pip install "stawvs-ap[web]" && stawvs-ap playground --open': (
        "an install, then a server that opens a browser and serves until stopped"
    ),
}
INSTALL = "pip install . && "


def commands() -> list[str]:
    """The README's shell lines in order, comments dropped."""
    found = []
    for block in re.findall(r"```(?:sh|bash|shell)\n(.*?)```", README, re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words:
                found.append(line.split("  #", 1)[0].strip())
    return found


def test_the_readme_shows_commands_and_every_line_left_out_is_there() -> None:
    shown = commands()
    assert len(shown) > 10
    assert set(NOT_RUN) <= set(shown), set(NOT_RUN) - set(shown)


@pytest.mark.slow
def test_every_command_of_the_readme_runs_in_order(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, argv in (("stawvs-ap", "-m stawvs_ap"), ("python", "")):
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {argv} "$@"\n')
        shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    for folder in ("fixtures", "examples"):
        (work / folder).symlink_to(ROOT / folder)
    env = dict(
        os.environ,
        PATH=os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")]),
        PYTHONPATH=str(ROOT),
    )
    for line in commands():
        if line in NOT_RUN:
            continue
        line = line.removeprefix(INSTALL)
        # Never install into the interpreter running the tests: list such a line above.
        assert "pip install" not in line, f"{line!r}: add it to NOT_RUN with its reason"
        done = subprocess.run(
            ["sh", "-c", line],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        # Typed in order, every command shows something: its answer, or the files it wrote.
        assert done.stdout.strip() or "wrote " in done.stderr, line
        if line.startswith("stawvs-ap validate "):
            assert '"valid":true' in done.stdout, f"{line}: the README's move is not legal there"


@pytest.mark.parametrize("line", [c for c in NOT_RUN if c.startswith("stawvs-ap ")])
def test_the_commands_left_out_have_the_options_they_show(line: str) -> None:
    _build_parser().parse_args(shlex.split(line)[1:])
