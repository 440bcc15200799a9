"""Benchmarks write results only where asked: the committed reports in
``benchmarks/results`` change only with ``--out``."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def _snapshot() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(RESULTS.iterdir())}


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.slow  # a strength run in a process
def test_a_strength_run_writes_nothing_unless_given_out(tmp_path: Path) -> None:
    before = _snapshot()
    done = _run("strength.py", "figures", "--games", "1", "--only", "greedy-random", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "| greedy " in done.stdout
    assert _snapshot() == before
    done = _run(
        "strength.py",
        *("figures", "--games", "1", "--only", "greedy-random", "--jobs", "1"),
        *("--out", str(tmp_path)),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "greedy-random.json").read_text())["games"] == 1
    assert _snapshot() == before


@pytest.mark.slow
def test_the_oracle_must_be_told_where_to_write() -> None:
    done = _run("decisions.py", "oracle", "--positions", "1")
    assert done.returncode == 2
    assert "oracle needs --out FILE" in done.stderr


@pytest.mark.slow
def test_the_reference_engine_bench_explains_itself_without_a_checkout(tmp_path: Path) -> None:
    done = _run("reference_engine.py", "--help")
    assert done.returncode == 0, done.stderr
    assert "--gameslib PATH" in done.stdout
    build_dir = tmp_path / "build"
    done = _run("reference_engine.py", "--gameslib", str(tmp_path), "--build-dir", str(build_dir))
    assert done.returncode == 2
    assert "is not a gameslib checkout (no src/games/stawvs.ts)" in done.stderr
    assert "Traceback" not in done.stderr
    assert not build_dir.exists()


def test_the_instruction_count_refuses_a_folder_without_the_package(tmp_path: Path) -> None:
    done = _run("instructions.py", "--against", str(tmp_path))
    assert done.returncode == 2
    assert f"{tmp_path} holds no stawvs_ap package" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # a process with OpenSpiel and PettingZoo
def test_the_research_benchmark_steps_every_way() -> None:
    pytest.importorskip("pyspiel", reason="needs the rl extra (pip install -e '.[rl]')")
    pytest.importorskip("pettingzoo", reason="needs the rl extra (pip install -e '.[rl]')")
    done = _run("research.py", "--steps", "50")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("steps/s") == 4


def test_every_bug_the_mutation_check_plants_still_finds_its_one_line() -> None:
    # benchmarks/mutants.py plants each bug by replacing one exact text; a
    # change to the code it names must not leave a mutant with nothing to plant.
    spec = importlib.util.spec_from_file_location("mutants", ROOT / "benchmarks" / "mutants.py")
    assert spec is not None and spec.loader is not None
    mutants = importlib.util.module_from_spec(spec)
    sys.modules["mutants"] = mutants  # its dataclasses look their module up
    try:
        spec.loader.exec_module(mutants)
        for mutant in mutants.MUTANTS:
            text = (ROOT / mutant.path).read_text(encoding="utf-8")
            assert text.count(mutant.old) == 1, mutant.name
    finally:
        del sys.modules["mutants"]


@pytest.mark.slow  # a game of mcts, then proofs
def test_the_endgame_throw_count_prints_its_table() -> None:
    bot = "mcts:seconds=0.05,solve=false"
    done = _run("solver.py", "thrown", "--games", "1", "--nodes", "20000", "--bot", bot)
    assert done.returncode == 0, done.stderr
    assert "| games | median plies proven before the end | games with a throw |" in done.stdout
    assert "a perfect endgame scores at most about" in done.stdout
    assert f"against {bot} (" in done.stdout


@pytest.mark.slow
def test_the_endgame_throw_count_refuses_a_bad_bot_before_playing() -> None:
    done = _run("solver.py", "thrown", "--bot", "mcts:nope=1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--bot: bot mcts takes the options" in done.stderr


@pytest.mark.slow
def test_the_calibration_bench_writes_its_lines_and_its_plot_only_where_asked(
    tmp_path: Path,
) -> None:
    lines = tmp_path / "lines.jsonl"
    done = _run(
        "calibration.py",
        *("play", "--games", "1", "--players", "2", "--move-seconds", "0.01"),
        *("--sample", "1", "--seconds", "0.02", "--out", str(lines)),
    )
    assert done.returncode == 0, done.stderr
    found = [json.loads(text) for text in lines.read_text().splitlines()]
    assert {line["budget"] for line in found} == {"play", "0.02"}
    assert all(0 <= line["raw"] <= 1 and line["outcome"] in (0, 0.5, 1) for line in found)
    before = sorted(tmp_path.iterdir())
    done = _run("calibration.py", "report", str(lines))
    assert done.returncode == 0, done.stderr
    assert "| 0.02 | all |" in done.stdout and sorted(tmp_path.iterdir()) == before
    done = _run("calibration.py", "report", str(lines), "--svg", str(tmp_path / "plot.svg"))
    assert (tmp_path / "plot.svg").read_text().startswith("<svg")
