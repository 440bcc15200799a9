"""The README tells the truth: each of its Python examples runs (or is skipped,
naming the extra it needs, when that extra is not installed), the contract's
table of error codes is exactly the package's codes, and the set-up command
prints what it shows."""

from __future__ import annotations

import os
import re
from importlib.metadata import entry_points
from importlib.util import find_spec
from pathlib import Path

import pytest

from stawvs_ap import ErrorCode
from stawvs_ap.bots.base import BotErrorCode
from stawvs_ap.cli.safe_io import CliErrorCode
from stawvs_ap.service.jsonrpc import ServiceErrorCode

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CONTRACT = (ROOT / "docs" / "CONTRACT.md").read_text(encoding="utf-8")

#: Every Python example of the README, in the order a reader meets them.
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)
#: The modules of the extras that the test extra does not install, with the
#: extra and the variable with which CI says the example must run all the same.
EXTRAS = {"pyspiel": ("rl", "STAWVS_REQUIRE_RL"), "pettingzoo": ("rl", "STAWVS_REQUIRE_RL")}


def test_the_readme_is_short_and_shows_an_example_for_each_door() -> None:
    assert len(README.splitlines()) <= 180
    for section in ("From Python", "For a game host", "JSON-RPC service", "Research"):
        text = README.split(f"\n## {section}", 1)[1].split("\n## ", 1)[0]
        assert "```python\n" in text, section


@pytest.mark.slow
@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda b: b.splitlines()[0][:40])
def test_a_python_example_of_the_readme_runs(block: str) -> None:
    if "entry_points" in block and not entry_points(group="abstractplay.games"):
        pytest.skip("the project is not installed (pip install -e .)")
    for module, (extra, required) in EXTRAS.items():
        needed = re.search(rf"^(import|from) {module}\b", block, re.M)
        if needed and find_spec(module) is None and os.environ.get(required) != "1":
            pytest.skip(f'needs the {extra} extra (pip install -e ".[{extra}]")')
    exec(compile(block, "README.md", "exec"), {})


def test_the_contract_lists_every_error_code_and_no_other() -> None:
    table = CONTRACT.split("\n### §3.2 Error codes\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (`.*?) \|", table, re.M)
    codes = {code for row in rows for code in re.findall(r"`([A-Z_]+)`", row.split(" (")[0])}
    families = (ErrorCode, BotErrorCode, ServiceErrorCode, CliErrorCode)
    assert codes == {str(code) for family in families for code in family}


def test_the_set_up_example_shows_what_the_replay_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from stawvs_ap.cli.cli import main

    command = "stawvs-ap replay fixtures/golden/2p-default-seed-1.json"
    assert README.index(command) < README.index("\n## From Python\n")
    block = README.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    assert main(["replay", str(ROOT / "fixtures/golden/2p-default-seed-1.json")]) == 0
    assert capsys.readouterr().out == block
