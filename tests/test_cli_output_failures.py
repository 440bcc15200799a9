"""A failure to write any output, standard output included, is one line on
standard error and exit status 2, and then no output file changes."""

from __future__ import annotations

import resource
import subprocess
from pathlib import Path

import pytest
from cli_process import ENV, new_state, one_error, record_file, run, start, temporaries

# Standard output is a buffered stream, or not under PYTHONUNBUFFERED: the
# error then shows up on flushing or on writing, and both must be caught.
BUFFERING = {
    "buffered": {k: v for k, v in ENV.items() if k != "PYTHONUNBUFFERED"},
    "unbuffered": {**ENV, "PYTHONUNBUFFERED": "1"},
}


def run_into(
    device: str, *args: str | Path, env: dict[str, str] = ENV
) -> subprocess.CompletedProcess[str]:
    with open(device, "w", encoding="utf-8") as out:
        proc = start(*args, stdout=out, env=env)
        _, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, "", err)


@pytest.mark.parametrize("buffering", sorted(BUFFERING))
@pytest.mark.parametrize(
    "args", [["info"], ["--version"], ["--help"], ["new", "--players", "2"]], ids=lambda a: a[0]
)
@pytest.mark.slow
def test_a_full_disk_on_standard_output_is_one_line_and_status_2(
    args: list[str], buffering: str
) -> None:
    line = one_error(run_into("/dev/full", *args, env=BUFFERING[buffering]))
    assert line == "stawvs-ap: error: cannot write to standard output: No space left on device"


def closed_pipe(*args: str | Path) -> subprocess.CompletedProcess[str]:
    proc = start(*args)
    assert proc.stdout is not None
    proc.stdout.close()  # before the interpreter has even started: nobody will read
    err = proc.stderr.read() if proc.stderr else ""
    proc.wait(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, "", err)


@pytest.mark.slow
def test_a_closed_pipe_on_standard_output_is_one_line_without_traceback() -> None:
    done = closed_pipe("info")
    assert "Exception ignored" not in done.stderr
    assert one_error(done) == "stawvs-ap: error: cannot write to standard output: Broken pipe"


@pytest.mark.slow
def test_files_are_not_written_when_standard_output_fails(tmp_path: Path) -> None:
    record = record_file(tmp_path)
    svg, render = tmp_path / "board.svg", tmp_path / "board.json"
    render.write_text("old", encoding="utf-8")
    for done in (
        run_into("/dev/full", "replay", record, "--svg", svg, "--render", render),
        closed_pipe("replay", record, "--svg", svg, "--render", render),
    ):
        assert "cannot write to standard output" in one_error(done)
        assert not svg.exists() and render.read_text(encoding="utf-8") == "old"
        assert temporaries(tmp_path) == []


@pytest.mark.slow
def test_a_file_that_cannot_be_written_in_full_changes_nothing(tmp_path: Path) -> None:
    """A file size limit (RLIMIT_FSIZE) makes writing fail halfway, like a full disk."""
    state = tmp_path / "state.json"
    state.write_text(new_state(), encoding="utf-8")
    record = record_file(tmp_path)
    svg, render = tmp_path / "board.svg", tmp_path / "board.json"
    svg.write_text("old svg", encoding="utf-8")
    render.write_text("old render", encoding="utf-8")
    small = {resource.RLIMIT_FSIZE: 1000}
    assert one_error(run("svg", state, "-o", svg, limits=small)) == (
        f"stawvs-ap: error: cannot write {str(svg)!r}: File too large"
    )
    done = run("replay", record, "--svg", svg, "--render", render, limits=small)
    assert "File too large" in one_error(done)
    assert svg.read_text(encoding="utf-8") == "old svg"
    assert render.read_text(encoding="utf-8") == "old render"
    assert temporaries(tmp_path) == []
