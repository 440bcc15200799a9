"""``stawvs-ap serve`` driven through :class:`stawvs_ap.service.client.Client`: complete
games equal to the in-process API, every method, the protocol schema, the Node
example. The hostile inputs are in ``test_service_hostile.py``.

One server process serves the whole module. A server's states carry its own
timestamps, so the in-process games here run on a :class:`Clock` that gives
back the server's: with the same clock readings the states must be the same
byte for byte.
"""

from __future__ import annotations

import itertools
import json
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from records_support import golden_in_progress
from service_support import (
    ENV,
    ROOT,
    Clock,
    example_params,
    exchange,
    finished_state,
    request,
    schema_errors,
    stamps,
    start_server,
    state_after,
)

from stawvs_ap import StawvsError, StawvsGame, __version__, from_record
from stawvs_ap.service import METHODS
from stawvs_ap.service.client import Client, ConnectionFailure, RemoteError
from stawvs_ap.service.jsonrpc import RpcError
from stawvs_ap.service.methods import call


@pytest.fixture(scope="module")
def server() -> Iterator[Client]:
    client = start_server()
    yield client
    assert client.close() == 0  # end of input ends the server with status 0


def played(game: StawvsGame) -> dict[str, Any]:
    """What the server's ``move`` and endings answer, from an in-process game."""
    return {
        "state": game.serialize(),
        "results": game.results,
        "gameover": game.gameover,
        "winner": game.winner,
        "currplayer": game.currplayer,
    }


# -- complete games -------------------------------------------------------------

GAMES = [(2, [], 11), (3, ["hole", "hey"], 12), (4, ["random", "finalfree", "pieces-2"], 13)]


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variants", "seed"), GAMES, ids=["2p", "3p", "4p"])
def test_a_complete_game_through_the_server_equals_the_in_process_game(
    server: Client, players: int, variants: list[str], seed: int
) -> None:
    state = server.new(players, variants, seed)["state"]
    clock = Clock(*stamps(state))
    game = StawvsGame(players, variants=variants, seed=seed, clock=clock)
    assert state == game.serialize()
    rng = random.Random(seed)
    for ply in itertools.count():
        if game.gameover:
            break
        moves = game.moves()
        assert server.moves(state)["moves"] == moves
        move = rng.choice(moves)
        probe = rng.choice([move, move[:2], move[:5], "z9", "pass", move.upper()])
        assert server.validate(state, probe) == game.validate_move(probe)._asdict()
        if ply % 7 == 0:
            part = rng.choice([move, move[:2], move[:5]])
            if game.validate_move(part).canrender:
                shown = StawvsGame(state).move(part, partial=True)
                assert server.preview(state, part) == {
                    "render": shown.render(),
                    "results": shown.results,
                }
            row, col = rng.randrange(8), rng.randrange(8)
            start = move.split("-")[0] if "-" in move else ""
            assert server.click(state, start, row, col) == (
                game.handle_click(start, row, col)._asdict()
            )
        after = server.move(state, move)
        clock.stamps = stamps(after["state"])
        assert after == played(game.move(move))  # byte-identical state, same verdicts
        state = after["state"]
        assert server.render(state)["render"] == StawvsGame(state).render()

    names = [f"Ann {p}" for p in range(1, players + 1)]
    assert server.scores(state) == {
        "scores": game.sidebar_scores()[0]["scores"],
        "sidebar": game.sidebar_scores(),
    }
    assert server.chat_log(state, names)["chat_log"] == game.chat_log(names)
    assert server.move_history(state)["move_history"] == game.move_history()
    assert server.render(state, ply=5)["render"] == StawvsGame(state).load(5).render()
    assert server.variants(state)["active"] == game.variants
    assert server.variants(state)["names"] == game.get_variants()

    record = server.record(state, uid="g1", players=names)["record"]
    at = Clock(record["header"]["date-generated"])
    assert record == StawvsGame(state, clock=at).gen_record(
        uid="g1", players=[{"name": n} for n in names]
    )
    assert server.replay(record)["state"] == from_record(record).serialize()


def test_several_moves_in_one_request_equal_playing_them_in_turn(server: Client) -> None:
    state = state_after(4)
    game = StawvsGame(state, clock=Clock(""))
    rng = random.Random(2)
    moves = []
    for _ in range(5):
        moves.append(rng.choice(game.moves()))
        game.move(moves[-1])
    after = server.move(state, moves=moves)
    game = StawvsGame(state, clock=Clock(*stamps(after["state"], last=5)))
    for move in moves:
        game.move(move)
    assert after == played(game)


@pytest.mark.parametrize("ending", ["resign", "timeout", "draw", "abandoned"])
def test_each_ending_equals_the_in_process_call(server: Client, ending: str) -> None:
    state = state_after(9, players=3)
    args = {"player": 2} if ending in ("resign", "timeout") else {}
    after = server.call(ending, {"state": state, **args})
    game = StawvsGame(state, clock=Clock(*stamps(after["state"])))
    assert after == played(getattr(game, ending)(*args.values()))
    with pytest.raises(StawvsError) as refused:  # a finished game cannot end again
        server.call(ending, {"state": after["state"], **args})
    assert refused.value.code == "GAMEOVER"


def test_a_state_given_as_an_object_answers_as_its_text(server: Client) -> None:
    state = state_after(20)
    move = StawvsGame(state).moves()[0]
    assert server.moves(json.loads(state)) == server.moves(state)
    assert server.validate(json.loads(state), move) == server.validate(state, move)
    after = server.move(json.loads(state), move)
    game = StawvsGame(state, clock=Clock(*stamps(after["state"])))
    assert after["state"] == game.move(move).serialize()


def test_replay_of_a_record_without_a_starting_board_takes_the_initial_state(
    server: Client,
) -> None:
    state = finished_state(2, seed=8)
    record = StawvsGame(state).gen_record(uid="r", players=[{"name": "A"}, {"name": "B"}])
    del record["header"]["startingPosition"]
    with pytest.raises(StawvsError) as refused:
        server.replay(record)
    assert refused.value.code == "BAD_RECORD"
    replayed = server.replay(record, initial=state)["state"]
    assert replayed == from_record(record, initial=state).serialize()


def test_replay_of_a_game_in_progress_needs_unfinished(server: Client) -> None:
    record = golden_in_progress("2p-default-seed-1.json", 10)
    with pytest.raises(StawvsError) as refused:
        server.replay(record)
    assert refused.value.code == "BAD_RECORD" and "'unfinished': true" in refused.value.message
    replayed = StawvsGame(server.replay(record, unfinished=True)["state"])
    assert not replayed.gameover and replayed.move_history() == record["moves"]
    with pytest.raises(StawvsError) as bad:
        server.replay(record, unfinished="yes")
    assert bad.value.code == "INVALID_PARAMS"  # as every parameter of the wrong type


def test_version_info_variants_and_same_move_need_no_state(server: Client) -> None:
    assert server.version() == {"version": "20251113", "package": __version__}
    assert server.info() == {"gameinfo": json.loads(StawvsGame.info())}
    assert server.variants() == {"available": json.loads(StawvsGame.info())["variants"]}
    assert server.same_move(" C3-F6,f2", "c3-f6,F2") == {"same": True}
    assert server.same_move("c3-f6,f2", "c3-f6,f3") == {"same": False}


def test_the_client_raises_stawvs_errors_with_the_engine_code(server: Client) -> None:
    with pytest.raises(RemoteError) as refused:
        server.move(StawvsGame(2, seed=1).serialize(), "a1")
    assert isinstance(refused.value, StawvsError)
    assert (refused.value.code, refused.value.rpc_code) == ("BAD_PLACEMENT", 1000)
    with pytest.raises(RemoteError) as unknown:
        server.call("no_such_method")
    assert (unknown.value.code, unknown.value.rpc_code) == ("METHOD_NOT_FOUND", -32601)


def test_the_clients_page_methods_answer_as_the_service_in_process(server: Client) -> None:
    state = state_after(14, seed=3)
    assert server.svg(state, 3, locale="de", marks=False) == call(
        "svg", {"state": state, "ply": 3, "locale": "de", "marks": False}
    )
    assert server.summary(state) == call("summary", {"state": state})
    assert server.undo(state, 2)["state"] == call("undo", {"state": state, "plies": 2})["state"]
    hint = server.hint(state, "mcts", 2, iterations=30, seed=1)
    assert hint == call(
        "hint", {"state": state, "bot": "mcts", "top": 2, "iterations": 30, "seed": 1}
    )
    played = server.bot_move(state, "greedy", seed=1, locale="ru")
    assert played["move"] == hint["best"] or played["move"] in StawvsGame(state).moves()
    with pytest.raises(RemoteError) as refused:
        server.undo(StawvsGame(2, seed=1).serialize(), locale="de")
    assert (refused.value.code, refused.value.message) == (
        "NO_UNDO",
        "Es gibt 0 Züge zum Zurücknehmen, nicht 1.",
    )


def test_a_click_drawn_in_one_request_equals_the_click_then_the_picture() -> None:
    """``svg`` with ``click``: what ``click`` answers, and the picture of the
    move it made (or of ``move`` unchanged when the click is refused)."""
    state = state_after(14, seed=3)
    move = StawvsGame(state).legal_moves[0]
    built, answers = "", []
    for name in [move.source, move.source, move.dest, move.source, move.target]:
        square = {"row": name // 8, "col": name % 8}  # type: ignore[operator]
        both = call("svg", {"state": state, "move": built, "click": square, "locale": "de"})
        clicked = call("click", {"state": state, "move": built, **square, "locale": "de"})
        assert both["click"] == clicked
        answers.append((clicked["valid"], clicked["complete"]))
        if clicked["valid"]:
            built = clicked["move"]
        assert both["svg"] == call("svg", {"state": state, "move": built, "locale": "de"})["svg"]
    assert (False, None) in answers and built == str(move)
    assert "click" not in call("svg", {"state": state})


def test_a_played_click_completing_a_move_is_the_click_then_the_move_then_the_picture() -> None:
    """``svg`` with ``click`` and ``play``: a click that completes a move makes
    it, as ``move`` would, and the picture is of the position after it; a click
    that does not complete one is answered as without ``play``."""
    state = state_after(14, seed=3)
    move = StawvsGame(state).legal_moves[0]
    square = lambda name: {"row": name // 8, "col": name % 8}  # noqa: E731
    built = f"{move.source}-{move.dest}"
    building = call("svg", {"state": state, "click": square(move.source), "play": True})
    assert "state" not in building and building["click"]["complete"] == -1
    done = call("svg", {"state": state, "move": built, "click": square(move.target), "play": True})
    made = call("move", {"state": state, "move": str(move)})
    assert done["click"] == call("click", {"state": state, "move": built, **square(move.target)})
    after, expected = StawvsGame(done.pop("state")), StawvsGame(made.pop("state"))
    assert after.move_history() == expected.move_history()  # the same but for the time
    assert {key: done[key] for key in made} == made
    assert done["svg"] == call("svg", {"state": expected.serialize()})["svg"]
    at_ply = {"state": state, "move": built, "click": square(move.target), "play": True, "ply": 3}
    with pytest.raises(RpcError) as refused:
        call("svg", at_ply)
    assert refused.value.data == {"code": "BAD_ARGUMENT"}
    with pytest.raises(RpcError) as refused:
        call("svg", {"state": state, "play": True})
    assert refused.value.data == {"code": "BAD_ARGUMENT"}


@pytest.mark.slow
def test_the_client_as_a_context_manager_ends_its_server() -> None:
    with start_server() as client:
        assert client.moves(StawvsGame(2, seed=1).serialize())["moves"]
    assert client.process.returncode == 0
    with pytest.raises(ConnectionFailure) as closed:
        client.version()
    assert closed.value.code == "CONNECTION_FAILED"


# -- the protocol schema -----------------------------------------------------------


@pytest.mark.slow
def test_every_method_exchanges_requests_and_results_the_schema_describes(
    server: Client,
) -> None:
    examples = example_params()
    assert set(examples) == set(METHODS)
    for number, (method, params) in enumerate(examples.items()):
        line = request(method, params, rid=number)
        response = exchange(server, line)
        assert "result" in response, (method, response)
        assert schema_errors("request", json.loads(line)) == [], method
        assert schema_errors("response", response) == [], method
        assert schema_errors(f"{method}.result", response["result"]) == [], method


def test_error_responses_and_batches_satisfy_the_schema(server: Client) -> None:
    lines = [
        b"not json",
        b"[1]",
        request("nope"),
        request("moves", {"state": 1}),
        request("moves", {"state": "{}"}),
        request("version", rid=None),
    ]
    for line in lines:
        response = exchange(server, line)
        assert (
            schema_errors("response" if isinstance(response, dict) else "responseBatch", response)
            == []
        ), line
    assert schema_errors("request", json.loads(request("nope"))) != []
    assert schema_errors("request", json.loads(request("move", {"state": "{}"}))) != []


# -- other languages --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on the PATH")
@pytest.mark.parametrize(("players", "seed"), [(3, 7)])
def test_the_node_example_plays_a_game_to_the_end(players: int, seed: int) -> None:
    done = subprocess.run(
        ["node", str(ROOT / "examples" / "node" / "play.mjs"), str(players), str(seed)],
        env={**ENV, "STAWVS_PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Winner: player" in done.stdout
    assert "the greedy bot (bot_move)" in done.stdout


@pytest.mark.slow
def test_a_batch_on_standard_input_runs_at_most_its_share_of_searches() -> None:
    from stawvs_ap.service.methods import MAX_SEARCHES_PER_REQUEST

    batch = [
        {
            "jsonrpc": "2.0",
            "id": n,
            "method": "bot_move",
            "params": {"state": state_after(8), "bot": "random", "seed": n},
        }
        for n in range(MAX_SEARCHES_PER_REQUEST + 8)
    ]
    with Client() as client:
        client.send_raw(json.dumps(batch).encode("ascii"))
        answers = json.loads(client.read_raw())
    assert ["result" in a for a in answers] == [True] * MAX_SEARCHES_PER_REQUEST + [False] * 8
    refused = answers[-1]["error"]
    assert (refused["code"], refused["data"]) == (-32600, {"limit": MAX_SEARCHES_PER_REQUEST})


def test_the_clients_methods_send_only_the_parameters_given() -> None:
    sent: list[tuple[str, Any]] = []
    client = Client.__new__(Client)  # no server: the call is only recorded
    client.call = lambda method, params=None: sent.append((method, params)) or {}  # type: ignore[method-assign]
    client.new(2, seed=7)
    client.move("{}", moves=["a1"], locale="de")
    with pytest.raises(TypeError):
        client.moves()
    with pytest.raises(TypeError):
        client.moves("{}", shuffle=True)
    assert sent == [
        ("new", {"players": 2, "seed": 7}),
        ("move", {"state": "{}", "moves": ["a1"], "locale": "de"}),
    ]
