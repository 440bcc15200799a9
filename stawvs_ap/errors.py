"""The package's exceptions: one base class, each error carrying a stable code.

Hosts branch on :attr:`StawvsError.code` (never on the message, which is
written for players and may be reworded). A code is a ``StrEnum`` member: it
compares equal to its plain string (``"BAD_MOVE"``). The codes are grouped by
the floor that raises them: :class:`ErrorCode` here holds those of the rules,
the states, the records and the host calls; the bots' codes are
:class:`stawvs_ap.bots.base.BotErrorCode`, the service's
:class:`stawvs_ap.service.jsonrpc.ServiceErrorCode` and the command line's
:class:`stawvs_ap.cli.safe_io.CliErrorCode`. :class:`StawvsError` is a
``ValueError``, as python-chess's errors are: code that caught the
``ValueError`` of a bad argument still catches it.

>>> from stawvs_ap import ErrorCode, InvalidStateError, StawvsError, StawvsGame
>>> game = StawvsGame.new(2, seed=1)
>>> try:
...     game.move("a8")  # a corner with no pyramid
... except StawvsError as error:
...     error.code == ErrorCode.BAD_PLACEMENT == "BAD_PLACEMENT"
True
>>> game.validate_move("a8").code  # the same code, without an exception
<ErrorCode.BAD_PLACEMENT: 'BAD_PLACEMENT'>
>>> try:
...     StawvsGame('{"game": "chess"}')
... except InvalidStateError as error:
...     print(error.code)
BAD_STATE

This module is a leaf: every floor of the package may import it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

__all__ = [
    "ErrorCode",
    "IllegalMoveError",
    "InvalidRecordError",
    "InvalidStateError",
    "StawvsError",
    "excerpt",
]


class ErrorCode(StrEnum):
    """The codes of the rules, the states, the records and the host calls: every
    code a refused verdict carries, and the errors of these floors (docs/CONTRACT.md §3)."""

    # Verdicts on moves, in the order in which they are checked.
    GAMEOVER = "GAMEOVER"
    MALFORMED = "MALFORMED"
    NOPASS = "NOPASS"
    BAD_PLACEMENT = "BAD_PLACEMENT"
    MUST_PASS = "MUST_PASS"
    BAD_START = "BAD_START"
    BAD_MOVE = "BAD_MOVE"
    BAD_CLAIM_HEY = "BAD_CLAIM_HEY"
    BAD_CLAIM = "BAD_CLAIM"
    # Clicks and moves given whole.
    EXTRA_CLAIMS = "EXTRA_CLAIMS"
    INCOMPLETE = "INCOMPLETE"
    # Documents.
    BAD_STATE = "BAD_STATE"
    BAD_RECORD = "BAD_RECORD"
    BAD_POSITION = "BAD_POSITION"
    # Calls that do not fit the game.
    BAD_ARGUMENT = "BAD_ARGUMENT"
    BAD_VARIANT = "BAD_VARIANT"
    BAD_PLAYER = "BAD_PLAYER"
    BAD_INDEX = "BAD_INDEX"
    NO_UNDO = "NO_UNDO"
    NOT_FINISHED = "NOT_FINISHED"


class StawvsError(ValueError):
    """Base class of every error this package raises on purpose.

    ``code`` is a stable machine-readable code such as ``ErrorCode.MALFORMED``
    (a ``StrEnum`` member of its floor's codes); ``message`` is a sentence for
    the player.
    """

    def __init__(self, code: StrEnum, message: str) -> None:
        if not isinstance(code, StrEnum):
            raise TypeError(f"an error's code is a code such as ErrorCode.BAD_MOVE, not {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.code)!r}, {self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # An error crosses processes (the arena's workers, a Dask cluster) as its
        # class, code, message and other fields, whatever its constructor takes.
        return _rebuilt, (type(self), self.code, self.message), self.__dict__


def _rebuilt(kind: type[StawvsError], code: StrEnum, message: str) -> StawvsError:
    """The error of :meth:`StawvsError.__reduce__`, its other fields set by pickle."""
    error = kind.__new__(kind)
    StawvsError.__init__(error, code, message)
    return error


class IllegalMoveError(StawvsError):
    """A move (or an ending such as a resignation) was refused; nothing changed."""


class InvalidStateError(StawvsError):
    """A serialized state (code ``BAD_STATE``) or a position (``code=ErrorCode.BAD_POSITION``)
    was refused."""

    def __init__(self, message: str, *, code: ErrorCode = ErrorCode.BAD_STATE) -> None:
        super().__init__(code, message)


class InvalidRecordError(StawvsError):
    """A game record could not be read or replayed (code ``BAD_RECORD``)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BAD_RECORD, message)


def excerpt(value: object, limit: int = 40) -> str:
    """A value from outside as an error message quotes it, cut to about ``limit``
    characters: text by its repr (bytes read as UTF-8, whatever cannot be read
    replaced), so that no control character reaches a terminal; anything else
    by its repr too.

    >>> print(excerpt("d5-e6\\x1b[2J"))
    'd5-e6\\x1b[2J'
    >>> excerpt("x" * 50, limit=4)
    "'xxxx…'"
    >>> excerpt(10**5000)
    'a number too long to show'
    """
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[:limit] + "…")
    try:
        shown = repr(value)
    except ValueError:  # Python refuses to write an int of over 4,300 digits
        return "a number too long to show"
    return shown if len(shown) <= limit else shown[:limit] + "…"
