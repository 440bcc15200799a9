"""``analyse``: the K best lines of a position (the search's choice first, the
others by share), exact where the solver proves them, and the claim map (each
player's probability of collecting each pyramid); at every door, with progress
notifications before the answer over the service."""

from __future__ import annotations

import io
import itertools
import json
import threading
import time
from pathlib import Path

import pytest
from cli_inprocess import run
from records_support import golden_in_progress

import stawvs_ap
from stawvs_ap import StawvsGame, from_record, solve
from stawvs_ap.bots import MCTSBot
from stawvs_ap.bots.analysis import Analysis, Line, analyse
from stawvs_ap.bots.solver import final_margin
from stawvs_ap.core.events import FinalCapture, Moved
from stawvs_ap.core.position import EMPTY
from stawvs_ap.core.pyramids import PYRAMIDS
from stawvs_ap.core.squares import SQUARE_NAMES
from stawvs_ap.errors import ErrorCode, StawvsError
from stawvs_ap.service import call
from stawvs_ap.service.jsonrpc import RpcError
from stawvs_ap.service.methods import serve

#: A two-player position the solver proves in about 5,000 positions.
PROVEN = from_record(golden_in_progress("2p-default-seed-1.json", 23), allow_unfinished=True)
#: The same game earlier: too large to prove within these budgets.
OPEN = from_record(golden_in_progress("2p-default-seed-1.json", 17), allow_unfinished=True)


def pyramid_squares(game: StawvsGame) -> set[str]:
    board = game.position.board
    return {
        SQUARE_NAMES[sq]
        for sq, code in enumerate(board)
        if code != EMPTY and not PYRAMIDS[code].is_ghost
    }


def assert_claims_are_probabilities(found: Analysis, game: StawvsGame) -> None:
    assert set(found.claims) == pyramid_squares(game)
    for chances in found.claims.values():
        assert len(chances) == game.numplayers
        assert all(0 <= p <= 1 for p in chances)
        assert sum(chances) <= 1 + 1e-9


# -- lines ------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game", [StawvsGame.new(2, seed=1), OPEN, StawvsGame.new(3, seed=2)])
def test_lines_are_distinct_and_after_the_choice_sorted_by_share(game: StawvsGame) -> None:
    found = analyse(game, iterations=300, lines=4, seed=3)
    moves = [line.move for line in found.lines]
    assert len(moves) == len(set(moves)) >= 2
    shares = [line.share for line in found.lines[1:]]
    assert shares == sorted(shares, reverse=True)
    for line in found.lines:
        assert line.pv[0] == line.move and 0 <= line.share <= 1
        position = game.position
        for move in line.pv:  # a principal variation is a line of legal moves
            assert position.is_legal(move)
            position, _ = position.play(move)


@pytest.mark.slow
@pytest.mark.parametrize("game", [StawvsGame.new(2, seed=1), OPEN])
def test_the_first_line_is_the_hints_choice_at_the_same_budget(game: StawvsGame) -> None:
    hinted = MCTSBot(seed=7).analyse(game, iterations=400)
    found = analyse(game, iterations=400, seed=7)
    assert found.lines[0].move == hinted[0].move
    assert found.lines[0].share == hinted[0].value  # the share the hint shows
    assert found.lines[0].visits == hinted[0].visits


def test_the_command_lines_first_line_is_the_hints_choice(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(OPEN.serialize(), encoding="utf-8")
    budget = ("--iterations", "300", "--seed", "4", "--json")
    hint = run("hint", path, *budget)
    analysed = run("analyse", path, *budget)
    assert hint.returncode == analysed.returncode == 0, hint.stderr + analysed.stderr
    assert json.loads(analysed.stdout)["lines"][0]["move"] == json.loads(hint.stdout)["best"]


def test_exact_lines_are_the_solvers_values_move_by_move() -> None:
    found = analyse(PROVEN, iterations=2000, lines=20, seed=1)
    assert found.proven and found.playouts == 0
    truth = solve(PROVEN)
    assert found.lines[0].margin == truth.margin and truth.best
    assert found.lines[0].move in truth.best
    mover = PROVEN.currplayer
    assert len(found.lines) == min(20, len(PROVEN.moves()))
    for line in found.lines:
        assert line.exact
        after, _ = PROVEN.position.play(line.move)
        if after.is_over:
            expected = final_margin(after, mover)
        else:
            answer = solve(after)
            expected = answer.margin if after.currplayer == mover else -answer.margin
        assert line.margin == expected, line.move
        assert line.share == (1.0 if expected > 0 else 0.0 if expected < 0 else 0.5)
    margins = [line.margin for line in found.lines]
    assert margins == sorted(margins, reverse=True)  # type: ignore[type-var]


def test_a_proven_line_is_worth_its_proof_not_its_estimate() -> None:
    found = analyse(PROVEN, iterations=2000, seed=1)
    assert all(line.share in (0.0, 0.5, 1.0) for line in found.lines)


# -- claims ------------------------------------------------------------------------------


def test_along_a_proven_line_each_square_collected_is_certain_for_its_collector() -> None:
    found = analyse(PROVEN, iterations=2000, seed=1)
    assert_claims_are_probabilities(found, PROVEN)
    line = solve(PROVEN).line
    collector: dict[str, int] = {}
    position = PROVEN.position
    for move in line:
        position, events = position.play(move)
        for event in events:
            if isinstance(event, Moved):
                collector[SQUARE_NAMES[event.target]] = event.player
            elif isinstance(event, FinalCapture):
                collector[SQUARE_NAMES[event.square]] = event.player
    assert position.is_over and collector
    for square, chances in found.claims.items():
        if square in collector:
            expected = tuple(float(p == collector[square]) for p in (1, 2))
            assert chances == expected, square
        else:
            assert chances == (0.0, 0.0), square
    assert sum(sum(chances) for chances in found.claims.values()) == len(collector)


@pytest.mark.parametrize("game", [StawvsGame.new(2, seed=1), OPEN, StawvsGame.new(4, seed=3)])
def test_claims_are_probabilities_of_every_pyramid(game: StawvsGame) -> None:
    found = analyse(game, iterations=200, seed=2)
    assert not found.proven and found.playouts >= 8
    assert_claims_are_probabilities(found, game)
    # Every playout is played to the end, where every pyramid under a cap is
    # collected: with no pyramid left free at the start of the count, all are.
    assert any(sum(chances) > 0 for chances in found.claims.values())


def test_a_pyramid_only_one_player_can_reach_is_theirs() -> None:
    """In the proven endgame the squares a player alone collects on every line are
    theirs in the playouts too: a claim counted for the wrong player shows here."""
    found = analyse(OPEN, iterations=300, seed=1)
    proven = analyse(PROVEN, iterations=2000, seed=1)
    for square, chances in proven.claims.items():
        if square in found.claims and max(chances) == 1 and max(found.claims[square]) > 0.9:
            assert found.claims[square].index(max(found.claims[square])) == chances.index(1.0)


def test_the_likely_collector_is_the_most_probable_player() -> None:
    found = Analysis(1, (), {"a1": (0.2, 0.7), "b1": (0.0, 0.0)}, 10, False)
    assert found.likely_collector("a1") == (2, 0.7)
    assert found.likely_collector("b1") is None and found.likely_collector("c1") is None


# -- refusals, the package's root, the same answer twice -------------------------------


def test_analyse_is_the_package_roots_and_repeats_with_a_seed() -> None:
    assert stawvs_ap.analyse is analyse
    once = analyse(OPEN, iterations=150, seed=9).to_dict()
    assert analyse(OPEN, iterations=150, seed=9).to_dict() == once


@pytest.mark.parametrize("lines", [0, 21, True])
def test_a_number_of_lines_out_of_range_is_refused(lines: int) -> None:
    with pytest.raises(StawvsError) as refused:
        analyse(OPEN, iterations=10, lines=lines)
    assert refused.value.code == ErrorCode.BAD_ARGUMENT


def test_a_finished_game_has_nothing_to_analyse() -> None:
    game = StawvsGame.new(2, seed=1).resign(1)
    with pytest.raises(StawvsError) as refused:
        analyse(game, iterations=10)
    assert refused.value.code == ErrorCode.GAMEOVER


def test_the_command_line_says_each_line_and_takes_a_ply(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(golden_in_progress("2p-default-seed-1.json", 24)), "utf-8")
    done = run("analyse", path, "--ply", "-2", "--iterations", "2000", "--lang", "en")
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("1. Alice wins by 9 points with best play: a3-b4,a3 ")
    refused = run("analyse", path, "--ply", "49")
    assert refused.returncode == 2 and "-48 to 48" in refused.stderr


# -- progress ------------------------------------------------------------------------------


@pytest.mark.slow
def test_progress_reports_lines_while_searching_and_never_after() -> None:
    reports: list[tuple[float, tuple[Line, ...]]] = []
    found = analyse(
        OPEN, seconds=2.0, seed=1, progress=lambda lines: reports.append((time.monotonic(), lines))
    )
    returned = time.monotonic()
    assert reports, "no progress in 1.5 s of search"
    times = [at for at, _ in reports]
    assert all(later - earlier >= 0.45 for earlier, later in itertools.pairwise(times))
    assert all(at <= returned for at in times)
    assert all(lines and all(isinstance(line, Line) for line in lines) for _, lines in reports)
    count = len(reports)
    time.sleep(0.6)
    assert len(reports) == count and found.lines


@pytest.mark.slow
def test_the_service_sends_progress_notifications_before_its_answer() -> None:
    request = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "analyse",
        "params": {"state": OPEN.serialize(), "seconds": 2, "progress": True, "seed": 1},
    }
    out = io.BytesIO()
    serve(io.BytesIO(json.dumps(request).encode() + b"\n"), out)
    written = out.getvalue()
    messages = [json.loads(line) for line in written.splitlines()]
    *notes, answer = messages
    assert answer["id"] == 7 and answer["result"]["lines"]
    assert notes, "no progress notification in 1.5 s of search"
    for note in notes:
        assert "id" not in note and note["method"] == "analyse.progress"
        assert note["params"]["lines"][0]["pv"]
    time.sleep(0.6)
    assert out.getvalue() == written  # nothing after the answer


def test_the_service_answers_without_notifications_where_it_cannot_send_them() -> None:
    answer = call("analyse", {"state": OPEN.serialize(), "iterations": 100, "progress": True})
    assert answer["player"] == OPEN.currplayer and answer["lines"]


def test_the_services_analysis_is_bounded_and_takes_a_ply() -> None:
    state = PROVEN.serialize()
    with pytest.raises(RpcError) as refused:
        call("analyse", {"state": state, "seconds": 6})
    assert refused.value.data == {"code": "BAD_ARGUMENT"}
    with pytest.raises(RpcError) as refused:
        call("analyse", {"state": state, "ply": 47})
    assert "-46 to 46" in str(refused.value)
    answer = call("analyse", {"state": state, "ply": -1, "iterations": 100, "seed": 1})
    assert answer["player"] == 2


def test_a_slow_analysis_does_not_hold_the_line_of_another_thread() -> None:
    """The progress channel is the transport's own: another thread's call sees none."""
    seen: list[object] = []

    def elsewhere() -> None:
        from stawvs_ap.service.jsonrpc import NOTIFY

        seen.append(NOTIFY.get())

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen == [None]


# -- the claim map's picture -------------------------------------------------------------


def test_the_picture_tints_each_square_by_its_likeliest_collector() -> None:
    from stawvs_ap.pictures.svg import board_svg

    claims = {"a1": (0.2, 0.7), "b1": (0.0, 0.0), "e3": (0.9, 0.05)}
    picture = board_svg(OPEN, claims=claims, names=["Ann", "Bob"])
    assert picture.count('class="claim"') == 2  # nobody is likely to collect b1
    assert 'data-at="a1" data-player="2" data-chance="0.7000"' in picture
    assert 'data-at="e3" data-player="1" data-chance="0.9000"' in picture
    assert "<title>a1: Bob 70%</title>" in picture and ">2:70%<" in picture
    assert board_svg(OPEN, claims={}) == board_svg(OPEN)


@pytest.mark.slow
def test_svg_claims_draws_an_analysis_of_the_ply_asked(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(golden_in_progress("2p-default-seed-1.json", 23)), "utf-8")
    done = run("svg", path, "--ply", "-1", "--claims", "--seconds", "0.3", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('class="claim"') >= 10
    plain = run("svg", path, "--ply", "-1")
    assert 'class="claim"' not in plain.stdout


# -- retry: learn from your mistakes -------------------------------------------------------


def test_the_best_move_tried_again_is_found() -> None:
    from stawvs_ap.bots.retry import retry

    verdict = retry(PROVEN, "a3-b4,a3", iterations=300, seed=1)
    assert verdict.found and verdict.loss == 0 and verdict.best == verdict.tried


def test_a_losing_move_tried_again_shows_its_loss_and_the_best_move() -> None:
    from stawvs_ap.bots.retry import retry

    verdict = retry(PROVEN, "d6-c6,c7", iterations=300, seed=1)  # proven lost by the solver
    assert not verdict.found and verdict.loss >= 0.10
    assert verdict.loss == pytest.approx(verdict.best_share - verdict.share)
    assert str(verdict.best) in PROVEN.moves()


@pytest.mark.slow
def test_a_move_the_search_did_not_weigh_is_worth_one_less_the_replys_share() -> None:
    """With two players the tried move's share is one less the opponent's after it,
    as a review reads it: a share taken from the wrong side shows here."""
    from stawvs_ap.bots.appraise import Appraisal, appraise
    from stawvs_ap.bots.retry import retry
    from stawvs_ap.bots.review import SOLVER_NODES
    from stawvs_ap.bots.spec import BotSpec

    game = StawvsGame.new(2, seed=1)
    searched = {c.move for c in MCTSBot(seed=2).analyse(game, iterations=60)}
    tried = next(m for m in game.position.legal_moves() if m not in searched)
    verdict = retry(game, tried, iterations=60, seed=0)
    after, _ = game.position.play(tried)
    reply = appraise(Appraisal(1, after, None, BotSpec("mcts"), 0, None, 60, SOLVER_NODES))
    assert reply.value is not None
    assert verdict.share == pytest.approx(1 - reply.value)


def test_retry_refuses_an_illegal_move_and_a_finished_game() -> None:
    from stawvs_ap.bots.retry import retry

    with pytest.raises(StawvsError):
        retry(PROVEN, "a1-a2,a3", iterations=10)
    with pytest.raises(StawvsError) as refused:
        retry(StawvsGame.new(2, seed=1).resign(1), "d5", iterations=10)
    assert refused.value.code == ErrorCode.GAMEOVER


def test_the_service_judges_a_retry_at_a_ply() -> None:
    record = golden_in_progress("2p-default-seed-1.json", 24)
    state = from_record(record, allow_unfinished=True).serialize()
    answer = call("retry", {"state": state, "ply": -2, "move": "a3-b4,a3", "iterations": 300})
    assert answer["found"] is True and answer["loss"] == 0
    with pytest.raises(RpcError) as refused:
        call("retry", {"state": state, "ply": -2, "move": "a3-b4,a3,", "iterations": 10})
    assert refused.value.data is not None
