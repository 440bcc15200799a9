"""Output targets: checked before any work, named as the user gave them,
replaced keeping their permission bits, and written through symbolic links.

The commands run in the test's process (``cli_inprocess``), but for the one
that needs a umask of its own."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import cli_process
import pytest
from cli_inprocess import run
from cli_process import new_state, one_error, plies, record_file, temporaries


@pytest.fixture
def state(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(new_state(), encoding="utf-8")
    return path


def test_a_directory_target_is_refused_before_any_work(tmp_path: Path) -> None:
    """Refused before the record is read or anything is printed or written."""
    folder = tmp_path / "adir"
    folder.mkdir()
    record, svg = record_file(tmp_path), tmp_path / "o.svg"
    line = one_error(run("replay", record, "--svg", svg, "--render", folder))
    assert line == f"stawvs-ap: error: cannot write {str(folder)!r}: it is a directory"
    assert not svg.exists() and list(folder.iterdir()) == []
    # The output is checked before the input is even opened.
    line = one_error(run("move", "/dev/zero", "d5", "-o", folder))
    assert "it is a directory" in line
    assert temporaries(tmp_path, folder) == []


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda tmp: tmp / "missing" / "board.svg", "its directory does not exist"),
        (lambda tmp: tmp / "game.json" / "board.svg", "Not a directory"),
        (lambda tmp: tmp, "it is a directory"),
        (lambda tmp: str(tmp / "new") + os.sep, "it does not name a file"),
    ],
    ids=["no-directory", "file-as-directory", "directory", "trailing-slash"],
)
def test_errors_name_the_path_given_not_a_temporary_file(
    state: Path, tmp_path: Path, make, message: str
) -> None:
    target = str(make(tmp_path))
    line = one_error(run("svg", state, "-o", target))
    assert line == f"stawvs-ap: error: cannot write {target!r}: {message}"
    assert temporaries(tmp_path) == []


def test_a_symlink_loop_is_refused_by_its_name(state: Path, tmp_path: Path) -> None:
    loop = tmp_path / "loop.svg"
    loop.symlink_to(loop.name)
    assert f"cannot write {str(loop)!r}: Too many levels" in one_error(
        run("svg", state, "-o", loop)
    )


def test_a_device_or_pipe_is_not_replaced(state: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert "it is not a regular file" in one_error(run("svg", state, "-o", fifo))
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_an_unwritable_directory_is_refused(state: Path, tmp_path: Path) -> None:
    if os.geteuid() != 0:
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o500)
    elif os.path.isdir("/sys/kernel"):
        folder = Path("/sys/kernel")  # sysfs refuses new files even to root
    else:
        pytest.skip("no directory that root cannot write to")
    target = folder / "board.svg"
    line = one_error(run("svg", state, "-o", target))
    assert line == f"stawvs-ap: error: cannot write {str(target)!r}: Permission denied"
    assert not target.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write any file")
def test_a_read_only_file_is_refused(state: Path, tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o444)
    assert "Permission denied" in one_error(run("svg", state, "-o", target))
    assert target.read_text(encoding="utf-8") == "old"


def test_replacing_a_file_keeps_its_permission_bits(state: Path, tmp_path: Path) -> None:
    state.chmod(0o600)
    assert run("move", state, "b7", "-o", state).returncode == 0
    assert stat.S_IMODE(state.stat().st_mode) == 0o600
    assert plies(state) == ["b7"]
    other = tmp_path / "board.svg"
    other.write_text("old", encoding="utf-8")
    other.chmod(0o640)
    assert run("svg", state, "-o", other).returncode == 0
    assert stat.S_IMODE(other.stat().st_mode) == 0o640


@pytest.mark.slow
def test_a_new_file_gets_the_umask_mode(state: Path, tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    assert cli_process.run("svg", state, "-o", target, umask=0o027).returncode == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_symlink_target_is_updated_through_the_link(state: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real = elsewhere / "real.json"
    state.rename(real)
    link = tmp_path / "link.json"
    link.symlink_to(os.path.relpath(real, tmp_path))
    done = run("move", link, "b7", "-o", link)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert plies(real) == ["b7"]
    assert temporaries(tmp_path, elsewhere) == []


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link, real = tmp_path / "link.json", tmp_path / "real.json"
    link.symlink_to(real.name)
    assert run("new", "--players", "2", "-o", link).returncode == 0
    assert link.is_symlink() and plies(real) == []


def test_the_same_file_twice_is_refused(tmp_path: Path) -> None:
    record, svg = record_file(tmp_path), tmp_path / "o.svg"
    link = tmp_path / "link.svg"
    link.symlink_to(svg.name)
    assert "different files" in one_error(run("replay", record, "--svg", svg, "--render", svg))
    assert "are the same file" in one_error(run("replay", record, "--svg", svg, "--render", link))
    assert not svg.exists()
