"""A command's outputs are written together or not at all: interrupted or
failing, it removes every temporary file and changes no target."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from cli_process import one_error, record_file, start, temporaries, wait_for

from stawvs_ap.cli import safe_io
from stawvs_ap.cli.safe_io import FileError, Interrupted, Transaction, interrupts_raise


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
def test_an_interrupt_removes_every_temporary_file(tmp_path: Path, signum: int) -> None:
    """The command waits on standard input after making its temporary files."""
    svg, render = tmp_path / "o.svg", tmp_path / "o.json"
    render.write_text("old", encoding="utf-8")
    proc = start("replay", "-", "--svg", svg, "--render", render, stdin=subprocess.PIPE)
    try:
        wait_for(lambda: len(temporaries(tmp_path)) == 2, "the temporary files")
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
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


def test_a_failed_rename_undoes_the_earlier_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = targets(tmp_path)
    real_replace = os.replace

    def replace(source: str, target: str) -> None:
        if target == str(third):
            raise PermissionError(13, "Permission denied")
        real_replace(source, target)

    monkeypatch.setattr(safe_io.os, "replace", replace)
    with (
        pytest.raises(FileError, match=r"cannot write '.*c\.txt': Permission denied"),
        Transaction(1000) as io,
    ):
        io.commit({str(first): "new a", str(second): "new b", str(third): "new c"})
    assert first.read_text(encoding="utf-8") == "old a"
    assert second.read_text(encoding="utf-8") == "old b"
    assert not third.exists() and temporaries(tmp_path) == []


def test_a_new_file_is_removed_when_a_later_rename_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = targets(tmp_path)
    real_replace = os.replace

    def replace(source: str, target: str) -> None:
        if target == str(first):
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(safe_io.os, "replace", replace)
    with pytest.raises(FileError), Transaction(1000) as io:
        io.commit({str(third): "new c", str(second): "new b", str(first): "new a"})
    assert not third.exists() and second.read_text(encoding="utf-8") == "old b"
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
