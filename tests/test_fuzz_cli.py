"""The command line under hostile files and arguments: it either succeeds, or
exits with status 2 and exactly one line on standard error, and then writes no
output file (an existing one is left as it was)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

try:
    from stawvs_ap.cli.cli import main
except ImportError:  # pragma: no cover - the CLI is not written yet
    main = None

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import hostile as h
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import hostile as h

pytestmark = pytest.mark.skipif(main is None, reason="stawvs_ap.cli.cli is not written yet")

_GAME = h.play_random(h.new_game(2, (), 3), random.Random(3), 30)
GOOD_STATE = _GAME.serialize()
_DONE = h.play_random(h.new_game(2, (), 4), random.Random(4), 1000)
FINISHED_STATE = _DONE.serialize()

CONTENTS = st.one_of(
    st.sampled_from(
        [GOOD_STATE, FINISHED_STATE, "", "{}", "[]", "null", "{", "\x00", "[" * 50_000]
    ),
    st.builds(
        lambda s, i, c: s[:i] + c + s[i + 1 :],
        st.just(GOOD_STATE),
        st.integers(0, len(GOOD_STATE)),
        st.sampled_from('{}[],:"0-aGH '),
    ),
    st.text(max_size=50),
)
BINARY = st.one_of(st.binary(max_size=50), st.just(b"\xff\xfe" + GOOD_STATE.encode()))
WORDS = st.sampled_from(
    [
        "new",
        "moves",
        "move",
        "validate",
        "render",
        "svg",
        "show",
        "info",
        "replay",
        "record",
        "--players",
        "--variant",
        "--seed",
        "--ply",
        "--names",
        "--size",
        "--json",
        "--initial",
        "-o",
        "--output",
        "-1",
        "0",
        "2",
        "5",
        "9999999999999999999999",
        "hole",
        "chaos",
        "d5",
        "a1-b2,c3",
        "pass",
        "",
        "-",
        "--",
        "\x00",
        "é",
        "--help=no",
    ]
)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _check_failure(status: int, err: str, output: Path, before: bytes | None) -> None:
    if status == 0:
        return
    assert status == 2, (status, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("stawvs-ap: error: "), err
    now = output.read_bytes() if output.exists() else None
    assert now == before, "a failed command changed its output file"
    leftovers = [p for p in output.parent.iterdir() if p.name not in {"in.json", "out.json"}]
    assert leftovers == [], f"temporary files left behind: {leftovers}"


_FUZZ_SETTINGS = settings(
    max_examples=h.scaled(150),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@_FUZZ_SETTINGS
@given(
    st.one_of(CONTENTS, BINARY),
    st.sampled_from(["moves", "move", "validate", "render", "svg", "show", "record"]),
    st.lists(WORDS, max_size=3),
    st.booleans(),
)
@pytest.mark.slow
def test_a_hostile_state_file_fails_cleanly(
    tmp_path_factory, capsys, content, command, extra, keep_old
):
    folder = tmp_path_factory.mktemp("cli")
    source, output = folder / "in.json", folder / "out.json"
    if isinstance(content, bytes):
        source.write_bytes(content)
    else:
        source.write_text(content, encoding="utf-8", errors="surrogatepass")
    before = None
    if keep_old:
        output.write_text("old", encoding="utf-8")
        before = b"old"
    argv = [command, str(source), *(["d5"] if command in ("move", "validate") else []), *extra]
    if command not in ("moves", "validate", "show", "info"):
        argv += ["-o", str(output)]
    status, _out, err = _run(argv, capsys)
    _check_failure(status, err, output, before)


@_FUZZ_SETTINGS
@given(st.lists(WORDS, max_size=6))
def test_hostile_arguments_fail_cleanly(tmp_path_factory, capsys, monkeypatch, words):
    folder = tmp_path_factory.mktemp("cli")
    (folder / "in.json").write_text(GOOD_STATE, encoding="utf-8")
    monkeypatch.chdir(folder)  # relative names in the words land here
    status, _out, err = _run(words, capsys)
    if "--help" in words or not words:
        return
    _check_failure(status, err, folder / "out.json", None)


@_FUZZ_SETTINGS
@given(st.one_of(st.text(max_size=30), st.sampled_from([*_GAME.moves(), "pass", "a1-a1,a1"])))
def test_a_hostile_move_fails_cleanly_and_leaves_the_state_file(tmp_path_factory, capsys, move):
    folder = tmp_path_factory.mktemp("cli")
    source = folder / "in.json"
    source.write_text(GOOD_STATE, encoding="utf-8")
    status, _out, err = _run(["move", str(source), move, "-o", str(source)], capsys)
    if status == 0:
        assert json.loads(source.read_text(encoding="utf-8"))["stack"]
        return
    assert status == 2 and err.count("\n") == 1, err
    assert source.read_text(encoding="utf-8") == GOOD_STATE


@pytest.mark.parametrize(
    "content", [b"\xff\xfe", b"{", b"[" * 100_000], ids=["not-utf8", "cut-short", "too-deep"]
)
@pytest.mark.slow
def test_the_real_process_exits_2_with_one_line(tmp_path, content):
    source, output = tmp_path / "in.json", tmp_path / "out.json"
    source.write_bytes(content)
    done = subprocess.run(
        [sys.executable, "-m", "stawvs_ap", "move", str(source), "d5", "-o", str(output)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("stawvs-ap: error:")
    assert not output.exists()
