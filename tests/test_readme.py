"""The README tells the truth: each of its Python examples runs, its table of
error codes is exactly :class:`stawvs_ap.ErrorCode`, and the set-up command
prints what it shows."""

from __future__ import annotations

import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from stawvs_ap import ErrorCode
from stawvs_ap.bots.base import BotErrorCode
from stawvs_ap.cli.safe_io import CliErrorCode
from stawvs_ap.service.jsonrpc import ServiceErrorCode

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    """The text of the section headed ``title`` (``"### Errors"``), up to the next
    section of level 2."""
    start = README.index(f"\n{title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end >= 0 else None]


#: Every Python example of the README, in the order a reader meets them.
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_readme_shows_python_examples_for_a_host_a_program_and_the_bots() -> None:
    assert len(re.findall(r"```python\n", _section("## Use from Python"))) >= 3
    assert "```python\n" in _section("## Bots")
    assert "```python\n" in _section("## JSON-RPC service")


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda b: b.splitlines()[0][:40])
def test_a_python_example_of_the_readme_runs(block: str) -> None:
    if "entry_points" in block and not entry_points(group="abstractplay.games"):
        pytest.skip("the project is not installed (pip install -e .)")
    exec(compile(block, "README.md", "exec"), {})


def test_the_readme_lists_every_error_code_and_no_other() -> None:
    table = _section("### Errors")
    listed = set(re.findall(r"^\| (.*?) \|", table, re.M)) - {"code", "---"}
    # a row's codes, then in brackets the enum that holds them
    codes = {code.strip("`") for row in listed for code in row.split(" (")[0].split(", ")}
    families = (ErrorCode, BotErrorCode, ServiceErrorCode, CliErrorCode)
    assert codes == {str(code) for family in families for code in family}


def test_the_set_up_example_shows_what_the_replay_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from stawvs_ap.cli.cli import main

    command = "stawvs-ap replay fixtures/golden/2p-default-seed-1.json"
    assert README.index(command) < README.index("\n## Use from Python\n")
    block = README.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    assert main(["replay", str(ROOT / "fixtures/golden/2p-default-seed-1.json")]) == 0
    assert capsys.readouterr().out == block
