"""The service bounds what it answers as well as what it reads.

Texts and lists have length limits (``-32602`` beyond them); an answer, a
batch's whole, is at most ``MAX_RESPONSE_BYTES`` and the requests past it are
refused unrun; an id JSON cannot write back is refused for its request alone;
in-process callers get objects of their own; and the client refuses to send
what JSON cannot carry and reads an error with a null id as its request's.
"""

from __future__ import annotations

import copy
import json
import math
import re
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from service_support import ENV, finished_state, state_after

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.bots.spec import BOTS
from stawvs_ap.errors import ErrorCode
from stawvs_ap.service import jsonrpc
from stawvs_ap.service.client import Client, RemoteError
from stawvs_ap.service.jsonrpc import ServiceErrorCode
from stawvs_ap.service.methods import (
    MAX_NAME_LENGTH,
    MAX_RESPONSE_BYTES,
    MAX_TEXT_LENGTH,
    METHODS,
    answer_line,
    call,
)
from tests.hostile import scaled

STATE = state_after(20, players=3)
LEGAL = StawvsGame(STATE).moves()[0]
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
FINISHED = finished_state()


def answer(message: object) -> Any:
    line = answer_line(json.dumps(message).encode("ascii"))
    assert line is not None
    return json.loads(line)


def rpc(method: str, params: dict[str, Any], rid: object = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def code_of(response: dict[str, Any]) -> int | None:
    return response["error"]["code"] if "error" in response else None


# -- the limits of texts and lists ------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("chat_log", {"state": STATE, "names": ["x" * (MAX_NAME_LENGTH + 1), "B", "C"]}),
        ("chat_log", {"state": STATE, "names": ["A"] * 5}),
        ("validate", {"state": STATE, "move": "x" * (MAX_TEXT_LENGTH + 1)}),
        ("move", {"state": STATE, "moves": ["d5"] * 257}),
        ("move", {"state": STATE, "moves": ["x" * (MAX_TEXT_LENGTH + 1)]}),
        ("same_move", {"a": "d5", "b": "d" * (MAX_TEXT_LENGTH + 1)}),
        ("new", {"players": 2, "variants": ["hole"] * 6}),
        ("new", {"players": 2, "variants": ["h" * (MAX_NAME_LENGTH + 1)]}),
        ("record", {"state": FINISHED, "uid": "u" * (MAX_TEXT_LENGTH + 1)}),
        ("record", {"state": FINISHED, "players": ["A", "B", "n" * (MAX_NAME_LENGTH + 1)]}),
        ("record", {"state": FINISHED, "players": [{"name": "A", "uid": "u" * 101}, "B", "C"]}),
        ("record", {"state": FINISHED, "players": ["A", "B", "C", "D", "E"]}),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_texts_and_lists_over_their_limits_are_invalid_params(
    method: str, params: dict[str, Any]
) -> None:
    response = answer(rpc(method, params))
    assert code_of(response) == jsonrpc.INVALID_PARAMS, response
    assert len(json.dumps(response)) < 600


def test_a_chat_log_of_the_longest_names_stays_small() -> None:
    # The case: long names repeated in every sentence made 270 MB of 8.
    names = ["é" * MAX_NAME_LENGTH, "ü" * MAX_NAME_LENGTH, "ß" * MAX_NAME_LENGTH]
    line = answer_line(json.dumps(rpc("chat_log", {"state": FINISHED, "names": names})).encode())
    assert line is not None and '"result"' in line
    assert len(line) < 2_000_000


# -- the size of an answer -------------------------------------------------------------


def test_an_answer_over_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonrpc, "MAX_RESPONSE_BYTES", 1000)
    assert "result" in answer(rpc("version", {}, rid="v"))
    response = answer(rpc("moves", {"state": STATE}, rid="m"))  # about 2 kB of moves
    assert response["id"] == "m" and code_of(response) == jsonrpc.INVALID_REQUEST
    assert response["error"]["data"] == {"limit": 1000}
    assert response["error"]["message"] == "the answer would be longer than 1,000 bytes"


def test_a_batch_is_answered_until_it_is_full_and_the_rest_refused_unrun(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jsonrpc, "MAX_RESPONSE_BYTES", 60_000)
    ran: list[str] = []

    def counting(method: str, params: Any) -> Any:
        ran.append(method)
        return call(method, params)

    batch = [rpc("render", {"state": STATE}, rid=i) for i in range(40)]
    batch.insert(3, {"jsonrpc": "2.0", "method": "version"})  # a notification
    line = jsonrpc.answer_line(json.dumps(batch).encode(), counting)
    assert line is not None
    assert len(line) <= 60_000
    answers = json.loads(line)
    assert [a["id"] for a in answers] == list(range(40))  # the notification unanswered
    done = [a for a in answers if "result" in a]
    refused = [a for a in answers if "error" in a]
    assert done and refused and answers == done + refused
    assert all(a["error"]["data"] == {"limit": 60_000} for a in refused)
    assert len(ran) <= len(done) + 1  # the ones refused were never run


@pytest.mark.slow
def test_a_full_batch_of_the_largest_answers_stays_under_the_limit() -> None:
    batch = [rpc("move", {"state": STATE, "move": "pass"}, rid=i) for i in range(3)]
    batch += [rpc("render", {"state": STATE}, rid=10 + i) for i in range(997)]
    line = answer_line(json.dumps(batch).encode())
    assert line is not None and len(line) <= MAX_RESPONSE_BYTES
    assert len(json.loads(line)) == 1000


# -- ids --------------------------------------------------------------------------------


def test_an_id_json_cannot_write_back_is_refused_for_its_request_alone() -> None:
    line = (
        b'[{"jsonrpc":"2.0","id":1e400,"method":"version"},'
        b'{"jsonrpc":"2.0","id":-1e999,"method":"version"},'
        b'{"jsonrpc":"2.0","id":7,"method":"version"}]'
    )
    first, second, third = json.loads(answer_line(line) or "")
    for refused in (first, second):
        assert refused["id"] is None and code_of(refused) == jsonrpc.INVALID_REQUEST
    assert third["id"] == 7 and "result" in third
    alone = json.loads(answer_line(b'{"jsonrpc":"2.0","id":1e400,"method":"version"}') or "")
    assert code_of(alone) == jsonrpc.INVALID_REQUEST
    assert (
        json.loads(answer_line(b'{"jsonrpc":"2.0","id":2.5,"method":"version"}') or "")["id"] == 2.5
    )


# -- copies ---------------------------------------------------------------------------


def _scribble(value: Any) -> None:
    """Change every list and dict inside ``value``."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")


CALLS = [
    ("version", {}),
    ("info", {}),
    ("variants", {"state": STATE}),
    ("new", {"players": 3, "variants": ["hole"], "seed": 4}),
    ("moves", {"state": STATE}),
    ("validate", {"state": STATE, "move": LEGAL}),
    ("move", {"state": STATE, "moves": [LEGAL]}),
    ("preview", {"state": STATE, "move": LEGAL}),
    ("render", {"state": STATE}),
    ("scores", {"state": STATE}),
    ("chat_log", {"state": FINISHED, "names": ["A", "B", "C"]}),
    ("move_history", {"state": STATE}),
    ("record", {"state": FINISHED, "players": [{"name": "A"}, "B", "C"]}),
    ("summary", {"state": STATE}),
    ("hint", {"state": STATE, "iterations": 20, "seed": 1, "top": 2}),
    ("bot_move", {"state": STATE, "bot": "greedy", "seed": 1}),
    ("analyse", {"state": STATE, "iterations": 40, "seed": 1, "lines": 2}),
    ("retry", {"state": STATE, "move": LEGAL, "iterations": 40, "seed": 1}),
]


@pytest.mark.parametrize(("method", "params"), CALLS, ids=[m for m, _ in CALLS])
def test_in_process_callers_get_objects_of_their_own(method: str, params: dict[str, Any]) -> None:
    given = copy.deepcopy(params)
    first = call(method, params)
    expected = _timeless(first)
    _scribble(first)
    _scribble(params)  # what was sent, changed afterwards
    assert _timeless(call(method, copy.deepcopy(given))) == expected


def _timeless(result: Any) -> str:
    """``result`` as JSON with its timestamps (new entries, record dates) blanked."""
    return TIMESTAMP.sub("T", json.dumps(result))


def test_every_method_is_covered_by_the_copy_test() -> None:
    covered = {m for m, _ in CALLS}
    # These answer only texts, booleans and numbers, or a new state text.
    rest = {"click", "same_move", "resign", "timeout", "draw", "abandoned", "replay"}
    rest |= {"svg", "undo"}
    # Their answers hold the seconds they took: tests/test_review.py checks the
    # review's copies; the solver's answer is numbers, texts and lists of texts.
    rest |= {"review", "solve"}
    assert covered | rest >= set(METHODS)


# -- random requests ---------------------------------------------------------------------

_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["d5", "pass", "c3-f6,f2", "x" * (MAX_TEXT_LENGTH + 1)]),
    st.integers(0, 4).map(lambda n: "n" * (MAX_NAME_LENGTH + n)),
)
_VALUE = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=False, allow_infinity=False),
        _TEXT,
        st.sampled_from([STATE, FINISHED]),
    ),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)
_BOT_SPECS = st.builds(
    lambda name, pairs: name + ":" + ",".join(f"{k}={v}" for k, v in pairs),
    st.sampled_from(sorted(BOTS)),
    st.lists(
        st.tuples(
            st.sampled_from(sorted({o.name for b in BOTS.values() for o in b.options})),
            st.one_of(st.integers(-5, 5000).map(str), st.floats().map(repr)),
        ),
        max_size=3,
    ),
)


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    method = draw(st.sampled_from([*sorted(METHODS), "bot_move", "hint"]))
    spec = METHODS.get(method)
    names = list(spec.required) + list(spec.optional) if spec else ["state", "bot", "seconds"]
    params = {
        name: draw(st.one_of(_VALUE, _BOT_SPECS) if name == "bot" else _VALUE)
        for name in draw(st.lists(st.sampled_from([*names, "extra"]), unique=True, max_size=5))
    }
    rid = draw(
        st.one_of(
            st.integers(),
            st.text(max_size=10),
            st.floats(allow_nan=False, allow_infinity=False),
            st.none(),
            st.lists(st.integers(), max_size=2),
        )
    )
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


@pytest.mark.slow
@settings(max_examples=scaled(1200))
@given(st.lists(requests(), min_size=1, max_size=4), st.booleans())
def test_random_requests_get_bounded_answers_and_never_an_internal_error(
    batch: list[dict[str, Any]], alone: bool
) -> None:
    message: Any = batch[0] if alone else batch
    line = answer_line(json.dumps(message).encode("ascii", "backslashreplace"))
    assert line is not None and len(line) <= MAX_RESPONSE_BYTES
    answers = json.loads(line)
    for response in [answers] if isinstance(answers, dict) else answers:
        assert code_of(response) != jsonrpc.INTERNAL_ERROR, response
        rid = response["id"]
        assert rid is None or not isinstance(rid, float) or math.isfinite(rid)


# -- the client ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Any:
    server = Client(env=ENV)
    yield server
    assert server.close() == 0


@pytest.mark.slow
@pytest.mark.parametrize("number", [math.nan, math.inf, -math.inf])
def test_the_client_refuses_to_send_numbers_json_cannot_carry(
    client: Client, number: float
) -> None:
    with pytest.raises(StawvsError) as caught:
        client.new(2, seed=number)  # type: ignore[arg-type]
    assert caught.value.code == ErrorCode.BAD_ARGUMENT
    assert "NaN and infinities are not JSON numbers" in caught.value.message
    assert client.version()["version"]  # nothing was sent: the next call is answered


def test_the_client_refuses_what_json_cannot_write(client: Client) -> None:
    with pytest.raises(StawvsError) as caught:
        client.call("new", {"players": {2}})
    assert caught.value.code == ErrorCode.BAD_ARGUMENT
    assert client.version()["version"]


@pytest.mark.slow
def test_the_client_reads_an_error_with_a_null_id_as_its_requests() -> None:
    # A server that cannot read a request answers with a null id; it is that
    # request's answer, not one out of turn.
    command = [
        sys.executable,
        "-c",
        "import sys; from stawvs_ap.service.methods import serve; "
        "sys.exit(serve(max_line_bytes=2000))",
    ]
    with Client(command, env=ENV) as small:
        with pytest.raises(RemoteError) as caught:
            small.validate(STATE, "d5")  # a state longer than the server reads
        assert caught.value.code == ServiceErrorCode.INVALID_REQUEST
        assert caught.value.data == {"limit": 2000}
        assert small.version()["version"]


# -- what a line may hold, counted before it is parsed -------------------------------------


def _batch_of_empty_objects(count: int) -> bytes:
    return b"[" + b",".join([b"{}"] * count) + b"]"


def test_a_line_of_more_than_max_json_values_is_refused_unparsed() -> None:
    # count objects, count - 1 commas, one bracket, plus one: count * 2 + 1 values.
    line = _batch_of_empty_objects(jsonrpc.MAX_JSON_VALUES // 2)
    error = json.loads(answer_line(line) or "")["error"]
    assert error["code"] == jsonrpc.PARSE_ERROR
    assert f"{jsonrpc.MAX_JSON_VALUES:,} JSON values" in error["message"]


def test_a_line_of_max_json_values_is_parsed() -> None:
    line = _batch_of_empty_objects(jsonrpc.MAX_JSON_VALUES // 2 - 1)
    # Parsed, then refused for its length as a batch: not a parse error.
    assert json.loads(answer_line(line) or "")["error"]["code"] == jsonrpc.INVALID_REQUEST


def test_marks_inside_a_long_string_do_not_count_as_values() -> None:
    text = json.dumps({"a": [1, 2, 3] * jsonrpc.MAX_JSON_VALUES})
    line = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "same_move", "params": {"a": text, "b": "x"}}
    ).encode("ascii")
    assert json.loads(answer_line(line) or "")["error"]["code"] != jsonrpc.PARSE_ERROR


def test_many_short_strings_count_as_values() -> None:
    line = b"[" + b",".join([b'"ab"'] * (jsonrpc.MAX_JSON_VALUES + 1)) + b"]"
    assert json.loads(answer_line(line) or "")["error"]["code"] == jsonrpc.PARSE_ERROR


def test_a_5000_digit_id_is_refused_in_our_words() -> None:
    line = b'{"jsonrpc":"2.0","id":' + b"7" * 5000 + b',"method":"version"}'
    error = json.loads(answer_line(line) or "")["error"]
    assert error["code"] == jsonrpc.PARSE_ERROR
    assert "1,000 digits" in error["message"]
    assert "sys." not in error["message"]


def test_a_1000_digit_id_is_written_back() -> None:
    rid = int("7" * 1000)
    line = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "version"}).encode("ascii")
    assert json.loads(answer_line(line) or "")["id"] == rid
