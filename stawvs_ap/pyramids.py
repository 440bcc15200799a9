"""Pyramid kinds: four colours × three sizes, plus the grey ghosts left by final captures.

A pyramid is a small int: ``colour * 3 + size - 1`` (0–11) for the coloured
ones, ``12 + size - 1`` for ghosts. The helpers below give its parts and names.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "GHOST",
    "KINDS",
    "PER_KIND",
    "SIZE_NAMES",
    "TOTAL",
    "colour_of",
    "describe",
    "ghost_of",
    "is_ghost",
    "make",
    "parse",
    "pyramid_code",
    "size_of",
]

#: Colour codes in palette order (the render's colours 8, 9, 10, 11).
COLOURS: Final[tuple[str, ...]] = ("PI", "BL", "GR", "OR")
COLOUR_NAMES: Final[tuple[str, ...]] = ("pink", "blue", "green", "orange")
SIZE_NAMES: Final[dict[int, str]] = {1: "small", 2: "medium", 3: "large"}
GHOST: Final = "GH"
PER_KIND: Final = 5
#: The 12 coloured kinds, in colour then size order.
KINDS: Final[tuple[int, ...]] = tuple(range(12))
TOTAL: Final = PER_KIND * len(KINDS)
_GHOST_BASE: Final = 12


def make(colour: int, size: int) -> int:
    """The pyramid of colour index ``colour`` (0–3) and ``size`` (1–3)."""
    return colour * 3 + size - 1


def ghost_of(pyramid: int) -> int:
    """The ghost of the same size as ``pyramid``."""
    return _GHOST_BASE + size_of(pyramid) - 1


def is_ghost(pyramid: int) -> bool:
    return pyramid >= _GHOST_BASE


def size_of(pyramid: int) -> int:
    return pyramid % 3 + 1


def colour_of(pyramid: int) -> int:
    """Colour index 0–3; 4 for a ghost."""
    return pyramid // 3


def _code(pyramid: int) -> str:
    colour = GHOST if is_ghost(pyramid) else COLOURS[colour_of(pyramid)]
    return f"{colour}{size_of(pyramid)}"


def _phrase(pyramid: int) -> str:
    colour = "grey" if is_ghost(pyramid) else COLOUR_NAMES[colour_of(pyramid)]
    return f"a {SIZE_NAMES[size_of(pyramid)]} {colour} pyramid"


# Renders and results name pyramids all the time: build the 15 names once.
_CODES: Final[tuple[str, ...]] = tuple(_code(p) for p in range(_GHOST_BASE + 3))
_PHRASES: Final[tuple[str, ...]] = tuple(_phrase(p) for p in range(_GHOST_BASE + 3))


def pyramid_code(pyramid: int) -> str:
    """The render key of a pyramid, such as ``"PI1"`` or ``"GH3"``."""
    return _CODES[pyramid]


def describe(pyramid: int) -> str:
    """A phrase for players: ``"a large blue pyramid"``."""
    return _PHRASES[pyramid]


def parse(colour: str, size: int, *, allow_ghost: bool = False) -> int:
    """The pyramid for a colour code and size; ``ValueError`` if there is none."""
    if type(size) is not int or not 1 <= size <= 3:
        raise ValueError(f"pyramid size must be 1, 2 or 3, not {size!r}")
    if colour == GHOST and allow_ghost:
        return _GHOST_BASE + size - 1
    if colour not in COLOURS:
        raise ValueError(f"unknown pyramid colour {colour!r}")
    return make(COLOURS.index(colour), size)
