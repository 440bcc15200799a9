"""Move strings: parsing, normalising and writing them.

Grammar (after removing all whitespace and lower-casing)::

    move      = "" | "pass" | square | square "-" square | square "-" square "," square
    square    = "a".."h" "1".."8"

A lone square is a placement in the placement phase and a selected cap (a
partial move) in the collection phase; ``FROM-TO`` is a partial move;
``FROM-TO,TARGET`` is a complete collection move.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, NamedTuple

from .board import SQUARES, square_name

__all__ = ["MAX_MOVE_LENGTH", "Move", "MoveSyntaxError", "normalise", "parse_move"]

#: Longer inputs are refused before any other work: no real move is this long.
MAX_MOVE_LENGTH: Final = 100

_SQUARE = r"([a-h][1-8])"
_MOVE_RE: Final = re.compile(rf"{_SQUARE}(?:-{_SQUARE}(?:,{_SQUARE})?)?")


class MoveSyntaxError(ValueError):
    """The text is not a move string at all (the game reports ``MALFORMED``)."""


class Move(NamedTuple):
    """A parsed move: ``pass``, a placement/selection, a partial or a complete move.

    ``source`` is the square of a placement or of the moving cap; ``dest`` the
    landing square; ``target`` the claimed square. ``Move()`` is the empty move.
    Immutable (a named tuple: made for every move a host sends, and cheap to make).
    """

    source: int | None = None
    dest: int | None = None
    target: int | None = None
    is_pass: bool = False

    @property
    def is_empty(self) -> bool:
        return not self.is_pass and self.source is None

    @property
    def is_full_collection(self) -> bool:
        """Whether this is ``FROM-TO,TARGET``."""
        return self.target is not None

    def __str__(self) -> str:
        return _move_text(self.source, self.dest, self.target, self.is_pass)


@lru_cache(maxsize=8192)
def _move_text(source: int | None, dest: int | None, target: int | None, is_pass: bool) -> str:
    # Every move played is written into the stack, and there are few distinct ones.
    if is_pass:
        return "pass"
    parts = ""
    if source is not None:
        parts = square_name(source)
    if dest is not None:
        parts += "-" + square_name(dest)
    if target is not None:
        parts += "," + square_name(target)
    return parts


# Move(...) goes through a Python-level __new__; the fields in order, built in C.
_new_move = tuple.__new__


def normalise(text: str) -> str:
    """Lower-case ``text`` and drop all whitespace (moves ignore both)."""
    return "".join(text.split()).lower()


def parse_move(text: object) -> Move:
    """Parse a move string, ignoring case and whitespace.

    Raises :class:`MoveSyntaxError` for anything outside the grammar, including
    non-strings and texts longer than :data:`MAX_MOVE_LENGTH`.
    """
    # Nearly every move a host sends is a complete one, written as the engine
    # writes it: read that form directly; anything else goes through the grammar.
    if type(text) is str and len(text) == 8 and text[2] == "-" and text[5] == ",":
        source = SQUARES.get(text[:2])
        dest = SQUARES.get(text[3:5])
        target = SQUARES.get(text[6:])
        if source is not None and dest is not None and target is not None:
            return _new_move(Move, (source, dest, target, False))
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a move must be text, not {type(text).__name__}")
    if len(text) > MAX_MOVE_LENGTH:
        raise MoveSyntaxError(f"a move is never longer than {MAX_MOVE_LENGTH} characters")
    compact = normalise(text)
    if compact == "":
        return Move()
    if compact == "pass":
        return Move(is_pass=True)
    match = _MOVE_RE.fullmatch(compact)
    if match is None:
        raise MoveSyntaxError(f"{compact!r} is not a move")
    source, dest, target = (SQUARES[g] if g else None for g in match.groups())
    return Move(source, dest, target)
