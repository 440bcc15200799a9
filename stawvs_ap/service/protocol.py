"""How a method of the service is declared: once, with typed parameters.

A method is a :class:`Method`, made by the :func:`method` decorator from its
body and its declaration: its name, what it does (a sentence), its required
and optional parameters (each a :class:`Kind`), and the JSON Schema of its
result. Everything else is made from that declaration or checked against it:

- the parameter checks (:meth:`Method.check`), before the body runs;
- the protocol schema, ``protocol.schema.json`` (:func:`protocol_schema`;
  ``python devtools/schemagen.py`` writes it, ``tests/test_schemas.py`` fails
  when the file is stale);
- ``serve --help``'s list of methods;
- the Python client's methods (:class:`stawvs_ap.service.client.Client`);
- docs/service.md's method table, held to the declaration by
  ``tests/test_service_declarations.py``, which names the expected line when
  they part.

>>> @method("echo", "Answer the text given.", result=obj({"text": TEXT.schema}),
...         required={"text": TEXT})
... def echo(params):
...     return {"text": params["text"]}
>>> echo.check({"text": "hi"})
{'text': 'hi'}
>>> echo.call_help()
'text'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..core.variants import VARIANTS as VARIANT_IDS
from ..errors import excerpt
from ..state.format import MAX_ENTRIES
from .jsonrpc import INVALID_PARAMS, MAX_BATCH, RpcError

__all__ = [
    "APP_ERROR",
    "BOOL",
    "INT",
    "LOCALE",
    "MAX_MOVES",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MAX_TEXT_LENGTH",
    "MOVES",
    "NAMES",
    "OBJECT",
    "PLAYERS",
    "SEED",
    "STATE",
    "TEXT",
    "VARIANTS",
    "Kind",
    "Method",
    "Params",
    "Result",
    "Schema",
    "method",
    "obj",
    "protocol_schema",
    "table",
]

Params = dict[str, Any]
Result = dict[str, Any]
Schema = dict[str, Any]

#: ``error.code`` of every refusal by the engine (its own code is in ``error.data.code``).
APP_ERROR: Final = 1000

#: The longest text parameter (a move, a seed, a record id), in characters.
MAX_TEXT_LENGTH: Final = 1000
#: The longest player name (and player uid), in characters: names are repeated
#: in every sentence of a chat log.
MAX_NAME_LENGTH: Final = 100
#: The most names or players a list may hold (a game has at most 4 players).
MAX_PLAYERS: Final = 4
#: The most moves one ``move`` request plays (a state holds at most this many entries).
MAX_MOVES: Final = MAX_ENTRIES


@dataclass(frozen=True)
class Kind:
    """What a parameter must be, said three ways: ``test`` (the check the
    server makes), ``what`` (the words of its refusal), ``schema`` (its JSON
    Schema, which may also give the range the engine itself then refuses with
    an application error) and ``annotation`` (its type in the Python client's
    method, made from the declaration)."""

    test: Callable[[object], bool]
    what: str
    schema: Schema
    annotation: str


def obj(properties: Schema, required: Iterable[str] | None = None, **extra: Any) -> Schema:
    """The schema of an object with exactly ``properties``, ``required`` (default:
    all of them) present.

    >>> obj({"a": {"type": "integer"}})["required"]
    ['a']
    """
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties if required is None else required),
        "additionalProperties": False,
        **extra,
    }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: object, limit: int = MAX_TEXT_LENGTH) -> bool:
    return isinstance(value, str) and len(value) <= limit


def _is_texts(value: object, most: int, limit: int) -> bool:
    return isinstance(value, list) and len(value) <= most and all(_is_text(v, limit) for v in value)


_PLAYER_KEYS: Final = {"name": str, "uid": str, "is_ai": bool}


def _is_player(value: object) -> bool:
    if isinstance(value, str):
        return len(value) <= MAX_NAME_LENGTH
    return (
        isinstance(value, dict)
        and all(k in _PLAYER_KEYS and isinstance(v, _PLAYER_KEYS[k]) for k, v in value.items())
        and all(len(v) <= MAX_NAME_LENGTH for v in value.values() if isinstance(v, str))
    )


def _texts_schema(most: int, limit: int, least: int = 0) -> Schema:
    schema: Schema = {"type": "array", "items": {"type": "string", "maxLength": limit}}
    if least:
        schema["minItems"] = least
    schema["maxItems"] = most
    return schema


STATE: Final = Kind(
    lambda v: isinstance(v, str | dict),
    "a serialized state (JSON text or object)",
    {"$ref": "#/$defs/state"},
    "State",
)
TEXT: Final = Kind(
    _is_text,
    f"text of at most {MAX_TEXT_LENGTH:,} characters",
    {"type": "string", "maxLength": MAX_TEXT_LENGTH},
    "str",
)
LOCALE: Final = Kind(
    _is_text, "a language tag such as 'de' or 'pt-BR'", {"$ref": "#/$defs/locale"}, "str"
)
INT: Final = Kind(_is_int, "a whole number", {"type": "integer"}, "int")
BOOL: Final = Kind(lambda v: isinstance(v, bool), "true or false", {"type": "boolean"}, "bool")
OBJECT: Final = Kind(
    lambda v: isinstance(v, dict), "an object", {"type": "object"}, "Mapping[str, Any]"
)
#: Any value passes here: the game or the bot refuses what is not a seed with
#: ``BAD_ARGUMENT`` naming the range (0 to 2^63-1), the refusal the Python API
#: and the command line give, so that the text ``"7"`` is refused everywhere alike.
SEED: Final = Kind(
    lambda v: True,
    "a whole number from 0 to 2^63-1",
    {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
    "int",
)
VARIANTS: Final = Kind(
    lambda v: _is_texts(v, len(VARIANT_IDS), MAX_NAME_LENGTH),
    f"a list of at most {len(VARIANT_IDS)} variant ids",
    _texts_schema(len(VARIANT_IDS), MAX_NAME_LENGTH),
    "Sequence[str]",
)
NAMES: Final = Kind(
    lambda v: _is_texts(v, MAX_PLAYERS, MAX_NAME_LENGTH),
    f"a list of at most {MAX_PLAYERS} names of at most {MAX_NAME_LENGTH} characters",
    _texts_schema(MAX_PLAYERS, MAX_NAME_LENGTH),
    "Sequence[str]",
)
MOVES: Final = Kind(
    lambda v: bool(v) and _is_texts(v, MAX_MOVES, MAX_TEXT_LENGTH),
    f"a list of 1 to {MAX_MOVES} move strings",
    _texts_schema(MAX_MOVES, MAX_TEXT_LENGTH, least=1),
    "Sequence[str]",
)
_NAME: Final[Schema] = {"type": "string", "maxLength": MAX_NAME_LENGTH}
PLAYERS: Final = Kind(
    lambda v: isinstance(v, list) and len(v) <= MAX_PLAYERS and all(map(_is_player, v)),
    f"a list of at most {MAX_PLAYERS} players, each a name or an object {{name?, uid?, is_ai?}} "
    f"whose texts have at most {MAX_NAME_LENGTH} characters",
    {
        "type": "array",
        "items": {
            "anyOf": [
                _NAME,
                obj({"name": _NAME, "uid": _NAME, "is_ai": {"type": "boolean"}}, required=()),
            ]
        },
        "maxItems": MAX_PLAYERS,
    },
    "Sequence[str | Mapping[str, Any]]",
)


@dataclass(frozen=True)
class Method:
    """A method of the protocol: its name, its body (``run``, given the checked
    parameters), its parameters (required and optional, in the order a caller
    gives them), what it does (``summary``), its result's schema, and the
    parameters of which a call gives exactly one (``one_of``)."""

    name: str
    run: Callable[[Params], Result]
    required: Mapping[str, Kind]
    optional: Mapping[str, Kind] = field(default_factory=dict)
    summary: str = ""
    result: Schema = field(default_factory=lambda: {"type": "object"})
    one_of: tuple[str, ...] = ()

    def check(self, params: Params) -> Params:
        """The parameters, checked: absent optional ones (or null) left out.

        Raises :class:`RpcError` (``INVALID_PARAMS``) naming the first problem.
        """
        unknown = sorted(set(params) - set(self.required) - set(self.optional))
        if unknown:
            takes = self.call_help() or "nothing"
            raise RpcError(
                INVALID_PARAMS,
                f"unknown parameter {excerpt(unknown[0])} (this method takes {takes})",
            )
        for name in self.required:
            if name not in params:
                raise RpcError(INVALID_PARAMS, f"missing parameter {name!r}")
        checked = {k: v for k, v in params.items() if v is not None or k in self.required}
        for name, value in checked.items():
            kind = self.required.get(name) or self.optional[name]
            if not kind.test(value):
                raise RpcError(INVALID_PARAMS, f"parameter {name!r} must be {kind.what}")
        if self.one_of and sum(name in checked for name in self.one_of) != 1:
            either = " or ".join(repr(name) for name in self.one_of)
            raise RpcError(INVALID_PARAMS, f"give either {either}")
        return checked

    def call_help(self) -> str:
        """Its parameters as ``serve --help`` and docs/service.md list them:
        required ones by name, optional ones with ``?``."""
        return ", ".join([*self.required, *(f"{name}?" for name in self.optional)])

    def params_schema(self) -> Schema:
        """The JSON Schema of its ``params``: an optional one may be null, which
        :meth:`check` takes as absent."""
        properties = {name: kind.schema for name, kind in self.required.items()}
        for name, kind in self.optional.items():
            properties[name] = {"anyOf": [kind.schema, {"type": "null"}]}
        schema = obj(properties, self.required)
        if self.summary:
            schema = {"description": self.summary, **schema}
        if self.one_of:
            # Exactly one given, null being absent as it is for check.
            schema["oneOf"] = [
                {"required": [name], "properties": {name: {"not": {"type": "null"}}}}
                for name in self.one_of
            ]
        return schema


def method(
    name: str,
    summary: str,
    *,
    result: Schema,
    required: Mapping[str, Kind] | None = None,
    optional: Mapping[str, Kind] | None = None,
    one_of: Sequence[str] = (),
) -> Callable[[Callable[[Params], Result]], Method]:
    """Declare the method ``name`` whose body is the decorated function: the
    decorated name is then the :class:`Method`. Nothing is registered: a
    module lists its methods, and :data:`stawvs_ap.service.methods.METHODS`
    is made from those lists (:func:`table`)."""

    def declare(run: Callable[[Params], Result]) -> Method:
        return Method(
            name, run, dict(required or {}), dict(optional or {}), summary, result, tuple(one_of)
        )

    return declare


def table(*groups: Iterable[Method]) -> dict[str, Method]:
    """The methods of ``groups`` by name, in order; a name declared twice is a bug."""
    methods: dict[str, Method] = {}
    for group in groups:
        for declared in group:
            if declared.name in methods:
                raise ValueError(f"the method {declared.name!r} is declared twice")
            methods[declared.name] = declared
    return methods


# -- the protocol schema ------------------------------------------------------------

_TITLE: Final = "stawvs-ap serve: the JSON-RPC 2.0 protocol"
_DESCRIPTION: Final = (
    "One line in either direction: a request or a batch of requests to the server, a "
    "response or a batch of responses from it. '<method>.params' and '<method>.result' "
    "describe each method. The other schemas in this folder are referred to by their $id "
    "(urn:stawvs-ap:schema:NAME). Written by devtools/schemagen.py from the methods' "
    "declarations (stawvs_ap.service.protocol)."
)
_VERDICT: Final[Schema] = {
    "valid": {"type": "boolean"},
    "message": {"type": "string"},
    "complete": {"enum": [1, -1, None]},
    "canrender": {"type": ["boolean", "null"]},
    "code": {"type": ["string", "null"]},
}
_PLAYED: Final[Schema] = {
    "state": {"$ref": "#/$defs/stateText"},
    "results": {"$ref": "#/$defs/results"},
    "gameover": {"type": "boolean"},
    "winner": {"type": "array", "items": {"type": "integer"}},
    "currplayer": {"type": "integer"},
}
#: The parts that several methods' schemas share, by name under ``$defs``.
SHARED: Final[dict[str, Schema]] = {
    "id": {
        "description": "A request's id, echoed in its response; null in a response whose "
        "request's id could not be read.",
        "type": ["string", "number", "null"],
    },
    "state": {
        "description": "A serialized state as the engine writes it: the JSON text, or that "
        "JSON as an object.",
        "anyOf": [{"type": "string"}, {"$ref": "urn:stawvs-ap:schema:state"}],
    },
    "locale": {
        "description": "The language of the words for people in the answer (verdicts, labels, "
        "the chat log, the metadata, refusals): a language tag such as 'de' or 'pt-BR'. A "
        "regional tag finds its language ('de-AT': German), a language without a catalogue is "
        "answered in English; codes, states and results are the same in every language.",
        "type": "string",
        "maxLength": MAX_TEXT_LENGTH,
    },
    "stateText": {
        "description": "The new state as JSON text, exactly what StawvsGame.serialize() gives.",
        "type": "string",
    },
    "results": {"type": "array", "items": {"$ref": "urn:stawvs-ap:schema:result"}},
    "render": {"$ref": "urn:stawvs-ap:schema:render"},
    "verdict": {
        "description": "validate_move's verdict: 'complete' 1 or -1 when valid, 'code' names "
        "a rejection.",
        **obj(_VERDICT),
    },
    "clickVerdict": {
        "description": "handle_click's answer: the move built so far (the last valid prefix "
        "when the click is refused) and its verdict.",
        **obj({"move": {"type": "string"}, **_VERDICT}),
    },
    "played": {
        "description": "A changed game: its new state, the results of the last move, whether "
        "it is over, the winners, and the player to move.",
        **obj(_PLAYED),
    },
}
#: What a method that changed the game answers, for a result that adds to it.
PLAYED_PROPERTIES: Final = _PLAYED


def _envelope(methods: Mapping[str, Method]) -> dict[str, Schema]:
    """The requests, responses and errors of JSON-RPC around the methods."""
    return {
        "request": {
            "description": "One request. Without 'id' it is a notification: never answered.",
            "type": "object",
            "required": ["jsonrpc", "method"],
            "properties": {
                "jsonrpc": {"const": "2.0"},
                "id": {"$ref": "#/$defs/id"},
                "method": {"type": "string"},
                "params": {"description": "Parameters go by name.", "type": "object"},
            },
            "oneOf": [
                {
                    "properties": {
                        "method": {"const": name},
                        "params": {"$ref": f"#/$defs/{name}.params"},
                    },
                    # A method that needs a parameter needs params: without them
                    # the server finds the parameter missing.
                    "required": ["method", "params"]
                    if declared.required or declared.one_of
                    else ["method"],
                }
                for name, declared in methods.items()
            ],
        },
        "requestBatch": {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_BATCH,
            "items": {"$ref": "#/$defs/request"},
        },
        "response": {
            "type": "object",
            "required": ["jsonrpc", "id"],
            "properties": {
                "jsonrpc": {"const": "2.0"},
                "id": {"$ref": "#/$defs/id"},
                "result": {"type": "object"},
                "error": {"$ref": "#/$defs/error"},
            },
            "oneOf": [{"required": ["result"]}, {"required": ["error"]}],
            "additionalProperties": False,
        },
        "responseBatch": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/response"}},
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {
                    "description": "-32700 not JSON, -32600 invalid request (also an empty or "
                    "oversized batch, a line over the size limit), -32601 unknown method, "
                    "-32602 bad params, -32603 server fault, -32000 every search slot taken "
                    "(try again), 1000 refused by the engine.",
                    "enum": [-32700, -32600, -32601, -32602, -32603, -32000, 1000],
                },
                "message": {
                    "description": "What went wrong; for code 1000, a sentence for the player.",
                    "type": "string",
                },
                "data": {
                    "type": "object",
                    "properties": {
                        "code": {
                            "description": "The engine's own code (BAD_MOVE, BAD_STATE, …), "
                            "with error code 1000.",
                            "type": "string",
                        },
                        "index": {
                            "description": "With 'moves': the position in the list of the "
                            "refused move.",
                            "type": "integer",
                        },
                        "move": {
                            "description": "With 'moves': the refused move.",
                            "type": "string",
                        },
                        "limit": {
                            "description": "With a line over the size limit: the limit in bytes.",
                            "type": "integer",
                        },
                    },
                },
            },
            "additionalProperties": False,
            "if": {"properties": {"code": {"const": 1000}}},
            "then": {"required": ["data"], "properties": {"data": {"required": ["code"]}}},
        },
    }


def protocol_schema(methods: Mapping[str, Method]) -> Schema:
    """The protocol schema (draft 2020-12) of ``methods``: what
    ``protocol.schema.json`` holds for :data:`stawvs_ap.service.methods.METHODS`."""
    defs: dict[str, Schema] = {**SHARED, **_envelope(methods)}
    for name, declared in methods.items():
        defs[f"{name}.params"] = declared.params_schema()
        defs[f"{name}.result"] = declared.result
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:stawvs-ap:schema:protocol",
        "title": _TITLE,
        "description": _DESCRIPTION,
        "anyOf": [
            {"$ref": "#/$defs/request"},
            {"$ref": "#/$defs/requestBatch"},
            {"$ref": "#/$defs/response"},
            {"$ref": "#/$defs/responseBatch"},
        ],
        "$defs": defs,
    }
