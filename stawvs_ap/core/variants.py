"""Variant ids, which of them go together, the rules they make, and where the gaps go.

>>> rules_for(3, check_variants(["pieces-2", "hey"]))
Rules(numplayers=3, caps_per_player=2, hey=True, finalfree=False)
>>> [square.name for square in expected_gaps(["hole"])], expected_gaps(["random"])
(['d5', 'e5', 'd4', 'e4'], None)
>>> check_variants(["hole", "random"])
Traceback (most recent call last):
...
stawvs_ap.errors.StawvsError: variants 'hole' and 'random' cannot be combined
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from ..errors import ErrorCode, StawvsError, excerpt
from .squares import SQUARE_OF_NAME, SQUARES, Square

__all__ = [
    "CENTRE",
    "CORNERS",
    "SETUP_VARIANTS",
    "VARIANTS",
    "Rules",
    "check_variants",
    "empty_squares",
    "expected_gaps",
    "rules_for",
]

#: Every variant id, in the order the metadata lists them.
VARIANTS: Final[tuple[str, ...]] = ("hole", "random", "hey", "finalfree", "pieces-2")
#: Variants choosing where the four gaps go; at most one may be on.
SETUP_VARIANTS: Final[tuple[str, ...]] = ("hole", "random")
CORNERS: Final[tuple[Square, ...]] = tuple(SQUARE_OF_NAME[n] for n in ("a8", "h8", "a1", "h1"))
CENTRE: Final[tuple[Square, ...]] = tuple(SQUARE_OF_NAME[n] for n in ("d5", "e5", "d4", "e4"))


@dataclass(frozen=True, slots=True)
class Rules:
    """What the player count and variants change: caps each, claims, final captures."""

    numplayers: int
    caps_per_player: int = 3
    hey: bool = False
    finalfree: bool = False
    #: Caps on the board once every player has placed theirs.
    total_caps: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total_caps", self.numplayers * self.caps_per_player)


def check_variants(variants: Iterable[object]) -> list[str]:
    """Return the variants as a list of ids, or raise ``BAD_VARIANT`` naming the problem."""
    out: list[str] = []
    for variant in variants:
        if not isinstance(variant, str):
            raise StawvsError(
                ErrorCode.BAD_VARIANT, f"a variant must be a string, not {excerpt(variant)}"
            )
        if variant not in VARIANTS:
            known = ", ".join(VARIANTS)
            raise StawvsError(
                ErrorCode.BAD_VARIANT, f"unknown variant {excerpt(variant)} (known: {known})"
            )
        if variant in out:
            raise StawvsError(ErrorCode.BAD_VARIANT, f"variant {excerpt(variant)} is given twice")
        out.append(variant)
    setups = [v for v in out if v in SETUP_VARIANTS]
    if len(setups) > 1:
        raise StawvsError(
            ErrorCode.BAD_VARIANT,
            f"variants {excerpt(setups[0])} and {excerpt(setups[1])} cannot be combined",
        )
    return out


def rules_for(numplayers: int, variants: Sequence[str]) -> Rules:
    """The rules a player count and (checked) variant list give."""
    return Rules(
        numplayers=numplayers,
        caps_per_player=2 if "pieces-2" in variants else 3,
        hey="hey" in variants,
        finalfree="finalfree" in variants,
    )


def empty_squares(variants: Sequence[str], rng: random.Random) -> list[Square]:
    """The four squares a new game leaves without a pyramid, in reading order."""
    fixed = expected_gaps(variants)
    chosen = fixed if fixed is not None else [SQUARES[sq] for sq in rng.sample(range(64), 4)]
    return sorted(chosen)


def expected_gaps(variants: Sequence[str]) -> list[Square] | None:
    """The four empty squares every start of these variants has, in reading order;
    None with ``random``, where any four squares may be empty."""
    if "random" in variants:
        return None
    return sorted(CENTRE if "hole" in variants else CORNERS)
