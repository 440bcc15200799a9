"""Golden fixture games: every one replays ply by ply as recorded, and regenerates
byte for byte (``python devtools/fixtures.py check|regenerate``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostile import thinned
from reference_data import game_id, games

from devtools import fixtures
from devtools.fixtures import (
    GOLDEN_DIR,
    REFERENCE_FILE,
    SEEDS,
    VARIANT_SETS,
    GoldenSpec,
    check_golden_file,
    check_reference_game,
    fixture_text,
    golden_specs,
    main,
    play_golden,
)

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_FILES = sorted(GOLDEN_DIR.glob("*.json"))


def test_every_golden_game_has_its_file_and_no_file_is_stale() -> None:
    expected = {spec.filename for spec in golden_specs()}
    assert {path.name for path in GOLDEN_FILES} == expected


def test_golden_games_cover_every_player_count_and_reference_variant_set_twice() -> None:
    specs = golden_specs()
    for n in (2, 3, 4):
        for variants in VARIANT_SETS:
            natural = [
                s for s in specs if (s.numplayers, s.variants, s.ending) == (n, variants, None)
            ]
            assert len(natural) == len(SEEDS) >= 2


def test_golden_fixtures_stay_small() -> None:
    assert sum(path.stat().st_size for path in GOLDEN_FILES) < 2_000_000


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_game_replays_ply_by_ply(path: Path) -> None:
    assert check_golden_file(path) == []


@pytest.mark.parametrize("spec", golden_specs(), ids=lambda s: s.filename[:-5])
def test_golden_game_regenerates_byte_for_byte(spec: GoldenSpec) -> None:
    text = (GOLDEN_DIR / spec.filename).read_text(encoding="utf-8")
    assert fixture_text(play_golden(spec)) == text


@pytest.mark.slow
@pytest.mark.parametrize("ref", thinned(games(), 3, game_id))
def test_reference_game_replays_as_recorded(ref: dict[str, Any]) -> None:
    assert check_reference_game(ref) == []


def tampered(tmp_path: Path, change: Any) -> Path:
    source = GOLDEN_DIR / "3p-hey-seed-1.json"
    fixture = json.loads(source.read_text(encoding="utf-8"))
    change(fixture)
    path = tmp_path / source.name
    path.write_text(fixture_text(fixture), encoding="utf-8")
    return path


def test_changed_digest_is_reported_at_its_ply(tmp_path: Path) -> None:
    def change(fixture: dict[str, Any]) -> None:
        fixture["plies"][20]["digest"] = "0" * 64

    [problem] = check_golden_file(tampered(tmp_path, change))
    assert problem.startswith("3p-hey-seed-1.json ply 21 (player 3, ")
    assert 'digest: expected "0000' in problem


def test_changed_legal_move_count_and_scores_are_reported(tmp_path: Path) -> None:
    def change(fixture: dict[str, Any]) -> None:
        fixture["plies"][30]["legal"] += 1
        fixture["plies"][30]["scores"][0] += 7

    [problem] = check_golden_file(tampered(tmp_path, change))
    assert "ply 31" in problem and "legal: expected" in problem and "scores: expected" in problem


def test_move_that_became_illegal_is_reported(tmp_path: Path) -> None:
    def change(fixture: dict[str, Any]) -> None:
        fixture["plies"][0]["move"] = "a8"  # an empty corner

    [problem] = check_golden_file(tampered(tmp_path, change))
    assert "ply 1 (player 1, 'a8'): no longer legal" in problem


def test_check_command_fails_on_a_difference(tmp_path: Path, capsys: Any) -> None:
    def change(fixture: dict[str, Any]) -> None:
        fixture["plies"][5]["scores"] = [9, 9, 9]

    tampered(tmp_path, change)
    assert main(["check", "--dir", str(tmp_path), "--no-reference"]) == 1
    assert "ply 6" in capsys.readouterr().err


@pytest.mark.slow  # rewrites every golden game
def test_regenerate_command_writes_every_golden_game(tmp_path: Path) -> None:
    assert main(["regenerate", "--dir", str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("*.json"))) == len(golden_specs())


# -- where the tool reads and writes ----------------------------------------------


def test_the_tool_uses_the_fixtures_of_its_own_checkout() -> None:
    assert GOLDEN_DIR == ROOT / "fixtures" / "golden"
    assert REFERENCE_FILE == ROOT / "fixtures" / "reference" / "games.jsonl.gz"


def test_check_reads_the_default_folder_whatever_the_current_directory(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    golden = tmp_path / "golden"
    golden.mkdir()
    name = "2p-default-seed-1.json"
    (golden / name).write_bytes((GOLDEN_DIR / name).read_bytes())
    monkeypatch.setattr(fixtures, "GOLDEN_DIR", golden)  # one game instead of all
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["check", "--no-reference"]) == 0
    assert capsys.readouterr().out == "every golden game replays as recorded\n"
    (golden / name).write_text("{}", encoding="utf-8")
    assert main(["check", "--no-reference"]) == 1
    assert list(elsewhere.iterdir()) == []


def test_a_missing_folder_or_reference_file_is_refused(tmp_path: Path, capsys: Any) -> None:
    assert main(["check", "--dir", str(tmp_path / "none")]) == 2
    assert "no golden fixture folder" in capsys.readouterr().err
    (tmp_path / "2p-default-seed-1.json").write_bytes(
        (GOLDEN_DIR / "2p-default-seed-1.json").read_bytes()
    )
    assert main(["check", "--dir", str(tmp_path), "--reference", str(tmp_path / "no.gz")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no reference games file" in err, err
