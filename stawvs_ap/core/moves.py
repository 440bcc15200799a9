"""Moves: the :class:`Move` value and its text form.

Grammar of move strings (after removing all whitespace and lower-casing)::

    move      = "" | "pass" | square | square "-" square | square "-" square "," square
    square    = "a".."h" "1".."8"

A lone square is a placement in the placement phase and a selected cap (a
partial move) in the collection phase; ``FROM-TO`` is a partial move;
``FROM-TO,TARGET`` is a complete collection move (docs/CONTRACT.md §2).
"""

from __future__ import annotations

import re
from typing import Final, Literal, NamedTuple

from ..errors import ErrorCode, StawvsError
from .squares import SQUARE_NAMES, SQUARE_OF_NAME, Square

__all__ = ["MAX_MOVE_LENGTH", "Move", "MoveSyntaxError", "normalise"]

#: Longer inputs are refused before any other work: no real move is this long.
MAX_MOVE_LENGTH: Final = 100

#: The rules of the grammar a text can break (:attr:`MoveSyntaxError.problem`).
SyntaxProblem = Literal["not-text", "too-long", "grammar"]

_SQUARE = r"([a-h][1-8])"
_MOVE_RE: Final = re.compile(rf"{_SQUARE}(?:-{_SQUARE}(?:,{_SQUARE})?)?")


class MoveSyntaxError(StawvsError):
    """The text is not a move string at all (code ``MALFORMED``, which the game reports).

    ``problem`` says which rule the text breaks, for the words a player reads:
    ``"not-text"`` (``subject``: the type's name), ``"too-long"`` (the
    limit) or ``"grammar"`` (the text, normalised).
    """

    def __init__(self, message: str, problem: SyntaxProblem, subject: str | int) -> None:
        super().__init__(ErrorCode.MALFORMED, message)
        self.problem: SyntaxProblem = problem
        self.subject = subject


class Move(NamedTuple):
    """A move, complete or partial: ``pass``, a square, ``FROM-TO`` or ``FROM-TO,TARGET``.

    ``source`` is the square of a placement or of the moving cap; ``dest`` the
    landing square; ``target`` the claimed square. ``Move()`` is the empty
    move. Moves are values: immutable, equal when they denote the same move,
    hashable, and equal to nothing but moves (a named tuple, because hosts
    make one for every move they send, and these are the cheapest to make).
    ``str(move)`` is the normalised move string.

    >>> move = Move.parse("C3 - F6, F2")  # case and spaces are ignored
    >>> move
    Move.parse('c3-f6,f2')
    >>> str(move), move.source, move.dest, move.target
    ('c3-f6,f2', Square.parse('c3'), Square.parse('f6'), Square.parse('f2'))
    >>> move == Move.parse("c3-f6,f2"), move == "c3-f6,f2", move.is_slide
    (True, False, True)
    >>> [str(m) for m in move.prefixes]  # the partial moves clicked on the way
    ['c3-f6,f2', 'c3-f6', 'c3']
    >>> Move.parse("PASS").is_pass, str(Move.place(Square.parse("d5")))
    (True, 'd5')
    >>> Move.parse("c3-c9")
    Traceback (most recent call last):
    ...
    stawvs_ap.core.moves.MoveSyntaxError: ...
    """

    source: Square | None = None
    dest: Square | None = None
    target: Square | None = None
    is_pass: bool = False

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move ``text`` denotes, ignoring case and whitespace.

        Raises :class:`MoveSyntaxError` for anything outside the grammar,
        including non-strings and texts longer than :data:`MAX_MOVE_LENGTH`.
        """
        if not isinstance(text, str):
            kind = type(text).__name__
            raise MoveSyntaxError(f"a move must be text, not {kind}", "not-text", kind)
        # Nearly every move a host sends or a replay reads is written as the engine
        # writes it: read a complete move, a placement and a pass by lookup (0.8 µs
        # instead of 2.5 through the grammar; tests/test_api.py checks both ways agree).
        if len(text) == 8 and text[2] == "-" and text[5] == ",":
            source = SQUARE_OF_NAME.get(text[:2])
            dest = SQUARE_OF_NAME.get(text[3:5])
            target = SQUARE_OF_NAME.get(text[6:])
            if source is not None and dest is not None and target is not None:
                # Not cls(...): a named tuple's generated __new__ costs as much again.
                return tuple.__new__(cls, (source, dest, target, False))
        elif len(text) == 2:
            square = SQUARE_OF_NAME.get(text)
            if square is not None:
                return tuple.__new__(cls, (square, None, None, False))
        elif text == "pass":
            return PASS
        if len(text) > MAX_MOVE_LENGTH:
            raise MoveSyntaxError(
                f"a move is never longer than {MAX_MOVE_LENGTH} characters",
                "too-long",
                MAX_MOVE_LENGTH,
            )
        compact = normalise(text)
        if compact == "":
            return EMPTY_MOVE
        if compact == "pass":
            return PASS
        match = _MOVE_RE.fullmatch(compact)
        if match is None:
            raise MoveSyntaxError(f"{compact!r} is not a move", "grammar", compact)
        source, dest, target = (SQUARE_OF_NAME[g] if g else None for g in match.groups())
        return cls(source, dest, target)

    @classmethod
    def place(cls, square: Square) -> Move:
        """A placement (or, in the collection phase, the selection of a cap)."""
        return cls(square)

    @classmethod
    def slide(cls, source: Square, dest: Square, target: Square) -> Move:
        """A complete collection move: slide from ``source`` to ``dest``, claim ``target``."""
        return cls(source, dest, target)

    @property
    def is_empty(self) -> bool:
        return not self.is_pass and self.source is None

    @property
    def is_slide(self) -> bool:
        """Whether this is a complete collection move ``FROM-TO,TARGET``."""
        return self.target is not None

    def is_well_formed(self) -> bool:
        """Whether the fields make a move, as every parsed move's do: squares are
        square numbers (0–63), a destination only after a source, a claim only
        after both, and ``pass`` alone. A :class:`Move` built by hand may not."""
        source, dest, target, is_pass = self.source, self.dest, self.target, self.is_pass
        if type(is_pass) is not bool:
            return False
        if is_pass or source is None:
            return source is None and dest is None and target is None
        if dest is None and target is not None:
            return False
        return all(
            sq is None or (isinstance(sq, int) and not isinstance(sq, bool) and 0 <= sq < 64)
            for sq in (source, dest, target)
        )

    @property
    def prefixes(self) -> tuple[Move, ...]:
        """This move and its shorter prefixes, longest first: ``FROM-TO,TARGET``,
        ``FROM-TO``, ``FROM`` (as many as it has)."""
        if self.target is not None:
            return (self, Move(self.source, self.dest), Move(self.source))
        if self.dest is not None:
            return (self, Move(self.source))
        return (self,) if self.source is not None else ()

    def __str__(self) -> str:
        source, dest, target, is_pass = self
        if is_pass:
            return "pass"
        if source is not None and dest is not None and target is not None:  # one string made
            return f"{SQUARE_NAMES[source]}-{SQUARE_NAMES[dest]},{SQUARE_NAMES[target]}"
        if source is None:
            return ""
        text = SQUARE_NAMES[source]
        if dest is not None:
            text += "-" + SQUARE_NAMES[dest]
        if target is not None:
            text += "," + SQUARE_NAMES[target]
        return text

    def __repr__(self) -> str:
        if not self.is_well_formed():
            fields = ", ".join(f"{k}={v!r}" for k, v in zip(self._fields, self, strict=True))
            return f"Move({fields})"
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is Move and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return tuple.__hash__(self)


#: The empty move (nothing chosen yet) and ``pass``.
EMPTY_MOVE: Final = Move()
PASS: Final = Move(is_pass=True)


def normalise(text: str) -> str:
    """Lower-case ``text`` and drop all whitespace (moves ignore both)."""
    return "".join(text.split()).lower()
