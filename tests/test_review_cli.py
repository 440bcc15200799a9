"""stawvs-ap review and the evaluation graph (stawvs_ap.cli.reviewcli,
stawvs_ap.pictures.evalgraph)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from records_support import GOLDEN, in_progress

from stawvs_ap import StawvsGame, schemas
from stawvs_ap.bots.review import PlyReview, review
from stawvs_ap.cli.cli import main
from stawvs_ap.cli.reviewcli import columns
from stawvs_ap.pictures.evalgraph import MARKS, evaluation_svg
from stawvs_ap.pictures.svg import CAP_COLOURS
from stawvs_ap.records.replay import NAME_SHOWN

SVG = "{http://www.w3.org/2000/svg}"


def golden_record() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((GOLDEN / "2p-default-seed-1.json").read_text())
    return document["record"]


BOT = "mcts:iterations=20"


def short_state(tmp_path: Path, plies: int = 6) -> Path:
    game = StawvsGame.new(2, seed=3)
    for _ in range(plies):
        game.move(game.moves()[0])
    path = tmp_path / "game.json"
    path.write_text(game.serialize())
    return path


def ply(number: int, player: int, judgement: str | None, shares: tuple[float, ...]) -> PlyReview:
    return PlyReview(number, player, "d5", "e4", 0.5, 0.5, 0.0, False, judgement, False, shares)  # type: ignore[arg-type]


# -- the command ----------------------------------------------------------------------


@pytest.mark.slow
def test_review_prints_a_row_per_ply_and_each_players_accuracy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(short_state(tmp_path)), "--bot", BOT, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith(f"Review by {BOT}, in ")
    assert lines[2].split() == ["ply", "player", "move", "better", "loss"]
    assert [line.split()[0] for line in lines[3:9]] == ["1", "2", "3", "4", "5", "6"]
    assert "Player 1: accuracy " in out and "Player 2: accuracy " in out


@pytest.mark.slow
def test_review_speaks_the_players_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(short_state(tmp_path)), "--bot", BOT, "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Spieler 1" in out
    assert "accuracy" not in out


@pytest.mark.slow
def test_review_writes_the_json_and_the_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = GOLDEN / "2p-default-seed-1.json"
    out_json, out_svg = tmp_path / "review.json", tmp_path / "review.svg"
    args = ["review", str(record), "--bot", BOT, "--json", str(out_json), "--svg", str(out_svg)]
    assert main(args) == 0
    document: dict[str, Any] = json.loads(out_json.read_text())
    assert len(document["plies"]) == 52
    assert document["bot"] == BOT
    root = ET.fromstring(out_svg.read_text())
    assert root.tag == f"{SVG}svg"
    assert len(root.findall(f".//{SVG}g[@class='player-line']")) == 2
    table = capsys.readouterr().out
    assert "??" in table or "?!" in table or " ? " in table


@pytest.mark.slow  # whole reviews in processes
def test_review_of_several_files_writes_a_json_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, out_json = short_state(tmp_path), tmp_path / "all.json"
    second = tmp_path / "other.json"
    second.write_text(first.read_text())
    assert main(["review", str(first), str(second), "--bot", BOT, "--json", str(out_json)]) == 0
    documents = json.loads(out_json.read_text())
    assert [len(d["plies"]) for d in documents] == [6, 6]
    assert documents[0]["plies"] == documents[1]["plies"]


def test_review_refuses_a_record_that_does_not_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads((GOLDEN / "2p-default-seed-1.json").read_text())
    record["record"]["moves"][2][1] = "a1-a1,a1"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record))
    assert main(["review", str(path), "--bot", BOT]) == 2
    error = capsys.readouterr().err
    assert error.startswith("stawvs-ap: error: ") and "Traceback" not in error


@pytest.mark.parametrize("command", ["review", "solve", "hint"])
def test_a_record_nested_too_deeply_is_named_a_record_not_a_state(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    deep = "[" * 100_000 + "]" * 100_000
    path.write_text(json.dumps({**golden_record(), "moves": []})[:-1] + f', "x": {deep}}}')
    assert main([command, str(path)]) == 2
    error = capsys.readouterr().err
    assert error == f"stawvs-ap: error: the state or record on {str(path)!r} is nested too deeply\n"


def test_review_refuses_jobs_and_a_cluster_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(short_state(tmp_path))
    assert main(["review", path, "--jobs", "1", "--cluster", "tcp://127.0.0.1:1"]) == 2
    assert "not both" in capsys.readouterr().err


@pytest.mark.slow
def test_review_draws_no_progress_bar_when_standard_error_is_not_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(short_state(tmp_path)), "--bot", BOT]) == 0
    assert capsys.readouterr().err == ""


# -- the graph -------------------------------------------------------------------------------


def test_the_graph_draws_one_line_per_player_in_the_caps_colours() -> None:
    svg = evaluation_svg((0.4, 0.3, 0.3), [ply(1, 1, None, (0.5, 0.25, 0.25))])
    root = ET.fromstring(svg)
    lines = root.findall(f".//{SVG}g[@class='player-line']")
    assert [g.get("data-player") for g in lines] == ["1", "2", "3"]
    for player, group in enumerate(lines):
        fill, outline, _ = CAP_COLOURS[player]
        strokes = [p.get("stroke") for p in group.findall(f"{SVG}polyline")]
        assert strokes == [outline, fill]  # the outline under the colour: light and dark pages


def test_the_graph_marks_judged_moves_with_their_signs() -> None:
    plies = [
        ply(1, 1, "inaccuracy", (0.4, 0.6)),
        ply(2, 2, None, (0.4, 0.6)),
        ply(3, 1, "mistake", (0.2, 0.8)),
        ply(4, 2, "blunder", (0.9, 0.1)),
    ]
    root = ET.fromstring(evaluation_svg((0.5, 0.5), plies))
    marks = root.findall(f".//{SVG}g[@data-ply]")
    found = {g.get("data-ply"): g.find(f"{SVG}text") for g in marks if "mark" in g.get("class", "")}
    assert {k: v.text for k, v in found.items() if v is not None} == {
        "1": MARKS["inaccuracy"],
        "3": MARKS["mistake"],
        "4": MARKS["blunder"],
    }


@pytest.mark.slow
def test_a_records_names_reach_the_table_and_the_graph_without_their_controls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = in_progress(golden_record(), 3)
    record["header"]["players"][0]["name"] = "Al\x1b]0;owned\x07ice"
    path, svg = tmp_path / "record.json", tmp_path / "graph.svg"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["review", str(path), "--bot", BOT, "--svg", str(svg), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Al\ufffd]0;owned\ufffdice: accuracy " in out and "\x1b" not in out
    desc = ET.parse(svg).getroot().findtext(f"{SVG}desc") or ""
    assert "Al\ufffd]0;owned\ufffdice" in desc


@pytest.mark.slow
def test_long_names_are_cut_as_the_records_errors_cut_them_and_the_output_stays_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for name_length in (1, 200_000):  # the names, shown once each: a linear cost
        record = in_progress(golden_record(), 4)
        for seat, player in enumerate(record["header"]["players"]):
            player["name"] = "AB"[seat] * name_length
        path, svg = tmp_path / "record.json", tmp_path / f"graph-{name_length}.svg"
        path.write_text(json.dumps(record), encoding="utf-8")
        assert main(["review", str(path), "--bot", BOT, "--svg", str(svg), "--lang", "en"]) == 0
        outputs.append((capsys.readouterr().out, svg.stat().st_size))
    (short, short_svg), (long, long_svg) = outputs
    assert "A" * NAME_SHOWN + "…  " in long and "A" * (NAME_SHOWN + 1) not in long
    assert "B" * NAME_SHOWN + "…: accuracy " in long
    # Each of the eight rows and two summaries gains at most the cut name.
    assert len(long) <= len(short) + 10 * (NAME_SHOWN + 1) * 2
    assert long_svg <= short_svg + 20 * (NAME_SHOWN + 1) * 2


@pytest.mark.slow
def test_the_table_lines_up_in_korean_with_wide_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = in_progress(golden_record(), 3)
    record["header"]["players"][0]["name"] = "김민수"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["review", str(path), "--bot", BOT, "--lang", "ko"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:9]  # the heads, then six plies
    moves = [str(m) for round_ in record["moves"] for m in round_]
    # Each ply's move starts in the same terminal column as the heading's third.
    starts = {columns(row[: row.index(move)]) for row, move in zip(rows[1:], moves, strict=True)}
    third = rows[0].split()[2]
    assert starts == {columns(rows[0][: rows[0].index(third)])}


def test_the_graph_says_in_words_what_it_shows() -> None:
    plies = [ply(1, 2, "blunder", (0.9, 0.1))]
    root = ET.fromstring(evaluation_svg((0.5, 0.5), plies, names=["Ann", "Bob"]))
    assert root.get("role") == "img"
    desc = root.findtext(f"{SVG}desc") or ""
    assert "Ann: share of the win from 50% to 90%." in desc
    assert "Ply 1, Bob: d5, blunder; better: e4." in desc
    german = ET.fromstring(evaluation_svg((0.5, 0.5), plies, locale="de"))
    assert (german.findtext(f"{SVG}title") or "") != (root.findtext(f"{SVG}title") or "")


def test_every_ply_of_the_graph_can_be_clicked() -> None:
    plies = [ply(n, 1 + (n + 1) % 2, None, (0.5, 0.5)) for n in range(1, 11)]
    root = ET.fromstring(evaluation_svg((0.5, 0.5), plies))
    columns = root.findall(f".//{SVG}rect[@class='ply-column']")
    assert [c.get("data-ply") for c in columns] == [str(n) for n in range(1, 11)]


@pytest.mark.slow
def test_a_reviews_graph_ends_at_the_games_result() -> None:
    game = StawvsGame.new(2, seed=3)
    while not game.gameover:
        game.move(game.moves()[0])
    found = review(game, bot=BOT, seed=1)
    winner = game.winner
    expected = tuple(1.0 / len(winner) if p in winner else 0.0 for p in (1, 2))
    assert found.plies[-1].shares == expected
    assert ET.fromstring(evaluation_svg(found.start, found.plies)).tag == f"{SVG}svg"
    assert schemas.load("review")["$id"] == "urn:stawvs-ap:schema:review"


@pytest.mark.slow  # whole reviews in processes
def test_review_draws_a_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    import os
    import pty
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "stawvs_ap", "review", str(short_state(tmp_path)), "--bot", BOT],
            stdout=subprocess.PIPE,
            stderr=follower,
            env={**os.environ, "PYTHONPATH": str(root)},
            timeout=120,
            check=False,
        )
        os.close(follower)
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal is closed: everything was read
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0
    assert b"7/7 positions" in drawn and b"[" in drawn
