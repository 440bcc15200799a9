"""Squares, directions, precomputed rays and bitmask helpers for the 8×8 board.

Squares are numbered in reading order, the order in which the board is drawn:
``0`` is a8, ``7`` is h8, ``56`` is a1 and ``63`` is h1. So a square's render
row is ``square // 8`` and its column ``square % 8``, and ascending numbers are
the "reading order" the rules use for final captures. A :class:`Square` is such
a number (an ``int``) that also knows its name.
"""

from __future__ import annotations

from typing import Final

from ..errors import ErrorCode, StawvsError, excerpt

__all__ = [
    "BB_ALL",
    "FILES",
    "LINES",
    "PATHS",
    "RAYS",
    "SQUARES",
    "SQUARE_NAMES",
    "SQUARE_OF_NAME",
    "Square",
    "iter_squares",
    "next_to",
    "square_at",
    "walk",
]

FILES: Final = "abcdefgh"
RANKS: Final = "12345678"

SQUARE_NAMES: Final[tuple[str, ...]] = tuple(
    f"{FILES[col]}{8 - row}" for row in range(8) for col in range(8)
)
ALL_SQUARES: Final[range] = range(64)
BB_ALL: Final[int] = (1 << 64) - 1


class Square(int):
    """A square of the board: its number in reading order (a8 = 0 … h1 = 63).

    An ``int``, so squares index tables and shift bitmasks directly; it also
    knows its name, row and column. ``Square.parse("c3")`` reads a name;
    ``str(square)`` writes it. The 64 squares are made once (:data:`SQUARES`).

    >>> c3 = Square.parse("C3")
    >>> c3, str(c3), int(c3)
    (Square.parse('c3'), 'c3', 42)
    >>> c3.row, c3.col  # render coordinates: row 0 is rank 8, column 0 is file a
    (5, 2)
    >>> Square.at(0, 0).name, Square.at(7, 7).name, SQUARES[63] is Square.parse("h1")
    ('a8', 'h1', True)
    """

    __slots__ = ()

    @classmethod
    def parse(cls, name: str) -> Square:
        """The square named ``name`` (``"c3"``, any case); ``BAD_ARGUMENT`` if none is."""
        found = SQUARE_OF_NAME.get(name.lower()) if isinstance(name, str) else None
        if found is None:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, f"not a square: {excerpt(name)}")
        return found

    @classmethod
    def at(cls, row: int, col: int) -> Square:
        """The square at render coordinates (row 0 is rank 8, column 0 is file a)."""
        if not (0 <= row < 8 and 0 <= col < 8):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, f"({row}, {col}) is off the board")
        return SQUARES[row * 8 + col]

    @property
    def name(self) -> str:
        return SQUARE_NAMES[self]

    @property
    def row(self) -> int:
        """Render row: 0 is rank 8."""
        return self >> 3

    @property
    def col(self) -> int:
        """Render column: 0 is file a."""
        return self & 7

    def __str__(self) -> str:
        return SQUARE_NAMES[self]

    def __repr__(self) -> str:
        return f"Square.parse({SQUARE_NAMES[self]!r})"


#: The 64 squares, by number.
SQUARES: Final[tuple[Square, ...]] = tuple(Square(sq) for sq in ALL_SQUARES)
#: Each square by its name (``"c3"``, lower case): the one table from names to squares.
SQUARE_OF_NAME: Final[dict[str, Square]] = {sq.name: sq for sq in SQUARES}


#: The eight queen directions as (row step, column step).
DIRECTIONS: Final[tuple[tuple[int, int], ...]] = (
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
)


def _ray(origin: int, step: tuple[int, int]) -> tuple[int, ...]:
    row, col = divmod(origin, 8)
    out = []
    row, col = row + step[0], col + step[1]
    while 0 <= row < 8 and 0 <= col < 8:
        out.append(row * 8 + col)
        row, col = row + step[0], col + step[1]
    return tuple(out)


#: ``RAYS[sq]`` lists, for each direction that leaves the board from ``sq`` not
#: at once, the squares met walking outward from ``sq`` (``sq`` excluded).
RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(ray for ray in (_ray(sq, d) for d in DIRECTIONS) if ray) for sq in ALL_SQUARES
)


def square_at(row: object, col: object) -> Square | None:
    """The square at render coordinates, or None off the board (or for non-integers)."""
    if type(row) is int and type(col) is int and 0 <= row < 8 and 0 <= col < 8:
        return SQUARES[row * 8 + col]
    return None


def iter_squares(mask: int) -> list[int]:
    """The squares set in ``mask``, in reading order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_NOT_FILE_A: Final = sum(1 << sq for sq in ALL_SQUARES if sq % 8 != 0)
_NOT_FILE_H: Final = sum(1 << sq for sq in ALL_SQUARES if sq % 8 != 7)


def next_to(mask: int) -> int:
    """Bitmask of the squares next to (a king's step from) some square of ``mask``."""
    west = (mask >> 1) & _NOT_FILE_H  # a bit leaving file a must not wrap to file h
    east = (mask << 1) & _NOT_FILE_A
    row = mask | west | east
    return (west | east | (row << 8) | (row >> 8)) & BB_ALL


def _mask(squares: tuple[int, ...]) -> int:
    out = 0
    for sq in squares:
        out |= 1 << sq
    return out


def walk(origin: int, passable: int) -> list[int]:
    """The squares met walking out from ``origin`` along each of its :data:`RAYS`
    (in their order) while the squares are in the bitmask ``passable``: where
    a line piece on ``origin`` can go. ``origin`` itself is never listed."""
    out: list[int] = []
    append = out.append
    for ray in RAYS[origin]:
        for sq in ray:
            if not passable >> sq & 1:
                break
            append(sq)
    return out


def _paths_from(origin: int) -> tuple[int, ...]:
    paths = [0] * 64
    for ray in RAYS[origin]:
        walked = 0
        for sq in ray:
            walked |= 1 << sq
            paths[sq] = walked
    return tuple(paths)


#: ``PATHS[a][b]``: when ``b`` is on a line from ``a``, the bitmask of the squares
#: walked from ``a`` to ``b`` (``a`` excluded, ``b`` included); else 0. A slide or
#: claim from ``a`` to ``b`` is open when ``PATHS[a][b]`` is non-zero and inside the
#: free squares, so checking one move never needs the list of all moves.
PATHS: Final[tuple[tuple[int, ...], ...]] = tuple(_paths_from(sq) for sq in ALL_SQUARES)


#: ``LINES[sq]``: every square on a line from ``sq`` (``sq`` excluded): where
#: :func:`walk` from ``sq`` may go.
LINES: Final[tuple[int, ...]] = tuple(_mask(sum(RAYS[sq], ())) for sq in ALL_SQUARES)
