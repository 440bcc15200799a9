"""A command's outputs are each written in full before any is renamed into
place: interrupted or failing before the renames, it removes every temporary
file and changes no target; a stop signal waits for the renames to end."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from cli_process import HANG, one_error, record_file, start, temporaries, wait_for

from stawvs_ap.cli import safe_io
from stawvs_ap.cli.safe_io import FileError, Interrupted, Transaction, interrupts_raise


@pytest.mark.slow
def test_all_outputs_are_written_together(tmp_path: Path) -> None:
    record = record_file(tmp_path)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    svg, render = tmp_path / "o.svg", out_dir / "o.json"
    render.write_text("old", encoding="utf-8")
    proc = start("replay", record, "--svg", svg, "--render", render)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err == f"stawvs-ap: wrote {svg}, {render}\n"  # one line
    assert out.startswith("8 ") and svg.read_text(encoding="utf-8").startswith("<svg")
    assert render.read_text(encoding="utf-8").startswith("{")
    assert temporaries(tmp_path, out_dir) == []


@pytest.mark.parametrize(
    "signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: signal.Signals(s).name
)
@pytest.mark.slow
def test_an_interrupt_removes_every_temporary_file(tmp_path: Path, signum: int) -> None:
    """The command waits on standard input after making its temporary files."""
    svg, render = tmp_path / "o.svg", tmp_path / "o.json"
    render.write_text("old", encoding="utf-8")
    proc = start("replay", "-", "--svg", svg, "--render", render, stdin=subprocess.PIPE)
    try:
        wait_for(lambda: len(temporaries(tmp_path)) == 2, "the temporary files", proc=proc)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, "", err)
    assert one_error(done, status=128 + signum) == "stawvs-ap: interrupted"
    assert temporaries(tmp_path) == []
    assert not svg.exists() and render.read_text(encoding="utf-8") == "old"


# -- the last step, in process: a failing or interrupted rename -----------------------------


def targets(tmp_path: Path) -> tuple[Path, Path, Path]:
    first, second, third = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    first.write_text("old a", encoding="utf-8")
    second.write_text("old b", encoding="utf-8")
    return first, second, third


def test_a_failed_rename_leaves_the_old_file_and_no_temporary_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _, _ = targets(tmp_path)

    def replace(source: str, target: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(safe_io.os, "replace", replace)
    with (
        pytest.raises(FileError, match=r"cannot write '.*a\.txt': Permission denied"),
        Transaction(1000) as io,
    ):
        io.commit({str(first): "new a"})
    assert first.read_text(encoding="utf-8") == "old a"
    assert temporaries(tmp_path) == []


def test_an_interrupt_during_the_renames_waits_for_the_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = targets(tmp_path)
    real_replace = os.replace

    def replace(source: str, target: str) -> None:
        if target == str(first):
            os.kill(os.getpid(), signal.SIGTERM)
        real_replace(source, target)

    monkeypatch.setattr(safe_io.os, "replace", replace)
    with interrupts_raise(), pytest.raises(Interrupted) as stopped, Transaction(1000) as io:
        io.commit({str(first): "new a", str(second): "new b", str(third): "new c"})
    assert stopped.value.signum == signal.SIGTERM
    assert [p.read_text(encoding="utf-8") for p in (first, second, third)] == [
        "new a",
        "new b",
        "new c",
    ]
    assert temporaries(tmp_path) == []
