"""The package's exceptions: one base class, each error carrying a stable code.

Hosts branch on :attr:`StawvsError.code` (never on the message, which is
written for players and may be reworded). Every code is an :class:`ErrorCode`,
a ``StrEnum``: it compares equal to its plain string (``"BAD_MOVE"``).

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

import warnings
from enum import StrEnum
from typing import overload

__all__ = [
    "ErrorCode",
    "IllegalMoveError",
    "InvalidRecordError",
    "InvalidStateError",
    "StawvsError",
]


class ErrorCode(StrEnum):
    """Every code a :class:`StawvsError` or a refused verdict carries (docs/CONTRACT.md §3)."""

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
    # A bot that gave no move: an external engine late, silent, crashed or wrong.
    BOT_FAILED = "BOT_FAILED"
    # The arena's runs.
    ARENA_FAILED = "ARENA_FAILED"
    # The JSON-RPC service's protocol errors, as its client reports them.
    PARSE_ERROR = "PARSE_ERROR"
    INVALID_REQUEST = "INVALID_REQUEST"
    METHOD_NOT_FOUND = "METHOD_NOT_FOUND"
    INVALID_PARAMS = "INVALID_PARAMS"
    INTERNAL_ERROR = "INTERNAL_ERROR"


_CODES: frozenset[str] = frozenset(ErrorCode)


class StawvsError(Exception):
    """Base class of every error this package raises on purpose.

    ``code`` is a stable machine-readable :class:`ErrorCode` such as
    ``MALFORMED`` or ``BAD_STATE``; ``message`` is a sentence for the player.
    """

    def __init__(self, code: ErrorCode | str, message: str) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.code)!r}, {self.message!r})"


class IllegalMoveError(StawvsError):
    """A move (or an ending such as a resignation) was refused; nothing changed."""


class InvalidStateError(StawvsError):
    """A serialized state or a position was refused (code ``BAD_STATE`` or ``BAD_POSITION``).

    ``InvalidStateError(code, message)``, in the order of every
    :class:`StawvsError`, or ``InvalidStateError(message)`` for ``BAD_STATE``.
    The older order ``InvalidStateError(message, code)`` still works, with a
    ``DeprecationWarning``, and so does ``InvalidStateError(message, code=...)``:
    the class is public, so code outside the package may raise it those ways.
    """

    @overload
    def __init__(self, code: ErrorCode | str, message: str, /) -> None: ...

    @overload
    def __init__(self, message: str, /, *, code: ErrorCode | str = ErrorCode.BAD_STATE) -> None: ...

    @overload
    def __init__(self, *, message: str, code: ErrorCode | str = ErrorCode.BAD_STATE) -> None: ...

    def __init__(
        self,
        *args: ErrorCode | str,
        code: ErrorCode | str | None = None,
        message: str | None = None,
    ) -> None:
        if len(args) == 2 and args[0] not in _CODES and args[1] in _CODES:
            warnings.warn(
                "InvalidStateError(message, code) is deprecated: "
                "write InvalidStateError(code, message)",
                DeprecationWarning,
                stacklevel=2,
            )
            args = (args[1], args[0])
        if len(args) == 2:
            code, message = args
        elif len(args) == 1:
            message = str(args[0])
        elif len(args) > 2 or message is None:
            raise TypeError("InvalidStateError takes a code and a message, or a message")
        super().__init__(ErrorCode.BAD_STATE if code is None else code, message)


class InvalidRecordError(StawvsError):
    """A game record could not be read or replayed (code ``BAD_RECORD``)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BAD_RECORD, message)
