"""Game reviews (stawvs_ap.bots.review): each ply's values, judgements and the
players' accuracy, as the issue and docs/CONTRACT.md ("Game reviews") define them."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from records_support import in_progress, without_board
from referencing import Registry, Resource

from stawvs_ap import (
    InvalidRecordError,
    Move,
    Position,
    StawvsError,
    StawvsGame,
    from_record,
    schemas,
)
from stawvs_ap.bots.appraise import Appraisal, Appraised, appraise
from stawvs_ap.bots.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    continue_review,
    judge,
    move_accuracy,
    review,
    review_many,
)
from stawvs_ap.bots.runners import LocalProcesses
from stawvs_ap.bots.solver import solve
from stawvs_ap.bots.spec import BotSpec
from stawvs_ap.service import call
from stawvs_ap.service.jsonrpc import INVALID_PARAMS
from stawvs_ap.service.reviews import MAX_REVIEW_SECONDS, review_budget

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden"
#: Player 2 to move, three moves: a5-b4,a5 wins the game, the two others lose it
#: (found by searching the whole endgame; golden game 2p-default-seed-1, ply 48).
ENDGAME = (
    ".BL3OR3...PI2@1./BL1....BL3@2../..BL3@1GR2..../GR3@2.....OR3@2GR1/.GR1...PI3../"
    "PI1@1......PI3/..GR1....BL1/.PI1..OR2.PI2. 2 collect "
    "GR3OR2PI1BL2GR1OR3GR2BL3OR1BL2OR2GR3BL3PI3OR3PI3BL2BL1GR3BL2OR1,"
    "PI2GR1OR1OR1GR3GR2BL1PI3BL2GR2OR1OR3OR2GR2OR2PI2PI1PI1BL1PI2 -"
)
WINNING, LOSING = "a5-b4,a5", "g5-h5,g5"
BOT = "mcts:iterations=400"


def endgame_after(first: str) -> StawvsGame:
    """The endgame with ``first`` played, then the first legal move to the end."""
    game = StawvsGame.from_position(Position.from_notation(ENDGAME))
    game.move(first)
    while not game.gameover:
        game.move(game.moves()[0])
    return game


def golden_record(name: str = "2p-default-seed-1") -> dict[str, Any]:
    record: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())["record"]
    return record


def short_game(plies: int = 6) -> StawvsGame:
    game = StawvsGame.new(2, seed=3)
    for _ in range(plies):
        game.move(game.moves()[0])
    return game


# -- judgements ------------------------------------------------------------------------


def test_losses_from_the_thresholds_up_are_inaccuracies_mistakes_and_blunders() -> None:
    assert judge(INACCURACY - 0.001) is None
    assert judge(INACCURACY) == "inaccuracy"
    assert judge(MISTAKE) == "mistake"
    assert judge(BLUNDER) == "blunder"
    assert judge(1.0) == "blunder"


def test_a_moves_accuracy_falls_in_a_line_from_100_to_0_at_a_blunders_loss() -> None:
    assert move_accuracy(0) == 100
    assert move_accuracy(BLUNDER / 2) == pytest.approx(50)
    assert move_accuracy(BLUNDER) == 0
    assert move_accuracy(1) == 0


def test_a_planted_move_that_loses_a_won_endgame_is_a_blunder() -> None:
    found = review(endgame_after(LOSING), bot=BOT, seed=1)
    planted = found.plies[0]
    assert (planted.player, planted.move, planted.best) == (2, LOSING, WINNING)
    assert planted.judgement == "blunder"
    assert planted.exact  # the solver proves the win before and the loss after
    assert (planted.value_before, planted.value_after, planted.loss) == (1.0, 0.0, 1.0)
    assert found.players[1].blunders >= 1


def test_without_the_solver_the_search_still_finds_the_planted_blunder() -> None:
    found = review(endgame_after(LOSING), bot=BOT, seed=1, solver_nodes=0)
    planted = found.plies[0]
    assert planted.judgement == "blunder"
    assert not planted.exact


def tail_of(record: dict[str, Any], plies: int) -> StawvsGame:
    """The last ``plies`` plies of a record's game, as a game of their own."""
    whole = from_record(record)
    count = len(whole.stack)
    game = StawvsGame.from_position(whole.load(count - 1 - plies).position)
    for index in range(count - plies, count):
        game.move(str(whole.load(index).lastmove))
    return game


def test_every_proven_optimal_move_goes_unjudged() -> None:
    game = tail_of(golden_record("2p-hole-seed-2"), 12)
    found = review(game, bot="mcts:iterations=30", seed=1, solver_nodes=10_000)
    checked = 0
    for ply in found.plies:
        position = game.load(ply.ply - 1).position
        solution = solve(position, nodes=10_000)
        if solution.proven and solution.best and Move.parse(ply.move) in solution.best:
            assert ply.exact and ply.judgement is None and ply.loss == 0, ply
            checked += 1
    assert checked >= 8


def test_a_proven_position_costs_no_search() -> None:
    position = Position.from_notation(ENDGAME)
    task = Appraisal(0, position, Move.parse(WINNING), BotSpec.parse(BOT), 1, None, 400, 2_000)
    found = appraise(task)
    assert found.exact and found.played_exact and found.iterations == 0
    searching = BotSpec.parse("mcts:iterations=400,solve=false")  # its own solver off
    searched = appraise(dataclasses.replace(task, solver_nodes=0, bot=searching))
    assert not searched.exact and searched.iterations > 0


def test_with_three_players_only_a_guaranteed_win_is_exact() -> None:
    game = tail_of(golden_record("3p-default-seed-1"), 16)
    found = review(game, bot="mcts:iterations=20", seed=1, solver_nodes=10_000)
    assert any(ply.exact and not ply.forced for ply in found.plies)
    for ply in found.plies:
        if ply.exact and not ply.forced:
            assert ply.value_before == 1.0, ply


def test_the_winning_move_of_the_endgame_goes_unjudged() -> None:
    found = review(endgame_after(WINNING), bot=BOT, seed=1)
    played = found.plies[0]
    assert played.move == played.best == WINNING
    assert played.judgement is None
    assert played.loss == 0


def test_a_lone_pass_is_never_judged() -> None:
    found = review(endgame_after(LOSING), bot=BOT, seed=1)
    passes = [p for p in found.plies if p.move == "pass"]
    assert passes
    assert all(p.forced and p.judgement is None and p.loss == 0 for p in passes)


def test_the_end_of_a_game_is_exact() -> None:
    game = endgame_after(WINNING)
    found = review(game, bot=BOT, seed=1)
    last = found.plies[-1]
    assert last.exact
    assert found.plies[-1].shares == (0.0, 1.0)
    assert game.winner == [2]


@pytest.mark.slow
def test_every_ply_has_its_fields_and_the_loss_is_never_below_zero() -> None:
    game = short_game(8)
    found = review(game, bot="mcts:iterations=60", seed=2)
    assert [p.ply for p in found.plies] == list(range(1, 9))
    assert [p.player for p in found.plies] == [1, 2] * 4
    for ply in found.plies:
        assert ply.loss == pytest.approx(max(0.0, ply.value_before - ply.value_after))
        assert 0 <= ply.value_after <= 1 and 0 <= ply.value_before <= 1
        assert sum(ply.shares) == pytest.approx(1)
        assert ply.judgement == (None if ply.forced else judge(ply.loss))


@pytest.mark.slow
def test_a_players_summary_counts_their_judgements() -> None:
    found = review(short_game(12), bot="mcts:iterations=40", seed=1)
    for summary in found.players:
        own = [p for p in found.plies if p.player == summary.player]
        assert summary.blunders == sum(p.judgement == "blunder" for p in own)
        assert summary.mistakes == sum(p.judgement == "mistake" for p in own)
        assert summary.inaccuracies == sum(p.judgement == "inaccuracy" for p in own)
        judged = [p for p in own if not p.forced]
        expected = sum(move_accuracy(p.loss) for p in judged) / len(judged)
        assert summary.accuracy == pytest.approx(expected)


@pytest.mark.slow
def test_the_review_records_its_bot_budget_seed_and_version() -> None:
    from stawvs_ap import __version__

    found = review(short_game(), bot="mcts:iterations=50", seed="s")
    assert (found.bot, found.iterations_per_move, found.seed) == ("mcts:iterations=50", 50, "s")
    assert found.version == __version__
    assert found.seconds > 0


# -- the same seeds, the same review -----------------------------------------------------


#: A search whose leaves are valued by random playouts, so that its seed matters.
RANDOM_BOT = "mcts:iterations=40,plies=3"


@pytest.mark.slow  # several whole reviews
def test_the_same_seed_and_iterations_give_the_same_review() -> None:
    first = review(short_game(10), bot=RANDOM_BOT, seed=5)
    again = review(short_game(10), bot=RANDOM_BOT, seed=5)
    assert first.same_judgements(again)
    assert first.to_dict()["plies"] == again.to_dict()["plies"]


@pytest.mark.slow
def test_another_seed_gives_other_searches() -> None:
    first = review(short_game(10), bot=RANDOM_BOT, seed=5)
    other = review(short_game(10), bot=RANDOM_BOT, seed=6)
    assert not first.same_judgements(other)


@pytest.mark.slow
def test_two_processes_give_the_review_of_one() -> None:
    games = [golden_record(), golden_record("3p-default-seed-1")]
    here = review_many(games, bot=RANDOM_BOT, seed=3)
    there = review_many(games, bot=RANDOM_BOT, seed=3, runner=LocalProcesses(2))
    assert [a.same_judgements(b) for a, b in zip(here, there, strict=True)] == [True, True]


@pytest.mark.slow  # several whole reviews
def test_a_review_a_few_positions_at_a_time_is_the_review_at_once() -> None:
    game = short_game(6)
    whole = review(game, bot=RANDOM_BOT, seed=4)
    found: list[Appraised] = []
    sizes = []
    while True:
        part, found, total = continue_review(game, found, count=3, bot=RANDOM_BOT, seed=4)
        sizes.append(len(part.plies))
        if len(found) == total:
            break
    assert sizes == [2, 5, 6]
    assert part.same_judgements(whole)


# -- what a review takes ------------------------------------------------------------------


def test_a_record_that_does_not_replay_is_refused_with_bad_record() -> None:
    record = copy.deepcopy(golden_record())
    record["moves"][3][0] = "h9"
    with pytest.raises(InvalidRecordError) as caught:
        review(record, bot=BOT)
    assert caught.value.code == "BAD_RECORD"


@pytest.mark.slow
def test_the_record_of_a_game_in_progress_is_reviewed_up_to_its_last_move() -> None:
    found = review(in_progress(golden_record(), 4), bot=BOT, solver_nodes=0)
    assert [p.move for p in found.plies] == [
        str(move) for round_ in golden_record()["moves"][:4] for move in round_
    ]


def test_a_review_of_something_else_is_refused() -> None:
    with pytest.raises(StawvsError) as caught:
        review(42, bot=BOT)
    assert caught.value.code == "BAD_ARGUMENT"


def test_a_bad_bot_spec_is_refused_before_any_search() -> None:
    with pytest.raises(StawvsError) as caught:
        review(short_game(), bot="mcts:iterations=0")
    assert caught.value.code == "BAD_ARGUMENT"


def test_a_resigned_game_is_reviewed_up_to_the_resignation() -> None:
    record: dict[str, Any] = json.loads((GOLDEN / "2p-default-seed-3-resign.json").read_text())
    found = review(record, bot="mcts:iterations=10", seed=1, solver_nodes=0)
    assert found.plies
    assert "resign" not in [p.move for p in found.plies]


def test_a_tampered_appraisal_is_refused() -> None:
    game = short_game(4)
    _, found, _ = continue_review(game, [], count=2, bot="mcts:iterations=20")
    wrong = [found[1], found[0]]
    with pytest.raises(StawvsError) as caught:
        continue_review(game, wrong, count=1, bot="mcts:iterations=20")
    assert caught.value.code == "BAD_ARGUMENT"
    with pytest.raises(StawvsError):
        Appraised.from_dict({**found[0].to_dict(), "value": 7})


# -- its JSON --------------------------------------------------------------------------------


def review_validator() -> jsonschema.Draft202012Validator:
    registry: Registry = Registry().with_resources(
        (doc["$id"], Resource.from_contents(doc)) for doc in map(schemas.load, schemas.names())
    )
    return jsonschema.Draft202012Validator(schemas.load("review"), registry=registry)


@pytest.mark.parametrize(
    "name", ["2p-default-seed-1", pytest.param("3p-hole+hey-seed-1", marks=pytest.mark.slow)]
)
def test_the_json_of_a_review_validates_against_its_schema(name: str) -> None:
    found = review(golden_record(name), bot="mcts:iterations=10", seed=1, solver_nodes=0)
    document = found.to_dict()
    assert list(review_validator().iter_errors(document)) == []


@pytest.mark.slow
def test_the_schema_refuses_a_review_without_its_judgements() -> None:
    document = review(short_game(), bot="mcts:iterations=30", seed=1).to_dict()
    del document["plies"][0]["judgement"]
    assert list(review_validator().iter_errors(document)) != []


# -- over the service ---------------------------------------------------------------------------


@pytest.mark.slow
def test_the_service_reviews_a_record_in_requests_of_a_few_positions() -> None:
    record = golden_record()
    params: dict[str, Any] = {"record": record, "bot": "mcts:iterations=30", "count": 20}
    answer = call("review", params)
    assert (answer["done"], answer["total"]) == (20, 53)
    answer = call("review", {**params, "count": 40, "appraised": answer["appraised"]})
    assert answer["done"] == answer["total"] == 53
    whole = review(record, bot="mcts:iterations=30", seed=1)
    assert answer["review"]["plies"] == whole.to_dict()["plies"]
    assert list(review_validator().iter_errors(answer["review"])) == []


@pytest.mark.slow
def test_the_service_reviews_abstract_plays_record_from_its_initial_state() -> None:
    bare, initial = without_board(in_progress(golden_record(), 3))
    params = {"record": bare, "iterations": 10, "count": 7}
    with pytest.raises(StawvsError) as refused:
        call("review", params)
    assert refused.value.code == "BAD_RECORD" and "'initial'" in refused.value.message
    answer = call("review", {**params, "initial": initial})
    assert answer["done"] == answer["total"] == 7  # six plies and the last position
    with pytest.raises(StawvsError) as both:
        call("review", {"state": initial, "initial": initial})
    assert both.value.code == "BAD_ARGUMENT"


@pytest.mark.slow
def test_the_service_review_graph_names_a_player_its_names_leave_out() -> None:
    params = {"state": short_game(4).serialize(), "iterations": 20, "count": 5, "names": ["A"]}
    answer = call("review", params)
    assert "Player 2" in answer["graph"] and ">A<" in answer["graph"]


@pytest.mark.slow
def test_the_service_review_answers_objects_of_its_own() -> None:
    params = {"state": short_game(4).serialize(), "iterations": 20, "count": 5}
    first = call("review", params)
    first["review"]["plies"][0]["move"] = "scribbled"
    first["appraised"][0]["value"] = 9
    again = call("review", params)
    assert again["review"]["plies"][0]["move"] != "scribbled"
    assert again["appraised"][0]["value"] != 9


def test_a_review_request_searches_at_most_its_total_budget() -> None:
    spec = BotSpec.parse("mcts")
    assert review_budget(spec, 5, None, 60) == (2, 5.0, None)
    assert review_budget(spec, 0.25, None, 60) == (40, 0.25, None)
    assert review_budget(spec, None, 500, 4) == (4, MAX_REVIEW_SECONDS / 4, 500)
    with pytest.raises(StawvsError):
        review_budget(spec, 6, None, 1)  # one search takes at most 5 seconds


@pytest.mark.slow
def test_the_service_cuts_a_request_to_its_total_budget() -> None:
    answer = call("review", {"record": golden_record(), "seconds": 5, "count": 60})
    assert answer["done"] == 2  # 10 seconds of search a request, 5 a position


def test_the_service_refuses_a_state_and_a_record_together() -> None:
    from stawvs_ap.service.methods import answer_line

    line = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "review",
            "params": {"state": short_game(2).serialize(), "record": golden_record()},
        }
    )
    answer = json.loads(answer_line(line.encode()) or "{}")
    assert answer["error"]["code"] == INVALID_PARAMS
    assert "'state' or 'record'" in answer["error"]["message"]


@pytest.mark.slow
def test_a_review_over_http_never_holds_up_the_other_requests() -> None:
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    import threading
    import time

    from http_support import rpc, running

    from stawvs_ap.service.http import create_app

    record = golden_record()
    with running(lambda hosts: create_app(hosts=hosts)) as port:
        answers: list[Any] = []
        reviewing = threading.Thread(
            target=lambda: answers.append(
                rpc(port, "review", {"record": record, "seconds": 0.5, "count": 6})
            )
        )
        reviewing.start()
        time.sleep(0.5)  # the review is searching now
        started = time.perf_counter()
        moves = rpc(port, "moves", {"state": short_game(4).serialize()})
        waited = time.perf_counter() - started
        still_reviewing = reviewing.is_alive()
        reviewing.join(30)
    assert "result" in moves and waited < 1.5
    assert still_reviewing
    assert answers[0]["result"]["done"] == 6
