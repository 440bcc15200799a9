"""Variant ids, which of them go together, and the starting boards they make."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from .board import SQUARES
from .position import EMPTY, Position, Rules
from .pyramids import KINDS, PER_KIND

__all__ = [
    "SETUP_VARIANTS",
    "VARIANTS",
    "check_variants",
    "empty_squares",
    "rules_for",
    "starting_position",
]

#: Every variant id, in the order the metadata lists them.
VARIANTS: Final[tuple[str, ...]] = ("hole", "random", "hey", "finalfree", "pieces-2")
#: Variants choosing where the four gaps go; at most one may be on.
SETUP_VARIANTS: Final[tuple[str, ...]] = ("hole", "random")
CORNERS: Final[tuple[str, ...]] = ("a8", "h8", "a1", "h1")
CENTRE: Final[tuple[str, ...]] = ("d5", "e5", "d4", "e4")


def check_variants(variants: Iterable[object]) -> list[str]:
    """Return the variants as a list of ids, or raise ``ValueError`` naming the problem."""
    out: list[str] = []
    for variant in variants:
        if not isinstance(variant, str):
            raise ValueError(f"a variant must be a string, not {variant!r}")
        if variant not in VARIANTS:
            known = ", ".join(VARIANTS)
            raise ValueError(f"unknown variant {variant!r} (known: {known})")
        if variant in out:
            raise ValueError(f"variant {variant!r} is given twice")
        out.append(variant)
    setups = [v for v in out if v in SETUP_VARIANTS]
    if len(setups) > 1:
        raise ValueError(f"variants {setups[0]!r} and {setups[1]!r} cannot be combined")
    return out


def rules_for(numplayers: int, variants: Sequence[str]) -> Rules:
    """The rules a player count and (checked) variant list give."""
    return Rules(
        numplayers=numplayers,
        caps_per_player=2 if "pieces-2" in variants else 3,
        hey="hey" in variants,
        finalfree="finalfree" in variants,
    )


def empty_squares(variants: Sequence[str], rng: random.Random) -> list[int]:
    """The four squares left without a pyramid, in reading order."""
    if "hole" in variants:
        chosen = [SQUARES[name] for name in CENTRE]
    elif "random" in variants:
        chosen = rng.sample(range(64), 4)
    else:
        chosen = [SQUARES[name] for name in CORNERS]
    return sorted(chosen)


def starting_position(
    numplayers: int, variants: Sequence[str], seed: int | str | None = None
) -> Position:
    """A new game's position: 60 shuffled pyramids, four gaps, no caps.

    The same ``seed`` and variants always give the same board; ``None`` draws a
    fresh one.
    """
    rng = random.Random(seed)
    gaps = set(empty_squares(variants, rng))
    bag = [kind for kind in KINDS for _ in range(PER_KIND)]
    rng.shuffle(bag)
    pile = iter(bag)
    board = [EMPTY if sq in gaps else next(pile) for sq in range(64)]
    return Position(rules_for(numplayers, variants), board, [0] * 64)
