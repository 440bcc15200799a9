"""The arena's journal never truncates or rewrites what it did not write: a
symbolic link or a file that is not its journal is refused in one line and
left as it is, a write cut short at any byte is repaired by appending only
when the header is the match's own, and ``--resume`` removes the temporary
files a killed run left. Writers are interrupted by cutting what they wrote
at every byte."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_process import one_error, run

from stawvs_ap.bots.arena import BotSpec, Match, play_match
from stawvs_ap.bots.journal import JOURNAL, Journal
from stawvs_ap.errors import StawvsError

CHEAP = (BotSpec.parse("greedy:iterations=5"), BotSpec.parse("random"))
MATCH = Match(CHEAP, seed=5)

EVERY_FEW_BYTES = pytest.mark.parametrize(
    "stride", [17, pytest.param(1, marks=pytest.mark.slow)], ids=["some bytes", "every byte"]
)


def _whole_run(directory: Path, games: int = 2) -> bytes:
    with Journal(directory, MATCH) as journal:
        play_match(CHEAP, games, seed=5, keeper=journal)
    return (directory / JOURNAL).read_bytes()


def _resumed(directory: Path, games: int) -> list[int]:
    with Journal(directory, MATCH, resume=True) as journal:
        play_match(CHEAP, games, seed=5, keeper=journal)
        return sorted(journal.played())


def test_a_journal_that_is_a_symbolic_link_is_refused_and_its_target_left_alone(
    tmp_path: Path,
) -> None:
    target = tmp_path / "precious.txt"
    target.write_bytes(b"a first line without its newline")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / JOURNAL).symlink_to(target)
    with pytest.raises(StawvsError, match="symbolic link") as caught:
        Journal(run_dir, MATCH, resume=True)
    assert caught.value.code == "BAD_ARGUMENT"
    assert target.read_bytes() == b"a first line without its newline"


@pytest.mark.slow
def test_the_command_refuses_a_symbolic_link_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_bytes(b"keep me")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / JOURNAL).symlink_to(target)
    done = run(
        "arena",
        *("--bot", "greedy", "--bot", "random", "--games", "1", "--quiet"),
        *("--records", str(tmp_path / "run"), "--resume"),
    )
    assert "symbolic link" in one_error(done)
    assert target.read_bytes() == b"keep me"


@pytest.mark.parametrize(
    "foreign",
    [b"a first line without its newline", b"", b"{}\n", b'{"arena":1}\n', b"\xff\xfe\n"],
    ids=["no newline", "empty", "an object", "another header", "not text"],
)
def test_a_file_that_is_not_the_matchs_journal_is_refused_and_left_as_it_is(
    tmp_path: Path, foreign: bytes
) -> None:
    if not foreign:  # an empty file holds nothing to lose: the header is appended
        (tmp_path / JOURNAL).write_bytes(b"")
        assert _resumed(tmp_path, 1) == [0]
        return
    (tmp_path / JOURNAL).write_bytes(foreign)
    with pytest.raises(StawvsError):
        Journal(tmp_path, MATCH, resume=True)
    assert (tmp_path / JOURNAL).read_bytes() == foreign


@EVERY_FEW_BYTES
def test_a_header_cut_short_at_any_byte_is_completed_by_appending(
    tmp_path: Path, stride: int
) -> None:
    header = _whole_run(tmp_path / "whole", 0)
    assert header.count(b"\n") == 1
    for cut in range(1, len(header) - 1, stride):
        directory = tmp_path / f"cut{cut}"
        directory.mkdir()
        (directory / JOURNAL).write_bytes(header[:cut])
        assert _resumed(directory, 1) == [0]
        assert (directory / JOURNAL).read_bytes().startswith(header)


def test_a_header_of_another_match_cut_short_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    header = _whole_run(tmp_path / "whole", 0)
    other = header[:-1].replace(b'"seed":5', b'"seed":6')
    (tmp_path / JOURNAL).write_bytes(other[:-3])
    with pytest.raises(StawvsError, match="not an arena journal"):
        Journal(tmp_path, MATCH, resume=True)
    assert (tmp_path / JOURNAL).read_bytes() == other[:-3]


@pytest.mark.slow
@EVERY_FEW_BYTES
def test_a_result_line_cut_short_at_any_byte_is_marked_and_its_game_played_again(
    tmp_path: Path, stride: int
) -> None:
    whole = _whole_run(tmp_path / "whole", 2)
    last_start = whole[:-1].rindex(b"\n") + 1
    for cut in range(last_start + 1, len(whole), stride):
        directory = tmp_path / f"cut{cut}"
        directory.mkdir()
        written = whole[:cut]
        (directory / JOURNAL).write_bytes(written)
        assert _resumed(directory, 3) == [0, 1, 2]
        assert (directory / JOURNAL).read_bytes().startswith(written)
        assert _resumed(directory, 3) == [0, 1, 2]  # and the repaired journal reads again


@pytest.mark.slow
def test_a_mark_cut_short_at_any_byte_is_completed(tmp_path: Path) -> None:
    # Its newline alone would leave a whole line that is not JSON, which is refused
    # as damage: the mark goes in one write, so only a power cut could split it.
    whole = _whole_run(tmp_path / "whole", 2)
    cut_line = whole[:-10]
    mark = b'\n{"arena_cut":3}\n'
    for cut in range(2, len(mark) - 1):
        directory = tmp_path / f"mark{cut}"
        directory.mkdir()
        written = cut_line + mark[:cut]
        (directory / JOURNAL).write_bytes(written)
        assert _resumed(directory, 2) == [0, 1]
        assert (directory / JOURNAL).read_bytes().startswith(written)
        assert _resumed(directory, 2) == [0, 1]


def test_resume_removes_the_temporary_files_a_killed_run_left(tmp_path: Path) -> None:
    _whole_run(tmp_path, 1)
    stale = [tmp_path / ".stawvs-ap-abc123.tmp", tmp_path / ".stawvs-ap-x.tmp"]
    for path in stale:
        path.write_bytes(b"")
    kept = tmp_path / "notes.tmp"
    kept.write_text("mine")
    _resumed(tmp_path, 1)
    assert not any(path.exists() for path in stale)
    assert kept.read_text() == "mine"


def test_a_killed_writer_leaves_a_journal_that_resumes(tmp_path: Path) -> None:
    # A real interruption: a child process killed while it writes its lines.
    whole = _whole_run(tmp_path / "whole", 3)
    directory = tmp_path / "killed"
    directory.mkdir()
    pid = os.fork()
    if pid == 0:  # the child writes byte by byte until it is killed
        try:
            with open(directory / JOURNAL, "wb", buffering=0) as file:
                for index in range(len(whole) - 7):
                    file.write(whole[index : index + 1])
        finally:
            os.kill(os.getpid(), 9)
    os.waitpid(pid, 0)
    assert _resumed(directory, 3) == [0, 1, 2]
