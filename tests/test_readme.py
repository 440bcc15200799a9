"""The README tells the truth: its Python examples run, and its table of error
codes is exactly :class:`stawvs_ap.ErrorCode`."""

from __future__ import annotations

import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from stawvs_ap import ErrorCode

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"\n{title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end >= 0 else None]


PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", _section("## Use from Python"), re.S)


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda b: b.splitlines()[0][:40])
def test_a_python_example_of_the_readme_runs(block: str) -> None:
    if "entry_points" in block and not entry_points(group="abstractplay.games"):
        pytest.skip("the project is not installed (pip install -e .)")
    exec(compile(block, "README.md", "exec"), {})


def test_the_readme_lists_every_error_code_and_no_other() -> None:
    table = _section("### Errors")
    listed = set(re.findall(r"^\| (.*?) \|", table, re.M)) - {"code", "---"}
    codes = {code.strip("`") for row in listed for code in row.split(", ")}
    assert codes == {str(code) for code in ErrorCode}


def test_the_set_up_example_shows_what_the_replay_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from stawvs_ap.tools.cli import main

    command = "stawvs-ap replay fixtures/golden/2p-default-seed-1.json"
    block = README.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    root = Path(__file__).resolve().parent.parent
    assert main(["replay", str(root / "fixtures/golden/2p-default-seed-1.json")]) == 0
    assert capsys.readouterr().out == block
