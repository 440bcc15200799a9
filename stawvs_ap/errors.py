"""The package's exceptions: one base class, each error carrying a stable code.

Hosts branch on :attr:`StawvsError.code` (never on the message, which is
written for players and may be reworded).
"""

from __future__ import annotations

__all__ = [
    "IllegalMoveError",
    "InvalidRecordError",
    "InvalidStateError",
    "StawvsError",
]


class StawvsError(Exception):
    """Base class of every error this package raises on purpose.

    ``code`` is a stable machine-readable identifier such as ``"MALFORMED"`` or
    ``"BAD_STATE"``; ``message`` is a sentence for the player.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class IllegalMoveError(StawvsError):
    """A move (or an ending such as a resignation) was refused; nothing changed."""


class InvalidStateError(StawvsError):
    """A serialized state was refused (code ``BAD_STATE``)."""

    def __init__(self, message: str) -> None:
        super().__init__("BAD_STATE", message)


class InvalidRecordError(StawvsError):
    """A game record could not be read or replayed (code ``BAD_RECORD``)."""

    def __init__(self, message: str) -> None:
        super().__init__("BAD_RECORD", message)
