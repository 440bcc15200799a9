"""The solver over the service (``solve``): its answer is the solver's, its
budget is bounded like the bots' searches, a game finished by passes has its
final margin and one a host ended is refused."""

from __future__ import annotations

import random
import time

import pytest
from service_support import finished_state
from stepping_clock import stepping_clock

from stawvs_ap import StawvsGame, solve
from stawvs_ap.bots import solver as solver_module
from stawvs_ap.host.messages import GAME_OVER
from stawvs_ap.i18n import catalogue
from stawvs_ap.service import APP_ERROR, call
from stawvs_ap.service.bots import MAX_SEARCH_SECONDS, MAX_SOLVE_NODES
from stawvs_ap.service.jsonrpc import INVALID_PARAMS, RpcError


def endgame_state(plies_left: int, seed: int = 3) -> str:
    """The state of a game of random moves ``plies_left`` plies before its end."""
    rng = random.Random(seed)
    game = StawvsGame.new(2, seed=seed)
    moves = []
    while not game.gameover:
        moves.append(rng.choice(game.moves()))
        game.move(moves[-1])
    replayed = StawvsGame.new(2, seed=seed)
    for move in moves[:-plies_left]:
        replayed.move(move)
    return replayed.serialize()


def refusal(**params: object) -> tuple[int, str | None]:
    with pytest.raises(RpcError) as refused:
        call("solve", params)
    return refused.value.rpc_code, (refused.value.data or {}).get("code")


def test_the_services_solve_is_the_solvers_answer() -> None:
    state = endgame_state(6)
    answer = call("solve", {"state": state})
    expected = solve(StawvsGame(state))
    assert answer["proven"] is True
    assert answer["player"] == StawvsGame(state).currplayer
    assert {k: v for k, v in answer.items() if k not in ("player", "seconds")} == {
        k: v for k, v in expected.to_dict().items() if k != "seconds"
    }


def test_an_unproven_answer_has_no_margin_and_keeps_its_node_budget() -> None:
    answer = call("solve", {"state": StawvsGame.new(2, seed=1).serialize(), "nodes": 40})
    assert answer["proven"] is False and answer["nodes"] <= 40
    assert (answer["margin"], answer["outcome"], answer["best"]) == (None, None, None)


def test_a_game_finished_by_passes_has_its_final_margin_as_the_solver_says() -> None:
    state = finished_state(2, seed=3)
    answer = call("solve", {"state": state})
    expected = solve(StawvsGame(state)).to_dict()
    assert answer["proven"] is True and answer["best"] == [] and answer["line"] == []
    assert answer["margin"] == expected["margin"] is not None


def test_a_game_a_host_ended_is_refused_in_its_language() -> None:
    resigned = StawvsGame.new(2, seed=3).resign(1).serialize()
    with pytest.raises(RpcError) as refused:
        call("solve", {"state": resigned, "locale": "de"})
    assert (refused.value.data or {}).get("code") == "GAMEOVER"
    assert refused.value.message == catalogue("de").say(GAME_OVER)


@pytest.mark.slow
def test_a_node_budget_alone_is_not_cut_by_the_default_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stepping_clock(monkeypatch, step=0.02)  # 1 s of readings comes after ~50 readings
    answer = call("solve", {"state": endgame_state(40), "nodes": 60 * 512})
    assert answer["nodes"] == 60 * 512  # past the default second, within the 5 s cap


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"seconds": MAX_SEARCH_SECONDS + 0.5}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"nodes": MAX_SOLVE_NODES + 1}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"nodes": 0}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"seconds": 0}, (INVALID_PARAMS, None)),
        ({"nodes": 2.5}, (INVALID_PARAMS, None)),
    ],
)
def test_solver_budgets_beyond_the_limits_are_refused_before_any_search(
    params: dict[str, object], expected: tuple[int, str | None]
) -> None:
    started = time.perf_counter()
    assert refusal(state=StawvsGame.new(2, seed=1).serialize(), **params) == expected
    assert time.perf_counter() - started < 3.0  # a search would take MAX_SEARCH_SECONDS


@pytest.mark.slow
def test_a_time_budget_holds_for_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = stepping_clock(monkeypatch, step=0.02)  # 20 ms a reading: 0.3 s is 15 readings
    answer = call("solve", {"state": endgame_state(40), "seconds": 0.3})
    assert answer["proven"] is False
    # The clock is read once per _CLOCK_EVERY positions: the search stops at the
    # first reading past the deadline, plus the readings of the answer itself.
    assert 0.3 <= answer["seconds"] <= 0.3 + 0.06
    assert answer["nodes"] <= (clock.readings + 1) * solver_module._CLOCK_EVERY
