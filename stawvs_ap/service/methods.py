"""The engine as a JSON-RPC 2.0 service on standard input and output.

``stawvs-ap serve`` (also ``python -m stawvs_ap serve``) reads one JSON text per
line, a request or a batch, and writes one response line per line that calls
for an answer, flushed at once (the framing is :mod:`stawvs_ap.service.jsonrpc`'s).
Logs go to standard error only.

:data:`METHODS` is the table of every method, made from the lists of the
modules that declare them (:mod:`.game`, :mod:`.bots`, :mod:`.reviews`, :mod:`.views`; how a
method is declared: :mod:`.protocol`), and :func:`call` is the one dispatcher.

Every method is stateless: the caller sends the game as ``state`` (the text
:meth:`~stawvs_ap.StawvsGame.serialize` gives, or that JSON as an object) and
gets back what it asked for; a method that changes the game returns the new
``state`` as text, exactly what ``serialize()`` gives. The server keeps no game
between requests, so any worker of a pool can answer any request.

What it answers is bounded as well as what it reads: texts have at most
:data:`MAX_TEXT_LENGTH` characters, player names :data:`MAX_NAME_LENGTH`,
lists of names or players :data:`MAX_PLAYERS` entries; an answer (a batch's
whole) is at most :data:`MAX_RESPONSE_BYTES`; a line runs at most
:data:`MAX_SEARCHES_PER_REQUEST` searches; and an in-process caller of
:func:`call` gets objects of its own, never ones the server keeps.

Errors: ``-32700`` (a line that is not JSON), ``-32600`` (not a valid request,
an id that is not text, a finite number or null, an empty or oversized batch,
a line over :data:`MAX_LINE_BYTES`, an answer over :data:`MAX_RESPONSE_BYTES`),
``-32601`` (unknown method), ``-32602`` (missing, unknown or mistyped
parameters, texts and lists over their limits),
``-32603`` (a fault of the server, logged with its traceback) and
:data:`APP_ERROR` (``1000``) for every refusal of the engine, with the
engine's code in ``error.data.code`` and a sentence a player can read as
``error.message``. Nothing ends the server but the end of its input or a
closed standard output (both exit 0).

Methods that return words for people (verdicts, labels, the chat log, the
metadata, refusals of moves) take an optional ``locale``, a language tag such
as ``"de"`` or ``"pt-BR"``: ``de-AT`` is answered in German, a language
without a catalogue in English. Codes, states and results are the same in
every language.
"""

from __future__ import annotations

from typing import Any, BinaryIO, Final

from ..errors import StawvsError, excerpt
from . import analysis, bots, game, reviews, views
from .jsonrpc import (
    INVALID_PARAMS,
    MAX_BATCH,
    MAX_LINE_BYTES,
    MAX_RESPONSE_BYTES,
    METHOD_NOT_FOUND,
    RpcError,
    serve_lines,
)
from .jsonrpc import answer_line as answer_line_with
from .protocol import (
    APP_ERROR,
    MAX_NAME_LENGTH,
    MAX_TEXT_LENGTH,
    Method,
    Result,
    table,
)

__all__ = [
    "APP_ERROR",
    "MAX_BATCH",
    "MAX_LINE_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_RESPONSE_BYTES",
    "MAX_SEARCHES_PER_REQUEST",
    "MAX_TEXT_LENGTH",
    "METHODS",
    "Method",
    "answer_line",
    "call",
    "serve",
]

#: Every method of the protocol by name, in the order the protocol lists them:
#: each module's own list (a new module of methods is added here).
METHODS: Final[dict[str, Method]] = table(
    game.METHODS, bots.METHODS, reviews.METHODS, views.METHODS, analysis.METHODS
)

#: The most searches (``bot_move``, ``hint``, ``solve``, ``review``) one request
#: line or body runs, whatever the transport: a batch cannot queue more.
MAX_SEARCHES_PER_REQUEST: Final = 4


# -- serving ------------------------------------------------------------------------


def call(method: str, params: dict[str, Any] | list[Any]) -> Result:
    """The result of ``method`` with ``params``; raises :class:`RpcError` for an
    unknown method, bad parameters (checked before anything runs) and every
    refusal of the engine (``APP_ERROR``, the engine's code in ``data.code``)."""
    spec = METHODS.get(method)
    if spec is None:
        raise RpcError(METHOD_NOT_FOUND, f"there is no method {excerpt(method, 80)}")
    if not isinstance(params, dict):
        raise RpcError(INVALID_PARAMS, "params must be an object: parameters go by name")
    checked = spec.check(params)
    try:
        return spec.run(checked)
    except RpcError:
        raise  # the method's own refusal, already a response's error (an RpcError is a StawvsError)
    except StawvsError as exc:
        raise RpcError(APP_ERROR, exc.message, {"code": exc.code}) from None


def answer_line(line: bytes | bytearray) -> str | None:
    """The response line (no newline) to one request line or body, None when
    nothing is to be answered; it runs at most :data:`MAX_SEARCHES_PER_REQUEST`
    searches (the rest are refused), on every transport. Never raises."""
    with bots.SEARCHES.per_request(MAX_SEARCHES_PER_REQUEST):
        return answer_line_with(line, call)


def serve(
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> int:
    """Serve the methods on ``stdin``/``stdout`` (default: the process's own)
    until the end of input; return the exit status (0; 130 after Ctrl-C)."""
    return serve_lines(answer_line, stdin, stdout, max_line_bytes=max_line_bytes)
