"""Pyramid kinds: four colours × three sizes, plus the grey ghosts left by final captures.

A pyramid is a :class:`Pyramid`, an ``IntEnum``: ``colour * 3 + size - 1``
(0–11) for the coloured ones, 12–14 for the ghosts of sizes 1–3. Boards store
the plain numbers; :data:`PYRAMIDS` turns a number back into its member.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from ..errors import ErrorCode, StawvsError, excerpt

__all__ = [
    "COLOURED",
    "EMPTY",
    "PER_KIND",
    "PYRAMIDS",
    "TOTAL",
    "Colour",
    "Pyramid",
    "Size",
]


class Colour(IntEnum):
    """Pyramid colours in palette order (the render's colours 8–11); ghosts are GREY."""

    PINK = 0
    BLUE = 1
    GREEN = 2
    ORANGE = 3
    GREY = 4

    @property
    def code(self) -> str:
        """The two-letter code of the state format and the render: ``"PI"``, ``"GH"``…"""
        return _COLOUR_CODES[self]


class Size(IntEnum):
    SMALL = 1
    MEDIUM = 2
    LARGE = 3


_COLOUR_CODES: Final = ("PI", "BL", "GR", "OR", "GH")


class Pyramid(IntEnum):
    """One pyramid kind. ``Pyramid.BLUE_LARGE.code == "BL3"``.

    >>> blue = Pyramid.parse("bl3")
    >>> blue is Pyramid.BLUE_LARGE, blue.code, blue.colour.name, blue.size
    (True, 'BL3', 'BLUE', <Size.LARGE: 3>)
    >>> Pyramid.of(Colour.PINK, 1).code, blue.ghost.code, blue.ghost.is_ghost
    ('PI1', 'GH3', True)
    >>> len(COLOURED) * PER_KIND == TOTAL == 60  # 12 kinds, 5 of each
    True
    """

    PINK_SMALL = 0
    PINK_MEDIUM = 1
    PINK_LARGE = 2
    BLUE_SMALL = 3
    BLUE_MEDIUM = 4
    BLUE_LARGE = 5
    GREEN_SMALL = 6
    GREEN_MEDIUM = 7
    GREEN_LARGE = 8
    ORANGE_SMALL = 9
    ORANGE_MEDIUM = 10
    ORANGE_LARGE = 11
    GHOST_SMALL = 12
    GHOST_MEDIUM = 13
    GHOST_LARGE = 14

    @classmethod
    def of(cls, colour: Colour, size: Size | int) -> Pyramid:
        """The pyramid of ``colour`` and ``size`` (1–3)."""
        if not 1 <= size <= 3:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, f"a pyramid's size is 1, 2 or 3, not {excerpt(size)}"
            )
        return PYRAMIDS[colour * 3 + size - 1]

    @classmethod
    def parse(cls, code: str) -> Pyramid:
        """The pyramid of a code such as ``"BL3"`` (any case); ``BAD_ARGUMENT`` if none."""
        found = _BY_CODE.get(code.upper()) if isinstance(code, str) else None
        if found is None:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                f"{excerpt(code)} is not a pyramid code (PI, BL, GR, OR or GH, then 1-3)",
            )
        return found

    @property
    def colour(self) -> Colour:
        return Colour(self // 3)

    @property
    def size(self) -> Size:
        return Size(self % 3 + 1)

    @property
    def is_ghost(self) -> bool:
        return self >= Pyramid.GHOST_SMALL

    @property
    def ghost(self) -> Pyramid:
        """The ghost of this pyramid's size."""
        return PYRAMIDS[12 + self % 3]

    @property
    def code(self) -> str:
        """The code of the render and the notations: ``"PI1"``, ``"GH3"``."""
        return _CODES[self]

    def __str__(self) -> str:
        return _CODES[self]


#: The value of a square with no pyramid on boards (``bytes``, so not -1).
EMPTY: Final = 255
#: Every pyramid member by number (the coloured kinds 0–11, then the ghosts).
PYRAMIDS: Final[tuple[Pyramid, ...]] = tuple(Pyramid)
#: The 12 coloured kinds, in colour then size order.
COLOURED: Final[tuple[Pyramid, ...]] = PYRAMIDS[:12]
PER_KIND: Final = 5
TOTAL: Final = PER_KIND * len(COLOURED)
_CODES: Final[tuple[str, ...]] = tuple(f"{_COLOUR_CODES[p // 3]}{p % 3 + 1}" for p in PYRAMIDS)
_BY_CODE: Final[dict[str, Pyramid]] = {_CODES[p]: p for p in PYRAMIDS}
