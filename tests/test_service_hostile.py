"""``stawvs-ap serve`` against hostile input: each bad line gets the right error
(or no answer, or a clean exit) and the server answers the next request.

One server process serves the module; the tests of how the server ends start
their own.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from service_support import (
    ENV,
    assert_still_answers,
    error_of,
    exchange,
    request,
    start_server,
    state_after,
)

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.service import methods as service_module
from stawvs_ap.service.client import Client
from stawvs_ap.service.methods import MAX_BATCH, MAX_LINE_BYTES, Method, answer_line, serve

NEW = StawvsGame(2, seed=1).serialize()


@pytest.fixture(scope="module")
def server() -> Iterator[Client]:
    client = start_server()
    yield client
    assert client.close() == 0


def refused(server: Client, line: bytes) -> dict[str, Any]:
    """The error response to ``line``, checked to be the only answer before the next ping."""
    response: dict[str, Any] = exchange(server, line)
    assert "error" in response and "result" not in response, response
    assert_still_answers(server)
    return response


# -- lines that are no request ----------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        b"this is not JSON",
        b"{",
        b'{"jsonrpc": "2.0", "id": 1,',
        b"\xff\xfe\x00garbage",
        b"NaN",
        b'{"jsonrpc":"2.0","id":Infinity,"method":"version"}',
        b"1" * 5000,
    ],
    ids=["text", "brace", "cut", "not-utf8", "nan", "infinity", "huge-number"],
)
@pytest.mark.slow
def test_a_line_that_is_not_json_gets_a_parse_error(server: Client, line: bytes) -> None:
    response = refused(server, line)
    assert response["id"] is None and error_of(response) == (-32700, None)


def test_an_array_of_junk_gets_one_invalid_request_error_per_item(server: Client) -> None:
    server.send_raw(b'[1, "x", null, true, [], {}, {"jsonrpc": "2.0"}]')
    answers = json.loads(server.read_raw())
    assert [(a["id"], error_of(a)) for a in answers] == [(None, (-32600, None))] * 7
    assert_still_answers(server)


def test_an_empty_array_gets_a_single_invalid_request_error(server: Client) -> None:
    response = refused(server, b"[]")
    assert response["id"] is None and error_of(response) == (-32600, None)


def test_a_batch_over_the_size_limit_gets_a_single_error(server: Client) -> None:
    line = json.dumps([json.loads(request("version", rid=i)) for i in range(MAX_BATCH + 1)])
    assert error_of(refused(server, line.encode("ascii"))) == (-32600, None)


def test_a_10_mb_line_is_refused_and_the_next_request_answered(server: Client) -> None:
    padding = b"x" * 10_000_000
    response = refused(server, request("moves", {"state": ""})[:-3] + padding + b'"}}')
    assert response["id"] is None and error_of(response) == (-32600, None)
    assert response["error"]["data"] == {"limit": MAX_LINE_BYTES}


def test_an_overlong_line_is_dropped_without_being_held_whole() -> None:
    class Watched(io.BytesIO):
        biggest = 0

        def readline(self, size: int | None = -1) -> bytes:
            line = super().readline(size)
            Watched.biggest = max(Watched.biggest, len(line))
            return line

    source = Watched(b"[" * 1_000_000 + b"\n" + request("version") + b"\n")
    sink = io.BytesIO()
    assert serve(source, sink, max_line_bytes=1000) == 0  # type: ignore[arg-type]
    first, second = (json.loads(line) for line in sink.getvalue().splitlines())
    assert error_of(first) == (-32600, None) and second["result"]["version"] == "20251113"
    assert Watched.biggest <= 64 * 1024


def test_deep_nesting_gets_a_parse_error(server: Client) -> None:
    response = refused(server, b"[" * 200_000 + b"]" * 200_000)
    assert error_of(response) == (-32700, None)
    deep_state = b'{"a":' * 600 + b"1" + b"}" * 600  # parses, but is no state
    line = request("moves", {"state": 0}).replace(b'"state": 0', b'"state": ' + deep_state)
    assert error_of(refused(server, line)) == (1000, "BAD_STATE")


# -- requests that are not valid ---------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "rid"),
    [
        (b'{"id": 4, "method": "version"}', 4),
        (b'{"jsonrpc": "1.0", "id": 4, "method": "version"}', 4),
        (b'{"jsonrpc": "2.0", "id": 4, "method": 7}', 4),
        (b'{"jsonrpc": "2.0", "id": 4, "method": "version", "params": "x"}', 4),
        (b'{"jsonrpc": "2.0", "id": 4, "method": "version", "params": null}', 4),
        (b'{"jsonrpc": "2.0", "id": true, "method": "version"}', None),
        (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "version"}', None),
        (b'"version"', None),
    ],
)
def test_an_invalid_request_gets_an_invalid_request_error(
    server: Client, line: bytes, rid: object
) -> None:
    response = refused(server, line)
    assert response["id"] == rid and error_of(response) == (-32600, None)


def test_an_unknown_method_gets_method_not_found_with_its_id(server: Client) -> None:
    response = refused(server, request("rpc.discover", rid="abc"))
    assert response["id"] == "abc" and error_of(response) == (-32601, None)


@pytest.mark.parametrize(
    "params",
    [
        [NEW],
        {},
        {"state": NEW, "extra": 1},
        {"state": 12},
        {"state": NEW, "move": 5},
        {"state": NEW},
        {"state": NEW, "move": "d5", "moves": ["d5"]},
        {"state": NEW, "moves": []},
        {"state": NEW, "moves": ["d5", None]},
        {"state": NEW, "move": [[["d5"]]]},
    ],
    ids=[
        "by-position",
        "no-state",
        "unknown",
        "state-number",
        "move-number",
        "no-move",
        "move-and-moves",
        "no-moves",
        "moves-with-null",
        "move-nested",
    ],
)
def test_wrong_params_of_move_get_invalid_params(server: Client, params: object) -> None:
    response = refused(server, request("move", params, rid=9))
    assert response["id"] == 9 and error_of(response) == (-32602, None)


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("new", {"players": "2"}),
        ("new", {"players": 2, "variants": "hole"}),
        ("new", {"players": True}),
        ("click", {"state": NEW, "move": "", "row": 1.5, "col": 0}),
        ("record", {"state": NEW, "players": [{"name": "A", "rating": 3}]}),
        ("replay", {"record": []}),
        ("same_move", {"a": "d5"}),
        ("version", {"x": 1}),
    ],
)
def test_wrong_params_of_other_methods_get_invalid_params(
    server: Client, method: str, params: object
) -> None:
    assert error_of(refused(server, request(method, params))) == (-32602, None)


# -- refusals of the engine ------------------------------------------------------------


def _tampered(state: str) -> str:
    doc = json.loads(state)
    doc["stack"][0]["board"]["value"][0][1] = [["PI", 9]]
    return json.dumps(doc)


@pytest.mark.parametrize(
    "state",
    [
        "",
        "not json",
        "{}",
        "[]",
        NEW[:-1],
        NEW.replace('"stawvs"', '"chess"', 1),
        _tampered(NEW),
        {"game": "stawvs"},
        NEW.replace('"20251113"', '"19990101"'),
        "[" * 100_000,
    ],
    ids=[
        "empty",
        "text",
        "empty-object",
        "array",
        "cut",
        "other-game",
        "tampered",
        "partial",
        "old-version",
        "deep-text",
    ],
)
def test_an_invalid_state_is_refused_with_bad_state(server: Client, state: object) -> None:
    response = refused(server, request("moves", {"state": state}))
    assert error_of(response) == (1000, "BAD_STATE")
    assert response["error"]["message"]


@pytest.mark.parametrize(
    ("plies", "move"),
    [
        (0, "a1"),
        (0, "c3-f6,f2"),
        (0, "pass"),
        (0, "hello"),
        (0, "d4" * 200),
        (12, "d5"),
        (12, "a1-a2,a3"),
        (12, "pass"),
        (12, "z"),
    ],
)
def test_an_illegal_move_is_refused_with_the_engine_code(
    server: Client, plies: int, move: str
) -> None:
    state = state_after(plies)
    response = refused(server, request("move", {"state": state, "move": move}))
    with pytest.raises(StawvsError) as in_process:
        StawvsGame(state).move(move)
    assert error_of(response) == (1000, in_process.value.code)
    assert response["error"]["message"] == in_process.value.message


def test_a_refused_move_in_a_list_names_its_place(server: Client) -> None:
    state = state_after(0)
    first = StawvsGame(state).moves()[0]
    response = refused(server, request("move", {"state": state, "moves": [first, first]}))
    assert error_of(response) == (1000, "BAD_PLACEMENT")
    assert response["error"]["data"] == {"code": "BAD_PLACEMENT", "index": 1, "move": first}


@pytest.mark.parametrize(
    ("method", "params", "code"),
    [
        ("new", {"players": 5}, "BAD_ARGUMENT"),
        ("new", {"players": 2, "variants": ["x"]}, "BAD_VARIANT"),
        ("render", {"state": NEW, "ply": 3}, "BAD_INDEX"),
        ("resign", {"state": NEW, "player": 3}, "BAD_PLAYER"),
        ("record", {"state": NEW}, "NOT_FINISHED"),
        ("replay", {"record": {}}, "BAD_RECORD"),
        ("preview", {"state": NEW, "move": "a1"}, "BAD_PLACEMENT"),
    ],
)
def test_other_refusals_carry_the_engine_code(
    server: Client, method: str, params: object, code: str
) -> None:
    assert error_of(refused(server, request(method, params))) == (1000, code)


# -- notifications, batches, faults ----------------------------------------------------


def test_notifications_get_no_answer_even_when_wrong(server: Client) -> None:
    for method in ("version", "nope", "move"):
        server.send_raw(json.dumps({"jsonrpc": "2.0", "method": method}).encode("ascii"))
    server.send_raw(b"[" + b",".join([b'{"jsonrpc": "2.0", "method": "version"}'] * 3) + b"]")
    server.send_raw(b"   ")  # a blank line asks nothing either
    assert_still_answers(server)


def test_a_batch_answers_its_requests_in_order_and_skips_notifications(server: Client) -> None:
    batch = [
        json.loads(request("same_move", {"a": "d5", "b": "D5"}, rid="a")),
        {"jsonrpc": "2.0", "method": "version"},
        json.loads(request("moves", {"state": "x"}, rid="b")),
        7,
        json.loads(request("version", rid="c")),
    ]
    server.send_raw(json.dumps(batch).encode("ascii"))
    answers = json.loads(server.read_raw())
    assert [a["id"] for a in answers] == ["a", "b", None, "c"]
    assert answers[0]["result"] == {"same": True}
    assert [error_of(a) for a in answers[1:3]] == [(1000, "BAD_STATE"), (-32600, None)]
    assert_still_answers(server)


def test_an_exception_inside_a_method_gets_an_internal_error_and_no_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(params: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("a bug")

    monkeypatch.setitem(service_module.METHODS, "broken", Method("broken", broken, {}))
    answer = answer_line(request("broken", rid=3))
    assert answer is not None and error_of(json.loads(answer)) == (-32603, None)
    assert json.loads(answer)["id"] == 3
    assert json.loads(answer_line(request("version")) or "")["result"]["version"] == "20251113"


# -- how the server ends -----------------------------------------------------------------


def run_server(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "stawvs_ap", "serve"],
        input=stdin,
        env=ENV,
        capture_output=True,
        timeout=60,
        check=False,
    )


@pytest.mark.slow
def test_end_of_input_ends_the_server_with_status_0_after_a_last_unended_line() -> None:
    done = run_server(request("version", rid=1) + b"\n" + request("version", rid=2))
    assert done.returncode == 0 and done.stderr == b""
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == [1, 2]


@pytest.mark.slow
def test_a_closed_stdout_ends_the_server_cleanly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "stawvs_ap", "serve"],
        env=ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stdin is not None
    process.stdout.close()  # the host stops reading
    try:
        for _ in range(50):
            process.stdin.write(request("moves", {"state": NEW}) + b"\n")
            process.stdin.flush()
    except BrokenPipeError:  # the server has already gone, as it should
        pass
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0
    assert stderr == b""


def test_the_games_kept_between_requests_are_copies_and_bounded() -> None:
    from stawvs_ap.service.recent import RecentGames

    recent = RecentGames(size=2)
    first = StawvsGame(2, seed=1).serialize()
    one, two = recent.game(first), recent.game(first)
    assert one is not two and one.serialize() == two.serialize() == first
    one.move(one.moves()[0])
    one.load(0)
    assert recent.game(first).serialize() == first  # what a request did stays its own
    assert recent.game(first).moves() == StawvsGame(first).moves()
    others = [StawvsGame(2, seed=s).serialize() for s in (2, 3)]
    for text in others:
        recent.game(text)
    assert list(recent._games) == others  # the oldest went


def test_answers_are_the_same_with_the_kept_games_as_from_a_fresh_load() -> None:
    from stawvs_ap.service import methods as service

    state = StawvsGame(3, seed=4).serialize()
    rng = random.Random(4)
    for _ in range(30):
        fresh = StawvsGame(state)
        move = rng.choice(fresh.moves())
        cached = service.METHODS["move"].run({"state": state, "move": move})
        fresh.move(move)
        assert cached["state"] == fresh.serialize() or _same_but_time(cached["state"], fresh)
        for ply in ({"ply": 0}, {}):
            render = service.METHODS["render"].run({"state": cached["state"], **ply})["render"]
            assert render == StawvsGame(cached["state"]).load(ply.get("ply", -1)).render()
        assert service.METHODS["moves"].run({"state": cached["state"]})["moves"] == (
            StawvsGame(cached["state"]).moves()
        )
        state = cached["state"]


def _same_but_time(text: str, game: StawvsGame) -> bool:
    ours, theirs = json.loads(text), game.state()
    for doc in (ours, theirs):
        for entry in doc["stack"]:
            entry.pop("_timestamp")
    return bool(ours == theirs)
