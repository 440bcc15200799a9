"""JSON-RPC 2.0 over lines of a byte stream, for any table of methods.

One JSON text per line comes in: a request, or a batch (an array of requests).
For each line that calls for an answer one line goes out, the response or the
array of responses, flushed at once. Notifications (requests without ``id``)
are not answered, and not run either: the methods served here change nothing,
so running them could show nothing. Blank lines are skipped.

The server side of :mod:`stawvs_ap.service.methods`; it knows nothing of the game. A
method is a callable ``call(method, params)`` that returns the result or
raises :class:`RpcError`; any other exception is answered ``-32603`` and
logged with its traceback on standard error.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import sys
from collections.abc import Callable
from contextvars import ContextVar
from enum import StrEnum
from typing import Any, BinaryIO, Final

from ..errors import StawvsError

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "MAX_BATCH",
    "MAX_JSON_VALUES",
    "MAX_LINE_BYTES",
    "MAX_NUMBER_DIGITS",
    "MAX_RESPONSE_BYTES",
    "METHOD_NOT_FOUND",
    "NOTIFY",
    "PARSE_ERROR",
    "Dispatch",
    "RpcError",
    "ServiceErrorCode",
    "answer_line",
    "loads_bounded",
    "serve_lines",
]

#: The longest request line read, newline excluded: room for the largest state
#: the engine loads (4 MB) even as escaped JSON text inside a request.
MAX_LINE_BYTES: Final = 8 * 1024 * 1024
#: The most requests one batch may hold: a short line of many tiny requests
#: must not make the server write megabytes of errors.
MAX_BATCH: Final = 1000
#: The longest response line written, newline excluded (a whole batch's). An
#: answer that would be longer is refused (``-32600``, ``data.limit``); in a
#: batch, the requests after the answers that fill it are refused unrun.
MAX_RESPONSE_BYTES: Final = 16 * 1024 * 1024
#: The most JSON values one line may hold (every ``[``, ``{``, ``,`` and ``:``
#: outside strings counts one): a thousand requests of a few dozen values each,
#: while 8 MiB of ``[{},{},...]`` would otherwise take 25 times its size.
MAX_JSON_VALUES: Final = 100_000
#: The most digits a whole number may have (an id, a seed...).
MAX_NUMBER_DIGITS: Final = 1000
PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603

_DISCARD_CHUNK: Final = 64 * 1024
_LOG = logging.getLogger(__name__)

#: ``call(method, params)``: the result of a request, or an :class:`RpcError`.
Dispatch = Callable[[str, "dict[str, Any] | list[Any]"], Any]


class ServiceErrorCode(StrEnum):
    """The codes of the service's floor: a JSON-RPC error's name, for the
    ``code`` of an :class:`RpcError` (and of the client's ``RemoteError``) whose
    response is not a refusal by the engine (that one carries the engine's code);
    and ``CONNECTION_FAILED``, a connection that is gone before its answer."""

    PARSE_ERROR = "PARSE_ERROR"
    INVALID_REQUEST = "INVALID_REQUEST"
    METHOD_NOT_FOUND = "METHOD_NOT_FOUND"
    INVALID_PARAMS = "INVALID_PARAMS"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    SERVER_BUSY = "SERVER_BUSY"
    #: The other end of a connection went away or broke the protocol: the
    #: client's server stopped, closed its output or answered out of turn, or an
    #: HTTP client left before its request was read.
    CONNECTION_FAILED = "CONNECTION_FAILED"


#: The names of the JSON-RPC protocol's error codes.
PROTOCOL_CODES: Final = {
    PARSE_ERROR: ServiceErrorCode.PARSE_ERROR,
    INVALID_REQUEST: ServiceErrorCode.INVALID_REQUEST,
    METHOD_NOT_FOUND: ServiceErrorCode.METHOD_NOT_FOUND,
    INVALID_PARAMS: ServiceErrorCode.INVALID_PARAMS,
    INTERNAL_ERROR: ServiceErrorCode.INTERNAL_ERROR,
}


class RpcError(StawvsError):
    """A request that gets an error response: ``rpc_code`` is the response's
    ``error.code`` (the number on the wire), ``message`` and ``data`` its
    message and data. ``code`` is the engine's own code for a refusal by the
    engine (the one in ``data``), else ``code`` as given, else the name of a
    protocol error (:data:`PROTOCOL_CODES`; ``INTERNAL_ERROR`` for another number)."""

    def __init__(
        self,
        rpc_code: int,
        message: str,
        data: dict[str, Any] | None = None,
        *,
        code: StrEnum | None = None,
    ) -> None:
        given = (data or {}).get("code")
        if isinstance(given, StrEnum):
            code = given
        elif code is None:
            code = PROTOCOL_CODES.get(rpc_code, ServiceErrorCode.INTERNAL_ERROR)
        super().__init__(code, message)
        self.rpc_code, self.data = rpc_code, data


#: How a method answering a request of :func:`serve_lines` sends a notification
#: (``method``, ``params``) to the client before its answer: written on its own
#: line and flushed at once. None where there is no way to (HTTP, in-process
#: calls): a method then sends none.
NOTIFY: Final[ContextVar[Callable[[str, dict[str, Any]], None] | None]] = ContextVar(
    "stawvs_ap_notify", default=None
)


def _dumps(value: object) -> str:
    # ASCII only: text from the caller (ids, moves quoted in messages) may hold
    # lone surrogates, which no UTF-8 encoder accepts.
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _error(rid: object, code: int, message: str, data: dict[str, Any] | None = None) -> str:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return _dumps({"jsonrpc": "2.0", "id": rid, "error": error})


def _valid_id(rid: object) -> bool:
    """Whether ``rid`` can be a request's id: text, a number JSON can write back
    (``1e400`` parses as infinity, which it cannot), or null."""
    if isinstance(rid, float):
        return math.isfinite(rid)
    return (
        rid is None or isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))
    )


def _too_long(rid: object, limit: int) -> str:
    return _error(
        rid,
        INVALID_REQUEST,
        f"the answer would be longer than {limit:,} bytes",
        {"limit": limit},
    )


def _answer(request: object, call: Dispatch, limit: int | None = None) -> str | None:
    """The response text for one request, at most ``limit`` bytes (default:
    :data:`MAX_RESPONSE_BYTES`), or None for a notification. Never raises."""
    if limit is None:
        limit = MAX_RESPONSE_BYTES
    text = _response(request, call)
    if text is None or len(text) <= limit:
        return text
    rid = request.get("id") if isinstance(request, dict) else None
    refusal = _too_long(rid if _valid_id(rid) else None, MAX_RESPONSE_BYTES)
    return refusal if len(refusal) <= limit else _too_long(None, MAX_RESPONSE_BYTES)


def _response(request: object, call: Dispatch) -> str | None:
    if not isinstance(request, dict):
        return _error(None, INVALID_REQUEST, "a request is a JSON object")
    rid = request.get("id")
    if not _valid_id(rid):
        return _error(None, INVALID_REQUEST, "'id' must be text, a finite number or null")
    if request.get("jsonrpc") != "2.0":
        return _error(rid, INVALID_REQUEST, "'jsonrpc' must be \"2.0\"")
    method = request.get("method")
    if not isinstance(method, str):
        return _error(rid, INVALID_REQUEST, "'method' must be text")
    params = request.get("params", {})
    if not isinstance(params, dict | list):
        return _error(rid, INVALID_REQUEST, "'params' must be an object or an array")
    if "id" not in request:
        return None
    try:
        return _dumps({"jsonrpc": "2.0", "id": rid, "result": call(method, params)})
    except RpcError as failure:
        return _error(rid, failure.rpc_code, failure.message, failure.data)
    except Exception as exc:
        _LOG.exception("stawvs-ap serve: internal error in method %r", method[:80])
        return _error(rid, INTERNAL_ERROR, f"internal error ({type(exc).__name__})")


def _no_constants(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


#: A JSON string, escapes included (the unrolled form: no backtracking per character).
_STRING: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


_MARKS: Final = (b"[", b"{", b",", b":")
#: Strings shorter than this are not searched for marks (counting them outside
#: only overcounts, and keeps the walk over many short strings cheap).
_LONG_STRING: Final = 256


def _too_many_values(text: bytes | bytearray, limit: int) -> bool:
    """Whether ``text`` may hold more than ``limit`` JSON values: its ``[``,
    ``{``, ``,`` and ``:`` outside strings (plus one), counted without parsing
    and never underestimated. Marks inside long strings (a state's text) are
    taken off; the walk over strings stops once they alone pass ``limit``."""
    marks = 1 + sum(text.count(mark) for mark in _MARKS)
    if marks <= limit:
        return False
    for strings, string in enumerate(_STRING.finditer(text), 1):
        if strings > limit:
            return True
        start, end = string.span()
        if end - start >= _LONG_STRING:
            marks -= sum(text.count(mark, start, end) for mark in _MARKS)
    return marks > limit


def loads_bounded(text: bytes | bytearray, max_values: int = MAX_JSON_VALUES) -> Any:
    """``text`` parsed as JSON, refused without parsing when it holds more than
    ``max_values`` values, so that the objects made stay near the text's size;
    ``NaN`` and ``Infinity`` are not JSON here, nor a number of more than
    :data:`MAX_NUMBER_DIGITS` digits. What is refused raises :class:`RpcError`
    (``PARSE_ERROR``), its message the one a parse error's response carries.

    >>> loads_bounded(b'{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads_bounded(b"[" + b"{}," * 10 + b"{}]", max_values=5)
    Traceback (most recent call last):
    stawvs_ap.service.jsonrpc.RpcError: not JSON: more than 5 JSON values
    """
    if _too_many_values(text, max_values):
        raise RpcError(PARSE_ERROR, f"not JSON: more than {max_values:,} JSON values")
    try:
        return json.loads(text, parse_constant=_no_constants, parse_int=_whole_number)
    except RecursionError:
        raise RpcError(PARSE_ERROR, "the JSON is nested too deeply") from None
    except ValueError as exc:  # JSON, UTF-8 and number-length errors alike
        raise RpcError(PARSE_ERROR, f"not JSON: {str(exc)[:200]}") from None


def _whole_number(digits: str) -> int:
    # Said here, in our words: past Python's own limit int() would name
    # sys.set_int_max_str_digits, which a client can do nothing with.
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of more than {MAX_NUMBER_DIGITS:,} digits")
    return int(digits)


def answer_line(line: bytes | bytearray, call: Dispatch) -> str | None:
    """The response line (no newline) for one request line, None when there is
    nothing to answer (a blank line, notifications only). Never raises."""
    try:
        if not line or line.isspace():
            return None
        try:
            message = loads_bounded(line)
        except RpcError as refused:
            return _error(None, PARSE_ERROR, refused.message)
        if not isinstance(message, list):
            return _answer(message, call)
        if not message:
            return _error(None, INVALID_REQUEST, "an empty batch")
        if len(message) > MAX_BATCH:
            return _error(None, INVALID_REQUEST, f"a batch holds at most {MAX_BATCH} requests")
        return _answer_batch(message, call)
    except Exception as exc:  # e.g. MemoryError: the next line may still be fine
        _LOG.exception("stawvs-ap serve: internal error")
        return _error(None, INTERNAL_ERROR, f"internal error ({type(exc).__name__})")


#: Room kept in a batch's answer for the refusal of each request not yet answered.
_REFUSAL_BYTES: Final = 160


def _refusal(request: object) -> str | None:
    """The short error for a request of a batch left unrun for want of room."""
    if not isinstance(request, dict):
        return _too_long(None, MAX_RESPONSE_BYTES)
    if "id" not in request:
        return None
    rid = request["id"]
    refusal = _too_long(rid if _valid_id(rid) else None, MAX_RESPONSE_BYTES)
    return refusal if len(refusal) <= _REFUSAL_BYTES else _too_long(None, MAX_RESPONSE_BYTES)


def _answer_batch(requests: list[Any], call: Dispatch) -> str | None:
    """The answer to a batch: every request's answer, in order, the whole at most
    :data:`MAX_RESPONSE_BYTES`. Room for a short refusal of every request not yet
    answered is kept; once an answer does not fit in the rest, it and every
    request after it are refused (those after it unrun)."""
    answers: list[str] = []
    used = 2  # the brackets
    full = False
    for index, request in enumerate(requests):
        room = MAX_RESPONSE_BYTES - used - _REFUSAL_BYTES * (len(requests) - index - 1) - 1
        answer = None if full else _response(request, call)
        if full or (answer is not None and len(answer) > room):
            full = True
            answer = _refusal(request)
        if answer is not None:
            answers.append(answer)
            used += len(answer) + 1
    return "[" + ",".join(answers) + "]" if answers else None


def _discard_line(source: BinaryIO) -> None:
    """Read and drop the rest of the current line, a chunk at a time."""
    while True:
        chunk = source.readline(_DISCARD_CHUNK)
        if not chunk or chunk.endswith(b"\n"):
            return


def serve_lines(
    answer: Callable[[bytes], str | None],
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> int:
    """Answer requests from ``stdin`` on ``stdout`` (default: the process's own)
    until the end of input, each line by ``answer`` (:func:`answer_line` of a
    table of methods); return the exit status, 0.

    A line over ``max_line_bytes`` is refused (``-32600``, ``data.limit``)
    without ever being held in memory whole. A closed output also ends the
    server with status 0, quietly; an interrupt (Ctrl-C) with 130.
    """
    source = sys.stdin.buffer if stdin is None else stdin
    sink = sys.stdout.buffer if stdout is None else stdout

    def notify(method: str, params: dict[str, Any]) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        sink.write(_dumps(message).encode("ascii") + b"\n")
        sink.flush()

    token = NOTIFY.set(notify)
    try:
        while True:
            line = source.readline(max_line_bytes + 1)
            if not line:
                sink.flush()
                return 0
            if len(line) > max_line_bytes and not line.endswith(b"\n"):
                _discard_line(source)
                reply: str | None = _error(
                    None,
                    INVALID_REQUEST,
                    f"the request line is longer than {max_line_bytes} bytes",
                    {"limit": max_line_bytes},
                )
            else:
                reply = answer(line)
            if reply is not None:
                sink.write(reply.encode("ascii") + b"\n")
                sink.flush()
    except BrokenPipeError:
        if stdout is None:
            _drop_stdout()
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        NOTIFY.reset(token)


def _drop_stdout() -> None:
    # Python flushes sys.stdout once more at exit; with the reader gone that
    # would print a BrokenPipeError warning, so point it at the null device.
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass
