"""Each service method is declared once (:mod:`stawvs_ap.service.protocol`), and
what is made from the declaration, or written beside it, follows it: the
parameter checks, the protocol schema, the Python client's methods (made from
it), ``serve --help`` and docs/service.md's method table. Each test names what
to change when they part."""

from __future__ import annotations

import inspect
import json
import re
from typing import Any

import pytest
from service_support import ROOT, example_params, schema_errors

from stawvs_ap import schemas
from stawvs_ap.service import METHODS
from stawvs_ap.service.client import Client
from stawvs_ap.service.jsonrpc import INVALID_PARAMS, RpcError
from stawvs_ap.service.protocol import TEXT, Method, method, obj, protocol_schema, table

DOCS = ROOT / "docs" / "service.md"


def echo(params: dict[str, Any]) -> dict[str, Any]:
    return dict(params)


def test_a_method_declared_twice_is_refused_when_the_table_is_made() -> None:
    first = method("echo", "Echo.", result=obj({}), required={"text": TEXT})(echo)
    again = method("echo", "Echo again.", result=obj({}))(echo)
    with pytest.raises(ValueError, match="'echo' is declared twice"):
        table([first], [again])


def test_the_table_holds_each_method_under_its_declared_name() -> None:
    assert all(name == declared.name for name, declared in METHODS.items())
    assert list(METHODS)[:3] == ["version", "info", "variants"]


def test_exactly_one_of_two_parameters_is_checked_from_the_declaration() -> None:
    either = Method("either", echo, {}, {"a": TEXT, "b": TEXT}, one_of=("a", "b"))
    assert either.check({"a": "x"}) == {"a": "x"}
    for params in ({}, {"a": "x", "b": "y"}):
        with pytest.raises(RpcError) as refused:
            either.check(params)
        assert refused.value.rpc_code == INVALID_PARAMS
    assert [branch["required"] for branch in either.params_schema()["oneOf"]] == [["a"], ["b"]]


# -- the protocol schema ---------------------------------------------------------------


def test_the_protocol_schema_file_is_made_from_the_declarations() -> None:
    made = json.loads(json.dumps(protocol_schema(METHODS)))
    assert schemas.load("protocol") == made, "run: python devtools/schemagen.py"


def test_the_schema_names_each_method_with_the_parameters_the_server_takes() -> None:
    defs = schemas.load("protocol")["$defs"]
    named = {d.removesuffix(".params") for d in defs if d.endswith(".params")}
    assert named == set(METHODS)
    for name, declared in METHODS.items():
        params = defs[f"{name}.params"]
        assert set(params["properties"]) == {*declared.required, *declared.optional}, name
        assert set(params["required"]) == set(declared.required), name
        assert f"{name}.result" in defs


SAMPLES: list[object] = [
    True,
    0,
    7,
    -3,
    1.5,
    "",
    "d5",
    "x" * 1001,
    "n" * 101,
    [],
    ["a"],
    ["a"] * 5,
    [1],
    {},
    {"row": 1, "col": 2},
    {"move": "d5", "label": "1"},
    [{"move": "d5"}],
]


@pytest.mark.parametrize("name", list(METHODS))
def test_what_the_checks_refuse_the_schema_refuses_too(name: str) -> None:
    """The schema may say more than the checks (the ranges the engine refuses
    itself, with error 1000), never less: a host that validates against it
    sends nothing the server refuses as bad parameters."""
    declared, valid = METHODS[name], example_params()[name]
    assert declared.check(dict(valid)) == valid
    assert schema_errors(f"{name}.params", valid) == []
    for param in [*declared.required, *declared.optional]:
        for value in SAMPLES:
            params = {**valid, param: value}
            try:
                declared.check(params)
            except RpcError as refused:
                assert refused.rpc_code == INVALID_PARAMS
                assert schema_errors(f"{name}.params", params) != [], (param, value)


@pytest.mark.parametrize("name", [n for n, m in METHODS.items() if m.optional])
def test_an_optional_parameter_sent_as_null_is_absent_for_the_checks_and_the_schema(
    name: str,
) -> None:
    declared, valid = METHODS[name], example_params()[name]
    for param in declared.optional:
        params = {**valid, param: None}
        if param in valid and param in declared.one_of:  # null leaves neither of the two
            with pytest.raises(RpcError):
                declared.check(params)
            assert schema_errors(f"{name}.params", params) != [], param
            continue
        assert declared.check(params) == {k: v for k, v in valid.items() if k != param}
        assert schema_errors(f"{name}.params", params) == [], param


@pytest.mark.parametrize("name", list(METHODS))
def test_a_request_without_params_passes_the_schema_only_when_the_server_takes_it(
    name: str,
) -> None:
    request = {"jsonrpc": "2.0", "id": 1, "method": name}
    try:
        METHODS[name].check({})
    except RpcError:
        taken = False
    else:
        taken = True
    assert (schema_errors("request", request) == []) == taken


# -- the Python client -------------------------------------------------------------------


def expected_signature(declared: Method) -> str:
    """The client method's signature as the declaration says it."""
    required = [f"{p}: {k.annotation}" for p, k in declared.required.items()]
    optional = [f"{p}: {k.annotation} | None = None" for p, k in declared.optional.items()]
    return f"(self, {', '.join([*required, *optional])}) -> Result".replace(", )", ")")


def shown(signature: inspect.Signature) -> str:
    """``signature`` as :func:`expected_signature` writes it."""
    parameters = [
        p.replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD)
        for p in signature.parameters.values()
    ]
    return str(signature.replace(parameters=parameters)).replace("'", "")


@pytest.mark.parametrize("name", list(METHODS))
def test_the_client_has_the_method_with_the_declared_parameters_and_types(name: str) -> None:
    assert hasattr(Client, name), "the client makes a method of every declaration"
    signature = inspect.signature(getattr(Client, name))
    assert shown(signature) == expected_signature(METHODS[name]), "Client." + name
    parameters = list(signature.parameters.values())[1:]
    required = [p.name for p in parameters if p.default is inspect.Parameter.empty]
    assert required == list(METHODS[name].required), "required parameters first, in order"


@pytest.mark.parametrize("name", list(METHODS))
def test_the_client_sends_each_parameter_under_its_name(name: str) -> None:
    sent: list[tuple[str, Any]] = []
    client = Client.__new__(Client)  # no server: the call is only recorded
    client.call = lambda method, params=None: sent.append((method, params)) or {}  # type: ignore[method-assign]
    declared = METHODS[name]
    values = {param: f"<{param}>" for param in [*declared.required, *declared.optional]}
    getattr(client, name)(**values)
    assert sent == [(name, values)]


def test_the_client_calls_no_method_the_protocol_lacks() -> None:
    own = {"call", "notify", "close", "send_raw", "read_raw", "process"}
    public = {n for n in vars(Client) if not n.startswith("_")} - own
    assert public == set(METHODS)


# -- docs/service.md -------------------------------------------------------------------------


def documented_rows() -> list[tuple[str, str]]:
    """The method table's (method, parameters) rows."""
    text = DOCS.read_text(encoding="utf-8")
    table_text = text.split("| method | params | result |", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| (?:`([^`]*)`)? ?\|", table_text, flags=re.MULTILINE)
    return [(name, params) for name, params in rows]


def test_the_docs_table_has_a_row_per_method_with_its_declared_parameters() -> None:
    expected = [
        (name, declared.call_help().replace(", locale?", "").replace("locale?", ""))
        for name, declared in METHODS.items()
    ]
    rows = documented_rows()
    for row, wanted in zip(rows, expected, strict=False):
        assert row == wanted, (
            f"docs/service.md's row should start: | `{wanted[0]}` | `{wanted[1]}` |"
        )
    assert [name for name, _ in rows] == list(METHODS)


def test_the_docs_list_every_method_that_takes_a_locale() -> None:
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    listed = text.split("`locale?`, a language tag", 1)[1].split("It is negotiated", 1)[0]
    named = re.findall(r"`(\w+)`", listed.split("):", 1)[1])
    assert named == [name for name, declared in METHODS.items() if "locale" in declared.optional]
